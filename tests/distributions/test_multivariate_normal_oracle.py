"""MultivariateNormal against torch.distributions: the same noise for the same seed, then
loc + L @ eps (equal within float32 rounding: the product's summation order is BLAS's);
log_prob, entropy and their gradients through the Cholesky factor; shapes, repr, errors."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.distributions as mgd
from minigrad.distributions.multivariate_normal import cholesky

torch = pytest.importorskip("torch")
import torch.distributions as td  # noqa: E402

pytestmark = pytest.mark.oracle
torch.set_num_threads(1)
LIBS = ((mg, mgd), (torch, td))

COV = [[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.5]]
TRIL = [[1.0, 0.0, 0.0], [0.5, 2.0, 0.0], [-0.3, 0.1, 0.7]]
LOCS = [[0.0, 1.0, 2.0], [-1.0, 0.5, 0.0]]  # a batch of 2 sharing one matrix


def close(a, b, rtol=1e-5, atol=1e-5):
    a, b = a.detach().numpy(), b.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol)


@pytest.mark.parametrize("which", ["covariance_matrix", "scale_tril", "precision_matrix"])
@pytest.mark.parametrize("shape", [(), (5,), (400,)], ids=str)
def test_samples_log_prob_entropy_and_gradients(which, shape):
    outs = []
    for lib, dists in LIBS:
        lib.manual_seed(3)
        loc = lib.tensor(LOCS, requires_grad=True)
        m = lib.tensor(TRIL if which == "scale_tril" else COV, requires_grad=True)
        d = dists.MultivariateNormal(loc, **{which: m})
        x = d.rsample(shape)
        s = d.sample(shape)
        lp = d.log_prob(x.detach())
        ent = d.entropy()
        (x.sum() + lp.sum() + ent.sum()).backward()
        outs.append((d, x, s, lp, ent, loc.grad, m.grad, d.variance, d.covariance_matrix))
    (d, *ours), (t, *theirs) = outs
    assert (d.batch_shape, d.event_shape) == (t.batch_shape, t.event_shape) == ((2,), (3,))
    assert repr(d).replace("minigrad.", "torch.") == repr(t)
    assert ours[0].requires_grad and not ours[1].requires_grad
    for a, b in zip(ours, theirs, strict=True):
        close(a, b, rtol=1e-4, atol=1e-4)


def test_float64_samples_are_pytorchs_to_rounding():
    outs = []
    for lib, dists in LIBS:
        lib.manual_seed(9)
        d = dists.MultivariateNormal(
            lib.tensor(LOCS, dtype=lib.float64),
            scale_tril=lib.tensor(TRIL, dtype=lib.float64),
        )
        outs.append(d.sample((1000,)))
    close(*outs, rtol=1e-13, atol=1e-13)


def test_cholesky_and_its_second_derivative():
    outs = []
    for lib in (mg, torch):
        a = lib.tensor(COV, dtype=lib.float64, requires_grad=True)
        factor = cholesky(a) if lib is mg else torch.linalg.cholesky(a)
        w = lib.tensor(TRIL, dtype=lib.float64)
        (g,) = lib.autograd.grad((factor * w).sum(), a, create_graph=True)
        (h,) = lib.autograd.grad((g * g).sum(), a)
        outs.append((factor, g, h))
    for a, b in zip(*outs):
        close(a, b, rtol=1e-10, atol=1e-12)


ERRORS = {
    "0-d loc": lambda lib, d: d.MultivariateNormal(lib.tensor(0.0), lib.eye(1)),
    "two matrices": lambda lib, d: d.MultivariateNormal(
        lib.zeros(2), covariance_matrix=lib.eye(2), scale_tril=lib.eye(2)
    ),
    "no matrix": lambda lib, d: d.MultivariateNormal(lib.zeros(2)),
    "1-d matrix": lambda lib, d: d.MultivariateNormal(lib.zeros(2), lib.ones(2)),
    "not positive definite": lambda lib, d: d.MultivariateNormal(
        lib.zeros(2), lib.tensor([[1.0, 2.0], [2.0, 1.0]])
    ),
    "not symmetric": lambda lib, d: d.MultivariateNormal(
        lib.zeros(2), lib.tensor([[1.0, 0.5], [0.0, 1.0]])
    ),
    "upper scale_tril": lambda lib, d: d.MultivariateNormal(
        lib.zeros(2), scale_tril=lib.tensor([[1.0, 0.5], [0.0, 1.0]])
    ),
    "value event shape": lambda lib, d: d.MultivariateNormal(lib.zeros(2), lib.eye(2)).log_prob(
        lib.zeros(3)
    ),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_have_pytorchs_classes(case):
    classes = []
    for lib, dists in LIBS:
        try:
            ERRORS[case](lib, dists)
            classes.append(None)
        except Exception as e:  # noqa: BLE001  (the class is what is compared)
            classes.append(type(e).__name__)
    assert classes[1] is not None and classes[0] == classes[1]


def test_kl_divergence_and_its_gradients():
    outs = []
    for lib, dists in LIBS:
        loc = lib.tensor(LOCS, requires_grad=True)
        cov = lib.tensor(COV, requires_grad=True)
        tril = lib.tensor(TRIL, requires_grad=True)
        p = dists.MultivariateNormal(loc, covariance_matrix=cov)
        q = dists.MultivariateNormal(lib.zeros(3), scale_tril=tril)
        kl = dists.kl_divergence(p, q)
        kl.sum().backward()
        outs.append((kl, loc.grad, cov.grad, tril.grad))
    for a, b in zip(*outs, strict=True):
        close(a, b, rtol=1e-4, atol=1e-5)
