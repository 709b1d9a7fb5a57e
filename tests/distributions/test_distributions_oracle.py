"""torch.distributions as oracle: the same seed and calls draw the same samples, and
log_prob, entropy, moments and KL agree in value and gradient, with PyTorch's shapes,
printed forms and error classes.

Samples are bit-equal, small and large, with two exceptions compared within a few units in
the last place: float32 normal noise of 16 or more elements (the generator's documented
inexactness, see ``minigrad.random``), and ``Laplace``, whose ``log1p`` is numpy's (PyTorch's
vectorised float32 ``log1p`` rounds about one value in seven differently; its uniforms are
bit-equal).
"""

import importlib

import numpy as np
import pytest

import minigrad as mg
import minigrad.distributions as mgd

torch = pytest.importorskip("torch")
import torch.distributions as td  # noqa: E402

pytestmark = pytest.mark.oracle
torch.set_num_threads(1)

LIBS = ((mg, mgd), (torch, td))
SEEDS = (0, 7, 2147483647)
SAMPLE_SHAPES = ((), (1,), (3,), (5, 2), (16,), (1001,))


def params(lib, spec, requires_grad=False):
    """The tensors of ``spec`` (name -> nested list or number) in ``lib``."""
    out = {}
    for name, value in spec.items():
        if isinstance(value, (list, tuple)):
            t = lib.tensor(
                np.asarray(value, dtype=np.float32).tolist(), requires_grad=requires_grad
            )
            out[name] = t
        else:
            out[name] = value
    return out


# name -> (class, params); continuous ones use floats, discrete probs/logits
CASES = {
    "normal": ("Normal", {"loc": [0.0, 1.5, -2.0], "scale": [1.0, 0.5, 3.0]}),
    "normal_scalar": ("Normal", {"loc": 0.5, "scale": 2.0}),
    "normal_2d": ("Normal", {"loc": [[0.0], [1.0]], "scale": [0.5, 1.0, 2.0]}),
    "uniform": ("Uniform", {"low": [0.0, -1.0], "high": [1.0, 3.0]}),
    "exponential": ("Exponential", {"rate": [0.5, 1.0, 4.0]}),
    "laplace": ("Laplace", {"loc": [0.0, 2.0], "scale": [1.0, 0.25]}),
    "bernoulli_probs": ("Bernoulli", {"probs": [0.1, 0.5, 0.9, 0.3]}),
    "bernoulli_logits": ("Bernoulli", {"logits": [-2.0, 0.0, 1.5]}),
    "categorical_probs": ("Categorical", {"probs": [0.1, 0.2, 0.3, 0.4]}),
    "categorical_unnormalised": ("Categorical", {"probs": [[1.0, 2.0, 5.0], [3.0, 3.0, 0.5]]}),
    "categorical_logits": (
        "Categorical",
        {"logits": [[0.5, -1.0, 2.0, 0.0], [1.0, 1.0, 1.0, 1.0]]},
    ),
    "onehot": ("OneHotCategorical", {"probs": [[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]]}),
    "onehot_logits": ("OneHotCategorical", {"logits": [1.0, -0.5, 0.25]}),
}
REPARAMETERISED = [
    k for k, (cls, _) in CASES.items() if cls in ("Normal", "Uniform", "Exponential", "Laplace")
]


def build(lib_pair, case, requires_grad=False):
    lib, dists = lib_pair
    cls, spec = CASES[case]
    ps = params(lib, spec, requires_grad)
    return getattr(dists, cls)(**ps), ps


def close(ours, theirs, rtol=1e-5, atol=1e-6):
    a, b = ours.detach().numpy(), theirs.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, equal_nan=True)


def _kind(case):
    """Which samples may differ in the last bits (see the module's docstring)."""
    return {"Normal": True, "Laplace": "laplace"}.get(CASES[case][0], False)


def same_sample(ours, theirs, normal_noise=False):
    a, b = ours.detach().numpy(), theirs.detach().numpy()
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, b.shape, a.dtype, b.dtype)
    if normal_noise == "laplace" or (normal_noise and a.size >= 16 and a.dtype == np.float32):
        # float32 normals from 16 elements on: the last bit may differ (minigrad.random)
        np.testing.assert_allclose(a, b, rtol=4e-7, atol=4e-6)
        if a.size >= 16:
            assert (a == b).mean() > 0.5  # most are bit-equal
    else:
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", SAMPLE_SHAPES, ids=str)
@pytest.mark.parametrize("case", CASES)
def test_sample_draws_pytorchs_numbers(case, shape, seed):
    outs = []
    for lib_pair in LIBS:
        d, _ = build(lib_pair, case)
        lib_pair[0].manual_seed(seed)
        first = d.sample(shape)
        outs.append((first, d.sample(shape), d.sample()))  # the stream stays in step
    for ours, theirs in zip(*outs):
        same_sample(ours, theirs, normal_noise=_kind(case))
        assert not ours.requires_grad


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("shape", SAMPLE_SHAPES, ids=str)
@pytest.mark.parametrize("case", REPARAMETERISED)
def test_rsample_draws_pytorchs_numbers_and_gradients(case, shape, seed):
    outs = []
    for lib_pair in LIBS:
        d, ps = build(lib_pair, case, requires_grad=True)
        lib_pair[0].manual_seed(seed)
        x = d.rsample(shape)
        if x.requires_grad:  # parameters given as numbers: nothing to differentiate
            (x * x).sum().backward()
        grads = [p.grad for p in ps.values() if not isinstance(p, float)]
        outs.append((x, grads))
    (x, gx), (y, gy) = outs
    same_sample(x, y, normal_noise=_kind(case))
    assert x.requires_grad == y.requires_grad
    for a, b in zip(gx, gy):
        close(a, b, rtol=1e-4, atol=1e-4)


def values_for(lib, case):
    cls, spec = CASES[case]
    if cls == "Bernoulli":
        return lib.tensor([[0.0, 1.0, 1.0, 0.0][: len(next(iter(spec.values())))]] * 2)
    if cls == "Categorical":
        return lib.tensor([[0, 2], [1, 1], [2, 0]])
    if cls == "OneHotCategorical":
        return lib.tensor([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    if cls == "Uniform":
        return lib.tensor([[0.25, 2.5], [0.75, -0.5]])
    if cls == "Exponential":
        return lib.tensor([[0.0, 0.5, 3.0], [1.0, 2.0, 0.1]])
    if cls == "Laplace":
        return lib.tensor([[0.5, 2.0], [-1.0, 1.75]])
    return lib.tensor([[0.25, -1.0, 2.5], [3.0, 1.5, 0.0]])


@pytest.mark.parametrize("case", CASES)
def test_log_prob_entropy_and_their_gradients(case):
    outs = []
    for lib_pair in LIBS:
        lib = lib_pair[0]
        d, ps = build(lib_pair, case, requires_grad=True)
        lp = d.log_prob(values_for(lib, case))
        ent = d.entropy()
        if lp.requires_grad:
            (lp.sum() + ent.sum()).backward()
        grads = [p.grad for p in ps.values() if not isinstance(p, float)]
        outs.append((lp, ent, grads))
    (lp, ent, g), (tlp, tent, tg) = outs
    close(lp, tlp)
    close(ent, tent)
    for a, b in zip(g, tg, strict=True):
        close(a, b, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("case", CASES)
def test_moments_shapes_and_repr(case):
    ours, _ = build(LIBS[0], case)
    theirs, _ = build(LIBS[1], case)
    assert ours.batch_shape == theirs.batch_shape
    assert ours.event_shape == theirs.event_shape
    assert ours.has_rsample == theirs.has_rsample
    for name in ("mean", "mode", "variance", "stddev"):
        close(getattr(ours, name), getattr(theirs, name))
    assert repr(ours).replace("minigrad.", "torch.") == repr(theirs)
    _ = ours.logits if hasattr(ours, "logits") else None  # a lazy parameter appears in repr
    _ = theirs.logits if hasattr(theirs, "logits") else None
    assert repr(ours).replace("minigrad.", "torch.") == repr(theirs)
    big_o, big_t = (
        ours.expand((4,) + tuple(ours.batch_shape)),
        theirs.expand((4,) + tuple(theirs.batch_shape)),
    )
    assert big_o.batch_shape == big_t.batch_shape and big_o.event_shape == big_t.event_shape
    mg.manual_seed(3)
    torch.manual_seed(3)
    same_sample(big_o.sample((2,)), big_t.sample((2,)), normal_noise=True)


@pytest.mark.parametrize("case", ["normal", "uniform", "exponential", "laplace"])
def test_cdf_and_icdf(case):
    ours, _ = build(LIBS[0], case)
    theirs, _ = build(LIBS[1], case)
    v = values_for(mg, case)[:1]
    tv = values_for(torch, case)[:1]
    close(ours.cdf(v), theirs.cdf(tv))
    q = [[0.1, 0.7, 0.5][: ours.batch_shape[0]]]
    close(ours.icdf(mg.tensor(q)), theirs.icdf(torch.tensor(q)), rtol=1e-4)


def test_independent_normal_a_vae_likelihood():
    outs = []
    for lib, dists in LIBS:
        lib.manual_seed(1)
        mu = lib.tensor([[0.0, 1.0, 2.0], [0.5, -0.5, 1.0]], requires_grad=True)
        sigma = lib.tensor([[1.0, 0.5, 2.0], [0.3, 1.0, 1.0]], requires_grad=True)
        d = dists.Independent(dists.Normal(mu, sigma), 1)
        z = d.rsample((4,))
        lp = d.log_prob(z)
        prior = dists.Independent(dists.Normal(lib.zeros(2, 3), lib.ones(2, 3)), 1)
        kl = dists.kl_divergence(d, prior)
        (lp.sum() + kl.sum() + d.entropy().sum()).backward()
        outs.append((d, z, lp, kl, mu.grad, sigma.grad))
    (d, *ours), (td_, *theirs) = outs
    assert d.batch_shape == td_.batch_shape == (2,) and d.event_shape == td_.event_shape == (3,)
    assert repr(d).replace("minigrad.", "torch.") == repr(td_)
    same_sample(ours[0], theirs[0], normal_noise=True)
    for a, b in zip(ours[1:], theirs[1:]):
        close(a, b, rtol=1e-4, atol=1e-5)


KL_PAIRS = {
    "normal": (
        "Normal",
        {"loc": [0.0, 1.0], "scale": [1.0, 2.0]},
        {"loc": [0.5, -1.0], "scale": [0.5, 1.0]},
    ),
    "bernoulli": ("Bernoulli", {"probs": [0.2, 0.0, 1.0, 0.5]}, {"probs": [0.5, 0.3, 0.6, 0.0]}),
    "bernoulli_logits": ("Bernoulli", {"logits": [0.2, -1.0]}, {"logits": [2.0, 0.5]}),
    "categorical": (
        "Categorical",
        {"probs": [[0.2, 0.3, 0.5], [0.0, 0.5, 0.5]]},
        {"probs": [[0.1, 0.1, 0.8], [0.3, 0.3, 0.4]]},
    ),
    "categorical_logits": ("Categorical", {"logits": [1.0, 2.0, 0.5]}, {"logits": [0.0, 0.0, 3.0]}),
    "onehot": ("OneHotCategorical", {"probs": [0.2, 0.3, 0.5]}, {"probs": [0.4, 0.4, 0.2]}),
    "exponential": ("Exponential", {"rate": [1.0, 2.0]}, {"rate": [0.5, 3.0]}),
    "laplace": (
        "Laplace",
        {"loc": [0.0, 1.0], "scale": [1.0, 2.0]},
        {"loc": [1.0, 1.0], "scale": [0.5, 1.0]},
    ),
    "uniform": (
        "Uniform",
        {"low": [0.0, 0.0], "high": [1.0, 1.0]},
        {"low": [-1.0, 0.5], "high": [2.0, 1.0]},
    ),
}


@pytest.mark.parametrize("pair", KL_PAIRS)
def test_kl_divergence_and_its_gradients(pair):
    cls, sp, sq = KL_PAIRS[pair]
    outs = []
    for lib, dists in LIBS:
        pp, pq = params(lib, sp, True), params(lib, sq, True)
        kl = dists.kl_divergence(getattr(dists, cls)(**pp), getattr(dists, cls)(**pq))
        finite = kl[kl.isfinite()].sum()
        if finite.requires_grad:
            finite.backward()
        grads = [p.grad for p in list(pp.values()) + list(pq.values())]
        outs.append((kl, grads))
    (kl, g), (tkl, tg) = outs
    close(kl, tkl)
    for a, b in zip(g, tg, strict=True):
        assert (a is None) == (b is None)
        if a is not None:
            close(a, b, rtol=1e-4, atol=1e-5)


def errors_in(lib, dists, fn):
    try:
        fn(lib, dists)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e).__name__
    return None


ERRORS = {
    "negative scale": lambda lib, d: d.Normal(lib.tensor([0.0]), lib.tensor([-1.0])),
    "nan loc": lambda lib, d: d.Normal(lib.tensor([float("nan")]), lib.tensor([1.0])),
    "probs above one": lambda lib, d: d.Bernoulli(probs=lib.tensor([1.5])),
    "both probs and logits": lambda lib, d: d.Bernoulli(
        probs=lib.tensor([0.5]), logits=lib.tensor([0.0])
    ),
    "neither": lambda lib, d: d.Categorical(),
    "0-d probs": lambda lib, d: d.Categorical(probs=lib.tensor(1.0)),
    "negative probs": lambda lib, d: d.Categorical(probs=lib.tensor([0.5, -0.1])),
    "low >= high": lambda lib, d: d.Uniform(lib.tensor([1.0]), lib.tensor([1.0])),
    "zero rate": lambda lib, d: d.Exponential(lib.tensor([0.0])),
    "value outside support": lambda lib, d: d.Exponential(lib.tensor([1.0])).log_prob(
        lib.tensor([-1.0])
    ),
    "category out of range": lambda lib, d: d.Categorical(logits=lib.zeros(3)).log_prob(
        lib.tensor([3])
    ),
    "not one-hot": lambda lib, d: d.OneHotCategorical(logits=lib.zeros(3)).log_prob(
        lib.tensor([1.0, 1.0, 0.0])
    ),
    "value not a tensor": lambda lib, d: d.Normal(0.0, 1.0).log_prob(0.5),
    "value shape": lambda lib, d: d.Normal(lib.zeros(3), lib.ones(3)).log_prob(lib.zeros(2)),
    "event shape": lambda lib, d: d.OneHotCategorical(logits=lib.zeros(3)).log_prob(lib.zeros(2)),
    "bernoulli value 0.5": lambda lib, d: d.Bernoulli(probs=lib.tensor([0.3])).log_prob(
        lib.tensor([0.5])
    ),
    "rsample of a discrete": lambda lib, d: d.Bernoulli(probs=lib.tensor([0.3])).rsample(),
    "independent ndims": lambda lib, d: d.Independent(d.Normal(lib.zeros(3), lib.ones(3)), 2),
    "kl not registered": lambda lib, d: d.kl_divergence(
        d.Normal(0.0, 1.0), d.Bernoulli(probs=lib.tensor(0.5))
    ),
    "register_kl non-class": lambda lib, d: d.register_kl(3, d.Normal),
    "bad parameter type": lambda lib, d: d.Normal("a", 1.0),
}


@pytest.mark.parametrize("case", ERRORS)
def test_errors_have_pytorchs_classes(case):
    fn = ERRORS[case]
    ours, theirs = errors_in(mg, mgd, fn), errors_in(torch, td, fn)
    assert theirs is not None and ours == theirs


def test_validate_args_false_skips_the_checks_as_pytorch():
    for lib, dists in LIBS:
        d = dists.Normal(lib.tensor([0.0]), lib.tensor([-1.0]), validate_args=False)
        assert d.scale.item() == -1.0
        d.log_prob(lib.tensor([0.3]))  # no check of the value either


def test_error_message_names_the_parameter_and_constraint():
    with pytest.raises(ValueError) as ours:
        mgd.Normal(mg.tensor([0.0]), mg.tensor([-1.0]))
    with pytest.raises(ValueError) as theirs:
        td.Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
    assert str(ours.value).replace("minigrad.", "torch.") == str(theirs.value)


F64 = {
    "Normal": lambda lib: {"loc": lib.tensor([0.0, 2.0], dtype=lib.float64), "scale": 1.5},
    "Uniform": lambda lib: {"low": lib.tensor([0.0, -2.0], dtype=lib.float64), "high": 3.0},
    "Exponential": lambda lib: {"rate": lib.tensor([0.5, 2.0], dtype=lib.float64)},
    "Laplace": lambda lib: {"loc": lib.tensor([0.0, 2.0], dtype=lib.float64), "scale": 0.5},
    "Bernoulli": lambda lib: {"probs": lib.tensor([0.25, 0.75], dtype=lib.float64)},
    "Categorical": lambda lib: {"logits": lib.rand(40, 6, dtype=lib.float64, generator=None)},
}


@pytest.mark.parametrize("shape", [(), (3,), (1001,)], ids=str)
@pytest.mark.parametrize("cls", F64)
def test_float64_samples(cls, shape):
    outs = []
    for lib, dists in LIBS:
        lib.manual_seed(4)
        d = getattr(dists, cls)(**F64[cls](lib))
        outs.append((d.sample(shape), d.rsample(shape) if d.has_rsample else d.sample()))
    for ours, theirs in zip(*outs):
        if cls == "Laplace":  # numpy's log1p against PyTorch's vectorised one
            close(ours, theirs, rtol=1e-14, atol=1e-15)
        else:
            same_sample(ours, theirs)


@pytest.mark.parametrize("case", ["bernoulli_probs", "categorical_logits", "onehot"])
@pytest.mark.parametrize("expand", [True, False])
def test_enumerate_support(case, expand):
    ours, _ = build(LIBS[0], case)
    theirs, _ = build(LIBS[1], case)
    assert ours.has_enumerate_support == theirs.has_enumerate_support
    a, b = ours.enumerate_support(expand), theirs.enumerate_support(expand)
    assert a.shape == b.shape
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    close(ours.log_prob(a), theirs.log_prob(b))


def test_expand_of_independent_and_multivariate_normal():
    outs = []
    for lib, dists in LIBS:
        lib.manual_seed(6)
        ind = dists.Independent(dists.Normal(lib.zeros(3), lib.ones(3)), 1).expand((4,))
        mvn = dists.MultivariateNormal(lib.zeros(2), scale_tril=lib.eye(2)).expand((5,))
        outs.append((ind, mvn, ind.sample((2,)), mvn.sample(), ind.log_prob(lib.zeros(4, 3))))
    (ind, mvn, *ours), (tind, tmvn, *theirs) = outs
    assert (ind.batch_shape, ind.event_shape) == (tind.batch_shape, tind.event_shape)
    assert (mvn.batch_shape, mvn.event_shape) == (tmvn.batch_shape, tmvn.event_shape)
    assert repr(ind).replace("minigrad.", "torch.") == repr(tind)
    assert repr(mvn).replace("minigrad.", "torch.") == repr(tmvn)
    for a, b in zip(ours, theirs, strict=True):
        close(a, b)


PATHS = [
    ("normal", "Normal"),
    ("uniform", "Uniform"),
    ("exponential", "Exponential"),
    ("laplace", "Laplace"),
    ("bernoulli", "Bernoulli"),
    ("categorical", "Categorical"),
    ("one_hot_categorical", "OneHotCategorical"),
    ("independent", "Independent"),
    ("multivariate_normal", "MultivariateNormal"),
    ("distribution", "Distribution"),
    ("kl", "kl_divergence"),
    ("kl", "register_kl"),
]


@pytest.mark.parametrize("module, name", PATHS)
def test_pytorchs_module_paths(module, name):
    ours = getattr(importlib.import_module(f"minigrad.distributions.{module}"), name)
    theirs = getattr(importlib.import_module(f"torch.distributions.{module}"), name)
    assert ours is getattr(mgd, name) and theirs is getattr(td, name)
