"""``make handouts``: the student copies hold no solution and run, unanswered, to the end.

The handouts are the release notebooks of the nbgrader course (``tools/assignments.py``, the
code the make target runs), built into a temporary folder. Each must hold no cell tagged
``solution``, no line that only a solution or a hidden test had, each exercise cell exactly as
committed, no outputs and no widget state. Each runs in a fresh kernel (nbclient, this venv's
``python3``) from the top to the end, as "Run All" on an untouched handout does: no cell
raises and every check cell prints one line saying its exercise is not answered yet (a check
that said "Correct" here would be checking nothing).
"""

from __future__ import annotations

import copy
import os
from pathlib import Path

import nbformat
import pytest

from tests.test_notebooks import good_notebook
from tools.assignments import build_course, write_handouts
from tools.course import COURSE, REPO, notebooks
from tools.exercises import exercises, hidden_region, tags

nbclient = pytest.importorskip("nbclient")
pytest.importorskip("nbgrader")
KERNEL_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("handouts")
    written = write_handouts(notebooks(), root / "handouts", root / "course")
    return {p.name: p for p in written}


def _lines(cells) -> set:
    return {line.strip() for c in cells for line in c.source.splitlines() if line.strip()}


def secret_lines(nb) -> set:
    """Lines of ``nb``'s ``solution`` cells and hidden tests that appear in no other cell."""
    secret = [c for c in nb.cells if "solution" in tags(c)]
    regions = [
        nbformat.v4.new_code_cell(hidden_region(c.source)) for c in nb.cells if "grading" in tags(c)
    ]
    others = [c for c in nb.cells if not {"solution", "grading"} & set(tags(c))]
    return _lines(secret + regions) - _lines(others)


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
    placeholders = [original.cells[ex.exercise].source for ex in exercises(original)]
    assert [c.source for c in student.cells if "exercise" in tags(c)] == placeholders
    leaked = secret_lines(original) & _lines(student.cells)
    assert not leaked, f"solution or hidden-test text in the handout: {sorted(leaked)[:5]}"
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


def unanswered(said: list) -> list:
    """The check lines of ``said`` that are not one line saying ``... not answered yet``."""
    return [s for s in said if s.count("\n") or " is not answered yet" not in s]


@pytest.mark.parametrize("src", notebooks(), ids=lambda p: p.name)
def test_a_handout_runs_to_the_end_unanswered(src, built, checkout_on_path):
    nb = nbformat.read(built[src.name], as_version=4)
    assert src.name in COURSE and first_exercise(nb) is not None, f"{src.name}: no exercise"
    done = run_all(nb, built[src.name].parent)  # raises on the first cell that fails
    checks = [c for c in done.cells if "check" in tags(c)]
    said = ["".join(o.get("text", "") for o in c.outputs).strip() for c in checks]
    assert checks and unanswered(said) == [], said


# --- the checks can fail -----------------------------------------------------------------------
def test_solution_and_hidden_test_text_is_found_where_it_leaks():
    nb = good_notebook()
    assert secret_lines(nb) == {
        "# Solution to Exercise 1 (open it after you have tried)",
        "# Solution to Exercise 2 (open it after you have tried)",
        "answer_1 = [2.0]",
        "return [2.0]",  # exercise 2 is a build-it: its `def` line is the skeleton's, not secret
        "assert answer_2 == [2.0]",
    }
    leaky = copy.deepcopy(nb)
    leaky.cells = [c for c in leaky.cells if "solution" not in tags(c)]
    for cell in leaky.cells:
        if "grading" in tags(cell):  # as nbgrader releases it: the region removed
            cell.source = cell.source.split("\n")[0]
    assert not secret_lines(nb) & _lines(leaky.cells)
    leaky.cells[3].source += "\nassert answer_2 == [2.0]"  # a hidden test in a lesson cell
    assert secret_lines(nb) & _lines(leaky.cells) == {"assert answer_2 == [2.0]"}


def test_a_check_that_says_correct_or_two_lines_is_not_unanswered():
    assert unanswered(["answer_1 is not answered yet: set it to a list."]) == []
    assert unanswered(["Correct."]) == ["Correct."]
    assert unanswered(["a is not answered yet\nb"]) == ["a is not answered yet\nb"]


def test_the_runner_runs_a_handout_and_reports_an_exercise_that_raises(tmp_path, checkout_on_path):
    src = tmp_path / "02_graphs_and_the_chain_rule.ipynb"
    nbformat.write(good_notebook(), src)
    (release,) = build_course([src], tmp_path / "course")
    nb = nbformat.read(release, as_version=4)
    assert [c for c in nb.cells if "solution" in tags(c)] == []
    run_to_first_exercise(nb, tmp_path)  # set-up, a section, exercise 1: all run
    nb.cells[first_exercise(nb)].source = "answer_1 = undefined_name"
    with pytest.raises(nbclient.exceptions.CellExecutionError, match="undefined_name"):
        run_to_first_exercise(nb, tmp_path)
