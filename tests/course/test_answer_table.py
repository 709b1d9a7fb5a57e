"""Every check cell says the right thing about every answer in its notebook's answer table, and
every hidden test gives points to the right answers only.

For each notebook ``notebooks/NN_*.ipynb`` that has a table ``tests/course/answers/nbNN.py``,
one kernel (working folder ``notebooks/``, this checkout on ``PYTHONPATH``) runs the lesson's
cells in order, never a ``solution`` or ``grading`` cell. At each exercise it tries every answer:
each ``right`` one, each ``wrong`` one, the untouched placeholder, and a cell that raises
(``BROKEN``). For each it runs the notebook's placeholder (the state of a student who ran the
handout), then the answer as the exercise cell, the exercise's experiment cells, the check, and
the grading cell's hidden region. Then the check must print exactly one line, and

* a right answer: ``Correct.``, and its hidden test passes, printing nothing;
* a wrong answer: ``Not yet:`` with the table's phrase (the hint names that mistake), and its
  hidden test raises;
* the placeholder: ``<name> is not answered yet``, and its hidden test raises (not hangs);
* the broken cell: a ``Not yet`` or ``not answered`` line, never a traceback; its hidden test
  raises.

Then the exercise, its solution and its experiment run as in the committed notebook, so later
exercises see the notebook's own state. A failure names the notebook, the exercise, the answer's
source and what the check printed. The last tests run the same runner on a fixture notebook, and
on a copy of it with broken checks, to show the runner finds what it is for.
"""

from __future__ import annotations

import importlib
import textwrap
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

from tests.course import fixture_course
from tests.course.answers import Exercise as Answers
from tests.course.kernel import Kernel, error_of, printed
from tools.course import NOTEBOOKS, notebooks
from tools.exercises import exercises, hidden_region

pytest.importorskip("nbclient")
ANSWERS = Path(__file__).parent / "answers"
BROKEN = "raise ValueError('boom')"
CELL_TIMEOUT_S = 60


def table_module(path: Path) -> str:
    """The answer table's module name for notebook ``NN_name.ipynb``: ``tests.course.answers.nbNN``."""
    return f"tests.course.answers.nb{path.name[:2]}"


def with_tables() -> list:
    """The course notebooks that have an answer table."""
    return [p for p in notebooks() if (ANSWERS / f"nb{p.name[:2]}.py").exists()]


@dataclass(frozen=True)
class Candidate:
    """One answer handed in as an exercise cell: its kind, its source, the hint's phrase."""

    kind: str  # "right", "wrong", "placeholder" or "broken"
    source: str
    phrase: str = ""


def candidates(entry: Answers, placeholder: str) -> list:
    """The answers to try at one exercise, in order: right, wrong, placeholder, broken."""
    return (
        [Candidate("right", src) for src in entry.right]
        + [Candidate("wrong", src, phrase) for src, phrase in entry.wrong]
        + [Candidate("placeholder", placeholder), Candidate("broken", BROKEN)]
    )


def table_problems(table: dict, numbers: list) -> list:
    """What is wrong with a table's shape: exercises missing or unknown, empty or malformed
    entries (``right``: sources; ``wrong``: (source, phrase) pairs)."""
    out = [f"exercise {k}: not in the answer table" for k in numbers if k not in table]
    out += [
        f"exercise {k}: in the table but not in the notebook" for k in table if k not in numbers
    ]
    for k, entry in table.items():
        if not isinstance(entry, Answers) or not entry.right or not entry.wrong:
            out.append(f"exercise {k}: needs an Exercise with right and wrong answers")
        elif not all(isinstance(s, str) for s in entry.right):
            out.append(f"exercise {k}: each right answer is a source string")
        elif not all(
            isinstance(w, tuple) and len(w) == 2 and all(isinstance(x, str) and x for x in w)
            for w in entry.wrong
        ):
            out.append(f"exercise {k}: each wrong answer is a (source, phrase) pair")
    return out


def check_problem(c: Candidate, outputs: list) -> str | None:
    """Why the check's ``outputs`` are not what ``c`` deserves, or None."""
    error = error_of(outputs)
    if error:
        return f"the check raised {error}"
    stdout = "".join(
        o.get("text", "")
        for o in outputs
        if o.get("output_type") == "stream" and o.name == "stdout"
    )
    others = [o for o in outputs if not (o.get("output_type") == "stream" and o.name == "stdout")]
    if others or stdout.count("\n") != 1 or not stdout.endswith("\n"):
        return "the check did not print exactly one line"
    line = stdout.strip()
    if c.kind == "right" and not line.startswith("Correct."):
        return "expected a line starting `Correct.`"
    if c.kind == "wrong" and not (line.startswith("Not yet:") and c.phrase in line):
        return f"expected `Not yet:` with the hint {c.phrase!r}"
    if c.kind == "placeholder" and not (
        " not answered yet" in line and not line.startswith(("Correct", "Not yet"))
    ):
        return "expected `... not answered yet`"
    if c.kind == "broken" and not (line.startswith("Not yet") or " not answered yet" in line):
        return "expected a `Not yet` or `not answered yet` line"
    return None


def grading_problem(c: Candidate, outputs: list) -> str | None:
    """Why the hidden test's ``outputs`` are not what ``c`` deserves, or None."""
    error = error_of(outputs)
    if c.kind == "right":
        if error:
            return f"the hidden test failed on a right answer: {error}"
        return "the hidden test printed something" if printed(outputs) else None
    if error is None:
        return "the hidden test passed, but the answer is not right"
    return "the hidden test hung (stopped at the timeout)" if error == "timeout" else None


def _report(label: str, k: int, c: Candidate, problem: str, outputs: list) -> str:
    said = printed(outputs).strip() or "(nothing)"
    error = error_of(outputs)
    return (
        f"{label} exercise {k}, {c.kind} answer:\n{textwrap.indent(c.source, '    | ')}\n"
        f"  {problem}\n  printed: {said}" + (f"\n  raised: {error}" if error else "")
    )


def try_answers(kernel: Kernel, nb, ex, entry: Answers, label: str) -> list:
    """Hand in every candidate answer at exercise ``ex``; return the problems found."""
    cells, out = nb.cells, []
    placeholder = cells[ex.exercise].source
    for c in candidates(entry, placeholder):
        kernel.run(placeholder)
        ran = kernel.run(c.source)
        if c.kind == "right" and error_of(ran):
            out.append(_report(label, ex.number, c, "the right answer itself raised", ran))
            continue
        for j in ex.experiment:
            done = kernel.run(cells[j].source)
            if error_of(done) and c.kind in ("right", "placeholder"):
                out.append(_report(label, ex.number, c, f"experiment cell {j} raised", done))
        said = kernel.run(cells[ex.check].source)
        problem = check_problem(c, said)
        if problem:
            out.append(_report(label, ex.number, c, problem, said))
        if ex.grading is not None:
            graded = kernel.run(hidden_region(cells[ex.grading].source))
            problem = grading_problem(c, graded)
            if problem:
                out.append(_report(label, ex.number, c, problem, graded))
    return out


def _run_lesson(kernel: Kernel, nb, indices, label: str) -> str | None:
    """Run the lesson's code cells ``indices``; the first that raises, as a problem."""
    for j in indices:
        cell = nb.cells[j]
        if cell.cell_type != "code":
            continue
        outputs = kernel.run(cell.source)
        if error_of(outputs):
            return f"{label} cell {j} raised {error_of(outputs)}; the run stopped there"
    return None


def run_table(nb, table: dict, cwd: Path, label: str) -> list:
    """Drive notebook ``nb`` through one kernel in ``cwd`` with its answer table; return every
    problem found (empty when each check and hidden test says the right thing)."""
    found = exercises(nb)
    out = [f"{label} {p}" for p in table_problems(table, [ex.number for ex in found])]
    with Kernel(cwd, timeout=CELL_TIMEOUT_S) as kernel:
        start = 0
        for ex in found:
            stopped = _run_lesson(kernel, nb, range(start, ex.exercise), label)
            if stopped:
                return out + [stopped]
            if isinstance(table.get(ex.number), Answers):
                out += try_answers(kernel, nb, ex, table[ex.number], label)
            restore = [ex.exercise, ex.solution, *ex.experiment]
            stopped = _run_lesson(kernel, nb, restore, f"{label} exercise {ex.number}:")
            if stopped:
                return out + [stopped]
            start = ex.last + 1
    return out


@pytest.mark.parametrize("path", with_tables(), ids=lambda p: p.name)
def test_every_check_and_hidden_test_judges_the_answer_table_right(path):
    nb = nbformat.read(path, as_version=4)
    table = importlib.import_module(table_module(path)).EXERCISES
    problems = run_table(nb, table, NOTEBOOKS, path.name)
    assert not problems, "\n\n".join(problems)


# --- the runner finds what it is for ---------------------------------------------------------
def test_the_fixture_notebook_passes_with_its_table(tmp_path):
    nb = fixture_course.notebook()
    assert run_table(nb, fixture_course.EXERCISES, tmp_path, fixture_course.NAME) == []


def _summary(problem: str) -> tuple:
    """(header, the answer's first line, what is wrong) of one reported problem."""
    lines = problem.splitlines()
    what = next(line for line in lines[1:] if not line.startswith("    | "))
    return lines[0], lines[1].removeprefix("    | "), what.strip()


def test_broken_checks_and_a_lenient_hidden_test_are_reported(tmp_path):
    problems = run_table(fixture_course.broken_notebook(), fixture_course.EXERCISES, tmp_path, "nb")
    ellipsis = (
        "the check raised TypeError: unsupported operand type(s) for -: 'ellipsis' and 'float'"
    )
    rejected = "the hidden test failed on a right answer: AssertionError: answer_1 is not right"
    assert sorted(_summary(p) for p in problems) == sorted(
        [
            ("nb exercise 1, right answer:", "answer_1 = np.float32(12.0)", rejected),
            ("nb exercise 1, right answer:", "answer_1 = mg.tensor(12.0)", rejected),
            (
                "nb exercise 1, wrong answer:",
                "answer_1 = 6.0",
                "expected `Not yet:` with the hint 'power rule'",
            ),
            (
                "nb exercise 1, wrong answer:",
                "answer_1 = 6.0",
                "the hidden test passed, but the answer is not right",
            ),
            (
                "nb exercise 1, wrong answer:",
                "answer_1 = 8",
                "the hidden test passed, but the answer is not right",
            ),
            (
                "nb exercise 2, wrong answer:",
                "def cube_grad(t):",
                "expected `Not yet:` with the hint 'power rule'",
            ),
            (
                "nb exercise 2, wrong answer:",
                "def cube_grad(t):",
                "expected `Not yet:` with the hint 'the function itself'",
            ),
            ("nb exercise 2, placeholder answer:", "def cube_grad(t):", ellipsis),
            ("nb exercise 2, broken answer:", "raise ValueError('boom')", ellipsis),
        ]
    )
    wrong_1 = next(p for p in problems if "answer_1 = 6.0" in p and "hint" in p)
    assert "printed: Not yet: differentiate x**3 and put x = 2 in." in wrong_1


def test_a_lesson_cell_that_raises_stops_the_run_and_says_where(tmp_path):
    nb = fixture_course.notebook()
    nb.cells[3].source = "x = undefined_name"
    problems = run_table(nb, fixture_course.EXERCISES, tmp_path, "nb")
    assert problems == [
        "nb cell 3 raised NameError: name 'undefined_name' is not defined; the run stopped there"
    ]


def test_a_table_that_misses_an_exercise_is_reported(tmp_path):
    table = {k: v for k, v in fixture_course.EXERCISES.items() if k != 3}
    table[4] = fixture_course.EXERCISES[3]
    assert table_problems(table, [1, 2, 3]) == [
        "exercise 3: not in the answer table",
        "exercise 4: in the table but not in the notebook",
    ]
    bad = {1: Answers(right=("answer_1 = 12",), wrong=("answer_1 = 6",))}
    assert table_problems(bad, [1]) == ["exercise 1: each wrong answer is a (source, phrase) pair"]
