"""The generated parts of docs/reading-the-engine.md, so they cannot drift from the code.

Three blocks, each between ``<!-- name -->`` and ``<!-- /name -->`` in the guide:

* ``core-files``: the files of the core (``CORE``, in reading order) with their line counts,
  all lines and code lines (neither blank, nor comment, nor docstring);
* ``skip-files``: the other files a dense backward pass reaches (``reached_by_backward``
  finds them by running one under a profiler) and why a student can skip them (``SKIP``);
* ``layers``: the layer table, printed from ``tests/test_layering.py``'s ``LAYERS``;
* ``folders``: the package folder by folder, bottom to top, each with what it holds
  (``FOLDERS``) and the folders and top-level files it imports from, printed from the
  folder graph of ``tests/test_layering.py`` (which checks that no arrow runs up).

Usage: ``python -m tools.engine_guide`` rewrites the blocks in the guide; ``--check`` only
says which are out of date (exit 1). ``tests/test_docs.py`` runs the check, so a file moved or
grown updates the guide through this tool, never by hand. The README's "about N lines in 9
files" is checked against ``core_total()`` (``tests/test_readme.py``).
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.util
import io
import re
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "reading-the-engine.md"

# The core: what a student reads to understand reverse mode on dense tensors, in reading order.
CORE = {
    "minigrad/tensor.py": "`Tensor`: its array, `grad`, `grad_fn`, version counter, hooks",
    "minigrad/recording/grad_mode.py": "`no_grad`, `enable_grad`: whether ops record",
    "minigrad/recording/node.py": "`Node`: `next_functions`, saved tensors, `AccumulateGrad`",
    "minigrad/recording/node_checks.py": "what runs around a node's backward: hooks, checks",
    "minigrad/recording/function.py": "`Op.apply` records an op; `Function` is yours",
    "minigrad/recording/steps.py": "the `Step` records a backward pass hands out",
    "minigrad/replaying/engine.py": "`schedule` and `BackwardPass._walk`: backward itself",
    "minigrad/replaying/leaf_grad.py": "adding a gradient into `.grad`",
    "minigrad/replaying/api.py": "`backward()` and `grad()`, the public doors",
}

# Files a dense backward pass also runs, not in the core (a pattern may cover several), and
# why a student can skip them. tests/test_docs.py checks that this covers every such file and
# that each entry still covers one.
SKIP = {
    "minigrad/ops/*.py": "the ops themselves; each backward formula is a few lines of "
    "differentiable ops. Read one (`Tanh`, step 4 below) and the rest have the same shape",
    "minigrad/_tensor_methods.py": "the operator methods (`x + y` is one line into `ops/`), "
    "installed on `Tensor`",
    "minigrad/_traced.py": "traced arrays for `make_jaxpr` and `jit`; a tensor asks it "
    "whether its array is a traced one",
    "minigrad/_size.py": "`minigrad.Size`, the type of `Tensor.shape`: a tuple printed as "
    "PyTorch prints `torch.Size`",
    "minigrad/accumulation/accumulate.py": "the sum of two gradients when one is sparse (step 7 "
    "below); two dense gradients are one `+` there",
}


# What each folder of minigrad/ holds (the folder table prints these in layer order; every
# folder needs one, tests/test_docs.py checks it). Files at the top of the package are
# listed by name, grouped by layer.
FOLDERS = {
    "errors/": "every message minigrad raises",
    "formats/": "COO, CSR, CSC: plain containers of numpy arrays, no autograd",
    "recording/": "what a forward pass leaves for backward: `Node`, `Op.apply` and "
    "`Function`, grad modes, saved tensors and their hooks, the per-op modes (forward AD, "
    "autocast, tracing, the tape)",
    "ops/": "one class per op: forward (numpy), backward (Tensors), jvp rule",
    "sparse/": "`SparseTensor` and the sparse ops, the densification policy's settings "
    "(`config`), `memory_report`",
    "accumulation/": "the sum of two gradients of one tensor (`add_gradients`): the one "
    "place sparse meets dense, and the policy's decision",
    "replaying/": "backward itself (`engine`, `leaf_grad`, `api`) and what is built on it: "
    "`gradcheck`, forward AD's dual tensors, `autograd.functional`",
    "autograd/": "PyTorch's `torch.autograd` paths, naming the modules of `recording/` "
    "and `replaying/`",
    "nn/": "`torch.nn`: modules, layers, losses, `functional`",
    "optim/": "`torch.optim`: optimizers and learning-rate schedules",
    "func/": "`torch.func` and JAX's transforms: `grad`, `vmap`, `jvp`, `make_jaxpr`, `jit`",
    "amp/": "`autocast` and `GradScaler`",
    "utils/": "`torch.utils`: `checkpoint`, `data`, `benchmark`",
    "tape/": "TensorFlow's `GradientTape` and `custom_gradient`, on the engine",
    "distributed/": "`torch.distributed` collectives on MPI, for data-parallel training",
    "distributions/": "`torch.distributions`: `Normal`, `Categorical`, ... with PyTorch's "
    "samples, `log_prob`, `kl_divergence`",
}


def _example():
    """Build a small dense loss whose backward runs the common paths (broadcast, fan-out)."""
    import minigrad as mg

    x = mg.tensor([[0.5, -1.0], [2.0, 3.0]], requires_grad=True)
    w = mg.tensor([[1.0, 2.0], [0.1, 0.2]], requires_grad=True)
    b = mg.tensor([0.3, -0.3], requires_grad=True)
    h = (x @ w + b).tanh()
    return (h**2).mean() + (h * x).sum()


def reached_by_backward() -> list[str]:
    """Paths (relative to the repository) of the minigrad files whose code runs in backward."""
    import minigrad

    package = Path(minigrad.__file__).resolve().parent
    loss, seen = _example(), set()

    def profile(frame, event, arg):
        if event == "call":
            seen.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        loss.backward()
    finally:
        sys.setprofile(None)
    files = (Path(f).resolve() for f in seen if f.endswith(".py"))
    return sorted(str(f.relative_to(ROOT)) for f in files if f.is_relative_to(package))


def count_lines(path: Path) -> tuple[int, int]:
    """(all lines, code lines): code lines hold a token that is neither comment nor docstring."""
    source = path.read_text(encoding="utf-8")
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                if isinstance(first.value.value, str):
                    docstrings.update(range(first.lineno, first.end_lineno + 1))
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT}
    code = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type not in skip and tok.type != tokenize.ENDMARKER:
            code.update(n for n in range(tok.start[0], tok.end[0] + 1) if n not in docstrings)
    return len(source.splitlines()), len(code)


def core_total() -> tuple[int, int]:
    """All lines and code lines of the core files together."""
    counts = [count_lines(ROOT / p) for p in CORE]
    return sum(c[0] for c in counts), sum(c[1] for c in counts)


def core_files() -> str:
    rows = ["| file | what it holds | lines | code |", "|---|---|---:|---:|"]
    for path, role in CORE.items():
        lines, code = count_lines(ROOT / path)
        rows.append(f"| `{path}` | {role} | {lines:,} | {code:,} |")
    lines, code = core_total()
    rows.append(f"| {len(CORE)} files | | **{lines:,}** | **{code:,}** |")
    return "\n".join(rows)


def skip_files() -> str:
    return "\n".join(f"- `{pattern}`: {why}." for pattern, why in SKIP.items())


def layers() -> tuple:
    """``LAYERS`` of tests/test_layering.py, bottom first."""
    return _layering().LAYERS


def layer_table() -> str:
    core = {p.removeprefix("minigrad/").removesuffix(".py").replace("/", ".") for p in CORE}
    rows = ["| layer | name | modules of `minigrad` (core in bold) |", "|---:|---|---|"]
    for number, (name, entries) in enumerate(layers(), start=1):
        shown = []
        for e in entries:
            inside = sorted(c.removeprefix(e[:-1]) for c in core if c.startswith(e[:-1]))
            if e.endswith(".*") and inside:  # a folder: name its core files
                e_core = ", ".join(f"**`{c}`**" for c in inside)
                shown.append(f"`{e}` (core: {e_core})")
            else:
                shown.append(f"**`{e}`**" if e in core else f"`{e}`" if e else "`minigrad` itself")
        rows.append(f"| {number} | {name} | {', '.join(shown)} |")
    return "\n".join(rows)


def _layering():
    spec = importlib.util.spec_from_file_location("_layering", ROOT / "tests" / "test_layering.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def folder_table() -> str:
    """The package bottom to top: each folder (and each layer's top-level files) with what it
    holds and what it imports from at the top of its modules (all of it lower down)."""
    layering = _layering()
    graph = layering.folder_graph()
    rows = ["| layer | folder | what it holds | imports from |", "|---:|---|---|---|"]
    for number, (name, _) in enumerate(layering.LAYERS, start=1):
        nodes = [f for f in graph if layering.folder_layer(f) == number]
        folders = sorted((f for f in nodes if f.endswith("/")), key=list(FOLDERS).index)
        files = sorted(f for f in nodes if f.endswith(".py"))
        groups = [([f], FOLDERS[f]) for f in folders]
        if files:
            groups.append((files, f"the {name} layer's files at the top of `minigrad/`"))
        for members, what in groups:
            used = sorted({t for m in members for t in graph[m]} - set(members))
            used.sort(key=layering.folder_layer)
            shown = ", ".join(f"`{m}`" for m in members)
            arrows = ", ".join(f"`{t}`" for t in used) or "nothing of minigrad"
            rows.append(f"| {number} | {shown} | {what} | {arrows} |")
    return "\n".join(rows)


BLOCKS = {
    "core-files": core_files,
    "skip-files": skip_files,
    "layers": layer_table,
    "folders": folder_table,
}


def _block(name: str) -> re.Pattern:
    return re.compile(rf"<!-- {name} -->\n(.*?)\n?<!-- /{name} -->", re.S)


def _render(name: str) -> str:
    return f"<!-- {name} -->\n{BLOCKS[name]()}\n<!-- /{name} -->"


def stale(text: str) -> list[str]:
    """Names of the blocks of ``text`` that differ from what the tool generates (or are missing)."""
    out = []
    for name, make in BLOCKS.items():
        match = _block(name).search(text)
        if match is None or match.group(1) != make():
            out.append(name)
    return out


def update(text: str) -> str:
    for name in BLOCKS:
        text = _block(name).sub(lambda m, name=name: _render(name), text)
    return text


def main(argv: list[str]) -> int:
    text = GUIDE.read_text(encoding="utf-8")
    if "--check" in argv:
        names = stale(text)
        for name in names:
            print(f"{GUIDE.relative_to(ROOT)}: block {name!r} is out of date")
        return 1 if names else 0
    GUIDE.write_text(update(text), encoding="utf-8")
    return 0


def uncovered_and_unused() -> tuple[list[str], list[str]]:
    """Files backward reaches that are neither core nor in ``SKIP``; ``SKIP`` entries that
    cover no such file."""
    reached = [f for f in reached_by_backward() if f not in CORE]
    uncovered = [f for f in reached if not any(fnmatch.fnmatch(f, p) for p in SKIP)]
    unused = [p for p in SKIP if not any(fnmatch.fnmatch(f, p) for f in reached)]
    return uncovered, unused


if __name__ == "__main__":
    if __package__ in (None, ""):
        sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
