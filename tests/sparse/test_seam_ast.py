"""The guide's sentence, checked: a sparse gradient becomes dense in one place. ``densify(`` is
called only in ``minigrad/accumulation/accumulate.py`` (docs/reading-the-engine.md, step 7)."""

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("minigrad", "viz", "minigrad_course", "tools", "benchmarks")
THE_PLACE = "minigrad/accumulation/accumulate.py"


def _calls_to(name: str, path: pathlib.Path) -> list[int]:
    """Lines where ``path`` calls a function named ``name`` (``name(...)`` or ``x.name(...)``)."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Call):
            f = node.func
            called = (
                f.id
                if isinstance(f, ast.Name)
                else f.attr
                if isinstance(f, ast.Attribute)
                else None
            )
            if called == name:
                lines.append(node.lineno)
    return lines


def _callers(name: str) -> dict:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = _calls_to(name, path)
            if lines:
                found[path.relative_to(ROOT).as_posix()] = lines
    return found


def test_densify_is_called_only_where_sparse_meets_dense():
    callers = _callers("densify")
    assert set(callers) == {THE_PLACE}, f"densify() called outside {THE_PLACE}: {callers}"


def test_densify_is_defined_there_and_nowhere_else():
    defined = [
        path.relative_to(ROOT).as_posix()
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.FunctionDef) and node.name == "densify"
    ]
    assert defined == [THE_PLACE]


def test_the_check_sees_a_call_when_there_is_one(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("from x import densify\n\ndef f(g):\n    return acc.densify(g) + densify(g)\n")
    assert _calls_to("densify", probe) == [4, 4]
