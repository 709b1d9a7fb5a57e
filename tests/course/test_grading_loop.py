"""The teacher's grading loop, end to end, with nbgrader's own commands on a throwaway course.

For each notebook that has grading cells and an answer table (``tests/course/answers/nbNN.py``),
and for the fixture notebook: ``tools/assignments.py`` builds a course directory in a temporary
folder (a short per-cell timeout), with its own exchange. The teacher releases the assignment;
simulated students (each a folder of their own and a student id) fetch it, write their answers
into the exercise cells and submit:

* ``right``: the first right answer of each exercise in the table;
* ``wrong``: the first wrong answer of each exercise;
* ``mixed`` (the fixture only, to keep the loop short): right in the first graded exercise,
  wrong in the others;
* ``broken``: ``while True: pass`` in the first graded exercise (the per-cell timeout must stop
  it) and a cell that raises in the others.

The teacher collects, autogrades, generates the feedback, exports the gradebook to CSV and
releases the feedback, which each student fetches. The test asserts the exported scores exactly
(``right``: the notebook's points; ``wrong`` and ``broken``: 0; ``mixed``: the first graded
exercise's points), each hidden test's score in the gradebook, and each student's feedback page
(it shows the score, and no hidden test's code).

Slow (a kernel per submission, nbgrader's start-up per command): run by ``make test-grading``,
which sets ``MINIGRAD_GRADING_LOOP=1``; skipped otherwise. ``MINIGRAD_GRADING_NOTEBOOKS=03,08``
limits it to those notebooks (the fixture always runs). Two notebooks' loops run at once.
"""

from __future__ import annotations

import csv
import importlib
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest

from tests.course import fixture_course
from tests.course.kernel import REPO
from tools.assignments import COURSE_ID, build_course, venv_on_path
from tools.course import notebooks
from tools.exercises import exercises, points

if os.environ.get("MINIGRAD_GRADING_LOOP") != "1":
    pytest.skip("the grading loop runs under `make test-grading`", allow_module_level=True)
pytest.importorskip("nbgrader")

ANSWERS = Path(__file__).parent / "answers"
TIMEOUT_S = int(os.environ.get("MINIGRAD_GRADING_TIMEOUT", "15"))
LOOP = "while True:\n    pass"
BROKEN = "raise ValueError('boom')"
WORKERS = 2


@dataclass
class Case:
    """A notebook whose grading loop is run: its committed file and its answer table."""

    path: Path
    table: dict
    mixed: bool = False  # a fourth student, right in the first graded exercise only

    @property
    def name(self) -> str:
        return self.path.stem


@dataclass
class Outcome:
    """What the teacher ends up with: the exported rows of this assignment, each student's
    score per hidden test (by grade id), the feedback pages, and how long the loop took."""

    rows: list
    scores: dict
    feedback: dict
    fetched: dict
    seconds: float
    log: list = field(default_factory=list)


def wanted() -> set:
    """The notebook numbers ``MINIGRAD_GRADING_NOTEBOOKS`` lists (empty: all)."""
    only = os.environ.get("MINIGRAD_GRADING_NOTEBOOKS", "")
    return {n.strip().zfill(2) for n in only.split(",") if n.strip()}


def graded_cases() -> list:
    """The course notebooks with grading cells and an answer table (``MINIGRAD_GRADING_NOTEBOOKS``
    narrows them to the listed numbers)."""
    numbers = wanted()
    out = []
    for path in notebooks():
        if numbers and path.name[:2] not in numbers:
            continue
        if not (ANSWERS / f"nb{path.name[:2]}.py").exists():
            continue
        nb = nbformat.read(path, as_version=4)
        if any(ex.grading is not None for ex in exercises(nb)):
            module = importlib.import_module(f"tests.course.answers.nb{path.name[:2]}")
            out.append(Case(path, module.EXERCISES))
    return out


def submissions(nb, table: dict, mixed: bool) -> dict:
    """Each simulated student's exercise cells: {student: {exercise number: source}}."""
    found = exercises(nb)
    graded = [ex.number for ex in found if ex.grading is not None]
    first = graded[0]
    out = {
        "right": {ex.number: table[ex.number].right[0] for ex in found},
        "wrong": {ex.number: table[ex.number].wrong[0][0] for ex in found},
        "broken": {ex.number: LOOP if ex.number == first else BROKEN for ex in found},
    }
    if mixed:
        out["mixed"] = {k: (out["right"] if k == first else out["wrong"])[k] for k in out["right"]}
    return out


def expected_scores(nb, mixed: bool) -> dict:
    """{student: {grade id of each hidden test: its score}} the gradebook must hold."""
    tests = {
        f"ex{ex.number}-test": points(nb.cells[ex.grading])
        for ex in exercises(nb)
        if ex.grading is not None
    }
    first = next(iter(tests))
    out = {
        "right": dict(tests),
        "wrong": dict.fromkeys(tests, 0.0),
        "broken": dict.fromkeys(tests, 0.0),
    }
    if mixed:
        out["mixed"] = {g: (p if g == first else 0.0) for g, p in tests.items()}
    return out


def nbgrader(folder: Path, jupyter_config: Path, *args: str) -> str:
    """Run ``nbgrader ARGS`` in ``folder`` as a teacher or student would; return its log."""
    env = dict(
        os.environ,
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        JUPYTER_CONFIG_DIR=str(jupyter_config),  # no one's own ~/.jupyter config
    )
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise AssertionError(f"nbgrader {' '.join(args)} failed in {folder}:\n{done.stderr}")
    return done.stderr


def hand_in(release_nb: Path, answers: dict) -> None:
    """Write ``answers`` into the exercise cells (grade ids ``exK``) of a fetched notebook."""
    nb = nbformat.read(release_nb, as_version=4)
    for cell in nb.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id.startswith("ex") and grade_id[2:].isdigit():
            cell.source = answers[int(grade_id[2:])]
    nbformat.write(nb, release_nb)


def as_student(action: str, home: Path, exchange: Path, student: str, assignment: str) -> None:
    """``fetch_assignment``, ``submit`` or ``fetch_feedback`` as ``student`` working in ``home``,
    through nbgrader's exchange classes, as the Assignment List panel of a student's JupyterLab
    calls them (in its server's process; here, this one)."""
    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange import ExchangeFactory
    from traitlets.config import Config

    config = Config()
    config.Exchange.root = str(exchange)
    config.Exchange.assignment_dir = str(home)
    config.Exchange.cache = str(home / ".nbgrader_cache")  # each student's own, as on a hub
    config.CourseDirectory.root = str(home)
    config.CourseDirectory.course_id = COURSE_ID
    config.CourseDirectory.assignment_id = assignment
    config.CourseDirectory.student_id = student
    factory = ExchangeFactory(config=config)
    make = {
        "fetch_assignment": factory.FetchAssignment,
        "submit": factory.Submit,
        "fetch_feedback": factory.FetchFeedback,
    }[action]
    app = make(
        coursedir=CourseDirectory(config=config),
        authenticator=Authenticator(config=config),
        config=config,
    )
    app.start()


def gradebook_scores(course: Path, assignment: str, students) -> dict:
    """{student: {grade id: score}} of the hidden tests, from the course's gradebook."""
    from nbgrader.api import Gradebook

    with venv_on_path(), Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gb:
        out = {}
        for student in students:
            nb = gb.find_submission_notebook(assignment, assignment, student)
            out[student] = {g.name: g.score for g in nb.grades if g.name.endswith("-test")}
        return out


def run_loop(case: Case, work: Path) -> Outcome:
    """Release, fetch, submit, collect, autograde, feedback, export: the whole loop."""
    start = time.perf_counter()
    nb = nbformat.read(case.path, as_version=4)
    course, exchange, config = work / "course", work / "exchange", work / "jupyter"
    config.mkdir(parents=True)
    build_course([case.path], course, timeout=TIMEOUT_S)
    exchange.mkdir()
    (course / "nbgrader_config_local.py").write_text(
        f"c = get_config()  # noqa: F821\nc.Exchange.root = {str(exchange)!r}\n"
        f"c.Exchange.cache = {str(work / 'teacher_cache')!r}\n"
        "c.ExchangeCollect.check_owner = False  # every simulated student is this Unix user\n"
    )
    teacher = lambda *args: nbgrader(course, config, *args)  # noqa: E731
    teacher("release_assignment", case.name)
    students = submissions(nb, case.table, case.mixed)
    homes = {s: work / "students" / s for s in students}
    for student, answers in students.items():
        homes[student].mkdir(parents=True)
        as_student("fetch_assignment", homes[student], exchange, student, case.name)
        hand_in(homes[student] / case.name / case.path.name, answers)
        as_student("submit", homes[student], exchange, student, case.name)
    teacher("collect", case.name)
    log = [teacher("autograde", case.name)]
    teacher("generate_feedback", case.name)
    teacher("export", "--to", str(work / "grades.csv"))
    teacher("release_feedback", case.name)
    fetched = {}
    for student, home in homes.items():
        as_student("fetch_feedback", home, exchange, student, case.name)
        fetched[student] = sorted((home / case.name / "feedback").glob("*/*.html"))
    with open(work / "grades.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["assignment"] == case.name]
    feedback = {s: course / "feedback" / s / case.name / f"{case.name}.html" for s in students}
    return Outcome(
        rows=rows,
        scores=gradebook_scores(course, case.name, students),
        feedback=feedback,
        fetched=fetched,
        seconds=time.perf_counter() - start,
        log=log,
    )


def fixture_case(folder: Path) -> Case:
    path = folder / fixture_course.NAME
    nbformat.write(fixture_course.notebook(), path)
    return Case(path, fixture_course.EXERCISES, mixed=True)


def _selected(request) -> set:
    """Names of the graded notebooks whose tests pytest is about to run (all, or those -k chose)."""
    return {
        item.callspec.params["case"].name
        for item in request.session.items
        if hasattr(item, "callspec") and "case" in item.callspec.params
    }


@pytest.fixture(scope="module")
def outcomes(request, tmp_path_factory) -> dict:
    """The fixture's loop and each selected notebook's, two at a time, each in its own course
    directory; the time each took is written to the terminal."""
    chosen = _selected(request)
    cases = [fixture_case(tmp_path_factory.mktemp("fixture"))]
    cases += [c for c in graded_cases() if c.name in chosen]
    work = {c.name: tmp_path_factory.mktemp(c.name) for c in cases}
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=WORKERS) as pool:
        futures = {c.name: pool.submit(run_loop, c, work[c.name]) for c in cases}
    done = {n: (f.result() if f.exception() is None else f.exception()) for n, f in futures.items()}
    times = [f"{n} {o.seconds:.0f} s" for n, o in done.items() if isinstance(o, Outcome)]
    report = request.config.pluginmanager.get_plugin("terminalreporter")
    capture = request.config.pluginmanager.get_plugin("capturemanager")
    if report is not None and capture is not None:
        with capture.global_and_fixture_disabled():
            report.write_line(
                f"\ngrading loop ({WORKERS} at a time, timeout {TIMEOUT_S} s): "
                f"{', '.join(times)}; {time.perf_counter() - start:.0f} s in all"
            )
    return done


def assert_graded_right(case: Case, outcome) -> None:
    """The exported CSV, the gradebook's per-test scores and the feedback pages of ``case``."""
    if isinstance(outcome, BaseException):
        raise outcome
    nb = nbformat.read(case.path, as_version=4)
    expected = expected_scores(nb, case.mixed)
    total = float(sum(expected["right"].values()))
    exported = {r["student_id"]: (float(r["score"]), float(r["max_score"])) for r in outcome.rows}
    log = outcome.log[-1][-4000:]
    assert exported == {s: (float(sum(v.values())), total) for s, v in expected.items()}, log
    assert outcome.scores == {s: {g: float(p) for g, p in v.items()} for s, v in expected.items()}
    for student, page in outcome.feedback.items():
        text = page.read_text(encoding="utf-8")
        score = sum(expected[student].values())
        assert f"Score: {score:.1f} / {total:.1f}" in text or f"{score} / {total}" in text, student
        assert "BEGIN HIDDEN TESTS" not in text
        assert [p.name for p in outcome.fetched[student]] == [page.name]


def test_the_fixture_course_is_graded_exactly(outcomes, tmp_path):
    case = fixture_case(tmp_path)
    outcome = outcomes[case.name]
    assert_graded_right(case, outcome)
    assert outcome.seconds > 0
    assert {r["student_id"]: r["score"] for r in outcome.rows} == {
        "right": "10.0",
        "wrong": "0.0",
        "mixed": "4.0",
        "broken": "0.0",
    }
    broken = outcome.feedback["broken"].read_text(encoding="utf-8")
    assert "CellTimeoutError" in broken and "ValueError" in broken
    for page in outcome.feedback.values():  # the hidden tests' code stays hidden
        assert "rng_test" not in page.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", graded_cases(), ids=lambda c: c.path.name)
def test_a_graded_notebook_is_graded_exactly(outcomes, case):
    assert_graded_right(case, outcomes[case.name])


def test_every_notebook_asked_for_is_graded():
    missing = wanted() - {c.path.name[:2] for c in graded_cases()}
    assert not missing, f"no grading cells or no answer table for notebooks {sorted(missing)}"
