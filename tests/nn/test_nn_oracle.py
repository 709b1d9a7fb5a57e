"""PyTorch as oracle for nn: loss values and gradients, clip_grad_norm_, state_dict keys."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")
TF = torch.nn.functional

pytestmark = pytest.mark.oracle
RTOL = 1e-6
RNG = np.random.default_rng(42)

X = RNG.standard_normal((6, 4))
T = np.array([0, 3, 1, 2, 3, 0])
T_IGN = np.array([0, -100, 1, 2, -100, 3])
W = RNG.random(4) + 0.2
P = RNG.random((6, 4))
P /= P.sum(1, keepdims=True)
Y01 = RNG.random((6, 4))
X3 = RNG.standard_normal((2, 4, 3))
T3 = np.array([[0, 1, -100], [3, 2, 2]])


def run(lib, fn, floats, ints, **kw):
    """Call ``fn(lib)(*float_leaves, *int_tensors, **kw)``; return loss and input grads."""
    leaves = [lib.tensor(a, dtype=lib.float64, requires_grad=True) for a in floats]
    targets = [lib.tensor(a) for a in ints]
    kw = {
        k: lib.tensor(v, dtype=lib.float64) if isinstance(v, np.ndarray) else v
        for k, v in kw.items()
    }
    loss = fn(lib)(*leaves, *targets, **kw)
    grads = lib.autograd.grad(loss.sum(), leaves) if loss.numel() else [None] * len(leaves)
    return loss.detach().numpy(), [None if g is None else g.numpy() for g in grads]


def CE(lib):
    return F.cross_entropy if lib is mg else TF.cross_entropy


def NLL(lib):
    nll = F.nll_loss if lib is mg else TF.nll_loss
    return lambda x, t, **kw: nll(x.log_softmax(1), t, **kw)


def BCE(lib):
    return F.binary_cross_entropy_with_logits if lib is mg else TF.binary_cross_entropy_with_logits


def MSE(lib):
    return F.mse_loss if lib is mg else TF.mse_loss


def MSE_W(lib):
    return lambda x, y, w, **kw: MSE(lib)(x, y, weight=w, **kw)


CASES = [
    ("ce", CE, [X], [T], {}),
    ("ce_weight", CE, [X], [T], {"weight": W}),
    ("ce_ignore", CE, [X], [T_IGN], {}),
    ("ce_ignore_class", CE, [X], [T], {"ignore_index": 3, "weight": W}),
    ("ce_smoothing", CE, [X], [T_IGN], {"weight": W, "label_smoothing": 0.15}),
    ("ce_probs", CE, [X, P], [], {"weight": W}),
    ("ce_probs_smoothing", CE, [X, P], [], {"label_smoothing": 0.3}),
    ("ce_kdim", CE, [X3], [T3], {"weight": W, "label_smoothing": 0.1}),
    ("ce_1d", CE, [X[0]], [np.array(2)], {}),
    ("nll", NLL, [X], [T], {}),
    ("nll_weight_ignore", NLL, [X], [T_IGN], {"weight": W}),
    ("bce", BCE, [X, Y01], [], {}),
    ("bce_weight_pos_weight", BCE, [X, Y01], [], {"weight": Y01, "pos_weight": W}),
    ("mse", MSE, [X, Y01], [], {}),
    ("mse_weight", MSE_W, [X, Y01, Y01], [], {}),
]


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("fn, floats, ints, kw", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_loss_values_and_gradients_match_torch(fn, floats, ints, kw, reduction):
    ours, our_grads = run(mg, fn, floats, ints, reduction=reduction, **kw)
    theirs, their_grads = run(torch, fn, floats, ints, reduction=reduction, **kw)
    np.testing.assert_allclose(ours, theirs, rtol=RTOL, atol=1e-12)
    for a, b in zip(our_grads, their_grads):
        np.testing.assert_allclose(a, b, rtol=RTOL, atol=1e-12)


def test_all_ignored_and_empty_batch_match_torch():
    for x, t in [(X, np.full(6, -100)), (np.zeros((0, 4)), np.zeros(0, np.int64))]:
        ours, our_grads = run(mg, CE, [x], [t])
        theirs, their_grads = run(torch, CE, [x], [t])
        assert np.isnan(ours) and np.isnan(theirs)
        np.testing.assert_array_equal(our_grads[0], their_grads[0])


@pytest.mark.parametrize("norm_type", [2.0, 1.0, 3.5, float("inf"), 0.5])
@pytest.mark.parametrize("max_norm", [0.1, 1.0, 1e3])
def test_clip_grad_norm_matches_torch(norm_type, max_norm):
    grads = [RNG.standard_normal(s) for s in [(3, 4), (4,), (), (2, 2)]]
    ours = [mg.nn.Parameter(mg.zeros(*g.shape, dtype=mg.float64)) for g in grads]
    theirs = [torch.nn.Parameter(torch.zeros(g.shape, dtype=torch.float64)) for g in grads]
    for p, q, g in zip(ours, theirs, grads):
        p.grad, q.grad = mg.tensor(g), torch.tensor(g)
    ours.append(mg.nn.Parameter(mg.zeros(1)))  # no grad: skipped by both
    theirs.append(torch.nn.Parameter(torch.zeros(1)))
    total = mg.nn.utils.clip_grad_norm_(ours, max_norm, norm_type=norm_type)
    expected = torch.nn.utils.clip_grad_norm_(theirs, max_norm, norm_type=norm_type)
    np.testing.assert_allclose(total.item(), expected.item(), rtol=RTOL)
    for p, q in zip(ours[:-1], theirs[:-1]):
        np.testing.assert_allclose(p.grad.numpy(), q.grad.numpy(), rtol=RTOL, atol=1e-15)


def test_clip_grad_value_matches_torch():
    g = RNG.standard_normal((5, 3))
    p, q = (
        mg.nn.Parameter(mg.zeros(5, 3, dtype=mg.float64)),
        torch.nn.Parameter(torch.zeros(5, 3, dtype=torch.float64)),
    )
    p.grad, q.grad = mg.tensor(g), torch.tensor(g)
    mg.nn.utils.clip_grad_value_([p], 0.5)
    torch.nn.utils.clip_grad_value_([q], 0.5)
    np.testing.assert_array_equal(p.grad.numpy(), q.grad.numpy())


def test_linear_forward_backward_and_state_dict_keys_match_torch():
    mg.manual_seed(0)
    ours = mg.nn.Sequential(
        mg.nn.Linear(3, 4, dtype=mg.float64), mg.nn.ReLU(), mg.nn.Linear(4, 2, dtype=mg.float64)
    )
    theirs = torch.nn.Sequential(
        torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2)
    ).double()
    theirs.load_state_dict(
        {k: torch.tensor(v.detach().numpy()) for k, v in ours.state_dict().items()}
    )
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert repr(ours) == repr(theirs)
    x = RNG.standard_normal((5, 3))
    out, ref = ours(mg.tensor(x)), theirs(torch.tensor(x))
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), rtol=RTOL)
    out.sum().backward()
    ref.sum().backward()
    for (name, p), q in zip(ours.state_dict(keep_vars=True).items(), theirs.parameters()):
        np.testing.assert_allclose(
            p.grad.numpy(), q.grad.numpy(), rtol=RTOL, atol=1e-15, err_msg=name
        )


ERROR_TYPES = [
    lambda lib, f: f.cross_entropy(lib.zeros(3, 5), lib.tensor([1, 2])),
    lambda lib, f: f.cross_entropy(lib.zeros(3, 5), lib.tensor([1, 2, 7])),
    lambda lib, f: f.nll_loss(lib.tensor(1.0), lib.tensor(1)),
    lambda lib, f: f.binary_cross_entropy_with_logits(lib.zeros(3), lib.zeros(2)),
    lambda lib, f: f.mse_loss(lib.zeros(2), lib.zeros(2), reduction="avg"),
]


@pytest.mark.parametrize("call", ERROR_TYPES)
def test_error_types_match_torch(call):
    with pytest.raises(Exception) as theirs:
        call(torch, TF)
    with pytest.raises(type(theirs.value)):
        call(mg, F)


ACTIVATION_MODULES = [
    ("LeakyReLU", (), {}),
    ("LeakyReLU", (0.2, True), {}),
    ("SiLU", (), {}),
    ("SiLU", (True,), {}),
    ("GELU", (), {}),
    ("GELU", ("tanh",), {}),
    ("ELU", (), {}),
    ("ELU", (0.5,), {"inplace": True}),
    ("Softplus", (), {}),
    ("Softplus", (2, 1), {}),
    ("LogSigmoid", (), {}),
    ("ReLU6", (), {}),
    ("ReLU6", (True,), {}),
    ("Hardtanh", (), {}),
    ("Hardtanh", (-2, 0.5), {"inplace": True}),
    ("Softsign", (), {}),
]


@pytest.mark.parametrize(
    ("name", "args", "kwargs"),
    ACTIVATION_MODULES,
    ids=[f"{n}{a}{k or ''}" for n, a, k in ACTIVATION_MODULES],
)
def test_activation_modules_match_torch(name, args, kwargs):
    """Same repr, values and gradients as the torch module built with the same arguments."""
    x = np.array([-3.0, -1.0, -0.25, 0.0, 0.4, 1.0, 2.5, 7.0])
    results = []
    for lib in (mg, torch):
        module = getattr(lib.nn, name)(*args, **kwargs)
        leaf = lib.tensor(x, dtype=lib.float64, requires_grad=True)
        out = module(leaf * 1.0)  # a non-leaf, so the in-place forms may write into it
        out.backward(lib.tensor(np.arange(1.0, 9.0), dtype=lib.float64))
        results.append((repr(module), out.detach().numpy(), leaf.grad.numpy()))
    (text, out, grad), (text_t, out_t, grad_t) = results
    assert text == text_t
    np.testing.assert_allclose(out, out_t, rtol=1e-12)
    np.testing.assert_allclose(grad, grad_t, rtol=1e-12)
