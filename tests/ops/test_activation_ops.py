"""Activation functions (ops/activation.py, nn.functional): what the op table does not cover.

Node names and saved values, stability at +-1000, softplus past its threshold, in-place forms,
integer and bool inputs, and bad arguments, each side by side with PyTorch where it has one.
Values, gradients and second derivatives live in the op table (op_table_rows.py) and, at the
kinks, in test_op_oracle.py::test_activation_kinks_match_torch.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

# (name, fn(functional module, x)): the same call in both libraries
CALLS = [
    ("leaky_relu", lambda f, x: f.leaky_relu(x, 0.2)),
    ("silu", lambda f, x: f.silu(x)),
    ("gelu", lambda f, x: f.gelu(x)),
    ("gelu_tanh", lambda f, x: f.gelu(x, approximate="tanh")),
    ("elu", lambda f, x: f.elu(x, 0.5)),
    ("softplus", lambda f, x: f.softplus(x, 2.0, 10.0)),
    ("logsigmoid", lambda f, x: f.logsigmoid(x)),
    ("relu6", lambda f, x: f.relu6(x)),
    ("hardtanh", lambda f, x: f.hardtanh(x, -2.0, 3.0)),
    ("softsign", lambda f, x: f.softsign(x)),
]
IDS = [c[0] for c in CALLS]
X = {TF: torch.tensor([1.0, -1.0]), F: mg.tensor([1.0, -1.0])}  # one input per library
FNS = [c[1] for c in CALLS]


def _name(node) -> str:
    return type(node).__name__


@pytest.mark.parametrize("fn", FNS, ids=IDS)
def test_node_names_match_torch(fn):
    x = mg.tensor([0.5, -1.0], requires_grad=True)
    t = torch.tensor([0.5, -1.0], requires_grad=True)
    y, yt = fn(F, x), fn(TF, t)
    assert y.grad_fn.name() == _name(yt.grad_fn)
    if y.grad_fn.name() != "DivBackward0":  # softsign is composed in both libraries
        (g,) = mg.autograd.grad(y.sum(), x, create_graph=True)
        (gt,) = torch.autograd.grad(yt.sum(), t, create_graph=True)
        assert g.grad_fn.name() == _name(gt.grad_fn)


@pytest.mark.parametrize(
    ("fn", "names"),
    [
        (lambda f, x: f.leaky_relu(x, 0.2), {"negative_slope": 0.2}),
        (lambda f, x: f.elu(x, 0.5), {"alpha": 0.5}),
        (lambda f, x: f.softplus(x, 2.0, 10.0), {"beta": 2.0, "threshold": 10.0}),
        (lambda f, x: f.hardtanh(x, -2.0, 3.0), {"min_val": -2.0, "max_val": 3.0}),
        (lambda f, x: f.relu6(x), {"min_val": 0.0, "max_val": 6.0}),
        (lambda f, x: f.gelu(x, approximate="tanh"), {"approximate": "tanh"}),
    ],
    ids=["leaky_relu", "elu", "softplus", "hardtanh", "relu6", "gelu"],
)
def test_saved_values_as_torch(fn, names):
    x = mg.tensor([0.5, -1.0], requires_grad=True)
    t = torch.tensor([0.5, -1.0], requires_grad=True)
    node, tnode = fn(F, x).grad_fn, fn(TF, t).grad_fn
    for name, want in names.items():
        assert getattr(node, "_saved_" + name) == getattr(tnode, "_saved_" + name) == want
    assert node._saved_self is x


@pytest.mark.parametrize("fn", FNS, ids=IDS)
def test_stable_at_plus_minus_1000(fn):
    """Finite values, gradients and second derivatives, equal to torch's, and no warnings."""
    values = [-1000.0, -50.0, 50.0, 1000.0]
    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)
    with warnings.catch_warnings(), np.errstate(over="raise", divide="raise", invalid="raise"):
        warnings.simplefilter("error")
        y = fn(F, x)
        (g,) = mg.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = mg.autograd.grad(g.sum(), x)
    t = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    yt = fn(TF, t)
    (gt,) = torch.autograd.grad(yt.sum(), t, create_graph=True)
    (ggt,) = torch.autograd.grad(gt.sum(), t, allow_unused=True)
    for ours, theirs in ((y, yt), (g, gt), (gg, ggt)):
        assert np.isfinite(ours.detach().numpy()).all()
        if theirs is not None:
            np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), atol=1e-12)


def test_logsigmoid_at_1000_is_exact():
    x = mg.tensor([-1000.0, 1000.0], dtype=mg.float64, requires_grad=True)
    y = F.logsigmoid(x)
    y.sum().backward()
    assert y.tolist() == [-1000.0, 0.0] and x.grad.tolist() == [1.0, 0.0]


def test_softplus_is_linear_past_the_threshold():
    values = [5.0, 9.999, 10.0, 10.001, 30.0]
    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)
    t = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    F.softplus(x, threshold=10.0).sum().backward()
    TF.softplus(t, threshold=10.0).sum().backward()
    assert F.softplus(x, threshold=10.0).tolist() == TF.softplus(t, threshold=10.0).tolist()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-15)
    assert x.grad.tolist()[3:] == [1.0, 1.0]  # past it: the identity's value and gradient
    assert F.softplus(x, threshold=10.0).tolist()[3:] == values[3:]


@pytest.mark.parametrize(
    "fn",
    [
        lambda f, x: f.leaky_relu(x, 0.2, inplace=True),
        lambda f, x: f.silu(x, inplace=True),
        lambda f, x: f.elu(x, 0.5, True),
        lambda f, x: f.hardtanh(x, -0.5, 0.5, inplace=True),
        lambda f, x: f.relu6(x, inplace=True),
    ],
    ids=["leaky_relu", "silu", "elu", "hardtanh", "relu6"],
)
def test_inplace_writes_into_input_and_keeps_gradients(fn):
    values = [-1.0, 0.25, 2.0, 7.0]
    results = []
    for lib, f in ((mg, F), (torch, TF)):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        h = x * 1.0
        out = fn(f, h)
        assert out is h and h._version == 1
        (out * lib.tensor([1.0, 2.0, 3.0, 4.0], dtype=lib.float64)).sum().backward()
        node = h.grad_fn.name() if lib is mg else _name(h.grad_fn)
        results.append((h.detach().numpy(), x.grad.numpy(), node))
        with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
            fn(f, lib.ones(2, requires_grad=True))
    (h, g, node), (ht, gt, node_t) = results
    np.testing.assert_allclose(h, ht, rtol=1e-15)
    np.testing.assert_allclose(g, gt, rtol=1e-15)
    assert node == node_t


def test_inplace_without_grad_and_on_integers():
    x = mg.tensor([-1.0, 3.0])
    assert F.leaky_relu(x, 0.5, inplace=True) is x and x.tolist() == [-0.5, 3.0]
    i = mg.tensor([-3, 0, 7])
    assert F.relu6(i, inplace=True) is i and i.tolist() == [0, 0, 6]


@pytest.mark.parametrize("dtype", ["int64", "int32", "uint8"])
def test_integer_inputs_as_torch(dtype):
    """hardtanh and relu6 clip integers (bounds truncated), softsign promotes to float32, and
    the others have no integer kernel in PyTorch (NotImplementedError)."""
    signed = dtype != "uint8"
    data = [-3, 0, 2, 7] if signed else [0, 2, 7, 200]
    x, t = mg.tensor(data, dtype=getattr(mg, dtype)), torch.tensor(data)
    t = t.to(getattr(torch, dtype))
    for fn in (
        lambda f, a: f.hardtanh(a, -2.7, 2.7) if signed else f.hardtanh(a, 0.5, 2.7),
        lambda f, a: f.hardtanh(a, -1.2, -0.5) if signed else f.hardtanh(a, 3.0, 3.0),
        lambda f, a: f.relu6(a),
        lambda f, a: f.softsign(a),
    ):
        ours, theirs = fn(F, x), fn(TF, t)
        assert ours.dtype.name == str(theirs.dtype).removeprefix("torch.")
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-6)
    for name, call in CALLS:
        if name in ("relu6", "hardtanh", "softsign"):
            continue
        with pytest.raises(NotImplementedError):
            call(TF, t)
        with pytest.raises(NotImplementedError, match="pass a floating point tensor"):
            call(F, x)


def test_unsigned_hardtanh_refuses_negative_limits_as_torch():
    for f, x in ((TF, torch.tensor([1], dtype=torch.uint8)), (F, mg.tensor([1], dtype=mg.uint8))):
        with pytest.raises(RuntimeError, match="unsigned type with negative limits"):
            f.hardtanh(x)
        assert f.hardtanh(x, 2.0, 3.0).tolist() == [2]


def test_bool_inputs_as_torch():
    b, bt = mg.tensor([True, False]), torch.tensor([True, False])
    for fn in (lambda f, a: f.hardtanh(a), lambda f, a: f.relu6(a)):
        for f, a in ((TF, bt), (F, b)):
            with pytest.raises(RuntimeError, match="Bool inputs not supported for hardtanh"):
                fn(f, a)
    for fn in (lambda f, a: f.softsign(a), lambda f, a: f.leaky_relu(a), lambda f, a: f.gelu(a)):
        for f, a in ((TF, bt), (F, b)):
            with pytest.raises(NotImplementedError):
                fn(f, a)


def test_float16_keeps_its_dtype():
    for _, fn in CALLS:
        assert fn(F, mg.tensor([-1.0, 0.5], dtype=mg.float16)).dtype is mg.float16


def test_hardtanh_bounds():
    x = mg.tensor([-2.0, 0.5, 2.0])
    with pytest.raises(ValueError, match="min_val cannot be greater than max_val"):
        TF.hardtanh(torch.tensor([1.0]), 2.0, 1.0)
    with pytest.raises(ValueError, match=r"min_val cannot be greater than max_val \(got min_val=2"):
        F.hardtanh(x, 2.0, 1.0)
    assert F.hardtanh(x, 1.0, 1.0).tolist() == [1.0, 1.0, 1.0]  # equal bounds are allowed


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda f: f.gelu(X[f], approximate="exact"), "approximate argument must be either"),
        (lambda f: f.gelu(X[f], approximate="Tanh"), "approximate argument must be either"),
    ],
)
def test_gelu_bad_approximate_raises_runtime_error(call, match):
    for f in (TF, F):
        with pytest.raises(RuntimeError, match=match):
            call(f)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda f: f.gelu(X[f], approximate=None), "argument 'approximate' must be str, not None"),
        (lambda f: f.gelu(X[f], "tanh"), "positional argument"),
        (lambda f: f.leaky_relu(X[f], "a"), "argument 'negative_slope' .* must be Number, not str"),
        (lambda f: f.elu(X[f], [1.0]), "argument 'alpha' .* must be Number, not list"),
        (lambda f: f.softplus(X[f], "a"), "argument 'beta' .* must be Number, not str"),
        (lambda f: f.softplus(X[f], threshold=None), "argument 'threshold' .*must be Number"),
        (lambda f: f.leaky_relu([1.0]), "argument 'input' \\(position 1\\) must be Tensor"),
        (lambda f: f.silu([1.0]), "argument 'input' \\(position 1\\) must be Tensor"),
        (lambda f: f.gelu(np.ones(2)), "argument 'input' \\(position 1\\) must be Tensor"),
        (lambda f: f.elu(1.0), "argument 'input' \\(position 1\\) must be Tensor"),
        (lambda f: f.softplus([1.0]), "argument 'input' \\(position 1\\) must be Tensor"),
        (lambda f: f.logsigmoid([1.0]), "argument 'input' \\(position 1\\) must be Tensor"),
        (lambda f: f.hardtanh([1.0]), "argument 'input' \\(position 1\\) must be Tensor"),
        (lambda f: f.relu6([1.0]), "argument 'input' \\(position 1\\) must be Tensor"),
    ],
)
def test_bad_arguments_raise_type_error_as_torch(call, match):
    with pytest.raises(TypeError, match=match):
        call(TF)
    with pytest.raises(TypeError, match=match):
        call(F)


def test_hardtanh_bad_bound_type_names_it():
    with pytest.raises(TypeError):
        TF.hardtanh(X[TF], "a")
    with pytest.raises(TypeError, match="argument 'max_val' .* must be Number, not str"):
        F.hardtanh(X[F], max_val="a")


def test_number_arguments_accept_what_torch_accepts():
    for f in (TF, F):
        x = X[f]
        a = f.leaky_relu(x, True).tolist()  # a bool is a Number
        b = f.leaky_relu(x, X[f].new_tensor(0.5) if f is TF else mg.tensor(0.5)).tolist()
        c = f.softplus(x, 2, 10).tolist()  # positional beta and threshold
        assert a == [1.0, -1.0] and b == [1.0, -0.5]
        np.testing.assert_allclose(c, [1.0634, 0.0635], atol=1e-4)


def test_jvp_matches_the_gradient_at_the_kinks():
    """Forward mode takes the same side of each kink as backward does."""
    x = mg.tensor([-1.0, 0.0, 6.0], dtype=mg.float64)
    for fn in (
        lambda a: F.leaky_relu(a, 0.2),
        lambda a: F.relu6(a),
        lambda a: F.elu(a, alpha=2.0),
        lambda a: F.softplus(a, 2.0, 12.0),
    ):
        _, tangent = mg.func.jvp(fn, (x,), (mg.ones_like(x),))
        leaf = x.detach().requires_grad_()
        fn(leaf).sum().backward()
        assert tangent.tolist() == leaf.grad.tolist()


def test_local_derivatives_for_the_viewer():
    x = mg.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    (d,) = mg.trace.local_derivatives(F.leaky_relu(x, 0.1).grad_fn)
    np.testing.assert_allclose(d, [0.1, 0.1, 1.0])
    (d,) = mg.trace.local_derivatives(F.hardtanh(x, -1.0, 2.0).grad_fn)
    assert d.tolist() == [0.0, 1.0, 0.0]


def test_softplus_stays_finite_with_a_high_threshold():
    """A deliberate difference: PyTorch overflows here (inf, gradient nan); we stay finite."""
    x = mg.tensor([800.0, -800.0], dtype=mg.float64, requires_grad=True)
    with warnings.catch_warnings(), np.errstate(over="raise", invalid="raise"):
        warnings.simplefilter("error")
        y = F.softplus(x, threshold=1000.0)
        y.sum().backward()
    assert y.tolist() == [800.0, 0.0] and x.grad.tolist() == [1.0, 0.0]
    assert TF.softplus(torch.tensor([800.0], dtype=torch.float64), threshold=1000.0).isinf()
