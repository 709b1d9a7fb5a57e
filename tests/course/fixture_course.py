"""A small notebook that follows the exercise conventions, and its answer table.

The course's own notebooks are converted in parallel; the answer-table runner and the grading
loop are tested here on this fixture, which has what the course has: a value exercise checked
by digest (graded), a code exercise checked against autograd (graded, hidden test on random
shapes), and a predict-then-run exercise (ungraded, its run tagged ``reveal``). Its points add
up to 10. ``broken_notebook()`` is the same notebook with bugs the tests must catch.
"""

from __future__ import annotations

import nbformat

from tests.course.answers import Exercise

NAME = "99_fixture_course.ipynb"
SOLUTION = "# Solution to Exercise {k} (open it after you have tried)\n"
GRADING = "# Grading test for Exercise {k} ({n} points): hidden in students' copies\n"
ANSWER_1 = "77c52f3feed5acdd"  # digest(12.0)
SIX, EIGHT = "8ab31b5afaea5611", "7b1bd53949b752d1"  # digest(6.0), digest(8.0)
REVERSE, FORWARD = "d1e23d6d087cbf4e", "af40eb774234e111"  # digest("reverse"), digest("forward")

CHECK_1 = f"""# NBVAL_CHECK_OUTPUT
from minigrad_course import check

check(
    "answer_1",
    answer_1,
    "{ANSWER_1}",
    expect="a number",
    wrong={{
        "{SIX}": "3 * x is the power rule without the square.",
        "{EIGHT}": "that is y itself, not its slope.",
    }},
    hint="differentiate x**3 and put x = 2 in.",
)"""

TEST_1 = f"""### BEGIN HIDDEN TESTS
from minigrad_course import is_right

assert is_right(answer_1, "{ANSWER_1}"), "answer_1 is not right"
### END HIDDEN TESTS"""

EXERCISE_2 = '''def cube_grad(t):
    """The gradient of (t**3).sum() with respect to the numpy array t."""
    return ...  # a numpy array shaped like t'''

CHECK_2 = """# NBVAL_CHECK_OUTPUT
from minigrad_course import NotAnswered, check_code


def test_cube_grad():
    t = mg.tensor([1.0, -2.0, 0.5], requires_grad=True)
    (t**3).sum().backward()
    mine = cube_grad(t.detach().numpy())
    if mine is ...:
        raise NotAnswered
    mine = np.asarray(mine, dtype=float)
    assert mine.shape == (3,), f"cube_grad(t) should have t's shape (3,), not {mine.shape}"
    if np.allclose(mine, 3 * t.detach().numpy()):
        raise AssertionError("3 * t is the power rule without the square.")
    if np.allclose(mine, t.detach().numpy() ** 3):
        raise AssertionError("that is the function itself, not its gradient.")
    assert np.allclose(mine, t.grad.numpy()), "cube_grad(t) does not match autograd's t.grad."


check_code("cube_grad", test_cube_grad, expect="the function cube_grad(t)")"""

TEST_2 = """### BEGIN HIDDEN TESTS
import numpy as np

import minigrad as mg

rng_test = np.random.default_rng(7)
for shape in [(4,), (2, 3), (1, 5, 2)]:
    t = mg.tensor(rng_test.normal(size=shape), requires_grad=True)
    (t**3).sum().backward()
    mine = np.asarray(cube_grad(t.detach().numpy()), dtype=float)
    assert mine.shape == shape, f"cube_grad gives shape {mine.shape} for {shape}"
    assert np.allclose(mine, t.grad.numpy()), f"cube_grad is wrong on shape {shape}"
### END HIDDEN TESTS"""

CHECK_3 = f"""# NBVAL_CHECK_OUTPUT
from minigrad_course import check

check(
    "answer_3",
    answer_3,
    "{REVERSE}",
    expect='"forward" or "reverse"',
    wrong={{"{FORWARD}": "forward mode pushes tangents from the inputs; backward() does not."}},
)"""

REVEAL_3 = """x = mg.tensor(2.0, requires_grad=True)
(x**3).backward()  # one pass from y back to x: reverse mode
print(x.grad.item())"""

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = 3 * 2.0**2",
            "answer_1 = 12",
            "answer_1 = np.float32(12.0)",
            "answer_1 = mg.tensor(12.0)",
        ),
        wrong=(("answer_1 = 6.0", "power rule"), ("answer_1 = 8", "y itself")),
    ),
    2: Exercise(
        right=(
            "def cube_grad(t):\n    return 3 * t**2",
            "def cube_grad(t):\n    return 3.0 * t * t",
            "def cube_grad(t):\n    return list(3 * np.power(t, 2))",
        ),
        wrong=(
            ("def cube_grad(t):\n    return 3 * t", "power rule"),
            ("def cube_grad(t):\n    return t**3", "the function itself"),
        ),
    ),
    3: Exercise(
        right=('answer_3 = "reverse"', "answer_3 = 'Reverse'", 'answer_3 = " REVERSE "'),
        wrong=(('answer_3 = "forward"', "tangents"),),
    ),
}


def _md(text: str):
    return nbformat.v4.new_markdown_cell(text)


def _code(text: str, tag: str | None = None, **meta):
    cell = nbformat.v4.new_code_cell(text)
    if tag:
        cell.metadata["tags"] = [tag]
    if tag in ("solution", "grading"):
        cell.metadata["jupyter"] = {"source_hidden": True}
    cell.metadata.update(meta)
    return cell


def _exercise(k: int, prompt: str, placeholder: str, solution: str, check: str, *rest):
    return [
        _md(f"### Exercise {k}: {prompt}"),
        _code(placeholder, "exercise"),
        _code(SOLUTION.format(k=k) + solution, "solution"),
        *rest[:-1],
        _code(check, "check"),
        *rest[-1:],
    ]


def _grading(k: int, n: int, region: str):
    return _code(GRADING.format(k=k, n=n) + region, "grading", points=n)


def notebook():
    """The fixture notebook, unexecuted: three exercises, two graded (4 + 6 points)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        _md("# 99 · A fixture\n\nThe exercise conventions on a cube."),
        _code("import numpy as np\n\nimport minigrad as mg\n\nmg.manual_seed(0)"),
        _md("## y = x**3"),
        _code("x = mg.tensor(2.0, requires_grad=True)\ny = x**3\nprint(y.item())"),
        *_exercise(
            1,
            "the slope at 2",
            "answer_1 = ...  # a number",
            "# dy/dx = 3 x**2, which is 12 at x = 2\nanswer_1 = 3 * 2.0**2",
            CHECK_1,
            _grading(1, 4, TEST_1),
        ),
        *_exercise(
            2,
            "the gradient as a function",
            EXERCISE_2,
            "def cube_grad(t):\n    # d/dt_i of sum_j t_j**3 is 3 t_i**2\n    return 3 * t**2",
            CHECK_2,
            _grading(2, 6, TEST_2),
        ),
        *_exercise(
            3,
            "which way\n\n**Predict, then run.** Which mode does `backward()` run in?",
            'answer_3 = ...  # "forward" or "reverse"',
            '# backward() walks from the output back to the inputs\nanswer_3 = "reverse"',
            CHECK_3,
            _code(REVEAL_3, "reveal"),
            _md("## What to remember\n\n- the slope of x**3 is 3 x**2"),
        ),
    ]
    return nb


def broken_notebook():
    """The fixture with three bugs: exercise 1's check lost its hint for 6.0 and its hidden test
    accepts any number; exercise 2's check calls the student's function unguarded (it raises
    when the student's code does)."""
    nb = notebook()
    for cell in nb.cells:
        if cell.source == CHECK_1:
            cell.source = CHECK_1.replace(
                f'        "{SIX}": "3 * x is the power rule without the square.",\n', ""
            )
        elif cell.source.endswith(TEST_1):
            cell.source = cell.source.replace(
                f'is_right(answer_1, "{ANSWER_1}")', "isinstance(answer_1, (int, float))"
            )
        elif cell.source == CHECK_2:
            cell.source = (
                "# NBVAL_CHECK_OUTPUT\n"
                "mine = cube_grad(np.array([1.0, 2.0]))\n"
                "print('Correct.' if np.allclose(mine, [3.0, 12.0]) else 'Not yet: try again.')"
            )
    return nb
