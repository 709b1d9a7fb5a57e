"""minigrad.distributions without PyTorch: gradients (to second order), sampling without
gradients, lazy parameters, shapes, validation switches, and the statistics of samples."""

import math
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad.distributions import (
    Bernoulli,
    Categorical,
    Distribution,
    Exponential,
    Independent,
    Laplace,
    Normal,
    OneHotCategorical,
    Uniform,
    constraints,
    kl_divergence,
    register_kl,
)


def test_rsample_is_recorded_and_sample_is_not():
    mu = mg.tensor([0.5, -1.0], requires_grad=True)
    sigma = mg.tensor([1.0, 2.0], requires_grad=True)
    d = Normal(mu, sigma)
    mg.manual_seed(0)
    z = d.rsample((3,))
    assert z.requires_grad and z.shape == (3, 2)
    z.sum().backward()
    mg.manual_seed(0)
    eps = mg.randn(3, 2)  # the same noise: rsample is loc + eps * scale
    np.testing.assert_allclose(mu.grad.numpy(), [3.0, 3.0])
    np.testing.assert_allclose(sigma.grad.numpy(), eps.sum(0).numpy(), rtol=1e-6)
    assert not d.sample((3,)).requires_grad


def test_log_prob_second_derivative_with_create_graph():
    # d2/dsigma2 of log N(x; mu, sigma) = 1/sigma^2 - 3 (x - mu)^2 / sigma^4
    x, mu = 1.7, 0.2
    sigma = mg.tensor(0.8, dtype=mg.float64, requires_grad=True)
    lp = Normal(mg.tensor(mu, dtype=mg.float64), sigma).log_prob(mg.tensor(x, dtype=mg.float64))
    (g,) = mg.autograd.grad(lp, sigma, create_graph=True)
    (h,) = mg.autograd.grad(g, sigma)
    s = 0.8
    assert math.isclose(g.item(), -1 / s + (x - mu) ** 2 / s**3, rel_tol=1e-12)
    assert math.isclose(h.item(), 1 / s**2 - 3 * (x - mu) ** 2 / s**4, rel_tol=1e-12)


def test_score_function_gradient_matches_the_softmax_formula():
    logits = mg.tensor([0.3, -0.2, 1.0], dtype=mg.float64, requires_grad=True)
    Categorical(logits=logits).log_prob(mg.tensor(2)).backward()
    p = np.exp(logits.detach().numpy()) / np.exp(logits.detach().numpy()).sum()
    np.testing.assert_allclose(logits.grad.numpy(), np.eye(3)[2] - p, rtol=1e-12)


def test_lazy_parameters_are_computed_once_and_then_printed():
    d = Categorical(logits=mg.tensor([1.0, 2.0, 3.0]))
    assert repr(d) == "Categorical(logits: minigrad.Size([3]))"
    assert d.probs is d.probs
    # in arg_constraints' order, as PyTorch prints them
    assert repr(d) == "Categorical(probs: minigrad.Size([3]), logits: minigrad.Size([3]))"
    np.testing.assert_allclose(d.probs.sum().item(), 1.0, rtol=1e-6)


def test_shapes():
    d = Independent(Normal(mg.zeros(4, 3), mg.ones(4, 3)), 1)
    assert (d.batch_shape, d.event_shape) == ((4,), (3,))
    assert d.sample((2, 5)).shape == (2, 5, 4, 3)
    assert d.log_prob(mg.zeros(4, 3)).shape == (4,)
    oh = OneHotCategorical(probs=mg.ones(2, 5))
    assert (oh.batch_shape, oh.event_shape) == ((2,), (5,))
    assert oh.sample((7,)).shape == (7, 2, 5)
    assert Categorical(probs=mg.ones(2, 5)).sample((7,)).shape == (7, 2)
    assert Bernoulli(probs=0.3).sample((4,)).shape == (4,)
    assert Normal(0.0, 1.0).expand((3, 2)).sample().shape == (3, 2)


def test_validate_args_default_and_override():
    with pytest.raises(ValueError, match="Expected parameter scale"):
        Normal(mg.tensor([0.0]), mg.tensor([0.0]))
    Distribution.set_default_validate_args(False)
    try:
        Normal(mg.tensor([0.0]), mg.tensor([0.0]))  # not checked
        with pytest.raises(ValueError, match="Expected parameter rate"):
            Exponential(mg.tensor([-1.0]), validate_args=True)
    finally:
        Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError, match="within the support"):
        Uniform(0.0, 1.0).log_prob(mg.tensor(1.5))


def test_sample_n_warns_and_equals_sample():
    d = Normal(mg.zeros(2), mg.ones(2))
    mg.manual_seed(5)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        a = d.sample_n(3)
    assert caught and "sample_n" in str(caught[0].message)
    mg.manual_seed(5)
    np.testing.assert_array_equal(a.numpy(), d.sample((3,)).numpy())


@pytest.mark.parametrize(
    "d, mean, std",
    [
        (Normal(1.0, 2.0), 1.0, 2.0),
        (Uniform(-1.0, 3.0), 1.0, 4 / math.sqrt(12)),
        (Exponential(2.0), 0.5, 0.5),
        (Laplace(-1.0, 0.5), -1.0, math.sqrt(2) * 0.5),
        (Bernoulli(probs=0.3), 0.3, math.sqrt(0.21)),
    ],
    ids=["normal", "uniform", "exponential", "laplace", "bernoulli"],
)
def test_samples_have_the_distributions_moments(d, mean, std):
    mg.manual_seed(11)
    x = d.sample((200_000,)).numpy().astype(np.float64)
    assert abs(x.mean() - mean) < 5 * std / math.sqrt(x.size)
    assert abs(x.std() - std) < 0.01 * std
    assert math.isclose(d.mean.item(), mean, rel_tol=1e-6)
    assert math.isclose(d.stddev.item(), std, rel_tol=1e-6)


def test_categorical_frequencies():
    probs = np.array([0.1, 0.2, 0.7])
    mg.manual_seed(2)
    counts = np.bincount(
        Categorical(probs=mg.tensor(probs)).sample((100_000,)).numpy(), minlength=3
    )
    np.testing.assert_allclose(counts / counts.sum(), probs, atol=0.005)


def test_kl_divergence_is_zero_for_equal_and_positive_otherwise():
    pairs = [
        (Normal(mg.tensor([0.5, 1.0]), mg.tensor([1.0, 2.0])), Normal(mg.zeros(2), mg.ones(2))),
        (Bernoulli(probs=mg.tensor([0.2, 0.9])), Bernoulli(probs=mg.tensor([0.5, 0.5]))),
        (Categorical(logits=mg.tensor([1.0, 0.0])), Categorical(logits=mg.tensor([0.0, 0.0]))),
    ]
    for p, q in pairs:
        assert np.all(kl_divergence(p, p).numpy() == 0)
        assert np.all(kl_divergence(p, q).numpy() > 0)
    # KL(N(m, s) || N(0, 1)) = (s^2 + m^2 - 1) / 2 - log s
    kl = kl_divergence(*pairs[0]).numpy()
    np.testing.assert_allclose(kl, [0.25 / 2, (4 + 1 - 1) / 2 - math.log(2)], atol=1e-6)


def test_register_kl_the_most_specific_pair_wins():
    class Wide(Normal):
        pass

    @register_kl(Wide, Normal)
    def _kl_wide(p, q):
        return mg.tensor(-1.0)

    assert kl_divergence(Wide(0.0, 1.0), Normal(0.0, 1.0)).item() == -1.0
    assert kl_divergence(Normal(0.0, 1.0), Wide(0.0, 1.0)).item() == 0.0
    with pytest.raises(NotImplementedError, match="p type Normal and q type Exponential"):
        kl_divergence(Normal(0.0, 1.0), Exponential(1.0))


def test_constraints_print_as_pytorch():
    assert repr(constraints.positive) == "GreaterThan(lower_bound=0.0)"
    assert repr(constraints.simplex) == "Simplex()"
    assert repr(constraints.real_vector) == "IndependentConstraint(Real(), 1)"
    assert constraints.simplex.check(mg.tensor([[0.5, 0.5], [0.9, 0.2]])).tolist() == [True, False]


def test_cholesky_gradcheck_and_gradgradcheck():
    from minigrad.distributions.multivariate_normal import cholesky

    a = mg.tensor([[2.0, 0.5, 0.1], [0.5, 1.0, 0.2], [0.1, 0.2, 0.5]], dtype=mg.float64)
    a.requires_grad_()

    def factor(m):  # symmetrise, so the finite differences stay on symmetric matrices
        return cholesky((m + m.mT) / 2)

    assert mg.autograd.gradcheck(factor, (a,))
    assert mg.autograd.gradgradcheck(factor, (a,))
    np.testing.assert_allclose(
        factor(a).detach().numpy(), np.linalg.cholesky(a.detach().numpy()), rtol=1e-12
    )


def test_multivariate_normal_with_a_diagonal_covariance_is_independent_normals():
    from minigrad.distributions import MultivariateNormal

    loc = mg.tensor([0.5, -1.0, 2.0], dtype=mg.float64)
    var = mg.tensor([1.0, 4.0, 0.25], dtype=mg.float64)
    mvn = MultivariateNormal(loc, covariance_matrix=mg.diag(var))
    ind = Independent(Normal(loc, var.sqrt()), 1)
    x = mg.tensor([[0.0, 0.0, 0.0], [1.0, -2.0, 2.5]], dtype=mg.float64)
    np.testing.assert_allclose(mvn.log_prob(x).numpy(), ind.log_prob(x).numpy(), rtol=1e-12)
    np.testing.assert_allclose(mvn.entropy().item(), ind.entropy().item(), rtol=1e-12)
    mg.manual_seed(0)
    samples = mvn.sample((100_000,)).numpy()
    np.testing.assert_allclose(np.cov(samples.T), np.diag(var.numpy()), atol=0.05)
