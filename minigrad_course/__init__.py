"""Helpers for the course's exercise cells: answer checks that never show the answer.

A check cell compares a student's answer with a *digest* (a short hash) of the right answer, so
the check's code and its output can sit in the student's copy without giving the answer away;
the graded tests that count are hidden in the students' copies (nbgrader, see docs/teaching.md).

Example:
    >>> from minigrad_course import digest, verdict
    >>> right = digest([8.0, 0.0, 12.0])
    >>> verdict("answer_1", [8, 0, 12], right, expect="a list of three numbers")
    'Correct.'
    >>> verdict("answer_1", ..., right, expect="a list of three numbers")
    'answer_1 is not answered yet: set it to a list of three numbers.'
"""

from minigrad_course.checks import (
    NotAnswered,
    canonical,
    check,
    check_code,
    code_verdict,
    digest,
    is_right,
    verdict,
)
from minigrad_course.compare import (
    AutogradUsed,
    Comparison,
    as_array,
    cmp,
    compare_grads,
    first_wrong,
    forbid_autograd,
    grad_table,
    likely_mistake,
)

__all__ = [
    "AutogradUsed",
    "Comparison",
    "NotAnswered",
    "as_array",
    "canonical",
    "check",
    "check_code",
    "cmp",
    "code_verdict",
    "compare_grads",
    "digest",
    "first_wrong",
    "forbid_autograd",
    "grad_table",
    "is_right",
    "likely_mistake",
    "verdict",
]
