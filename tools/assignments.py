"""The course as an nbgrader course, built from the committed notebooks (the one source of truth).

``make assignments`` and ``make handouts`` call this script; the tests call the same functions.

* ``build``: an nbgrader 0.9 course directory (default ``build/course/``):
  ``nbgrader_config.py``, ``source/NN_name/NN_name.ipynb`` for each notebook, then
  ``nbgrader generate_assignment`` of each into ``release/NN_name/NN_name.ipynb``, the students'
  copy. In the source version each exercise cell holds its solution as nbgrader's solution
  region, after the placeholder, so the release's exercise cell is exactly the committed one
  (placeholder and all) and holds nothing of the solution; each ``grading`` cell is an
  autograder test cell (its ``points``, its hidden-tests region) and every other cell is
  read-only. Cell ids are readable and stay put when other sections change: ``ex1``
  (the exercise), ``ex1-check``, ``ex1-test``, ``ex1-heading``, ``ex1-run-1`` (a cell of its
  experiment), ``intro-2`` (the second cell before exercise 1), ``after-ex1-3``.
* ``handouts``: ``build``, then the release notebooks copied to ``handouts/NN_name.ipynb``.

Usage: ``python tools/assignments.py {build,handouts} [--course DIR] [--out DIR]
[--timeout S] [NOTEBOOK ...]`` (default: every ``notebooks/[0-9][0-9]_*.ipynb``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

import nbformat

if __package__ in (None, ""):  # run as a script (`python tools/assignments.py`)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.exercises import ExerciseLayoutError, exercises, points  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
COURSE_ID = "minigrad-sparse"
CELL_TIMEOUT_S = 30  # autograding: a cell still running after this is interrupted (0 points)
SCHEMA_VERSION = 3  # nbgrader 0.9's cell metadata format
BEGIN, END = "### BEGIN SOLUTION", "### END SOLUTION"

# nbgrader replaces a solution region with its "code stub" (default `# YOUR CODE HERE` and
# `raise NotImplementedError()`). Our stub is the exercise's own placeholder, which stays in
# front of the region; the stub is empty, and the one empty line nbgrader still leaves in its
# place is dropped by KeepPlaceholder, so the release cell is the committed exercise cell.
CONFIG = '''"""nbgrader configuration of the minigrad-sparse course (written by tools/assignments.py)."""

from nbgrader.converters import GenerateAssignment, GenerateFeedback
from nbgrader.preprocessors import ClearHiddenTests, ClearSolutions, NbGraderPreprocessor
from nbgrader.utils import is_solution


class KeepPlaceholder(NbGraderPreprocessor):
    """Drop the empty line an empty code stub leaves at the end of an exercise cell."""

    def preprocess_cell(self, cell, resources, index):
        if is_solution(cell) and cell.source.endswith("\\n"):
            cell.source = cell.source[:-1]
        return cell, resources


c = get_config()  # noqa: F821 - defined by nbgrader when it reads this file
c.CourseDirectory.course_id = {course_id!r}
c.ClearSolutions.code_stub = {{"python": ""}}
steps = list(GenerateAssignment.class_traits()["preprocessors"].default())
steps.insert(steps.index(ClearSolutions) + 1, KeepPlaceholder)
c.GenerateAssignment.preprocessors = steps
# feedback shows each test's result and error, not the hidden tests' code
feedback = list(GenerateFeedback.class_traits()["preprocessors"].default())
c.GenerateFeedback.preprocessors = [*feedback, ClearHiddenTests]
# autograding: seconds a cell may run before it is interrupted (an endless loop gets 0 points)
c.Execute.timeout = {timeout}
# tracebacks as one line (the error and its message), so the feedback does not show the code
# of a hidden test around the assertion that failed
c.Execute.extra_arguments = ["--HistoryManager.hist_file=:memory:", "--InteractiveShell.xmode=Minimal"]

# Your own settings (Exchange.root, CourseDirectory.db_url, ...) go in nbgrader_config_local.py
# beside this file: make assignments rewrites this one, never that one.
load_subconfig("nbgrader_config_local.py")  # noqa: F821 - defined by nbgrader, as get_config
'''


def notebooks(folder: Path = REPO / "notebooks") -> list:
    """Every numbered notebook of ``folder`` (``NN_name.ipynb``), in course order."""
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def _meta(grade_id: str, *, solution=False, grade=False, locked=True, score=None) -> dict:
    meta = {
        "grade": grade,
        "grade_id": grade_id,
        "locked": locked,
        "schema_version": SCHEMA_VERSION,
        "solution": solution,
        "task": False,
    }
    if score is not None:
        meta["points"] = score
    return meta


def cell_ids(nb) -> list:
    """A readable nbgrader ``grade_id`` for every cell of committed notebook ``nb`` (None for
    a solution cell, which becomes part of its exercise cell)."""
    ids = [None] * len(nb.cells)
    found = exercises(nb)
    for ex in found:
        k = ex.number
        ids[ex.heading], ids[ex.exercise] = f"ex{k}-heading", f"ex{k}"
        ids[ex.check] = f"ex{k}-check"
        if ex.grading is not None:
            ids[ex.grading] = f"ex{k}-test"
        for n, j in enumerate(ex.experiment, 1):
            ids[j] = f"ex{k}-run-{n}"
    section, n = "intro", 0
    starts = {ex.heading: ex for ex in found}
    for j in range(len(nb.cells)):
        if j in starts:
            section, n = f"after-ex{starts[j].number}", 0
        if ids[j] is None and not _is_exercise_cell(j, found):
            n += 1
            ids[j] = f"{section}-{n}"
    return ids


def _is_exercise_cell(j: int, found) -> bool:
    return any(ex.heading <= j <= ex.last for ex in found)


def source_notebook(nb):
    """The nbgrader source version of committed notebook ``nb``: solution cells merged into
    their exercise cells as solution regions, grading cells as autograder tests, every other
    cell read-only, no outputs and no widget state. ExerciseLayoutError if the exercise
    cells are out of sequence or a grading cell's ``points`` is not a positive int."""
    nb = nbformat.from_dict(nb)
    found = exercises(nb)
    ids = cell_ids(nb)
    graded = {ex.grading for ex in found if ex.grading is not None}
    for j, cell in enumerate(nb.cells):
        cell.metadata.pop("execution", None)
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
        if j in graded:
            cell.metadata["nbgrader"] = _meta(ids[j], grade=True, score=points(cell))
        elif ids[j] is not None:
            cell.metadata["nbgrader"] = _meta(ids[j])
    for ex in found:
        cell, solution = nb.cells[ex.exercise], nb.cells[ex.solution].source
        cell.source = f"{cell.source}\n{BEGIN}\n{solution}\n{END}"
        cell.metadata["nbgrader"] = _meta(ids[ex.exercise], solution=True, locked=False)
    solutions = {ex.solution for ex in found}
    nb.cells = [c for j, c in enumerate(nb.cells) if j not in solutions]
    nb.metadata.pop("widgets", None)
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    return nb


def write_config(course: Path, timeout: int = CELL_TIMEOUT_S, course_id: str = COURSE_ID) -> Path:
    """Write ``course/nbgrader_config.py``; return its path."""
    if not isinstance(timeout, int) or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds; got {timeout!r}")
    path = course / "nbgrader_config.py"
    path.write_text(CONFIG.format(course_id=course_id, timeout=timeout), encoding="utf-8")
    return path


@contextmanager
def venv_on_path():
    """This interpreter's bin/ first on PATH: nbgrader's gradebook runs the `alembic` command."""
    before = os.environ.get("PATH", "")
    os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), before])
    try:
        yield
    finally:
        os.environ["PATH"] = before


def generate_assignments(course: Path, names) -> None:
    """``nbgrader generate_assignment NAME --force`` for each of ``names`` in ``course``, in
    this process (nbgrader's own app, one start-up for all); RuntimeError with nbgrader's log
    if one fails."""
    from nbgrader.apps.api import capture_log
    from nbgrader.converters import GenerateAssignment
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import PyFileConfigLoader

    config = PyFileConfigLoader("nbgrader_config.py", path=str(course)).load_config()
    config.CourseDirectory.root = str(course)
    coursedir = CourseDirectory(config=config)
    with venv_on_path():
        for name in names:
            coursedir.assignment_id = name
            app = GenerateAssignment(coursedir=coursedir, config=config)
            app.force = True
            result = capture_log(app)
            if not result["success"]:
                raise RuntimeError(
                    f"nbgrader generate_assignment {name} failed in {course}:\n"
                    f"{result.get('log', '')}{result.get('error', '')}"
                )


def build_course(sources, course: Path, timeout: int = CELL_TIMEOUT_S) -> list:
    """Write the course directory ``course`` from committed notebooks ``sources`` and generate
    each release; return the release notebooks' paths, in the order of ``sources``."""
    course.mkdir(parents=True, exist_ok=True)
    write_config(course, timeout)
    sources = [Path(s) for s in sources]
    for src in sources:
        folder = course / "source" / src.stem
        folder.mkdir(parents=True, exist_ok=True)
        try:
            nb = source_notebook(nbformat.read(src, as_version=4))
        except ExerciseLayoutError as exc:
            raise ExerciseLayoutError(f"{src.name}: {exc}") from None
        nbformat.write(nb, folder / src.name)
    generate_assignments(course, [src.stem for src in sources])
    return [course / "release" / src.stem / src.name for src in sources]


def write_handouts(sources, out: Path, course: Path) -> list:
    """Build the course in ``course``, copy each release notebook to ``out``; return the
    handouts' paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for release in build_course(sources, course):
        written.append(Path(shutil.copy2(release, out / release.name)))
    return written


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("build", "handouts"))
    parser.add_argument("--course", type=Path, default=REPO / "build" / "course")
    parser.add_argument("--out", type=Path, default=REPO / "handouts", help="for handouts")
    parser.add_argument("--timeout", type=int, default=CELL_TIMEOUT_S, help="seconds per cell")
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/NN_*.ipynb")
    args = parser.parse_intermixed_args(argv)
    sources = args.notebooks or notebooks()
    if not sources:
        print("no notebooks/NN_*.ipynb to build", file=sys.stderr)
        return 1
    try:
        if args.what == "build":
            written = build_course(sources, args.course, args.timeout)
        else:
            written = write_handouts(sources, args.out, args.course)
    except (ExerciseLayoutError, RuntimeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
