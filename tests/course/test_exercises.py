"""``tools.exercises`` finds each exercise's cells, and says which cell breaks the sequence."""

from __future__ import annotations

import pytest

from tests.course import fixture_course
from tools.exercises import Exercise, ExerciseLayoutError, exercises, hidden_region, points


def test_the_fixture_exercises_are_found_cell_by_cell():
    assert exercises(fixture_course.notebook()) == [
        Exercise(1, heading=4, exercise=5, solution=6, experiment=(), check=7, grading=8),
        Exercise(2, heading=9, exercise=10, solution=11, experiment=(), check=12, grading=13),
        Exercise(3, heading=14, exercise=15, solution=16, experiment=(17,), check=18, grading=None),
    ]


def test_points_and_the_hidden_region_are_read_from_a_grading_cell():
    nb = fixture_course.notebook()
    assert [points(nb.cells[j]) for j in (8, 13)] == [4, 6]
    assert (
        hidden_region(nb.cells[8].source)
        == fixture_course.TEST_1.split("\n", 1)[1].rsplit("\n", 1)[0]
    )


@pytest.mark.parametrize(
    "breaker, message",
    [
        (
            lambda nb: nb.cells[6].metadata.update(tags=[]),
            "exercise 1: cell 6 is not the code cell tagged solution",
        ),
        (lambda nb: nb.cells.pop(18), "exercise 3: cell 18 is not the code cell tagged check"),
        (
            lambda nb: nb.cells.insert(3, nb.cells[12].copy()),
            "cell 3: tagged check outside an exercise",
        ),
    ],
)
def test_a_broken_sequence_names_the_exercise_and_the_cell(breaker, message):
    nb = fixture_course.notebook()
    breaker(nb)
    with pytest.raises(ExerciseLayoutError, match=message):
        exercises(nb)


@pytest.mark.parametrize("value", [None, 0, 2.5, True, "4"])
def test_points_must_be_a_positive_int(value):
    cell = fixture_course.notebook().cells[8]
    cell.metadata["points"] = value
    with pytest.raises(ExerciseLayoutError, match="positive int"):
        points(cell)


def test_a_grading_cell_needs_one_hidden_region():
    with pytest.raises(ExerciseLayoutError, match="exactly one"):
        hidden_region("assert answer_1 == 12")
    with pytest.raises(ExerciseLayoutError, match="exactly one"):
        hidden_region("### END HIDDEN TESTS\n### BEGIN HIDDEN TESTS")
