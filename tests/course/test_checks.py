"""minigrad_course's checks: equal answers in any form share a digest, every verdict is one line,
and no check raises whatever the student wrote."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad_course import NotAnswered, canonical, code_verdict, digest, is_right, verdict

RIGHT = digest(96)


@pytest.mark.parametrize(
    "answer",
    [96, 96.0, np.int64(96), np.float32(96), mg.tensor(96.0), mg.tensor(96, dtype=mg.int64)],
    ids=["int", "float", "np.int64", "np.float32", "tensor", "int tensor"],
)
def test_a_number_in_any_form_is_right(answer):
    assert verdict("answer_3", answer, RIGHT, expect="a whole number") == "Correct."


def test_tensors_that_require_grad_and_arrays_compare_as_lists():
    want = digest([1.0, 2.0])
    assert is_right(mg.tensor([1.0, 2.0], requires_grad=True), want)
    assert is_right(np.array([1, 2]), want)
    assert is_right((1, 2), want)
    assert not is_right([2, 1], want)


def test_order_counts_only_where_it_should():
    assert is_right({"c", "a"}, digest(["a", "c"], ordered=False), ordered=False)
    assert is_right(["C", "a"], digest({"a", "c"}), ordered=False)
    assert not is_right(["c", "a"], digest(["a", "c"]))


def test_case_and_quotes_are_ignored_unless_asked():
    assert is_right(' "B" ', digest("b"))
    assert not is_right("B", digest("b", case=True), case=True)


def test_rounding_accepts_the_printed_precision():
    want = digest(math.e / 2, decimals=3)
    assert is_right(1.3591, want, decimals=3)
    assert is_right(np.float64(math.e / 2), want, decimals=3)
    assert not is_right(1.36, want, decimals=3)


def test_a_value_on_a_rounding_boundary_is_refused_when_digested():
    with pytest.raises(ValueError, match="rounding boundary"):
        digest(0.1235, decimals=3)


def test_special_values_and_signed_zero():
    assert canonical(-0.0) == 0.0
    assert canonical(float("nan")) == "nan"
    assert is_right(np.inf, digest(float("inf")))
    assert not is_right(-np.inf, digest(float("inf")))
    assert canonical(True) is True and canonical(1) == 1.0


def test_a_placeholder_anywhere_is_not_an_answer():
    with pytest.raises(NotAnswered):
        canonical({"y": ..., "u": 2})
    assert not is_right(..., RIGHT)


@pytest.mark.parametrize(
    ("answer", "start"),
    [
        (..., "answer_3 is not answered yet: set it to a whole number."),
        (32, "Not yet: only the indices"),
        (31, "Not yet: count bytes"),
        ("96", "Not yet: answer_3 should be a whole number, not the text '96'"),
        (print, "Not yet: answer_3 should be a whole number; yours is a builtin_function"),
        ([96, 1], "Not yet: answer_3 is not right"),
    ],
)
def test_each_verdict_is_one_line_naming_the_mistake(answer, start):
    kwargs = {"expect": "a whole number", "wrong": {digest(32): "only the indices?"}}
    if start.startswith("Not yet: count"):
        kwargs["hint"] = "count bytes"
    said = verdict("answer_3", answer, RIGHT, **kwargs)
    assert said.startswith(start) and "\n" not in said


def test_a_list_of_the_wrong_length_is_told_its_length():
    said = verdict("answer_1", [1, 2], digest([1, 2, 3]), expect="three floats", size=3)
    assert said == "Not yet: answer_1 should be three floats (3 items); yours is 2 items."


def test_praise_follows_correct():
    said = verdict("a", 96, RIGHT, expect="n", praise="Index bytes count too.")
    assert said == "Correct. Index bytes count too."


def test_several_right_digests():
    assert is_right(4, (digest(4), digest(5)))
    assert verdict("a", 5, (digest(4), digest(5)), expect="n") == "Correct."


def _raise(exc):
    def test():
        raise exc

    return test


@pytest.mark.parametrize(
    ("test", "said"),
    [
        (lambda: None, "Correct."),
        (lambda: "It matches autograd.", "Correct. It matches autograd."),
        (_raise(NotAnswered()), "f is not answered yet: write the function f."),
        (_raise(AssertionError("f(2) should be 4")), "Not yet: f(2) should be 4"),
        (_raise(AssertionError()), "Not yet: f gives a wrong result."),
        (_raise(KeyError("x")), "Not yet: running your f raised KeyError: 'x'"),
    ],
)
def test_code_verdicts(test, said):
    assert code_verdict("f", test, expect="the function f") == said


def test_code_that_loops_is_stopped():
    def loop():
        while True:
            pass

    said = code_verdict("f", loop, expect="f", timeout=0.2)
    assert said == "Not yet: f did not finish within 0.2 s (an endless loop?)."
