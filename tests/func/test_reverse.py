"""mg.func reverse-mode transforms: finite differences, mg.autograd, closed forms, errors."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.func import grad, grad_and_value, hessian, hvp, jacrev, value_and_grad, vjp

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3


def t64(a, requires_grad=False):
    return mg.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def fd_jacobian(f, args, argnum=0):
    """Central differences of f (Tensor -> Tensor) w.r.t. args[argnum]: shape O + I."""
    base = [a.numpy().copy() for a in args]
    x = base[argnum]
    out_shape = np.asarray(f(*[t64(a) for a in base]).numpy()).shape
    jac = np.zeros(out_shape + x.shape)
    for idx in np.ndindex(*x.shape):
        cols = []
        for sign in (1, -1):
            shifted = [a.copy() for a in base]
            shifted[argnum][idx] += sign * EPS
            cols.append(np.asarray(f(*[t64(a) for a in shifted]).numpy()))
        jac[(...,) + idx] = (cols[0] - cols[1]) / (2 * EPS)
    return jac


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), atol=ATOL, rtol=RTOL)


SCALAR_FNS = [
    ("cubic_sum", lambda x: (x**3).sum()),
    ("sin_prod", lambda x: (x.sin() * x).sum()),
    ("logsumexp", lambda x: mg.logsumexp(x, dim=0)),
    ("tanh_mean", lambda x: (x.tanh() * x.exp()).mean()),
    ("matrix_quad", lambda x: x @ mg.tensor(np.arange(9.0).reshape(3, 3)) @ x),
]
VECTOR_FNS = [
    ("sin", lambda x: x.sin()),
    ("outer", lambda x: x.reshape(3, 1) * x.reshape(1, 3)),
    ("softmax", lambda x: mg.softmax(x, dim=0)),
    ("to_2", lambda x: mg.stack([(x**2).sum(), x.sin().sum()])),
]
X = [0.3, -1.2, 0.7]


@pytest.mark.parametrize("name,f", SCALAR_FNS)
def test_grad_matches_finite_differences_and_autograd(name, f):
    x = t64(X)
    g = grad(f)(x)
    close(g.numpy(), fd_jacobian(f, [x]))
    leaf = t64(X, requires_grad=True)
    f(leaf).backward()
    close(g.numpy(), leaf.grad.numpy())
    assert g.grad_fn is None  # a plain x gives a plain gradient


@pytest.mark.parametrize("name,f", SCALAR_FNS)
def test_grad_and_value_and_value_and_grad(name, f):
    x = t64(X)
    g, v = grad_and_value(f)(x)
    v2, g2 = value_and_grad(f)(x)
    close(v.numpy(), f(x).numpy())
    close(v2.numpy(), v.numpy())
    close(g2.numpy(), g.numpy())


@pytest.mark.parametrize("name,f", VECTOR_FNS + SCALAR_FNS)
def test_jacrev_matches_finite_differences(name, f):
    x = t64(X)
    jac = jacrev(f)(x)
    fd = fd_jacobian(f, [x])
    assert tuple(jac.shape) == fd.shape
    close(jac.numpy(), fd)


@pytest.mark.parametrize("name,f", VECTOR_FNS)
def test_vjp_matches_autograd(name, f):
    x = t64(X)
    out, vjp_fn = vjp(f, x)
    v = t64(np.linspace(-1, 1, out.numel()).reshape(out.shape))
    (g,) = vjp_fn(v)
    leaf = t64(X, requires_grad=True)
    (ref,) = mg.autograd.grad(f(leaf), leaf, grad_outputs=v)
    close(g.numpy(), ref.numpy())
    close(g.numpy(), np.tensordot(v.numpy(), fd_jacobian(f, [x]), axes=v.ndim))
    (again,) = vjp_fn(v)  # vjp_fn may be called more than once
    close(again.numpy(), g.numpy())


def test_vjp_tuple_outputs_and_aux():
    x = t64(X)
    out, vjp_fn, aux = vjp(lambda x: ((x * 2, x.sin()), "tag"), x, has_aux=True)
    assert aux == "tag" and isinstance(out, tuple)
    (g,) = vjp_fn((mg.ones_like(x), mg.ones_like(x)))
    close(g.numpy(), 2 + np.cos(X))


def test_higher_order_grad_closed_forms():
    x0 = 0.7
    x = t64(x0)
    d3_sin = grad(grad(grad(lambda x: x.sin())))(x)
    close(d3_sin.item(), -np.cos(x0))
    d3_pow = grad(grad(grad(lambda x: x**5)))(x)
    close(d3_pow.item(), 60 * x0**2)
    d4_pow = grad(grad(grad(grad(lambda x: x**5))))(x)
    close(d4_pow.item(), 120 * x0)


@pytest.mark.parametrize("name,f", SCALAR_FNS)
def test_jacrev_jacrev_is_the_hessian(name, f):
    x = t64(X)
    h = jacrev(jacrev(f))(x)
    fd = fd_jacobian(lambda x: grad(f)(x), [x])  # FD of the (checked) gradient
    close(h.numpy(), fd)
    close(hessian(f)(x).numpy(), h.numpy())


def test_hessian_uses_forward_over_reverse():
    forward = pytest.importorskip(
        "minigrad.func.forward", reason="minigrad.func.forward (jacfwd) not written yet"
    )
    f = SCALAR_FNS[1][1]
    x = t64(X)
    close(hessian(f)(x).numpy(), forward.jacfwd(jacrev(f))(x).numpy())


@pytest.mark.parametrize("name,f", SCALAR_FNS)
def test_hvp(name, f):
    x, v = t64(X), t64([1.0, -2.0, 0.5])
    out, hv = hvp(f, x, v)
    close(out.numpy(), f(x).numpy())
    close(hv.numpy(), jacrev(jacrev(f))(x).numpy() @ v.numpy())
    out2, hv2 = hvp(f, (x,), (v,))
    assert isinstance(hv2, tuple)
    close(hv2[0].numpy(), hv.numpy())


def test_hvp_reverse_over_reverse_fallback(monkeypatch):
    from minigrad.func import reverse

    monkeypatch.setattr(reverse, "_forward_module", lambda: None)
    f, x, v = SCALAR_FNS[0][1], t64(X), t64([1.0, 1.0, 1.0])
    out, hv = hvp(f, x, v)
    close(hv.numpy(), 6 * np.array(X))
    close(hessian(f)(x).numpy(), np.diag(6 * np.array(X)))


def test_argnums_tuple_and_negative():
    def f(x, y):
        return (x * y.sin()).sum()

    x, y = t64(X), t64([0.1, 0.2, 0.3])
    gx, gy = grad(f, argnums=(0, 1))(x, y)
    close(gx.numpy(), fd_jacobian(f, [x, y], 0))
    close(gy.numpy(), fd_jacobian(f, [x, y], 1))
    close(grad(f, argnums=-1)(x, y).numpy(), gy.numpy())
    jx, jy = jacrev(lambda x, y: x * y, argnums=(0, 1))(x, y)
    close(jx.numpy(), np.diag(y.numpy()))
    close(jy.numpy(), np.diag(x.numpy()))


def test_same_tensor_twice_gets_partials():
    x = t64(X)
    g0, g1 = grad(lambda a, b: (a * b.exp()).sum(), argnums=(0, 1))(x, x)
    close(g0.numpy(), np.exp(X))
    close(g1.numpy(), np.array(X) * np.exp(X))


def test_has_aux():
    x = t64(X)
    g, aux = grad(lambda x: ((x**2).sum(), {"n": x.numel(), "y": x * 3}), has_aux=True)(x)
    close(g.numpy(), 2 * np.array(X))
    assert aux["n"] == 3 and aux["y"].grad_fn is None
    jac, aux = jacrev(lambda x: (x.sin(), x.cos()), has_aux=True)(x)
    close(np.diag(jac.numpy()), np.cos(X))
    close(aux.numpy(), np.cos(X))


def test_functional_semantics_leave_x_alone():
    x = t64(X, requires_grad=True)
    g = grad(lambda x: (x**2).sum())(x)
    assert x.grad is None
    # a differentiable input gives a differentiable result (torch.func does the same)
    (gg,) = mg.autograd.grad(g.sum(), x)
    close(gg.numpy(), 2 * np.ones(3))


def test_closure_over_outer_input_composes():
    # d/dx [ d/dy (x*y)^2 at y=c ] = d/dx 2 x^2 c = 4 x c
    c = t64(1.5)
    outer = grad(lambda x: grad(lambda y: (x * y) ** 2)(c))
    close(outer(t64(0.8)).item(), 4 * 0.8 * 1.5)


def test_constant_function_has_zero_gradient():
    x = t64(X)
    close(grad(lambda x: mg.tensor(2.0, dtype=mg.float64))(x).numpy(), np.zeros(3))
    close(jacrev(lambda x: mg.ones(2, dtype=mg.float64))(x).numpy(), np.zeros((2, 3)))


def test_works_under_no_grad():
    with mg.no_grad():
        g = grad(lambda x: (x**2).sum())(t64(X))
    close(g.numpy(), 2 * np.array(X))


# --- errors ----------------------------------------------------------------------------------


def test_non_scalar_output_error_mirrors_torch():
    with pytest.raises(
        RuntimeError,
        match=r"grad_and_value\(f\)\(\*args\): Expected f\(\*args\) "
        r"to return a scalar Tensor, got tensor with 1 dims",
    ):
        grad(lambda x: x * 2)(t64(X))


@pytest.mark.parametrize("argnums", [2, -3, (0, 5)])
def test_argnums_out_of_range(argnums):
    with pytest.raises(RuntimeError, match=r"Got argnum=-?\d, but only 2 positional inputs"):
        grad(lambda x, y: (x * y).sum(), argnums=argnums)(t64(X), t64(X))


def test_argnums_bad_type():
    with pytest.raises(RuntimeError, match="argnums must be an int or a tuple of ints"):
        grad(lambda x: x.sum(), argnums="0")(t64(X))


def test_non_tensor_argument():
    with pytest.raises(ValueError, match=r"grad: argument 0 .* must be a Tensor, got float"):
        grad(lambda x: x * 2)(3.0)
    with pytest.raises(ValueError, match="floating-point"):
        grad(lambda x: x.sum())(mg.tensor([1, 2]))


def test_vjp_non_tensor_output():
    with pytest.raises(RuntimeError, match="expected f\\(\\*primals\\) to return only tensors"):
        vjp(lambda x: 3, t64(X))
    _, fn = vjp(lambda x: x * 2, t64(X))
    with pytest.raises(RuntimeError, match="cotangent 0 has shape \\(2,\\)"):
        fn(t64([1.0, 2.0]))


def test_sparse_argument_is_refused_by_name():
    s = mg.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2), dtype=mg.float64)
    with pytest.raises(ValueError, match="jacrev: argument 0 is a sparse_coo tensor"):
        jacrev(lambda s: s.sum())(s)


def test_sparse_op_inside_is_differentiated():
    # a sparse constant inside f is fine: the gradient w.r.t. the dense input is dense
    a = mg.sparse_coo_tensor([[0, 1], [1, 0]], [2.0, 3.0], (2, 2), dtype=mg.float64)
    x = t64([1.0, 2.0])

    def f(x):
        return mg.sparse.mm(a, x.reshape(2, 1)).sum() ** 2

    close(grad(f)(x).numpy(), fd_jacobian(f, [x]))
    close(jacrev(jacrev(f))(x).numpy(), fd_jacobian(lambda x: grad(f)(x), [x]))


def test_jacrev_of_a_tuple_output_gives_one_jacobian_per_output():
    x = t64([0.5, -1.0, 2.0])
    sq, total = jacrev(lambda x: (x * x, x.sum()))(x)
    close(sq.numpy(), np.diag([1.0, -2.0, 4.0]))
    close(total.numpy(), np.ones(3))
    # an output that does not depend on the input gets a zero Jacobian
    (_, const) = jacrev(lambda x: (x.exp(), mg.tensor([1.0, 2.0], dtype=mg.float64)))(x)
    assert const.shape == (2, 3) and not const.numpy().any()


@pytest.mark.parametrize(
    "f,got",
    [
        (lambda x: (), "an empty tuple"),
        (lambda x: (x, 3), "a tuple of Tensor, int"),
        (lambda x: 3, "got int"),
    ],
)
def test_jacrev_names_what_f_returned_when_it_is_not_tensors(f, got):
    with pytest.raises(RuntimeError, match=f"Tensor or a non-empty tuple of Tensors, .*{got}"):
        jacrev(f)(t64([1.0, 2.0]))
