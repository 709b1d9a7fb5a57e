"""The exercises of a course notebook, found by their cell tags (notebooks' conventions, issue 23).

Each exercise is a sequence of cells: a markdown heading ``### Exercise k: title``, a code cell
tagged ``exercise`` (what the student fills in), one tagged ``solution`` (the reference answer),
optional experiment cells (a predict-then-run exercise's run, some tagged ``reveal``), a cell
tagged ``check`` (the self-check) and, for a graded exercise, one tagged ``grading`` (the hidden
test, with its ``points`` in the cell's metadata). ``exercises(nb)`` returns where those cells
are; the answer-table test and ``tools/assignments.py`` both read a notebook through it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

HEADING = re.compile(r"^### Exercise (\d+):")
HIDDEN_BEGIN = "### BEGIN HIDDEN TESTS"
HIDDEN_END = "### END HIDDEN TESTS"
ROLES = ("exercise", "solution", "check", "grading", "reveal")


class ExerciseLayoutError(ValueError):
    """A notebook's exercise cells are not in the sequence the conventions describe."""


@dataclass(frozen=True)
class Exercise:
    """Where exercise ``number``'s cells are in its notebook (indices into ``nb.cells``).

    Attributes:
        number: ``k`` of the heading ``### Exercise k:``.
        heading: the heading's markdown cell.
        exercise: the cell the student fills in.
        solution: the reference solution.
        experiment: code cells between the solution and the check (a predict-then-run's run).
        check: the self-check cell.
        grading: the hidden test, or None for an ungraded exercise.
    """

    number: int
    heading: int
    exercise: int
    solution: int
    experiment: tuple
    check: int
    grading: int | None

    @property
    def last(self) -> int:
        """The index of the exercise's last cell (its grading cell, else its check)."""
        return self.check if self.grading is None else self.grading


def tags(cell) -> list:
    """The cell's metadata tags."""
    return list(cell.get("metadata", {}).get("tags", []))


def role(cell) -> str | None:
    """The cell's exercise role (one of ``ROLES``), or None for a lesson cell."""
    found = [t for t in tags(cell) if t in ROLES]
    return found[0] if found else None


def points(cell) -> int:
    """The ``points`` of a grading cell (its metadata); ExerciseLayoutError if not an int > 0."""
    value = cell.get("metadata", {}).get("points")
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ExerciseLayoutError(
            f"a grading cell's metadata 'points' must be a positive int; found {value!r}"
        )
    return value


def hidden_region(source: str) -> str:
    """The lines between ``### BEGIN HIDDEN TESTS`` and ``### END HIDDEN TESTS`` of a grading
    cell's source; ExerciseLayoutError if the cell has not exactly one such region."""
    lines = source.splitlines()
    begins = [i for i, line in enumerate(lines) if line.strip() == HIDDEN_BEGIN]
    ends = [i for i, line in enumerate(lines) if line.strip() == HIDDEN_END]
    if len(begins) != 1 or len(ends) != 1 or ends[0] < begins[0]:
        raise ExerciseLayoutError(
            f"a grading cell must hold exactly one `{HIDDEN_BEGIN}` ... `{HIDDEN_END}` region"
        )
    return "\n".join(lines[begins[0] + 1 : ends[0]])


def exercises(nb) -> list:
    """Every exercise of ``nb``, in order; ExerciseLayoutError naming the exercise and the cell
    when its cells are not heading, exercise, solution, [experiment...], check, [grading]."""
    heads = [
        i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and HEADING.match(c.source)
    ]
    found = []
    for n, i in enumerate(heads):
        end = heads[n + 1] if n + 1 < len(heads) else len(nb.cells)
        found.append(_one(nb.cells, i, end))
    _no_stray_roles(nb.cells, found)
    return found


def _one(cells, i: int, end: int) -> Exercise:
    k = int(HEADING.match(cells[i].source).group(1))

    def expect(j: int, wanted: str) -> int:
        if j >= end or cells[j].cell_type != "code" or role(cells[j]) != wanted:
            raise ExerciseLayoutError(
                f"exercise {k}: cell {j} is not the code cell tagged {wanted}"
            )
        return j

    exercise = expect(i + 1, "exercise")
    solution = expect(i + 2, "solution")
    j = solution + 1
    while j < end and cells[j].cell_type == "code" and role(cells[j]) in (None, "reveal"):
        j += 1
    check = expect(j, "check")
    grading = None
    if check + 1 < end and role(cells[check + 1]) == "grading":
        grading = expect(check + 1, "grading")
    return Exercise(k, i, exercise, solution, tuple(range(solution + 1, check)), check, grading)


def _no_stray_roles(cells, found) -> None:
    inside = set()
    for ex in found:
        inside.update(range(ex.exercise, ex.last + 1))
    for j, cell in enumerate(cells):
        if role(cell) not in (None, "reveal") and j not in inside:
            raise ExerciseLayoutError(f"cell {j}: tagged {role(cell)} outside an exercise")
