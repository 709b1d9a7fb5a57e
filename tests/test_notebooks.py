"""Every course notebook follows the course's conventions (docs/teaching.md), checked on the saved file.

``problems(path)`` lists what breaks a convention: the first cell's shape, the set-up cell, the
exercises (2-4, each the exact cell sequence heading / ``exercise`` / ``solution`` collapsed,
its first line saying it is the solution / the experiment, ``reveal`` where it shows the answer /
``check`` calling minigrad_course and printing one ``Correct.`` line / an optional collapsed
``grading`` cell holding only hidden tests and its ``points``, 10 points a notebook), a "Predict, then run" prompt, the closing cell, the
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
ROLES = ("exercise", "solution", "reveal", "check", "grading")
SOLUTION_LINE = "# Solution to Exercise {k} (open it after you have tried)"
GRADING_LINE = "# Grading test for Exercise {k} ({n} points): hidden in students' copies"
HIDDEN = ("### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")
CHECK_CALL = re.compile(r"\b(?:check|check_code)\(")
POINTS_PER_NOTEBOOK = 10


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
    if not CHECK_CALL.search(cell.source):
        out.append(f"exercise {k}: the check cell calls no minigrad_course check")
    streams = [o for o in cell.get("outputs", []) if o.get("output_type") == "stream"]
    others = [o for o in cell.get("outputs", []) if o.get("output_type") != "stream"]
    text = "".join(o.get("text", "") for o in streams)
    if others or text.count("\n") != 1 or not text.endswith("\n"):
        out.append(f"exercise {k}: the check cell's stored output is not exactly one line")
    elif not text.startswith("Correct."):
        out.append(f"exercise {k}: the check cell's stored output does not start `Correct.`")
    return out


def _collapsed(cell) -> bool:
    return cell.get("metadata", {}).get("jupyter", {}).get("source_hidden") is True


def _solution_cell(cell, k: int) -> list:
    out = []
    if not _collapsed(cell):
        out.append(f"exercise {k}: the solution cell is not collapsed (jupyter.source_hidden)")
    if cell.source.split("\n", 1)[0] != SOLUTION_LINE.format(k=k):
        out.append(f"exercise {k}: the solution's first line is not `{SOLUTION_LINE.format(k=k)}`")
    return out


def _grading_cell(cell, k: int) -> list:
    """The autograder test: collapsed, its points in the metadata and the first line, and
    nothing but the hidden-tests region below that line (students' copies keep the line)."""
    out = []
    points = cell.get("metadata", {}).get("points")
    if not isinstance(points, int) or isinstance(points, bool) or points <= 0:
        return [f"exercise {k}: the grading cell has no positive int `points` metadata"]
    if not _collapsed(cell):
        out.append(f"exercise {k}: the grading cell is not collapsed (jupyter.source_hidden)")
    first, _, rest = cell.source.partition("\n")
    if first != GRADING_LINE.format(k=k, n=points):
        out.append(f"exercise {k}: the grading cell's first line is not `{GRADING_LINE}`")
    body = rest.strip()
    if not (body.startswith(HIDDEN[0]) and body.endswith(HIDDEN[1]) and body.count(HIDDEN[0]) == 1):
        out.append(f"exercise {k}: the grading cell is not one hidden-tests region")
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
    out += _solution_cell(cells[i + 2], k)
    reveals = 0
    while j < len(cells) and cells[j].cell_type == "code" and _role(cells[j]) in (None, "reveal"):
        reveals += _role(cells[j]) == "reveal"  # a predict-then-run exercise's experiment
        j += 1
    if j >= len(cells) or cells[j].cell_type != "code" or _role(cells[j]) != "check":
        return out + [f"exercise {k}: cell {j} is not the code cell tagged `check`"], j
    out += _check_cell(cells[j], k)
    j += 1
    predict = "**Predict, then run.**" in cells[i].source
    if predict and not reveals:
        out.append(f"exercise {k}: a predict-then-run exercise with no cell tagged `reveal`")
    if j < len(cells) and _role(cells[j]) == "grading":
        if reveals:
            out.append(f"exercise {k}: graded, but a `reveal` cell shows its answer first")
        out += _grading_cell(cells[j], k)
        j += 1
    return out, j


BUILD_IT = re.compile(r"^\s*(def|class)\s", re.M)


def _builds_it(span) -> bool:
    """The student writes code (a function or a class), graded by hidden tests."""
    return any(_role(c) == "exercise" and BUILD_IT.search(c.source) for c in span) and any(
        _role(c) == "grading" for c in span
    )


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
    seen, spans = set(), []
    for k, i in zip(numbers, heads):
        found, end = _one_exercise(cells, i, k)
        out += found
        seen.update(range(i, end))
        spans.append(cells[i:end])
    if not any(_builds_it(span) for span in spans):
        out.append(
            "exercises: none is a graded build-it (an exercise cell that defines a function or "
            "class, with a grading cell)"
        )
    for j, cell in enumerate(cells):
        if _role(cell) and j not in seen:
            out.append(f"cell {j}: tagged `{_role(cell)}` outside an exercise's sequence")
    if not any("**Predict, then run.**" in cells[i].source for i in heads):
        out.append("exercises: none is a **Predict, then run.** prompt")
    points = [c.metadata.get("points") for c in cells if _role(c) == "grading"]
    if all(isinstance(p, int) for p in points) and sum(points) != POINTS_PER_NOTEBOOK:
        out.append(f"grading: the points add up to {sum(points)}, not {POINTS_PER_NOTEBOOK}")
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
    """Every way the notebook at ``path`` breaks the conventions (empty when none)."""
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
    intro = "**Predict, then run.** What is x.grad?" if predict else "Build it."
    hidden = {"jupyter": {"source_hidden": True}}
    task = (
        f"answer_{k} = ...  # a list" if predict else f"def answer_{k}():\n    return ...  # a list"
    )
    answer = f"answer_{k} = [2.0]" if predict else f"def answer_{k}():\n    return [2.0]"
    cells = [
        _md(f"### Exercise {k}: a title\n\n{intro}"),
        _code_cell(task, n, ["exercise"]),
        _code_cell(SOLUTION_LINE.format(k=k) + "\n" + answer, n + 1, ["solution"], **hidden),
    ]
    if predict:
        cells.append(_code_cell("print(2.0)", n + 2, ["reveal"], [_printed("2.0\n")]))
    check = "# NBVAL_CHECK_OUTPUT\nfrom minigrad_course import check\n\n"
    check += f'check("answer_{k}", answer_{k}, "0123456789abcdef", expect="a list")'
    cells.append(_code_cell(check, n + 2 + predict, ["check"], [_printed("Correct. 2x at 1.\n")]))
    if not predict:
        test = f"{GRADING_LINE.format(k=k, n=10)}\n{HIDDEN[0]}\nassert answer_{k} == [2.0]\n{HIDDEN[1]}"
        cells.append(_code_cell(test, n + 3, ["grading"], points=10, **hidden))
    return cells


def good_notebook():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        _md(FIRST),
        _code_cell(SETUP, 1),
        _md("## A section"),
        _code_cell("x = mg.tensor(1.0)\nprint(x.item())", 2, outputs=[_printed("1.0\n")]),
        *_exercise(1, 3, predict=True),
        *_exercise(2, 7),
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
    del nb.cells[start : start + 5]


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
    "no build-it": (
        lambda nb: setattr(_exercise_cell(nb, "exercise", 2), "source", "answer_2 = ...  # a list"),
        "none is a graded build-it",
    ),
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
    "solution line": (
        lambda nb: setattr(_exercise_cell(nb, "solution"), "source", "answer_1 = [2.0]"),
        "first line is not `# Solution to Exercise 1",
    ),
    "check call": (
        lambda nb: setattr(_exercise_cell(nb, "check"), "source", "# NBVAL_CHECK_OUTPUT\nprint(1)"),
        "calls no minigrad_course check",
    ),
    "no reveal": (
        lambda nb: _exercise_cell(nb, "reveal").metadata.update(tags=[]),
        "no cell tagged `reveal`",
    ),
    "graded reveal": (
        lambda nb: nb.cells.insert(
            nb.cells.index(_exercise_cell(nb, "check", 2)),
            _code_cell("print(2.0)", 7, ["reveal"]),
        ),
        "a `reveal` cell shows its answer first",
    ),
    "points": (
        lambda nb: _exercise_cell(nb, "grading").metadata.update(points=3),
        "points add up to 3",
    ),
    "points metadata": (
        lambda nb: _exercise_cell(nb, "grading").metadata.pop("points"),
        "no positive int `points`",
    ),
    "grading line": (
        lambda nb: setattr(
            _exercise_cell(nb, "grading"),
            "source",
            _exercise_cell(nb, "grading").source.replace("hidden in", "shown in"),
        ),
        "grading cell's first line",
    ),
    "grading region": (
        lambda nb: setattr(
            _exercise_cell(nb, "grading"),
            "source",
            _exercise_cell(nb, "grading").source + "\nprint('visible')",
        ),
        "not one hidden-tests region",
    ),
    "grading collapsed": (
        lambda nb: _exercise_cell(nb, "grading").metadata.pop("jupyter"),
        "grading cell is not collapsed",
    ),
    "check line": (
        lambda nb: setattr(_exercise_cell(nb, "check"), "source", "check('a', 1, 'x')"),
        "NBVAL_CHECK_OUTPUT",
    ),
    "check output": (
        lambda nb: setattr(_exercise_cell(nb, "check"), "outputs", [_printed("Not yet: try\n")]),
        "does not start `Correct.`",
    ),
    "two lines": (
        lambda nb: setattr(_exercise_cell(nb, "check"), "outputs", [_printed("Correct. a\nb\n")]),
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
        lambda nb: setattr(nb.cells[3], "source", "mg._tensor_methods"),
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
