"""Forward mode against torch.func: jvp and jacfwd values, and jacfwd(jacrev(f)) Hessians."""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg
from minigrad.func import jacrev
from minigrad.func.forward import jacfwd, jvp

torch = pytest.importorskip("torch")
tf = pytest.importorskip("torch.func")
pytestmark = pytest.mark.oracle

X = np.array([[0.3, -1.2, 0.7], [1.9, 0.4, -0.6]])
V = np.array([[1.0, -0.5, 2.0], [0.25, 0.0, -1.0]])
W = np.arange(6.0).reshape(3, 2) / 5 - 0.4

# fn(m, x): the same line runs with m = minigrad and m = torch
FUNCS = {
    "tanh-matmul": lambda m, x: (x.tanh() @ m.tensor(W)).exp(),
    "softmax": lambda m, x: m.softmax(x, dim=-1) * x.sum(),
    "log_softmax-mean": lambda m, x: m.log_softmax(x, dim=0).mean(dim=1),
    "pow-div": lambda m, x: (x.abs() + 1.0) ** x / (x * x + 2.0),
    "reshape-transpose": lambda m, x: x.reshape(3, 2).transpose(0, 1).sigmoid() * 2.0,
    "select-where": lambda m, x: m.where(x > 0, x.sqrt().clamp(max=1.0), x.sin()),
    "logsumexp-var": lambda m, x: m.logsumexp(x, dim=1) + x.var(dim=1),
    "max-cat": lambda m, x: m.cat([x.amax(dim=0), x[:, 0] * x[:, 1]]),
}
SCALAR = {
    "poly": lambda m, x: (x**3 - 2 * x).sum(),
    "trig": lambda m, x: (x.sin() * x.cos() + x.tanh()).sum(),
    "quad": lambda m, x: (x.exp() @ m.tensor(W)).relu().sum() + (x * x).mean(),
}


def mgt(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def tt(a):
    return torch.tensor(np.asarray(a, dtype=np.float64))


@pytest.mark.parametrize("name", list(FUNCS))
def test_jvp_matches_torch_func(name):
    f = FUNCS[name]
    out, tan = jvp(lambda x: f(mg, x), (mgt(X),), (mgt(V),))
    t_out, t_tan = tf.jvp(lambda x: f(torch, x), (tt(X),), (tt(V),))
    np.testing.assert_allclose(out.detach().numpy(), t_out.numpy(), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(tan.detach().numpy(), t_tan.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", list(FUNCS))
def test_jacfwd_matches_torch_func(name):
    f = FUNCS[name]
    got = jacfwd(lambda x: f(mg, x))(mgt(X))
    want = tf.jacfwd(lambda x: f(torch, x))(tt(X))
    assert got.shape == tuple(want.shape)
    np.testing.assert_allclose(got.detach().numpy(), want.numpy(), rtol=1e-10, atol=1e-12)


def test_jacfwd_argnums_tuple_matches_torch_func():
    def f(m, a, b):
        return (a @ b).sin() * a.sum()

    a, b = X, W
    got = jacfwd(lambda a, b: f(mg, a, b), argnums=(0, 1))(mgt(a), mgt(b))
    want = tf.jacfwd(lambda a, b: f(torch, a, b), argnums=(0, 1))(tt(a), tt(b))
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.detach().numpy(), w.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name", list(SCALAR))
def test_jacfwd_of_jacrev_is_torch_hessian(name):
    f = SCALAR[name]
    got = jacfwd(jacrev(lambda x: f(mg, x)))(mgt(X[0]))
    want = tf.hessian(lambda x: f(torch, x))(tt(X[0]))
    np.testing.assert_allclose(got.detach().numpy(), want.numpy(), rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("argnums", [0, 1, (0, 1)])
def test_jacrev_and_jacfwd_of_a_tuple_output_match_torch_func(argnums):
    def f(m, a, b):
        return (a.tanh() * b, (a @ m.tensor(W)).exp().sum(), b[0] * 2.0)

    got_r = jacrev(lambda a, b: f(mg, a, b), argnums=argnums)(mgt(X), mgt(V))
    got_f = jacfwd(lambda a, b: f(mg, a, b), argnums=argnums)(mgt(X), mgt(V))
    want = tf.jacrev(lambda a, b: f(torch, a, b), argnums=argnums)(tt(X), tt(V))
    assert isinstance(got_r, tuple) and len(got_r) == 3
    for r, fw, w in zip(got_r, got_f, want):
        pairs = zip(r, fw, w) if isinstance(argnums, tuple) else [(r, fw, w)]
        for jr, jf, jw in pairs:
            assert jr.shape == tuple(jw.shape)
            np.testing.assert_allclose(jr.detach().numpy(), jw.numpy(), rtol=1e-10, atol=1e-12)
            np.testing.assert_allclose(jf.detach().numpy(), jw.numpy(), rtol=1e-10, atol=1e-12)
