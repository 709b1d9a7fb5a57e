"""Every course notebook follows COURSE_CONVENTIONS.md (issue 14), checked on the saved file.

``problems(path)`` lists what breaks a convention: the first cell's shape, the set-up cell, the
exercises (2-4, each the exact cell sequence heading / ``exercise`` / ``solution`` collapsed /
``check`` printing one ``Correct: `` line), a "Predict, then run" prompt, the closing cell, the
public API only, no ``interact``, executed top to bottom with outputs, a still picture on every
stepper output, and the file name. The fixture tests below break each rule once on a notebook
that passes, so no check is one that cannot fail.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import nbformat
import pytest

from tools.course import COURSE, NOTEBOOKS, notebooks

TITLE = re.compile(r"^# (\d\d) · \S")
SEEDS = ("mg.manual_seed(0)", "rng = np.random.default_rng(0)")
EXERCISE = re.compile(r"^### Exercise (\d+): \S")
PRIVATE = re.compile(
    r"\b(?:mg|minigrad|viz)(?:\.[A-Za-z]\w*)*\._(?!_\w+__\b)\w"  # mg._x, viz._x; not mg.__file__
    r"|(?<!self)\._data\b"  # the Tensor's numpy array (a class of your own may have one)
    r"|\bfrom\s+(?:minigrad|viz)(?:\.\w+)*\s+import\s+(?:\(\s*)?_\w"  # from minigrad import _x
)
INTERACT = re.compile(r"\binteract(?:_manual|ive)?\b")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
ROLES = ("exercise", "solution", "check")


def _tags(cell) -> list:
    return list(cell.get("metadata", {}).get("tags", []))


def _role(cell) -> str | None:
    found = [t for t in _tags(cell) if t in ROLES]
    return found[0] if found else None


def _first_cell(nb, name: str) -> list:
    cells = nb.cells
    if not cells or cells[0].cell_type != "markdown":
        return ["first cell: not a markdown cell"]
    text, out = cells[0].source, []
    m = TITLE.match(text)
    if m is None:
        out.append("first cell: the title is not `# NN · Title`")
    elif m.group(1) != name[:2]:
        out.append(f"first cell: the title's number {m.group(1)} is not the file's {name[:2]}")
    for needle in ("**Time:**", "**Assumes:**", "**Under `import torch`:**", "## Learning goals"):
        if needle not in text:
            out.append(f"first cell: no {needle}")
    goals = text.split("## Learning goals", 1)[-1]
    bullets = [line for line in goals.splitlines() if line.startswith("- ")]
    if "## Learning goals" in text and not 3 <= len(bullets) <= 6:
        out.append(f"first cell: {len(bullets)} learning goals (3-6 bullets)")
    return out


def _setup_cell(nb) -> list:
    if len(nb.cells) < 2 or nb.cells[1].cell_type != "code":
        return ["set-up cell: the second cell is not a code cell"]
    lines = [line.strip() for line in nb.cells[1].source.splitlines()]
    out = [f"set-up cell: no `{seed}`" for seed in SEEDS if seed not in lines]
    for line in lines:
        if line and not line.startswith(("#", "import ", "from ")) and line not in SEEDS:
            out.append(f"set-up cell: not an import or a seed: `{line}`")
    return out


def _check_cell(cell, k: int) -> list:
    out = []
    if not cell.source.startswith("# NBVAL_CHECK_OUTPUT\n"):
        out.append(f"exercise {k}: the check cell's first line is not `# NBVAL_CHECK_OUTPUT`")
    streams = [o for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
    others = [o for o in cell.get("outputs", []) if o.get("output_type") != "stream"]
    text = "".join(o.get("text", "") for o in streams)
    if others or text.count("\n") != 1 or not text.endswith("\n"):
        out.append(f"exercise {k}: the check cell's stored output is not exactly one line")
    elif not text.startswith("Correct: "):
        out.append(f"exercise {k}: the check cell's stored output does not start `Correct: `")
    return out


def _one_exercise(cells, i: int, k: int) -> tuple:
    """Check the exercise whose heading is ``cells[i]``; return (problems, index after it)."""
    out, j = [], i + 1
    for role in ("exercise", "solution"):
        cell = cells[j] if j < len(cells) else None
        if cell is None or cell.cell_type != "code" or _role(cell) != role:
            return out + [f"exercise {k}: cell {j} is not the code cell tagged `{role}`"], j
        j += 1
    if "..." not in cells[i + 1].source:
        out.append(f"exercise {k}: the exercise cell has no `...` placeholder")
    if cells[i + 2].get("metadata", {}).get("jupyter", {}).get("source_hidden") is not True:
        out.append(f"exercise {k}: the solution cell is not collapsed (jupyter.source_hidden)")
    while j < len(cells) and cells[j].cell_type == "code" and _role(cells[j]) is None:
        j += 1  # a predict-then-run exercise's experiment
    if j >= len(cells) or cells[j].cell_type != "code" or _role(cells[j]) != "check":
        return out + [f"exercise {k}: cell {j} is not the code cell tagged `check`"], j
    return out + _check_cell(cells[j], k), j + 1


def _exercises(nb) -> list:
    cells, out = nb.cells, []
    heads = [
        i for i, c in enumerate(cells) if c.cell_type == "markdown" and EXERCISE.match(c.source)
    ]
    numbers = [int(EXERCISE.match(cells[i].source).group(1)) for i in heads]
    if not 2 <= len(heads) <= 4:
        out.append(f"exercises: {len(heads)} (two to four)")
    if numbers != list(range(1, len(numbers) + 1)):
        out.append(f"exercises: numbered {numbers}, not 1..{len(numbers)}")
    seen = set()
    for k, i in zip(numbers, heads):
        found, end = _one_exercise(cells, i, k)
        out += found
        seen.update(range(i, end))
    for j, cell in enumerate(cells):
        if _role(cell) and j not in seen:
            out.append(f"cell {j}: tagged `{_role(cell)}` outside an exercise's sequence")
    if not any("**Predict, then run.**" in cells[i].source for i in heads):
        out.append("exercises: none is a **Predict, then run.** prompt")
    return out


def _last_cell(nb) -> list:
    last = nb.cells[-1] if nb.cells else None
    if last is None or last.cell_type != "markdown":
        return ["last cell: not a markdown cell"]
    needed = ("## What to remember", "### In PyTorch, TensorFlow and JAX")
    return [f"last cell: no `{n}`" for n in needed if n not in last.source]


def _code(nb) -> list:
    out = []
    for j, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        for m in PRIVATE.finditer(cell.source):
            out.append(f"cell {j}: private API `{m.group(0)}`")
        if INTERACT.search(cell.source):
            out.append(f"cell {j}: uses ipywidgets' interact (a kernel-bound widget)")
    return out


def _executed(nb) -> list:
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.get("execution_count") for c in code]
    out = []
    if counts != list(range(1, len(code) + 1)):
        out.append("not executed top to bottom in one run (execution counts are not 1..n)")
    if code and not any(c.get("outputs") for c in code):
        out.append("no outputs stored")
    for j, cell in enumerate(nb.cells):
        if any(o.get("output_type") == "error" for o in cell.get("outputs", [])):
            out.append(f"cell {j}: an error output is stored")
    return out


def _pictures(nb) -> list:
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    out = []
    for j, cell in enumerate(nb.cells):
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if WIDGET_VIEW not in data:
                continue
            if data[WIDGET_VIEW].get("model_id") not in state:
                out.append(f"cell {j}: a widget output whose state is not stored")
            stepper = str(data.get("text/plain", "")).startswith("<BackwardStepper")
            if stepper and "image/png" not in data:
                out.append(f"cell {j}: a stepper output without its still picture (image/png)")
    return out


def problems(path: Path) -> list:
    """Every way the notebook at ``path`` breaks COURSE_CONVENTIONS.md (empty when none)."""
    if path.name not in COURSE:
        return [f"{path.name} is not one of the {len(COURSE)} course file names"]
    nb = nbformat.read(path, as_version=4)
    return (
        _first_cell(nb, path.name)
        + _setup_cell(nb)
        + _exercises(nb)
        + _last_cell(nb)
        + _code(nb)
        + _executed(nb)
        + _pictures(nb)
    )


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.name)
def test_course_notebook_follows_the_conventions(path):
    assert problems(path) == []


def test_the_course_has_thirteen_names_numbered_in_order():
    assert len(COURSE) == 13 and [n[:2] for n in COURSE] == [f"{k:02d}" for k in range(13)]
    assert NOTEBOOKS.is_dir()


# --- the checks can fail: one good notebook, then each rule broken once ----------------------
def _md(text, **meta):
    return nbformat.v4.new_markdown_cell(text, metadata=meta)


def _code_cell(text, n, tags=(), outputs=(), **meta):
    meta = dict(meta, tags=list(tags)) if tags else meta
    cell = nbformat.v4.new_code_cell(text, execution_count=n, metadata=meta)
    cell.outputs = [copy.deepcopy(o) for o in outputs]
    return cell


def _printed(text):
    return nbformat.v4.new_output("stream", name="stdout", text=text)


FIRST = """# 02 · Graphs and the chain rule

**Time:** about 30 minutes · **Assumes:** notebook 01; the chain rule
· **Under `import torch`:** every cell but the drawings runs unchanged.

## Learning goals
After this notebook you can:
- read a graph
- step backward
- explain accumulation
"""
SETUP = "import numpy as np\nimport minigrad as mg\nimport viz\n\nmg.manual_seed(0)\nrng = np.random.default_rng(0)"
LAST = "## What to remember\n- a\n- b\n- c\n\n### In PyTorch, TensorFlow and JAX\n| x | y |"


def _exercise(k, n, predict=False):
    intro = "**Predict, then run.** What is x.grad?" if predict else "Compute it."
    return [
        _md(f"### Exercise {k}: a title\n\n{intro}"),
        _code_cell(f"answer_{k} = ...  # a list", n, ["exercise"]),
        _code_cell(f"answer_{k} = [2.0]", n + 1, ["solution"], jupyter={"source_hidden": True}),
        _code_cell(
            f"# NBVAL_CHECK_OUTPUT\nprint('Correct: ' if answer_{k} == [2.0] else 'Not yet: ')",
            n + 2,
            ["check"],
            [_printed("Correct: 2x at x=1.\n")],
        ),
    ]


def good_notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        _md(FIRST),
        _code_cell(SETUP, 1),
        _md("## A section"),
        _code_cell("x = mg.tensor(1.0)\nprint(x.item())", 2, outputs=[_printed("1.0\n")]),
        *_exercise(1, 3, predict=True),
        *_exercise(2, 6),
        _md(LAST),
    ]
    return nb


def _cell(nb, predicate):
    return next(c for c in nb.cells if predicate(c))


def _exercise_cell(nb, role, k=1):
    return [c for c in nb.cells if _role(c) == role][k - 1]


def _renumber(nb):
    for n, cell in enumerate((c for c in nb.cells if c.cell_type == "code"), 1):
        cell.execution_count = n


def _drop_exercise_2(nb):
    start = next(i for i, c in enumerate(nb.cells) if c.source.startswith("### Exercise 2"))
    del nb.cells[start : start + 4]


def _stepper_without_png(nb):
    view = {WIDGET_VIEW: {"model_id": "m1", "version_major": 2, "version_minor": 0}}
    data = dict(view, **{"text/plain": "<BackwardStepper: 5 steps, at <step 1/5>>"})
    out = nbformat.v4.new_output("execute_result", data=data, execution_count=2)
    nb.cells[3].outputs = [out]
    nb.metadata["widgets"] = {WIDGET_STATE: {"state": {"m1": {}}}}


BREAKS = {
    "title": (lambda nb: setattr(nb.cells[0], "source", FIRST.replace("02 · ", "02. ")), "title"),
    "number": (lambda nb: setattr(nb.cells[0], "source", FIRST.replace("# 02", "# 03")), "number"),
    "time": (
        lambda nb: setattr(nb.cells[0], "source", FIRST.replace("**Time:**", "Time:")),
        "Time",
    ),
    "torch line": (
        lambda nb: setattr(nb.cells[0], "source", FIRST.replace("**Under `import torch`:**", "")),
        "import torch",
    ),
    "goals": (
        lambda nb: setattr(nb.cells[0], "source", FIRST.split("- read")[0]),
        "learning goals",
    ),
    "seed": (
        lambda nb: setattr(nb.cells[1], "source", SETUP.replace("mg.manual_seed(0)", "")),
        "seed",
    ),
    "set-up code": (lambda nb: setattr(nb.cells[1], "source", SETUP + "\nx = 1"), "not an import"),
    "one exercise": (lambda nb: (_drop_exercise_2(nb), _renumber(nb)), "exercises: 1"),
    "numbering": (
        lambda nb: setattr(
            _cell(nb, lambda c: c.source.startswith("### Exercise 2")),
            "source",
            "### Exercise 3: x",
        ),
        "numbered [1, 3]",
    ),
    "solution tag": (
        lambda nb: _exercise_cell(nb, "solution").metadata.update(tags=[]),
        "solution",
    ),
    "collapsed": (
        lambda nb: _exercise_cell(nb, "solution").metadata.pop("jupyter"),
        "not collapsed",
    ),
    "placeholder": (
        lambda nb: setattr(_exercise_cell(nb, "exercise"), "source", "answer_1 = None"),
        "placeholder",
    ),
    "check line": (
        lambda nb: setattr(_exercise_cell(nb, "check"), "source", "print('Correct: ')"),
        "NBVAL_CHECK_OUTPUT",
    ),
    "check output": (
        lambda nb: setattr(_exercise_cell(nb, "check"), "outputs", [_printed("Not yet: try\n")]),
        "does not start `Correct: `",
    ),
    "two lines": (
        lambda nb: setattr(_exercise_cell(nb, "check"), "outputs", [_printed("Correct: a\nb\n")]),
        "not exactly one line",
    ),
    "predict": (
        lambda nb: setattr(nb.cells[4], "source", "### Exercise 1: a title\n\nCompute it."),
        "Predict, then run",
    ),
    "last cell": (
        lambda nb: setattr(nb.cells[-1], "source", "## What to remember\n- a"),
        "In PyTorch",
    ),
    "private mg": (
        lambda nb: setattr(nb.cells[3], "source", "mg._tensor_ops"),
        "private API `mg._",
    ),
    "private data": (lambda nb: setattr(nb.cells[3], "source", "x._data.sum()"), "`._data`"),
    "private import": (
        lambda nb: setattr(nb.cells[3], "source", "from minigrad import _malloc"),
        "private API",
    ),
    "private viz": (lambda nb: setattr(nb.cells[3], "source", "viz._render.run_dot"), "`viz._"),
    "interact": (
        lambda nb: setattr(nb.cells[3], "source", "from ipywidgets import interact"),
        "interact",
    ),
    "unexecuted": (lambda nb: setattr(nb.cells[3], "execution_count", None), "top to bottom"),
    "error": (
        lambda nb: nb.cells[3].outputs.append(
            nbformat.v4.new_output("error", ename="E", evalue="", traceback=[])
        ),
        "error output",
    ),
    "stepper png": (_stepper_without_png, "still picture"),
}


def _write(tmp_path: Path, nb, name="02_graphs_and_the_chain_rule.ipynb") -> Path:
    path = tmp_path / name
    nbformat.write(nb, path)
    return path


def test_a_notebook_that_follows_every_convention_has_no_problems(tmp_path):
    assert problems(_write(tmp_path, good_notebook())) == []


@pytest.mark.parametrize("rule", sorted(BREAKS))
def test_each_broken_convention_is_reported(tmp_path, rule):
    nb = good_notebook()
    breaker, expected = BREAKS[rule]
    breaker(nb)
    found = problems(_write(tmp_path, nb))
    assert any(expected in p for p in found), found


def test_a_name_outside_the_course_is_reported(tmp_path):
    found = problems(_write(tmp_path, good_notebook(), "02_graphs.ipynb"))
    assert found == ["02_graphs.ipynb is not one of the 13 course file names"]


def test_a_stepper_with_its_picture_passes(tmp_path):
    nb = good_notebook()
    _stepper_without_png(nb)
    nb.cells[3].outputs[0]["data"]["image/png"] = "iVBORw0KGgo="
    assert problems(_write(tmp_path, nb)) == []
