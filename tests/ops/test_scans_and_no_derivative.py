"""cummax/cummin beyond the op table (ties, NaN, integers, errors, the result's type), and
PyTorch's ops without a derivative: ``number % tensor`` and ``torch.histogram`` of a tensor
that requires grad record a ``NotImplemented`` node whose backward raises; ``float(x)`` of
such a tensor warns once, as PyTorch. The oracle tests run the same code in both libraries.
"""

from __future__ import annotations

import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
from op_table_rows import np_cum_extreme

import minigrad as mg

NAN = math.nan


# --- cummax / cummin ---------------------------------------------------------------------------
SCANS = [  # name, data, dim, running max (else min)
    ("ties move the index", [1.0, 3.0, 3.0, 2.0, 3.0], 0, True),
    ("ties, min", [3.0, 1.0, 1.0, 2.0, 1.0], 0, False),
    ("NaN sticks", [1.0, NAN, 5.0, NAN, 0.0], 0, True),
    ("NaN first, min", [NAN, -1.0, 2.0], 0, False),
    ("int64 rows", [[1, 3, 2], [2, 2, 1]], 1, True),
    ("int64 columns, min", [[1, 3, 2], [2, 2, 1]], 0, False),
    ("bool", [True, False, True], 0, True),
    ("bool, min", [True, False, True], 0, False),
    ("0-d", 2.5, -1, True),
    ("negative dim", [[0.5, -1.0], [2.0, 1.0]], -2, True),
]


def _scan(m, data, dim, larger):
    x = m.tensor(data)
    return x.cummax(dim) if larger else m.cummin(x, dim=dim)


@pytest.mark.parametrize(("name", "data", "dim", "larger"), SCANS, ids=[s[0] for s in SCANS])
def test_cummax_cummin_match_a_loop(name, data, dim, larger):
    values, indices = _scan(mg, data, dim, larger)
    want_values, want_indices = np_cum_extreme(np.asarray(data), dim, larger)
    assert indices.dtype is mg.int64 and not indices.requires_grad
    np.testing.assert_array_equal(indices.numpy(), want_indices)
    np.testing.assert_array_equal(values.numpy(), want_values.astype(values.numpy().dtype))
    assert values.dtype is mg.tensor(data).dtype


def test_cummax_of_an_empty_dim():
    values, indices = mg.zeros(0, 3).cummin(0)
    assert values.shape == indices.shape == (0, 3) and indices.dtype is mg.int64


def test_cummax_result_is_named_and_printed_as_pytorchs():
    r = mg.tensor([1.0, 3.0, 2.0]).cummax(0)
    assert r.values is r[0] and r.indices is r[1]
    assert repr(r).startswith("minigrad.return_types.cummax(\nvalues=tensor([1., 3., 3.]),\n")


def test_cummax_tie_gradient_goes_to_the_later_element():
    x = mg.tensor([1.0, 3.0, 3.0, 2.0], requires_grad=True)
    values, _ = x.cummax(0)
    (values * mg.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0, 7.0, 0.0]
    assert values.grad_fn.name() == "CummaxBackward0"


@pytest.mark.parametrize(
    ("call", "error", "says"),
    [
        (lambda: mg.tensor([1.0, 2.0]).cummax(1), IndexError, "range of [-1, 0]"),
        (lambda: mg.tensor([1.0, 2.0]).cummin(0.5), TypeError, "must be int"),
        (lambda: mg.cummax(mg.tensor(1.0), 1), IndexError, "-1 or 0 for scalar"),
        (lambda: mg.cummax([1.0, 2.0], 0), TypeError, "must be Tensor"),
    ],
)
def test_cummax_errors_name_what_is_accepted(call, error, says):
    with pytest.raises(error, match=None) as info:
        call()
    assert says in str(info.value)


# --- number % tensor: no derivative, as in PyTorch ----------------------------------------------
def test_number_remainder_values_dtypes_and_node():
    t = mg.tensor([1.5, -2.0, 3.0, -0.5], requires_grad=True)
    r = 5 % t
    np.testing.assert_allclose(r.detach().numpy(), [0.5, -1.0, 2.0, 0.0])
    assert r.grad_fn.name() == "NotImplemented" and r.grad_fn.next_functions[0][1] == 0
    assert mg.remainder(5, t).tolist() == r.tolist()
    with pytest.raises(RuntimeError, match="derivative for aten::remainder is not implemented"):
        r.sum().backward()
    assert (5 % mg.tensor([2, -3, 4])).tolist() == [1, -1, 1]
    assert (5.5 % mg.tensor([2, -3])).dtype is mg.float32
    with mg.no_grad():
        assert not (5 % t).requires_grad


def test_number_remainder_refuses_what_pytorch_refuses():
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        5 % mg.tensor([0, 1])
    with pytest.raises(NotImplementedError, match="bool"):
        True % mg.tensor([True])
    with pytest.raises(TypeError):
        mg.fmod(5, mg.tensor([1.0]))  # PyTorch has no fmod(number, tensor)
    with pytest.raises(TypeError):
        [1] % mg.tensor([1.0])


# --- histogram: NotImplemented on both results; histc: no grad ----------------------------------
def test_histogram_of_a_tensor_that_requires_grad_records_not_implemented():
    x = mg.tensor([0.1, 0.5, 0.7, 1.2], requires_grad=True)
    hist, edges = mg.histogram(x, 4)
    assert hist.grad_fn.name() == edges.grad_fn.name() == "NotImplemented"
    assert hist.tolist() == [1.0, 1.0, 1.0, 1.0]
    with pytest.raises(RuntimeError, match="derivative for aten::histogram"):
        hist.sum().backward()
    assert not mg.histc(x, 4).requires_grad
    with mg.no_grad():
        assert not mg.histogram(x, 4).hist.requires_grad
    w = mg.ones(4, requires_grad=True)
    assert len(mg.histogram(x.detach(), 3, weight=w).hist.grad_fn.next_functions) == 1


# --- float(x) warns once ------------------------------------------------------------------------
_FLOAT_SCRIPT = """
import warnings, {lib} as m
y = m.tensor(2.5, requires_grad=True)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y.item(); int(y); f"{{y:.2f}}"
    with m.no_grad():
        float(y)
    float(y.detach())
    before = len(w)
    float(y); float(y * 2)
print(before, len(w), w[-1].category.__name__, repr(str(w[-1].message).split(" (Triggered")[0]))
"""


def _float_warnings(lib):
    code = _FLOAT_SCRIPT.format(lib=lib)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)


def test_float_of_a_tensor_that_requires_grad_warns_once():
    out = _float_warnings("minigrad").stdout.split(" ", 3)
    assert out[:3] == ["0", "1", "UserWarning"]
    assert "Consider using tensor.detach() first." in out[3]


# --- the same code in PyTorch ---------------------------------------------------------------------
@pytest.mark.oracle
@pytest.mark.parametrize(("name", "data", "dim", "larger"), SCANS, ids=[s[0] for s in SCANS])
def test_cummax_cummin_match_torch(name, data, dim, larger):
    torch = pytest.importorskip("torch")
    got, want = _scan(mg, data, dim, larger), _scan(torch, data, dim, larger)
    for g, w in zip(got, want):
        assert str(g.dtype).split(".")[-1] == str(w.dtype).split(".")[-1]
        np.testing.assert_array_equal(g.numpy(), w.numpy())


@pytest.mark.oracle
def test_cummax_errors_are_torchs():
    torch = pytest.importorskip("torch")
    for call in (lambda m: m.tensor([1.0, 2.0]).cummax(1), lambda m: m.cummax(m.tensor(1.0), 1)):
        with pytest.raises(IndexError):
            call(torch)
        with pytest.raises(IndexError):
            call(mg)


@pytest.mark.oracle
@pytest.mark.parametrize(
    "expr",
    ["5 % t", "m.remainder(-5.5, t)", "True % t", "5 % m.tensor([2, -3, 4])",
     "m.remainder(-5, m.tensor([2, -3], dtype=m.int32))", "-5.0 % m.tensor([0.0, 2.0])",
     "2 % m.tensor(3.0, dtype=m.float16)"],
)  # fmt: skip
def test_number_remainder_matches_torch(expr):
    torch = pytest.importorskip("torch")
    out = {}
    for lib in (mg, torch):
        t = lib.tensor([1.5, -2.0, 3.0, -0.5], requires_grad=True)
        r = eval(expr, {"m": lib, "t": t})
        name = r.grad_fn.name().removeprefix("torch::autograd::") if r.grad_fn else None
        out[lib] = (r.detach().numpy(), str(r.dtype).split(".")[-1], name)
    np.testing.assert_array_equal(out[mg][0], out[torch][0])
    assert out[mg][1:] == out[torch][1:]


@pytest.mark.oracle
def test_histogram_graph_matches_torch():
    torch = pytest.importorskip("torch")
    for lib in (mg, torch):
        x = lib.tensor([0.1, 0.5, 0.7, 1.2], requires_grad=True)
        r = lib.histogram(x, lib.tensor([0.0, 0.5, 1.5]))
        assert r.hist.requires_grad and r.bin_edges.requires_grad
        assert r.hist.grad_fn.name().endswith("NotImplemented")
        with pytest.raises(RuntimeError, match="derivative for aten::histogram is not implemented"):
            r.bin_edges.sum().backward()
        assert not lib.histc(x, 3).requires_grad


@pytest.mark.oracle
def test_float_warning_matches_torch():
    pytest.importorskip("torch")
    with warnings.catch_warnings():
        ours = _float_warnings("minigrad").stdout
        theirs = _float_warnings("torch").stdout
    assert ours == theirs


# --- xlogy: 0 where x is 0, NaN where y is NaN; PyTorch's gradients there ------------------------
def test_xlogy_at_zero_and_nan():
    x = mg.tensor([0.0, 0.0, 1.0, 2.0], requires_grad=True)
    y = mg.tensor([0.0, NAN, NAN, 3.0], requires_grad=True)
    r = mg.xlogy(x, y)
    np.testing.assert_array_equal(r.detach().numpy(), [0.0, NAN, NAN, 2 * np.log(np.float32(3))])
    r.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [0.0, NAN, NAN, np.log(np.float32(3))])
    np.testing.assert_array_equal(y.grad.numpy()[[0, 3]], [NAN, np.float32(2) / 3])
    assert mg.xlogy(mg.tensor([0, 2]), mg.tensor([0, 3])).dtype is mg.float32
    assert [mg.xlogy(x, 2.0).grad_fn.name(), mg.xlogy(2, x).grad_fn.name()] == [
        "XlogyBackward2",
        "XlogyBackward1",
    ]


@pytest.mark.oracle
@pytest.mark.parametrize(
    "expr",
    ["m.xlogy(x, y)", "x.xlogy(2.0)", "m.xlogy(0, y)", "m.xlogy(x, y.reshape(4, 1))",
     "m.xlogy(m.tensor([0, 2]), m.tensor([0, 3]))", "m.xlogy(x, m.tensor(0.5, dtype=m.float64))"],
)  # fmt: skip
def test_xlogy_matches_torch(expr):
    torch = pytest.importorskip("torch")
    out = {}
    for lib in (mg, torch):
        x = lib.tensor([0.0, 0.0, 1.0, -2.0], requires_grad=True)
        y = lib.tensor([0.0, NAN, 0.5, 3.0], requires_grad=True)
        r = eval(expr, {"m": lib, "x": x, "y": y})
        grads = []
        if r.requires_grad:
            r.sum().backward()
            grads = [t.grad.numpy() if t.grad is not None else None for t in (x, y)]
        out[lib] = (r.detach().numpy(), str(r.dtype).split(".")[-1], grads)
    np.testing.assert_allclose(out[mg][0], out[torch][0], rtol=1e-6)
    assert out[mg][1] == out[torch][1]
    for g, w in zip(out[mg][2], out[torch][2]):
        assert (g is None) == (w is None)
        if g is not None:
            np.testing.assert_allclose(g, w, rtol=1e-6)
