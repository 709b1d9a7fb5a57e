"""Data flows one way: the engine never imports viz; viz sees only the public API and trace."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _imports(path: pathlib.Path):
    """Every module name imported by a file (absolute names; relative ones resolved)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            yield mod
            for alias in node.names:
                yield f"{mod}.{alias.name}"


def test_minigrad_never_imports_viz():
    offenders = [
        (str(p.relative_to(ROOT)), name)
        for p in (ROOT / "minigrad").rglob("*.py")
        for name in _imports(p)
        if name == "viz" or name.startswith("viz.")
    ]
    assert offenders == []


def test_viz_uses_only_public_minigrad_and_trace():
    allowed = ("minigrad", "minigrad.trace")
    offenders = []
    for p in (ROOT / "viz").rglob("*.py"):
        for name in _imports(p):
            if not name.startswith("minigrad"):
                continue
            parts = name.split(".")
            private = any(part.startswith("_") for part in parts)
            if private or (
                len(parts) > 1 and ".".join(parts[:2]) not in allowed and not _is_public_attr(parts)
            ):
                offenders.append((str(p.relative_to(ROOT)), name))
    assert offenders == []


def _is_public_attr(parts):
    """``from minigrad import X`` shows up as ``minigrad.X``: fine when X is public."""
    import minigrad

    return len(parts) == 2 and hasattr(minigrad, parts[1]) and not parts[1].startswith("_")


def test_import_minigrad_stays_light():
    import subprocess
    import sys

    code = (
        "import sys, minigrad; heavy = [m for m in ('matplotlib', 'graphviz', 'ipywidgets', "
        "'viz', 'torch') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
