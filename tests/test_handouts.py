"""``make handouts``: the student copies hold no solution and run, unanswered, to the end.

The handouts are built into a temporary folder by ``tools.course.write_handouts``, the code the
make target runs. Each must have no cell tagged ``solution`` and no line that only a solution
had, no outputs and no widget state. Each runs in a fresh kernel (nbclient, this venv's
``python3``) from the top to the end, as "Run All" on an untouched handout does: no cell
raises (the cells up to the first exercise are what a student runs first) and every check
cell says its exercise is not answered yet (a check that said "Correct" here would
be checking nothing).
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import nbformat
import pytest

from tests.test_notebooks import good_notebook
from tools.course import COURSE, REPO, handout, notebooks, tags, write_handouts

nbclient = pytest.importorskip("nbclient")
KERNEL_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("handouts")
    return {p.name: p for p in write_handouts(notebooks(), out)}


def _lines(cells) -> set:
    return {line.strip() for c in cells for line in c.source.splitlines() if line.strip()}


def solution_only_lines(nb) -> set:
    """Lines that appear in a ``solution`` cell and in no other cell of ``nb``."""
    solutions = [c for c in nb.cells if "solution" in tags(c)]
    others = [c for c in nb.cells if "solution" not in tags(c)]
    return _lines(solutions) - _lines(others)


def first_exercise(nb) -> int | None:
    return next((i for i, c in enumerate(nb.cells) if "exercise" in tags(c)), None)


def run_to_first_exercise(nb, cwd: Path) -> None:
    """Execute ``nb``'s cells up to its first exercise (included) in a fresh kernel."""
    nb = nbformat.from_dict(nb)
    nb.cells = nb.cells[: first_exercise(nb) + 1]
    client = nbclient.NotebookClient(
        nb,
        timeout=KERNEL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd)}},
    )
    client.execute()


@pytest.fixture
def checkout_on_path(monkeypatch):
    """The kernel imports this checkout's minigrad and viz, not another installed copy."""
    monkeypatch.setenv(
        "PYTHONPATH", os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    )


@pytest.mark.parametrize("src", notebooks(), ids=lambda p: p.name)
def test_a_handout_holds_no_solution_and_no_outputs(src, built):
    original = nbformat.read(src, as_version=4)
    student = nbformat.read(built[src.name], as_version=4)
    assert not [c for c in student.cells if "solution" in tags(c)]
    solutions = [c for c in original.cells if "solution" in tags(c)]
    assert len(student.cells) == len(original.cells) - len(solutions)
    leaked = solution_only_lines(original) & _lines(student.cells)
    assert not leaked, f"solution text in the handout: {sorted(leaked)[:5]}"
    code = [c for c in student.cells if c.cell_type == "code"]
    assert all(c.outputs == [] and c.execution_count is None for c in code)
    assert "widgets" not in student.metadata


def run_all(nb, cwd: Path):
    """Execute every cell of ``nb`` in a fresh kernel; return the executed notebook."""
    nb = nbformat.from_dict(copy.deepcopy(nb))
    client = nbclient.NotebookClient(
        nb,
        timeout=KERNEL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(cwd)}},
    )
    return client.execute()


@pytest.mark.parametrize("src", notebooks(), ids=lambda p: p.name)
def test_a_handout_runs_to_the_end_unanswered(src, built, checkout_on_path):
    nb = nbformat.read(built[src.name], as_version=4)
    assert src.name in COURSE and first_exercise(nb) is not None, f"{src.name}: no exercise"
    done = run_all(nb, built[src.name].parent)  # raises on the first cell that fails
    checks = [c for c in done.cells if "check" in tags(c)]
    said = ["".join(o.get("text", "") for o in c.outputs).strip() for c in checks]
    expected = [f"Exercise {k} is not answered yet:" for k in range(1, len(checks) + 1)]
    assert [line.split(":")[0] + ":" for line in said] == expected, said


# --- the checks can fail -----------------------------------------------------------------------
def test_solution_text_is_found_where_it_leaks():
    nb = good_notebook()
    assert solution_only_lines(nb) == {"answer_1 = [2.0]", "answer_2 = [2.0]"}
    assert not solution_only_lines(nb) & _lines(handout(nb).cells)
    leaky = copy.deepcopy(nb)
    next(c for c in leaky.cells if "solution" in tags(c)).metadata["tags"] = []  # lost its tag
    assert solution_only_lines(nb) & _lines(handout(leaky).cells)


def test_the_runner_runs_a_handout_and_reports_an_exercise_that_raises(tmp_path, checkout_on_path):
    nb = handout(good_notebook())
    assert [c.source.split("\n")[0] for c in nb.cells if "solution" in tags(c)] == []
    run_to_first_exercise(nb, tmp_path)  # set-up, a section, exercise 1: all run
    nb.cells[first_exercise(nb)].source = "answer_1 = undefined_name"
    with pytest.raises(nbclient.exceptions.CellExecutionError, match="undefined_name"):
        run_to_first_exercise(nb, tmp_path)
