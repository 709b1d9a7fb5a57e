"""L1Loss, SmoothL1Loss, HuberLoss, BCELoss and Softmax/LogSoftmax modules.

numpy references, float64 gradcheck/gradgradcheck away from the kinks, the
reductions, the argument checks, and PyTorch as oracle for values, input and
target gradients (including BCE at probabilities of exactly 0 and 1) and errors.
"""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn

RNG = np.random.default_rng(3)
TOL = {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}
X = RNG.standard_normal((4, 5))
Y = X + RNG.choice([-1.0, 1.0], X.shape) * RNG.uniform(0.1, 2.5, X.shape)  # |x - y| >= 0.1
W = RNG.random((4, 5)) + 0.1
P = RNG.uniform(0.05, 0.95, (4, 5))
Q = RNG.random((4, 5))


def leaf(a):
    return mg.tensor(a, dtype=mg.float64, requires_grad=True)


def smooth(d, beta):
    return np.where(np.abs(d) < beta, 0.5 * d * d / beta, np.abs(d) - 0.5 * beta)


REFS = {
    "l1": (lambda x, y, **kw: F.l1_loss(x, y, **kw), lambda x, y: np.abs(x - y)),
    "smooth_l1": (lambda x, y, **kw: F.smooth_l1_loss(x, y, **kw), lambda x, y: smooth(x - y, 1.0)),
    "smooth_l1_beta": (
        lambda x, y, **kw: F.smooth_l1_loss(x, y, beta=0.7, **kw),
        lambda x, y: smooth(x - y, 0.7),
    ),
    "huber": (lambda x, y, **kw: F.huber_loss(x, y, **kw), lambda x, y: smooth(x - y, 1.0)),
    "huber_delta": (
        lambda x, y, **kw: F.huber_loss(x, y, delta=1.5, **kw),
        lambda x, y: 1.5 * smooth(x - y, 1.5),
    ),
}


@pytest.mark.parametrize("name", list(REFS))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_regression_losses_match_numpy(name, reduction):
    fn, ref = REFS[name]
    expected = ref(X, Y)
    expected = {"mean": expected.mean(), "sum": expected.sum(), "none": expected}[reduction]
    out = fn(mg.tensor(X), mg.tensor(Y), reduction=reduction)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)


@pytest.mark.parametrize("name", list(REFS))
def test_regression_losses_gradcheck_input_and_target(name):
    fn, _ = REFS[name]
    # y - x is kept 0.1 away from 0 and from +-beta/delta, the kinks
    d = RNG.choice([-1.0, 1.0], (3, 4)) * RNG.choice([0.3, 0.5, 2.0, 2.6], (3, 4))
    x = leaf(RNG.standard_normal((3, 4)))
    y = leaf(x.detach().numpy() + d)
    assert mg.autograd.gradcheck(lambda a, b: fn(a, b, reduction="none"), (x, y), **TOL)
    assert mg.autograd.gradgradcheck(lambda a, b: fn(a, b), (x, y), **TOL)


def test_l1_gradient_at_zero_difference_is_zero_and_weights():
    x = leaf([1.0, 2.0, 3.0])
    F.l1_loss(x, mg.tensor([1.0, 0.0, 5.0], dtype=mg.float64), reduction="sum").backward()
    assert x.grad.tolist() == [0.0, 1.0, -1.0]
    w = mg.tensor(W)
    out = F.l1_loss(mg.tensor(X), mg.tensor(Y), weight=w)
    np.testing.assert_allclose(out.item(), (np.abs(X - Y) * W).sum() / W.sum(), rtol=1e-12)
    out = F.huber_loss(mg.tensor(X), mg.tensor(Y), weight=w)  # Huber's weighted mean: by count
    np.testing.assert_allclose(out.item(), (smooth(X - Y, 1.0) * W).mean(), rtol=1e-12)
    with pytest.raises(ValueError, match="Weights and input must have the same size"):
        F.l1_loss(mg.tensor(X), mg.tensor(Y), weight=mg.ones(5))


def test_smooth_l1_beta_zero_is_l1_and_target_broadcast_warns():
    a, b = mg.tensor(X), mg.tensor(Y)
    assert F.smooth_l1_loss(a, b, beta=0.0).item() == F.l1_loss(a, b).item()
    with pytest.warns(UserWarning, match="different to the input size"):
        out = F.l1_loss(mg.zeros(3), mg.ones(2, 3))
    assert out.item() == 1.0


def test_legacy_flags_and_bad_reduction():
    with pytest.warns(UserWarning, match="reduction='sum'"):
        out = F.smooth_l1_loss(mg.tensor(X), mg.tensor(Y), size_average=False)
    np.testing.assert_allclose(out.item(), smooth(X - Y, 1.0).sum(), rtol=1e-12)
    for fn in (F.l1_loss, F.smooth_l1_loss, F.huber_loss, F.binary_cross_entropy):
        with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
            fn(mg.tensor(P), mg.tensor(Q), reduction="avg")


# --- binary cross entropy -----------------------------------------------------------------
def test_bce_matches_numpy_with_weight_and_reductions():
    ref = -(Q * np.log(P) + (1 - Q) * np.log(1 - P)) * W
    for reduction, expected in (("none", ref), ("sum", ref.sum()), ("mean", ref.mean())):
        out = F.binary_cross_entropy(mg.tensor(P), mg.tensor(Q), mg.tensor(W), reduction=reduction)
        np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    row_weight = mg.tensor(W[0])  # broadcast along the rows, as PyTorch
    out = F.binary_cross_entropy(mg.tensor(P), mg.tensor(Q), row_weight, reduction="none")
    np.testing.assert_allclose(out.detach().numpy(), ref / W * W[0], rtol=1e-12)


def test_bce_gradcheck_gradgradcheck_and_forward_mode():
    p, q = leaf(P[:2]), leaf(Q[:2])
    assert mg.autograd.gradcheck(
        lambda a, b: F.binary_cross_entropy(a, b, reduction="none"), (p, q), **TOL
    )
    assert mg.autograd.gradgradcheck(lambda a, b: F.binary_cross_entropy(a, b), (p, q), **TOL)
    tangent = mg.tensor(RNG.standard_normal(P[:2].shape))
    _, jvp = mg.func.jvp(
        lambda a: F.binary_cross_entropy(a, q.detach(), reduction="sum"), (p.detach(),), (tangent,)
    )
    p.grad = None
    F.binary_cross_entropy(p, q.detach(), reduction="sum").backward()
    np.testing.assert_allclose(jvp.item(), (p.grad * tangent).sum().item(), rtol=1e-10)


def test_bce_clamps_logs_at_minus_100_with_finite_input_gradients():
    x = leaf([0.0, 1.0, 0.0, 1.0])
    y = mg.tensor([0.0, 1.0, 1.0, 0.0], dtype=mg.float64)
    out = F.binary_cross_entropy(x, y, reduction="none")
    assert out.tolist() == [0.0, 0.0, 100.0, 100.0]
    out.sum().backward()
    floor = float(np.float32(1e-12))  # PyTorch's floor of x (1 - x), a float32 constant
    assert x.grad.tolist() == [0.0, 0.0, -1 / floor, 1 / floor]


def test_bce_module_and_errors():
    loss = nn.BCELoss(weight=mg.ones(5, dtype=mg.float64), reduction="sum")
    assert list(loss.state_dict()) == ["weight"] and repr(loss) == "BCELoss()"
    expected = F.binary_cross_entropy(mg.tensor(P), mg.tensor(Q), reduction="sum")
    assert loss(mg.tensor(P), mg.tensor(Q)).item() == pytest.approx(expected.item(), rel=1e-12)
    with pytest.raises(ValueError, match="Using a target size .* is deprecated"):
        F.binary_cross_entropy(mg.rand(3), mg.rand(2))
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(mg.tensor([0.5, 1.5]), mg.tensor([0.0, 1.0]))
    with pytest.raises(
        RuntimeError, match="Found dtype minigrad.int64 but expected minigrad.float32"
    ):
        F.binary_cross_entropy(mg.rand(3), mg.tensor([0, 1, 1]))
    with pytest.raises(TypeError, match="must be Tensor"):
        F.binary_cross_entropy(mg.rand(2), [0.0, 1.0])
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument 'weight'"):
        F.binary_cross_entropy(mg.rand(2), mg.rand(2), mg.ones(2, requires_grad=True))
    node = F.binary_cross_entropy(mg.rand(2, requires_grad=True), mg.rand(2), reduction="none")
    assert node.grad_fn.name() == "BinaryCrossEntropyBackward0"  # torch: ...Backward0


# --- modules ----------------------------------------------------------------------------
def test_loss_modules_store_options_and_match_functional():
    a, b = mg.tensor(X), mg.tensor(Y)
    assert nn.L1Loss()(a, b).item() == F.l1_loss(a, b).item()
    smooth_l1 = nn.SmoothL1Loss(reduction="sum", beta=0.5)
    assert (
        smooth_l1.beta == 0.5
        and smooth_l1(a, b).item() == F.smooth_l1_loss(a, b, reduction="sum", beta=0.5).item()
    )
    huber = nn.HuberLoss(reduction="none", delta=2.0)
    assert huber.delta == 2.0 and huber(a, b).shape == (4, 5)
    for module in (nn.L1Loss(), nn.SmoothL1Loss(beta=0.5), nn.HuberLoss(delta=2.0)):
        assert repr(module) == type(module).__name__ + "()"
    with pytest.raises(ValueError, match="not a valid value for reduction"):
        nn.HuberLoss(reduction="avg")


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (
            lambda: F.smooth_l1_loss(mg.zeros(2), mg.zeros(2), beta=-1),
            RuntimeError,
            "negative values for beta",
        ),
        (
            lambda: F.huber_loss(mg.zeros(2), mg.zeros(2), delta=0),
            RuntimeError,
            "non-positive values for delta",
        ),
        (lambda: F.l1_loss(mg.arange(3), mg.arange(3)), RuntimeError, "floating point"),
        (lambda: F.l1_loss(mg.zeros(3), mg.zeros(2)), RuntimeError, "must match the size"),
        (lambda: F.huber_loss([0.0], mg.zeros(1)), TypeError, "must be Tensor"),
    ],
)
def test_regression_loss_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_softmax_modules():
    x = mg.tensor(X)
    assert nn.Softmax(dim=1)(x).detach().numpy().sum(1) == pytest.approx(np.ones(4))
    np.testing.assert_allclose(
        nn.LogSoftmax(0)(x).detach().numpy(), F.log_softmax(x, 0).detach().numpy()
    )
    assert repr(nn.Softmax(dim=1)) == "Softmax(dim=1)" and repr(nn.Softmax()) == "Softmax(dim=None)"
    assert repr(nn.LogSoftmax(-1)) == "LogSoftmax(dim=-1)"
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        nn.Softmax()(x)
    model = nn.Sequential(nn.Linear(5, 3), nn.LogSoftmax(dim=1))
    assert model(mg.randn(2, 5)).exp().sum(1).detach().numpy() == pytest.approx(
        np.ones(2), rel=1e-6
    )


# --- PyTorch as oracle -------------------------------------------------------------------
def _losses(lib):
    f = lib.nn.functional
    return {
        "l1": lambda x, y, **kw: f.l1_loss(x, y, **kw),
        "l1_weight": lambda x, y, w, **kw: f.l1_loss(x, y, weight=w, **kw),
        "smooth_l1": lambda x, y, **kw: f.smooth_l1_loss(x, y, **kw),
        "smooth_l1_beta": lambda x, y, **kw: f.smooth_l1_loss(x, y, beta=0.4, **kw),
        "smooth_l1_beta0": lambda x, y, **kw: f.smooth_l1_loss(x, y, beta=0.0, **kw),
        "huber": lambda x, y, **kw: f.huber_loss(x, y, **kw),
        "huber_delta": lambda x, y, **kw: f.huber_loss(x, y, delta=0.6, **kw),
        "huber_weight": lambda x, y, w, **kw: f.huber_loss(x, y, weight=w, **kw),
        "bce": lambda x, y, **kw: f.binary_cross_entropy(x, y, **kw),
        "bce_weight": lambda x, y, w, **kw: f.binary_cross_entropy(x, y, w, **kw),
    }


EDGE_P = np.array([[0.0, 1.0, 0.0, 1.0, 1e-50], [0.3, 0.999, 1e-8, 0.5, 1 - 1e-16]])
EDGE_Q = np.array([[0.0, 1.0, 1.0, 0.0, 1.0], [0.3, 0.0, 1.0, 0.5, 0.0]])
INPUTS = {
    "l1": (X, Y),
    "l1_weight": (X, Y, W),
    "smooth_l1": (X, Y),
    "smooth_l1_beta": (X, Y),
    "smooth_l1_beta0": (X, Y),
    "huber": (X, Y),
    "huber_delta": (X, Y),
    "huber_weight": (X, Y, W),
    "bce": (P, Q),
    "bce_weight": (P, Q, W),
    "bce_edges": (EDGE_P, EDGE_Q),
}


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(INPUTS))
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_values_and_gradients_match_torch(name, reduction):
    torch = pytest.importorskip("torch")
    arrays = INPUTS[name]
    results = []
    for lib in (mg, torch):
        fn = _losses(lib)["bce" if name == "bce_edges" else name]
        leaves = [
            lib.tensor(a, dtype=lib.float64, requires_grad=i < 2) for i, a in enumerate(arrays)
        ]
        loss = fn(*leaves, reduction=reduction)
        grads = lib.autograd.grad(loss.sum(), leaves[:2])
        results.append((loss.detach().numpy(), [g.detach().numpy() for g in grads]))
    (ours, our_grads), (theirs, their_grads) = results
    np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-14)
    for a, b in zip(our_grads, their_grads):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-14)


@pytest.mark.oracle
def test_float32_and_modules_match_torch():
    torch = pytest.importorskip("torch")
    x, y = X.astype(np.float32), Y.astype(np.float32)
    p, q = P.astype(np.float32), Q.astype(np.float32)
    pairs = [
        (nn.L1Loss(), torch.nn.L1Loss(), x, y),
        (nn.SmoothL1Loss(beta=0.3), torch.nn.SmoothL1Loss(beta=0.3), x, y),
        (nn.HuberLoss(delta=0.8), torch.nn.HuberLoss(delta=0.8), x, y),
        (
            nn.BCELoss(weight=mg.tensor(W[0], dtype=mg.float32)),
            torch.nn.BCELoss(weight=torch.tensor(W[0], dtype=torch.float32)),
            p,
            q,
        ),
        (nn.Softmax(dim=1), torch.nn.Softmax(dim=1), x, None),
        (nn.LogSoftmax(dim=0), torch.nn.LogSoftmax(dim=0), x, None),
    ]
    for ours, theirs, a, b in pairs:
        assert repr(ours) == repr(theirs)
        args_ours = [mg.tensor(a)] + ([] if b is None else [mg.tensor(b)])
        args_theirs = [torch.tensor(a)] + ([] if b is None else [torch.tensor(b)])
        out, ref = ours(*args_ours), theirs(*args_theirs)
        assert out.dtype is mg.float32
        np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.oracle
@pytest.mark.parametrize(
    "call",
    [
        lambda lib, f: f.smooth_l1_loss(lib.zeros(2), lib.zeros(2), beta=-1.0),
        lambda lib, f: f.huber_loss(lib.zeros(2), lib.zeros(2), delta=0.0),
        lambda lib, f: f.l1_loss(lib.zeros(3), lib.zeros(2)),
        lambda lib, f: f.l1_loss(lib.zeros(2), lib.zeros(2), reduction="avg"),
        lambda lib, f: f.binary_cross_entropy(lib.rand(3), lib.rand(2)),
        lambda lib, f: f.binary_cross_entropy(lib.rand(3) + 1.0, lib.rand(3)),
        lambda lib, f: f.binary_cross_entropy(lib.rand(3), lib.tensor([0, 1, 1])),
        lambda lib, f: f.binary_cross_entropy(lib.rand(3), lib.rand(3), reduction="avg"),
    ],
)
def test_loss_error_types_match_torch(call):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        call(torch, torch.nn.functional)
    with pytest.raises(type(theirs.value)):
        call(mg, F)


@pytest.mark.oracle
def test_bce_second_derivatives_match_torch():
    torch = pytest.importorskip("torch")
    # PyTorch's double backward adds 1e-12 to x and 1 - x, ours is exact: equal to ~1e-10
    rng = np.random.default_rng(5)
    v = rng.standard_normal(P.shape)
    results = []
    for lib in (mg, torch):
        x, y = (lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in (P, Q))
        w = lib.tensor(W, dtype=lib.float64)
        loss = lib.nn.functional.binary_cross_entropy(x, y, w)
        gx, gy = lib.autograd.grad(loss, (x, y), create_graph=True)
        second = lib.autograd.grad((gx * lib.tensor(v)).sum() + gy.sum(), (x, y))
        results.append([g.detach().numpy() for g in second])
    for ours, theirs in zip(*results):
        np.testing.assert_allclose(ours, theirs, rtol=1e-8, atol=1e-12)


@pytest.mark.parametrize("loss", [F.mse_loss, F.l1_loss, F.smooth_l1_loss, F.huber_loss])
def test_a_broadcast_target_warns_once_with_pytorchs_message(loss):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss(mg.zeros(2, 3), mg.zeros(3))
    sizes = [str(w.message) for w in caught if "different to the input size" in str(w.message)]
    assert sizes == [
        "Using a target size ((3,)) that is different to the input size "
        "((2, 3)). This will likely lead to incorrect results due to "
        "broadcasting. Please ensure they have the same size."
    ]
