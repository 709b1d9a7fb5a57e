"""``vmap(jacrev(f))`` and ``jacrev(f)`` agree bit for bit (the promise in the docstrings of
``minigrad.func.vmap`` and ``jacrev``), and so do the other per-sample paths."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.func import grad, jacfwd, jacrev, vjp, vmap

RNG = np.random.default_rng(11)
W = mg.tensor(RNG.standard_normal((7, 5)))
B = mg.tensor(RNG.standard_normal(7))
M3 = mg.tensor(RNG.standard_normal((3, 5, 5)))


def funcs(dtype=mg.float64) -> dict:
    """The functions tried, with their constants in ``dtype`` (matmul does not promote)."""
    w, b, m3 = W.to(dtype), B.to(dtype), M3.to(dtype)
    return {
        "tanh_linear_times_sum": lambda x: mg.nn.functional.linear(x, w, b).tanh() * x.sum(),
        "softmax": lambda x: mg.softmax(w @ x, dim=0),
        "logsumexp_outer": lambda x: mg.logsumexp(x.reshape(5, 1) * x.reshape(1, 5), dim=1),
        "batched_matmul": lambda x: (m3 @ x).sum(0).sin(),
        "normalise": lambda x: x / x.norm(),
    }


NAMES = list(funcs())


def same_bits(a, b) -> bool:
    return a.shape == b.shape and a.dtype is b.dtype and a.numpy().tobytes() == b.numpy().tobytes()


def _batch(in_dim: int, dtype) -> mg.Tensor:
    shape = (6, 5) if in_dim == 0 else (5, 6)
    return mg.tensor(RNG.standard_normal(shape), dtype=dtype)


def _sample(xs, in_dim: int, i: int):
    return xs[i] if in_dim == 0 else xs[:, i]


@pytest.mark.parametrize("dtype", [mg.float64, mg.float32], ids=str)
@pytest.mark.parametrize("in_dim", [0, 1])
@pytest.mark.parametrize("name", NAMES)
def test_vmap_of_jacrev_is_jacrev_per_sample_bit_for_bit(name, in_dim, dtype):
    f = funcs(dtype)[name]
    xs = _batch(in_dim, dtype)
    batched = vmap(jacrev(f), in_dims=in_dim)(xs)
    for i in range(6):
        assert same_bits(batched[i], jacrev(f)(_sample(xs, in_dim, i)))
        fresh = mg.tensor(_sample(xs, in_dim, i).numpy().copy())  # contiguous: agrees here too
        assert same_bits(batched[i], jacrev(f)(fresh))


@pytest.mark.parametrize("name", NAMES)
def test_other_per_sample_paths_are_bit_for_bit_too(name):
    f = funcs()[name]
    xs = _batch(0, mg.float64)
    per_sample = vmap(jacrev(f))(xs)
    full = jacrev(vmap(f))(xs)  # (6, *out, 6, 5): block-diagonal in the samples
    for i in range(6):
        assert same_bits(full[i, ..., i, :], per_sample[i])
    assert same_bits(vmap(jacfwd(f))(xs)[2], jacfwd(f)(xs[2]))
    scalar = lambda x: f(x).sum()  # noqa: E731
    assert same_bits(vmap(grad(scalar))(xs)[3], grad(scalar)(xs[3]))
    x = xs[0]
    out, vjp_fn = vjp(f, x)
    eye = mg.eye(out.numel(), dtype=mg.float64).reshape(out.numel(), *out.shape)
    (rows,) = vmap(vjp_fn)(eye)  # the Jacobians tutorial's vmap(vjp_fn)(unit_vectors)
    assert same_bits(rows.reshape(*jacrev(f)(x).shape), jacrev(f)(x))


def test_inside_a_graph_the_values_are_the_same_bits():
    f = funcs()["tanh_linear_times_sum"]
    xs = _batch(0, mg.float64)
    recorded = vmap(jacrev(f))(xs.clone().requires_grad_())  # create_graph passes
    assert recorded.requires_grad and same_bits(recorded.detach(), vmap(jacrev(f))(xs))


@pytest.mark.oracle
def test_values_agree_with_torch_to_rounding():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    tw, tb = torch.from_numpy(W.numpy()), torch.from_numpy(B.numpy())

    def tf(x):
        return torch.nn.functional.linear(x, tw, tb).tanh() * x.sum()

    xs = _batch(0, mg.float64)
    theirs = torch.func.vmap(torch.func.jacrev(tf))(torch.from_numpy(xs.numpy()))
    ours = vmap(jacrev(funcs()["tanh_linear_times_sum"]))(xs)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-13, atol=1e-15)
