"""minigrad_course.compare: the ``cmp`` table of backprop-by-hand exercises says exact / close /
how far for each gradient, names the first wrong one and the usual mistake behind it, never
raises on what a student hands in, and ``forbid_autograd`` switches autograd off and back on."""

from __future__ import annotations

import math

import numpy as np
import pytest

import minigrad as mg
from minigrad_course import (
    AutogradUsed,
    cmp,
    compare_grads,
    first_wrong,
    forbid_autograd,
    grad_table,
    likely_mistake,
)

REF = np.array([[0.5, -0.25, 0.125], [1.0, 2.0, -3.0]])


# --- one gradient ------------------------------------------------------------------------------
def test_cmp_tells_exact_from_close_from_wrong():
    exact = cmp("w", REF.copy(), REF)
    assert (exact.exact, exact.close, exact.max_diff, exact.ok) == (True, True, 0.0, True)
    close = cmp("w", REF + 1e-12, REF)
    assert (close.exact, close.close, close.ok) == (False, True, True)
    assert close.max_diff == pytest.approx(1e-12, rel=1e-3)
    wrong = cmp("w", REF * 1.01, REF)
    assert (wrong.exact, wrong.close, wrong.ok) == (False, False, False)
    assert wrong.max_diff == pytest.approx(0.03)


def test_a_comparison_prints_as_one_line():
    assert str(cmp("w", REF + 1e-12, REF)) == "w | exact: no | close: yes | max |diff|: 1e-12"
    assert str(cmp("w", REF, REF)) == "w | exact: yes | close: yes | max |diff|: 0"
    assert str(cmp("w", ..., REF)) == "w | not written yet (still `...`)"


def test_cmp_accepts_tensors_lists_and_numbers():
    assert cmp("w", mg.tensor(REF, requires_grad=True), REF).exact
    assert cmp("w", REF.tolist(), mg.tensor(REF)).exact
    assert cmp("s", 2.0, np.float64(2.0)).exact
    assert cmp("w", mg.tensor(REF.astype(np.float32)), REF).close  # float32 rounding is close


@pytest.mark.parametrize(
    "mine, problem",
    [
        (..., "not written yet"),
        (None, "None (is a `return`"),
        ("0.5", "not an array of numbers (a str)"),
        (REF.T, "shape (3, 2), but w has shape (2, 3)"),
        (REF[:, :1], "shape (2, 1), but w has shape (2, 3)"),
    ],
    ids=["placeholder", "None", "text", "transposed", "too small"],
)
def test_cmp_reports_what_cannot_be_compared(mine, problem):
    row = cmp("w", mine, REF)
    assert not row.ok and not row.exact and math.isnan(row.max_diff)
    assert problem in row.problem


def test_nan_is_never_close():
    mine = REF.copy()
    mine[0, 0] = np.nan
    assert not cmp("w", mine, REF).ok


# --- a table of gradients ----------------------------------------------------------------------
REFERENCE = {"probs": np.array([0.5, 0.25]), "logits": np.array([1.0, -1.0]), "b": np.ones(3)}


def test_rows_follow_the_reference_order_or_names_and_missing_names_are_rows():
    rows = compare_grads({"logits": [1.0, -1.0]}, REFERENCE)
    assert [r.name for r in rows] == ["probs", "logits", "b"]
    assert [r.ok for r in rows] == [False, True, False]
    assert rows[0].problem == "missing from the dict"
    rows = compare_grads(REFERENCE, REFERENCE, names=["b", "probs"])
    assert [r.name for r in rows] == ["b", "probs"] and all(r.exact for r in rows)


def test_first_wrong_is_the_first_row_that_is_not_close():
    mine = {"probs": [0.5, 0.25], "logits": [1.0, 1.0], "b": [2.0, 2.0, 2.0]}
    assert first_wrong(compare_grads(mine, REFERENCE)).name == "logits"
    assert first_wrong(compare_grads(REFERENCE, REFERENCE)) is None


def test_the_table_marks_the_first_wrong_row_only():
    mine = {"probs": [0.5, 0.25], "logits": [1.0, 1.0], "b": [2.0, 2.0, 2.0]}
    lines = grad_table(mine, REFERENCE).splitlines()
    assert lines[0].split() == ["gradient", "shape", "exact", "close", "max", "|diff|"]
    assert lines[1].split() == ["probs", "(2,)", "yes", "yes", "0"]
    assert lines[2].split()[:5] == ["logits", "(2,)", "no", "no", "2"]
    assert lines[2].endswith("<- the first wrong one")
    assert lines[3].split()[:4] == ["b", "(3,)", "no", "no"]
    assert "first wrong" not in lines[3]
    assert "first wrong" not in grad_table(REFERENCE, REFERENCE)


def test_the_table_marks_a_missing_first_gradient_too():
    table = grad_table({"logits": [1.0, -1.0]}, REFERENCE)
    assert "missing from the dict  <- the first wrong one" in table.splitlines()[1]


def _raises():
    raise ValueError("boom")


@pytest.mark.parametrize(
    "mine, first_line",
    [
        (_raises, "calling it raised ValueError: boom"),
        (..., "not answered yet"),
        ([1.0, 2.0], "expected a dict of gradients by name, got a list"),
        (lambda: None, "expected a dict of gradients by name, got a NoneType"),
    ],
    ids=["raises", "placeholder", "list", "returns None"],
)
def test_the_table_never_raises_and_says_why_it_is_empty(mine, first_line):
    lines = grad_table(mine, REFERENCE).splitlines()
    assert lines[0] == first_line
    assert len(lines) == 2 + len(REFERENCE)  # the note, the header, a row per name
    assert all("missing from the dict" in line for line in lines[2:])


def test_the_table_calls_a_function_that_returns_the_gradients():
    assert "no" not in grad_table(lambda: REFERENCE, REFERENCE).split("\n", 1)[1].split()


# --- the usual mistakes ------------------------------------------------------------------------
W = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])


@pytest.mark.parametrize(
    "mine, reference, n, phrase",
    [
        (W.T, W, None, "a transposed gradient"),
        (np.ones((4, 3)), np.ones(3), None, "summed over the broadcast dims"),
        (np.ones((4, 3)), np.ones((4, 1)), None, "summed over the broadcast dims"),
        (np.ones((2, 2)), np.ones(3), None, "a gradient has the shape of its tensor"),
        (32 * W, W, 32, "n = 32 times too large: a mean over the batch divides by n"),
        (W / 32, W, 32, "n = 32 times too small"),
        (-W, W, 32, "has the wrong sign"),
        (2.5 * W, W, 32, "2.5 times the right gradient"),
        (W * np.nan, W, None, "NaN or inf"),
    ],
)
def test_a_wrong_gradient_gets_the_mistake_its_numbers_show(mine, reference, n, phrase):
    said = likely_mistake("w", mine, reference, n=n)
    assert said.startswith('d["w"] ') and phrase in said


@pytest.mark.parametrize(
    "mine",
    [W, W + 1e-13, W + np.arange(3.0), "text", ...],
    ids=["right", "close", "unrelated", "text", "placeholder"],
)
def test_no_mistake_is_named_where_the_numbers_show_none(mine):
    assert likely_mistake("w", mine, W, n=32) is None


def test_a_factor_is_not_blamed_on_n_when_n_is_not_given_or_one():
    assert "constant factor" in likely_mistake("w", 32 * W, W)
    assert "constant factor" in likely_mistake("w", 2 * W, W, n=1)


# --- autograd switched off -----------------------------------------------------------------------
def _square_sum(x):
    return (x * x).sum()


@pytest.mark.parametrize(
    "use, what",
    [
        (lambda x: _square_sum(x).backward(), "Tensor.backward()"),
        (lambda x: mg.autograd.grad(_square_sum(x), x), "mg.autograd.grad()"),
        (lambda x: mg.autograd.backward(_square_sum(x)), "mg.autograd.backward()"),
        (lambda x: mg.autograd.functional.vjp(_square_sum, x), "a backward pass"),
    ],
    ids=["Tensor.backward", "autograd.grad", "autograd.backward", "functional.vjp"],
)
def test_every_way_into_autograd_raises_inside_the_block(use, what):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(AutogradUsed, match="by hand, without autograd") as info:
        with forbid_autograd():
            use(x)
    assert str(info.value).startswith(what)
    assert x.grad is None


def test_autograd_works_again_after_the_block_however_it_ends():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(KeyError):
        with forbid_autograd():
            {}["missing"]
    _square_sum(x).backward()
    assert x.grad.tolist() == [2.0, 4.0]
    (g,) = mg.autograd.grad(_square_sum(x), x)
    assert g.tolist() == [2.0, 4.0]
    assert isinstance(AutogradUsed("x"), RuntimeError)  # PyTorch's class for autograd misuse


def test_numpy_and_tensor_ops_without_autograd_still_run_inside_the_block():
    with forbid_autograd():
        y = mg.tensor([1.0, 2.0]) @ mg.tensor([3.0, 4.0])
        z = np.tanh(np.arange(3.0))
    assert y.item() == 11.0 and z.shape == (3,)
