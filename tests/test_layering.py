"""Data flows one way: the engine never imports viz; viz sees only the public API and trace;
inside minigrad, modules import bottom to top (``LAYERS``), at the top of the file."""

import ast
import io
import pathlib
import tokenize

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
    # scipy.sparse costs ~160 ms to import (numpy loaded): minigrad imports it inside the
    # functions that hand arrays to scipy (sparse products, to_scipy / from_scipy) only
    import subprocess
    import sys

    code = (
        "import sys, minigrad; heavy = [m for m in ('matplotlib', 'graphviz', 'ipywidgets', "
        "'viz', 'torch', 'scipy') if m in sys.modules]; print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# --- layers inside minigrad ------------------------------------------------------------------
# Bottom to top. A module may import (at its top) from its own layer, without cycles, or from
# a lower one. "pkg.*" is the package and everything in it; other names are single modules.
LAYERS = (
    (
        "base",
        (
            "errors.*",
            "_device",
            "_dtype",
            "_format",
            "_malloc",
            "_traced",
            "_aliases",
            "_size",
            "_return_types",
            "_memory_format",
            "_ranges",
        ),
    ),
    ("formats", ("formats.*",)),
    ("tensor", ("tensor", "random", "factory", "_array_names")),
    ("recording", ("recording.*",)),
    ("ops", ("ops.*",)),
    ("sparse", ("sparse.*",)),
    ("accumulation", ("accumulation.*",)),
    ("replaying", ("replaying.*",)),
    (
        "tensor methods",
        (
            "_tensor_inplace_methods",
            "_sparse_tensor_methods",
            "_sampling",
            "_tensor_method_table",
            "_tensor_methods",
            "_out",
            "_legacy",
        ),
    ),
    (
        "user-facing",
        (
            "autograd.*",
            "trace",
            "linalg",
            "distributed.*",
            "distributions.*",
            "nn.*",
            "optim.*",
            "func.*",
            "amp.*",
            "utils.*",
            "cuda",
            "accelerator",
            "backends",
            "tape.*",
            "serialization",
            "special",
            "testing",
        ),
    ),
    ("package", ("",)),
)


def _module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted((ROOT / "minigrad").rglob("*.py"))}


def _layer(module: str) -> tuple[int, str] | None:
    """(number, name) of a module's layer; 1 is the bottom."""
    rel = module.removeprefix("minigrad").removeprefix(".")
    for number, (name, entries) in enumerate(LAYERS, start=1):
        for entry in entries:
            pkg = entry.removesuffix(".*")
            if rel == pkg or (entry.endswith(".*") and rel.startswith(pkg + ".")):
                return number, name
    return None


def _walk(tree) -> list:
    """Every import statement, in source order, with whether it sits in a function body."""
    found, stack = [], [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child, in_function))
            nested = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            stack.append((child, in_function or nested))
    return sorted(found, key=lambda pair: pair[0].lineno)


def _targets(node, module: str) -> list[str]:
    """The minigrad modules an import statement imports. ``from pkg import name`` imports the
    submodule ``pkg.name`` when there is one, else the module ``pkg`` itself. (Python also runs
    the parents' ``__init__`` first; those implicit imports are not counted.)"""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:  # relative: level 1 is the package the module is in (or is)
            parts = module.split(".")
            keep = len(parts) - node.level + (MODULES[module].name == "__init__.py")
            base = ".".join(parts[:keep] + ([node.module] if node.module else []))
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
    return [n for n in dict.fromkeys(names) if n == "minigrad" or n.startswith("minigrad.")]


def _top_level_graph() -> dict:
    """module -> {imported module: (line, statement) of its first import}, top-level only."""
    graph = {}
    for module, path in MODULES.items():
        edges = graph.setdefault(module, {})
        for node, in_function in _walk(ast.parse(path.read_text(), filename=str(path))):
            if not in_function:
                for target in _targets(node, module):
                    edges.setdefault(target, (node.lineno, ast.unparse(node)))
    return graph


def test_every_minigrad_module_has_a_layer():
    missing = [m for m in MODULES if _layer(m) is None]
    assert not missing, f"modules without a layer (add them to LAYERS): {missing}"


def test_minigrad_imports_only_from_its_own_layer_or_below():
    offenders = []
    for module, edges in _top_level_graph().items():
        here = _layer(module)
        for target, (line, statement) in sorted(edges.items()):
            there = _layer(target)
            if here and there and there[0] > here[0]:
                rel = MODULES[module].relative_to(ROOT)
                offenders.append(
                    f"{rel}:{line} `{statement}` imports {target} (layer {there[0]}, "
                    f"{there[1]}) from layer {here[0]} ({here[1]})"
                )
    assert not offenders, "imports that go up a layer:\n" + "\n".join(offenders)


def _find_cycle(graph: dict) -> list | None:
    """One import cycle as [a, b, ..., a], or None (iterative depth-first search)."""
    done, on_path = set(), {}
    for start in sorted(graph):
        if start in done:
            continue
        path, stack = [], [(start, iter(sorted(graph.get(start, ()))))]
        on_path[start] = 0
        path.append(start)
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                path.pop()
                del on_path[node]
                done.add(node)
            elif child in on_path:
                return path[on_path[child] :] + [child]
            elif child not in done and child in graph:
                on_path[child] = len(path)
                path.append(child)
                stack.append((child, iter(sorted(graph[child]))))
    return None


def test_find_cycle_reports_the_cycle():
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_top_level_imports_of_minigrad_have_no_cycle():
    cycle = _find_cycle(_top_level_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def _comment_lines(source: str) -> set:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.start[0] for t in tokens if t.type == tokenize.COMMENT}


def test_every_import_in_a_function_body_says_why():
    offenders = []
    for path in MODULES.values():
        source = path.read_text()
        comments = _comment_lines(source)
        for node, in_function in _walk(ast.parse(source, filename=str(path))):
            lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            if in_function and not comments.intersection(lines):
                line = source.splitlines()[node.lineno - 1].strip()
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {line}")
    assert not offenders, (
        "imports in function bodies without a comment saying why (move them to the top, or"
        " say why not on the import line):\n" + "\n".join(offenders)
    )


# --- the same rule, drawn as folders ----------------------------------------------------------
# A folder of minigrad (``formats/``, ``recording/``, ``ops/`` ...) is one node; a module at the
# top of the package (``tensor.py``, ``_tensor_methods.py`` ...) is a node of its own. The guide's
# folder table (tools/engine_guide.py) is printed from this graph.


def folder_of(module: str) -> str:
    """``minigrad.recording.node`` -> ``recording/``; ``minigrad.tensor`` -> ``tensor.py``."""
    parts = module.split(".")
    if len(parts) == 1:
        return "minigrad"
    if (ROOT / "minigrad" / parts[1]).is_dir():
        return parts[1] + "/"
    return parts[1] + ".py"


def folder_layer(folder: str) -> int:
    """The layer number of a folder: the highest of its modules' (they should all agree)."""
    return max(_layer(m)[0] for m in MODULES if folder_of(m) == folder)


def folder_graph() -> dict:
    """folder -> {folder it imports from at the top of a module: one example import}."""
    graph = {}
    for module, edges in _top_level_graph().items():
        here = graph.setdefault(folder_of(module), {})
        for target, (line, statement) in edges.items():
            there = folder_of(target)
            if there != folder_of(module):
                rel = MODULES[module].relative_to(ROOT)
                here.setdefault(there, f"{rel}:{line} `{statement}`")
    return graph


def test_each_folder_sits_in_one_layer():
    spread = {}
    for module in MODULES:
        spread.setdefault(folder_of(module), set()).add(_layer(module))
    assert {f: s for f, s in spread.items() if len(s) > 1} == {}


def up_arrows(graph: dict, layer_of) -> list[str]:
    """The edges of a folder graph that run from a folder to one in a higher layer."""
    return [
        f"{a} (layer {layer_of(a)}) -> {b} (layer {layer_of(b)}): {example}"
        for a, edges in sorted(graph.items())
        for b, example in sorted(edges.items())
        if layer_of(b) > layer_of(a)
    ]


def test_no_folder_imports_from_a_folder_above_it():
    up = up_arrows(folder_graph(), folder_layer)
    assert not up, "folder arrows that run up:\n" + "\n".join(up)


def test_an_arrow_up_is_seen():
    layers = {"formats/": 2, "sparse/": 6}
    assert up_arrows({"sparse/": {"formats/": "x"}}, layers.get) == []
    assert up_arrows({"formats/": {"sparse/": "y"}}, layers.get) == [
        "formats/ (layer 2) -> sparse/ (layer 6): y"
    ]


def test_the_folder_graph_has_the_engine_above_what_it_calls():
    graph = folder_graph()
    assert {"recording/", "accumulation/"} <= set(graph["replaying/"])
    assert "formats/" in graph["sparse/"] and "sparse/" not in graph["formats/"]
