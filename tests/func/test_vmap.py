"""mg.func.vmap: in_dims/out_dims, composition with grad, errors."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.func import grad, jacrev, vmap


def t64(a, requires_grad=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=1e-5, rtol=1e-3)


XS = np.arange(12.0).reshape(4, 3) / 7 - 0.5


def test_vmap_matches_loop():
    def f(r):
        return (r.sin() * r).sum()

    out = vmap(f)(t64(XS))
    close(out.numpy(), [f(t64(r)).item() for r in XS])


def test_in_dims_none_broadcasts_and_out_dims_moves_batch():
    w = t64([1.0, -2.0, 3.0])
    out = vmap(lambda r, w: r * w, in_dims=(0, None), out_dims=1)(t64(XS), w)
    assert tuple(out.shape) == (3, 4)
    close(out.numpy(), (XS * w.numpy()).T)


def test_in_dims_nonzero_and_negative():
    out = vmap(lambda c: c.sum(), in_dims=1)(t64(XS))
    close(out.numpy(), XS.sum(0))
    out = vmap(lambda c: c.sum(), in_dims=-1)(t64(XS))
    close(out.numpy(), XS.sum(0))


def test_tuple_outputs_with_out_dims_tuple():
    a, b = vmap(lambda r: (r * 2, r.sum()), out_dims=(1, 0))(t64(XS))
    assert tuple(a.shape) == (3, 4) and tuple(b.shape) == (4,)
    close(a.numpy(), 2 * XS.T)
    close(b.numpy(), XS.sum(1))


def test_vmap_grad_matches_loop_and_finite_differences():
    def f(x):
        return (x**3 * x.cos()).sum()

    per_example = vmap(grad(f))(t64(XS))
    loop = np.stack([grad(f)(t64(r)).numpy() for r in XS])
    close(per_example.numpy(), loop)
    close(per_example.numpy(), 3 * XS**2 * np.cos(XS) - XS**3 * np.sin(XS))


def test_per_example_gradients_with_shared_weights():
    w = t64([0.5, -1.0, 2.0])

    def loss(w, x):
        return ((x * w).sum() - 1.0) ** 2

    g = vmap(grad(loss), in_dims=(None, 0))(w, t64(XS))
    resid = XS @ w.numpy() - 1.0
    close(g.numpy(), 2 * resid[:, None] * XS)


def test_grad_through_vmap_and_vmap_jacrev():
    x = t64(XS)
    g = grad(lambda x: vmap(lambda r: (r**2).sum())(x).sum())(x)
    close(g.numpy(), 2 * XS)
    jac = vmap(jacrev(lambda r: r.sin()))(x)
    assert tuple(jac.shape) == (4, 3, 3)
    close(jac.numpy(), np.stack([np.diag(np.cos(r)) for r in XS]))


def test_vmap_is_differentiable_by_autograd():
    x = t64(XS, requires_grad=True)
    vmap(lambda r: r.exp().sum())(x).sum().backward()
    close(x.grad.numpy(), np.exp(XS))


def test_errors():
    with pytest.raises(ValueError, match="same size in the mapped dimension, got sizes \\[4, 5\\]"):
        vmap(lambda a, b: a + b)(t64(XS), mg.ones(5, 3))
    with pytest.raises(ValueError, match="in_dims has 1 entries but inputs has 2"):
        vmap(lambda a, b: a, in_dims=(0,))(t64(XS), t64(XS))
    with pytest.raises(ValueError, match="at least one input must be mapped"):
        vmap(lambda a: a, in_dims=None)(t64(XS))
    with pytest.raises(ValueError, match=r"in_dims\[0\]=2 is not valid"):
        vmap(lambda a: a, in_dims=2)(t64(XS))
    with pytest.raises(TypeError, match="must return a Tensor or a tuple of Tensors, got int"):
        vmap(lambda a: 3)(t64(XS))
    s = mg.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2))
    with pytest.raises(ValueError, match="argument 0 is a sparse_coo tensor"):
        vmap(lambda a: a)(s)


def test_vmap_at_the_top_level_as_torch_vmap():
    assert mg.vmap is mg.func.vmap
