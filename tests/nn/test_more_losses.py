"""cosine_embedding_loss, multi_margin_loss, multilabel_margin_loss,
multilabel_soft_margin_loss, poisson_nll_loss, gaussian_nll_loss and their modules: values
against the formulas written out in numpy, gradients by gradcheck, and (oracle) values,
gradients and exception classes against PyTorch's.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

RNG = np.random.default_rng(27)
X = RNG.standard_normal((4, 5))
X2 = RNG.standard_normal((4, 5))
Y_PM = np.array([1, -1, 1, -1])
CLS = np.array([2, 0, 4, 1])
MULTI = np.array([[3, 0, -1, 1, 2], [1, 2, 3, 4, 0], [4, -1, 0, 0, 0], [-1, 1, 2, 3, 4]])
PROB = RNG.random((4, 5))
COUNTS = np.array([[0.0, 1, 3, 2, 0], [5, 1, 0, 2, 1], [1, 1, 1, 1, 1], [0, 0, 7, 2, 3]])
VAR = RNG.random((4, 5)) + 0.1
W5 = np.array([0.5, 1.0, 2.0, 1.5, 0.25])


def _cases():
    """name -> (call(lib, F, *tensors), arrays, which arrays are differentiable)."""
    return {
        "cosine_embedding": (
            lambda L, f, a, b: f.cosine_embedding_loss(a, b, L.tensor(Y_PM), margin=0.2),
            (X, X2),
            (0, 1),
        ),
        "cosine_embedding 1-D none": (
            lambda L, f, a, b: f.cosine_embedding_loss(a, b, L.tensor(-1), reduction="none"),
            (X[0], X2[0]),
            (0, 1),
        ),
        "multi_margin": (lambda L, f, x: f.multi_margin_loss(x, L.tensor(CLS)), (X,), (0,)),
        "multi_margin p=2 weight sum": (
            lambda L, f, x: f.multi_margin_loss(
                x,
                L.tensor(CLS),
                p=2,
                margin=0.7,
                weight=L.tensor(W5, dtype=x.dtype),
                reduction="sum",
            ),
            (X,),
            (0,),
        ),
        "multi_margin 1-D": (lambda L, f, x: f.multi_margin_loss(x, L.tensor(3)), (X[0],), (0,)),
        "multilabel_margin": (
            lambda L, f, x: f.multilabel_margin_loss(x, L.tensor(MULTI)),
            (X,),
            (0,),
        ),
        "multilabel_margin none": (
            lambda L, f, x: f.multilabel_margin_loss(x, L.tensor(MULTI), reduction="none"),
            (X,),
            (0,),
        ),
        "multilabel_soft_margin": (
            lambda L, f, x, y: f.multilabel_soft_margin_loss(x, y),
            (X, PROB),
            (0, 1),
        ),
        "multilabel_soft_margin weight none": (
            lambda L, f, x, y: f.multilabel_soft_margin_loss(
                x, y, weight=L.tensor(W5, dtype=x.dtype), reduction="none"
            ),
            (X, PROB),
            (0, 1),
        ),
        "poisson_nll": (lambda L, f, x, y: f.poisson_nll_loss(x, y), (X, COUNTS), (0, 1)),
        "poisson_nll rate full sum": (
            lambda L, f, x, y: f.poisson_nll_loss(
                x, y, log_input=False, full=True, reduction="sum"
            ),
            (np.abs(X) + 0.1, COUNTS),
            (0,),  # Stirling's term jumps at y = 1: no gradient check for the target
        ),
        "gaussian_nll": (
            lambda L, f, x, y, v: f.gaussian_nll_loss(x, y, v),
            (X, X2, VAR),
            (0, 1, 2),
        ),
        "gaussian_nll shared var full none": (
            lambda L, f, x, y, v: f.gaussian_nll_loss(x, y, v, full=True, reduction="none"),
            (X, X2, VAR[:, 0]),
            (0, 1, 2),
        ),
        "gaussian_nll float var": (
            lambda L, f, x, y: f.gaussian_nll_loss(x, y, 0.5, reduction="sum"),
            (X, X2),
            (0, 1),
        ),
    }


CASES = _cases()


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _numpy_values():
    """The same losses, from their definitions (loops where PyTorch's docs use sums)."""
    cos = (X * X2).sum(1) / np.sqrt(((X * X).sum(1) + 1e-12) * ((X2 * X2).sum(1) + 1e-12))
    margin = []
    for x, y in zip(X, CLS):
        margin.append(sum(max(0.0, 1 - x[y] + x[j]) for j in range(5) if j != y) / 5)
    multilabel = []
    for x, t in zip(X, MULTI):
        listed = list(t[: list(t).index(-1)] if -1 in t else t)
        others = [k for k in range(5) if k not in listed]
        multilabel.append(sum(max(0.0, 1 - x[j] + x[k]) for j in listed for k in others) / 5)
    soft = -(PROB * np.log(_sigmoid(X)) + (1 - PROB) * np.log(_sigmoid(-X))).sum(1) / 5
    return {
        "cosine_embedding": np.where(Y_PM == 1, 1 - cos, np.maximum(cos - 0.2, 0)).mean(),
        "multi_margin": np.mean(margin),
        "multilabel_margin": np.mean(multilabel),
        "multilabel_soft_margin": soft.mean(),
        "poisson_nll": (np.exp(X) - COUNTS * X).mean(),
        "gaussian_nll": (0.5 * (np.log(VAR) + (X - X2) ** 2 / VAR)).mean(),
    }


@pytest.mark.parametrize("name", list(_numpy_values()))
def test_values_match_the_definitions(name):
    call, arrays, _ = CASES[name]
    got = call(mg, F, *[mg.tensor(a) for a in arrays])
    np.testing.assert_allclose(got.numpy(), _numpy_values()[name], rtol=1e-12)


@pytest.mark.parametrize("name", list(CASES))
def test_gradients(name):
    call, arrays, diff = CASES[name]
    xs = [mg.tensor(a, requires_grad=i in diff) for i, a in enumerate(arrays)]
    wrt = [xs[i] for i in diff]

    def fn(*ts):
        full = list(xs)
        for i, t in zip(diff, ts):
            full[i] = t
        return call(mg, F, *full)

    assert mg.autograd.gradcheck(fn, wrt, eps=1e-6, atol=1e-6, rtol=1e-4)


def test_modules_call_their_functions():
    x, y = mg.tensor(X), mg.tensor(X2)
    assert mg.nn.CosineEmbeddingLoss(0.2)(x, y, mg.tensor(Y_PM)).item() == pytest.approx(
        F.cosine_embedding_loss(x, y, mg.tensor(Y_PM), 0.2).item()
    )
    loss = mg.nn.MultiMarginLoss(p=2, weight=mg.tensor(W5))
    assert list(loss.state_dict()) == ["weight"] and repr(loss) == "MultiMarginLoss()"
    assert mg.nn.GaussianNLLLoss(full=True)(x, y, mg.tensor(VAR)).item() == pytest.approx(
        F.gaussian_nll_loss(x, y, mg.tensor(VAR), full=True).item()
    )


BAD = {
    "multi_margin p=3": lambda L: L.nn.functional.multi_margin_loss(
        L.ones(2, 3), L.tensor([0, 1]), p=3
    ),
    "multi_margin target size": lambda L: L.nn.functional.multi_margin_loss(
        L.ones(2, 3), L.tensor([0, 1, 2])
    ),
    "multi_margin 3-D": lambda L: L.nn.functional.multi_margin_loss(
        L.ones(2, 3, 1), L.tensor([0, 1])
    ),
    "cosine 2-D target": lambda L: L.nn.functional.cosine_embedding_loss(
        L.ones(2, 3), L.ones(2, 3), L.ones(2, 1)
    ),
    "cosine 1-D inputs, 1-D target": lambda L: L.nn.functional.cosine_embedding_loss(
        L.ones(3), L.ones(3), L.ones(3)
    ),
    "gaussian negative var": lambda L: L.nn.functional.gaussian_nll_loss(
        L.ones(2, 3), L.ones(2, 3), -L.ones(2, 3)
    ),
    "gaussian var size": lambda L: L.nn.functional.gaussian_nll_loss(
        L.ones(2, 3), L.ones(2, 3), L.ones(3, 2)
    ),
    "poisson reduction": lambda L: L.nn.functional.poisson_nll_loss(
        L.ones(2), L.ones(2), reduction="avg"
    ),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_raises(name):
    with pytest.raises((ValueError, RuntimeError)):
        BAD[name](mg)


# --- against PyTorch ------------------------------------------------------------------------------
@pytest.mark.oracle
@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_values_and_gradients_match_torch(name, dtype):
    torch = pytest.importorskip("torch")
    call, arrays, diff = CASES[name]
    got = {}
    for lib, f in ((mg, F), (torch, torch.nn.functional)):
        xs = [
            lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=i in diff)
            for i, a in enumerate(arrays)
        ]
        out = call(lib, f, *xs)
        out.backward(lib.ones_like(out))
        got[lib] = [out.detach().numpy()] + [xs[i].grad.numpy() for i in diff]
    tol = {"rtol": 1e-12, "atol": 1e-14} if dtype == "float64" else {"rtol": 2e-6, "atol": 1e-6}
    for ours, theirs in zip(got[mg], got[torch]):
        assert ours.dtype == theirs.dtype
        np.testing.assert_allclose(ours, theirs, **tol)


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(BAD))
def test_exception_classes_match_torch(name):
    torch = pytest.importorskip("torch")
    with pytest.raises(Exception) as theirs:
        BAD[name](torch)
    with pytest.raises(theirs.type):
        BAD[name](mg)
