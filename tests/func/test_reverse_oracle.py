"""mg.func against torch.func (and torch.autograd.functional.hvp) on the same functions."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import func as mf

torch = pytest.importorskip("torch")
tf = pytest.importorskip("torch.func")
pytestmark = pytest.mark.oracle

X = np.array([0.3, -1.2, 0.7, 1.9])
V = np.array([1.0, -0.5, 2.0, 0.25])
M = np.arange(16.0).reshape(4, 4) / 10 - 0.7

# (name, minigrad fn, torch fn): each is a scalar function of one vector
SCALAR = [
    ("poly", lambda x: (x**3 - 2 * x).sum(), lambda x: (x**3 - 2 * x).sum()),
    ("trig", lambda x: (x.sin() * x.cos() + x.tanh()).sum(), None),
    ("lse", lambda x: mg.logsumexp(x * 2, dim=0), lambda x: torch.logsumexp(x * 2, dim=0)),
    (
        "quad",
        lambda x: x @ mg.tensor(M) @ x.exp(),
        lambda x: x @ torch.tensor(M) @ x.exp(),
    ),
]
SCALAR = [(n, f, g or f) for n, f, g in SCALAR]  # same code runs on both where it can
VECTOR = [
    ("sigmoid_outer", lambda x: x.sigmoid().reshape(4, 1) * x.reshape(1, 4), None),
    ("softmax", lambda x: mg.softmax(x, dim=0), lambda x: torch.softmax(x, dim=0)),
]
VECTOR = [(n, f, g or f) for n, f, g in VECTOR]


def mgt(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def tt(a):
    return torch.tensor(np.asarray(a, dtype=np.float64))


def same(ours, theirs):
    np.testing.assert_allclose(ours.numpy(), theirs.detach().numpy(), atol=1e-10, rtol=1e-8)


@pytest.mark.parametrize("name,f,g", SCALAR)
def test_grad_and_higher_orders(name, f, g):
    same(mf.grad(f)(mgt(X)), tf.grad(g)(tt(X)))
    same(mf.hessian(f)(mgt(X)), tf.hessian(g)(tt(X)))
    same(mf.jacrev(mf.jacrev(f))(mgt(X)), tf.jacrev(tf.jacrev(g))(tt(X)))
    same(mf.grad_and_value(f)(mgt(X))[1], tf.grad_and_value(g)(tt(X))[1])


@pytest.mark.parametrize("name,f,g", SCALAR)
def test_hvp(name, f, g):
    out, hv = mf.hvp(f, mgt(X), mgt(V))
    t_out, t_hv = torch.autograd.functional.hvp(g, tt(X), tt(V))
    same(out, t_out)
    same(hv, t_hv)


@pytest.mark.parametrize("name,f,g", VECTOR)
def test_vjp_and_jacrev(name, f, g):
    out, fn = mf.vjp(f, mgt(X))
    t_out, t_fn = tf.vjp(g, tt(X))
    same(out, t_out)
    cot = np.linspace(-1.0, 1.0, t_out.numel()).reshape(tuple(t_out.shape))
    same(fn(mgt(cot))[0], t_fn(tt(cot))[0])
    same(mf.jacrev(f)(mgt(X)), tf.jacrev(g)(tt(X)))


def test_argnums_and_aux():
    def f(x, y):
        return (x * y.sin()).sum(), x * 2

    (gx, gy), aux = mf.grad(f, argnums=(0, 1), has_aux=True)(mgt(X), mgt(V))
    (tx, ty), t_aux = tf.grad(f, argnums=(0, 1), has_aux=True)(tt(X), tt(V))
    same(gx, tx)
    same(gy, ty)
    same(aux, t_aux)


def test_vmap_grad_and_dims():
    xs = np.outer(np.arange(1.0, 4.0), X)

    def f(x, w):
        return (x.tanh() * w).sum()

    ours = mf.vmap(mf.grad(f), in_dims=(0, None))(mgt(xs), mgt(V))
    theirs = tf.vmap(tf.grad(f), in_dims=(0, None))(tt(xs), tt(V))
    same(ours, theirs)
    ours = mf.vmap(lambda c: c * 2, in_dims=1, out_dims=1)(mgt(xs))
    same(ours, tf.vmap(lambda c: c * 2, in_dims=1, out_dims=1)(tt(xs)))


def test_error_types_match():
    x = mgt(X)
    with pytest.raises(RuntimeError) as ours:
        mf.grad(lambda x: x * 2)(x)
    with pytest.raises(RuntimeError) as theirs:
        tf.grad(lambda x: x * 2)(tt(X))
    assert str(theirs.value).split(". Maybe")[0] in str(ours.value)
    with pytest.raises(RuntimeError, match="Got argnum=2, but only 1 positional inputs"):
        mf.grad(lambda x: x.sum(), argnums=2)(x)
    with pytest.raises(RuntimeError, match="Got argnum=2, but only 1 positional inputs"):
        tf.grad(lambda x: x.sum(), argnums=2)(tt(X))
    with pytest.raises(ValueError):
        mf.vmap(lambda a, b: a + b)(mg.ones(4, 3), mg.ones(5, 3))
    with pytest.raises(ValueError):
        tf.vmap(lambda a, b: a + b)(torch.ones(4, 3), torch.ones(5, 3))


def test_hvp_two_arguments():
    def f(x, y):
        return (x**2 * y.sin()).sum()

    out, (hx, hy) = mf.hvp(f, (mgt(X), mgt(V)), (mgt(V), mgt(X)))
    t_out, (tx, ty) = torch.autograd.functional.hvp(f, (tt(X), tt(V)), (tt(V), tt(X)))
    same(out, t_out)
    same(hx, tx)
    same(hy, ty)
