"""``tools/assignments.py``: the nbgrader course built from a committed notebook.

Built once from the fixture notebook (tests/course/fixture_course.py, which follows the course's
exercise conventions) with nbgrader's own ``generate_assignment``: the release (the students'
copy) has each exercise cell exactly as committed and nothing of the solutions or hidden tests,
the grading cells are autograder tests with their points, every other cell is read-only, and
the cell ids are the readable ones. Broken input gets an error that names the notebook and cell.
"""

from __future__ import annotations

import nbformat
import pytest

from tests.course import fixture_course
from tools.assignments import (
    BEGIN,
    END,
    build_course,
    cell_ids,
    main,
    source_notebook,
    write_config,
)
from tools.exercises import ExerciseLayoutError, exercises, hidden_region, tags

pytest.importorskip("nbgrader")
IDS = [
    *("intro-1", "intro-2", "intro-3", "intro-4"),
    *("ex1-heading", "ex1", None, "ex1-check", "ex1-test"),
    *("ex2-heading", "ex2", None, "ex2-check", "ex2-test"),
    *("ex3-heading", "ex3", None, "ex3-run-1", "ex3-check"),
    "after-ex3-1",
]


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    folder = tmp_path_factory.mktemp("course")
    src = folder / fixture_course.NAME
    nbformat.write(fixture_course.notebook(), src)
    (release,) = build_course([src], folder / "course")
    return {"src": src, "release": nbformat.read(release, as_version=4), "root": folder / "course"}


def _lines(cells) -> set:
    return {line.strip() for c in cells for line in c.source.splitlines() if line.strip()}


def test_cell_ids_are_readable_and_local():
    nb = fixture_course.notebook()
    assert cell_ids(nb) == IDS
    nb.cells.insert(2, nbformat.v4.new_markdown_cell("an aside"))  # ids after the intro stay
    assert cell_ids(nb)[5:] == IDS[4:]


def test_the_source_version_holds_each_solution_as_the_exercise_cells_region():
    nb = fixture_course.notebook()
    src = source_notebook(nb)
    committed = {ex.number: ex for ex in exercises(nb)}
    cells = [c for c in src.cells if "exercise" in tags(c)]
    for k, cell in enumerate(cells, 1):
        ex = committed[k]
        solution = nb.cells[ex.solution].source
        assert cell.source == f"{nb.cells[ex.exercise].source}\n{BEGIN}\n{solution}\n{END}"
        assert cell.metadata.nbgrader["solution"] and not cell.metadata.nbgrader["locked"]
    assert not [c for c in src.cells if "solution" in tags(c)]


def test_the_release_has_the_committed_exercise_cells_and_no_solution(course):
    nb, release = fixture_course.notebook(), course["release"]
    placeholders = [nb.cells[ex.exercise].source for ex in exercises(nb)]
    assert [c.source for c in release.cells if "exercise" in tags(c)] == placeholders
    secret, shown = (
        set(),
        _lines(c for c in nb.cells if tags(c)[:1] not in (["solution"], ["grading"])),
    )
    for ex in exercises(nb):
        secret |= _lines([nb.cells[ex.solution]])
        if ex.grading is not None:
            secret |= {x.strip() for x in hidden_region(nb.cells[ex.grading].source).splitlines()}
    only_secret = secret - shown - {""}
    assert len(only_secret) >= 8  # the solutions' lines and the hidden tests' own lines
    assert not only_secret & _lines(release.cells)
    assert len(release.cells) == len(nb.cells) - 3
    assert all(c.get("outputs", []) == [] for c in release.cells)
    assert "widgets" not in release.metadata


def test_grading_cells_are_autograder_tests_with_their_points(course):
    tests = [c for c in course["release"].cells if "grading" in tags(c)]
    assert [c.source for c in tests] == [
        "# Grading test for Exercise 1 (4 points): hidden in students' copies",
        "# Grading test for Exercise 2 (6 points): hidden in students' copies",
    ]
    meta = [c.metadata.nbgrader for c in tests]
    assert [(m["grade_id"], m["grade"], m["locked"], m["points"]) for m in meta] == [
        ("ex1-test", True, True, 4),
        ("ex2-test", True, True, 6),
    ]


def test_only_the_exercise_cells_can_be_edited(course):
    cells = course["release"].cells
    ids = [c.metadata.nbgrader["grade_id"] for c in cells]
    assert ids == [i for i in IDS if i is not None]
    editable = [c.metadata.nbgrader["grade_id"] for c in cells if c.metadata.get("editable", True)]
    assert editable == ["ex1", "ex2", "ex3"]


def test_the_config_names_the_course_the_timeout_and_the_stub(course, tmp_path):
    text = (course["root"] / "nbgrader_config.py").read_text()
    for line in (
        "c.CourseDirectory.course_id = 'minigrad-sparse'",
        'c.ClearSolutions.code_stub = {"python": ""}',
        "c.Execute.timeout = 30",
        'load_subconfig("nbgrader_config_local.py")',
    ):
        assert line in text
    assert "c.Execute.timeout = 5" in write_config(tmp_path, timeout=5).read_text()
    with pytest.raises(ValueError, match="timeout must be a positive number of seconds; got 0"):
        write_config(tmp_path, timeout=0)


def test_a_solution_cell_that_lost_its_tag_stops_the_build(tmp_path, capsys):
    nb = fixture_course.notebook()
    nb.cells[11].metadata["tags"] = []
    path = tmp_path / fixture_course.NAME
    nbformat.write(nb, path)
    assert main(["build", "--course", str(tmp_path / "course"), str(path)]) == 1
    assert capsys.readouterr().err == (
        f"error: {fixture_course.NAME}: exercise 2: cell 11 is not the code cell tagged solution\n"
    )
    assert not (tmp_path / "course" / "release").exists()


def test_the_command_line_writes_handouts_where_told(course, tmp_path, capsys):
    out = tmp_path / "h"
    assert (
        main(["handouts", "--course", str(course["root"]), "--out", str(out), str(course["src"])])
        == 0
    )
    handout = out / fixture_course.NAME
    assert nbformat.read(handout, as_version=4) == course["release"]
    assert f"wrote {handout}" in capsys.readouterr().out


def test_points_that_are_not_an_int_stop_the_build():
    nb = fixture_course.notebook()
    nb.cells[8].metadata["points"] = "4"
    with pytest.raises(ExerciseLayoutError, match="'points' must be a positive int; found '4'"):
        source_notebook(nb)
