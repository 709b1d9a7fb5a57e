"""Typical answers to every exercise of the course, one module per notebook (``nbNN.py``).

Each module has ``EXERCISES = {k: Exercise(...)}`` for exercise ``k`` of notebook ``NN``. The
tables drive two tests: every check cell says the right verdict on every answer
(``tests/course/test_answer_table.py``), and the grading loop's simulated students hand these
answers in (``tests/course/test_grading_loop.py``).
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Exercise:
    """What students answer to one exercise, as the source of the exercise cell they hand in.

    Attributes:
        right: right answers, the first in the reference solution's form, the others written
            differently (floats for ints, numpy scalars, tensors, sets, other orders or case,
            rounded to the decimals the notebook prints, another correct implementation).
        wrong: typical wrong answers, each with a phrase the check's hint must contain (the
            hint names that mistake).
    """

    right: tuple
    wrong: tuple
