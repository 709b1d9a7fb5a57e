"""``mg.autograd.functional`` (jacobian, hessian, vjp, jvp, hvp, vhp) against central
differences, against ``mg.func`` and against ``torch.autograd.functional``."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.replaying import functional as AF

X = np.array([0.3, -1.2, 0.7])
Y = np.array([[0.5, -0.1], [1.1, 0.4]])
V = np.array([1.0, -0.5, 2.0])


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


def t(a):
    return mg.tensor(np.asarray(a, dtype=np.float64))


def _numeric_jacobian(f, x: np.ndarray, eps=1e-6) -> np.ndarray:
    """Central differences of a numpy-valued f, shape out + in."""
    out = np.asarray(f(x))
    jac = np.zeros(out.shape + x.shape)
    for idx in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[idx] = eps
        jac[(...,) + idx] = (np.asarray(f(x + step)) - np.asarray(f(x - step))) / (2 * eps)
    return jac


def _np(f):
    """f on minigrad tensors, seen as a function of numpy arrays."""
    return lambda a: f(t(a)).detach().numpy()


FUNCS = {
    "tanh_outer": lambda x: x.tanh().reshape(3, 1) * x.exp().reshape(1, 3),
    "softmax": lambda x: mg.softmax(x * 2, dim=0),
    "sum_sq": lambda x: (x**2).sum().reshape(1),
}


@pytest.mark.parametrize("name", FUNCS)
def test_jacobian_matches_central_differences(name):
    f = FUNCS[name]
    jac = AF.jacobian(f, t(X))
    np.testing.assert_allclose(jac.numpy(), _numeric_jacobian(_np(f), X), atol=1e-7)
    np.testing.assert_array_equal(jac.numpy(), mg.func.jacrev(f)(t(X)).numpy())


def test_hessian_matches_central_differences_of_the_gradient():
    def f(x):
        return (x.sin() * x.exp()).sum() + (x[0] * x[1] * x[2])

    hess = AF.hessian(f, t(X))
    grad_np = _np(lambda x: mg.func.grad(f)(x))
    np.testing.assert_allclose(hess.numpy(), _numeric_jacobian(grad_np, X), atol=1e-7)
    np.testing.assert_allclose(hess.numpy(), hess.numpy().T, atol=1e-14)  # symmetric


def test_products_agree_with_the_matrices():
    def f(x):
        return (x.sin() * x**2).sum()

    def g(x):
        return x.tanh() * x.sum()

    x, v = t(X), t(V)
    jac, hess = AF.jacobian(g, x).numpy(), AF.hessian(f, x).numpy()
    out, vj = AF.vjp(g, x, v)
    np.testing.assert_allclose(vj.numpy(), V @ jac, atol=1e-14)
    np.testing.assert_array_equal(out.numpy(), g(x).detach().numpy())
    _, jv = AF.jvp(g, x, v)
    np.testing.assert_allclose(jv.numpy(), jac @ V, atol=1e-14)
    _, hv = AF.hvp(f, x, v)
    _, vh = AF.vhp(f, x, v)
    np.testing.assert_allclose(hv.numpy(), hess @ V, atol=1e-13)
    np.testing.assert_allclose(vh.numpy(), V @ hess, atol=1e-13)


def test_structures_follow_the_inputs_and_outputs():
    x, y = t(X), t(Y)

    def two_in(a, b):
        return a.sum() * b

    j = AF.jacobian(two_in, (x, y))
    assert isinstance(j, tuple) and [b.shape for b in j] == [(2, 2, 3), (2, 2, 2, 2)]
    (j1,) = AF.jacobian(lambda a: a * 2, (x,))  # a tuple of one input: a tuple back
    assert j1.shape == (3, 3)
    jo = AF.jacobian(lambda a: (a * 2, a.sum()), x)
    assert [b.shape for b in jo] == [(3, 3), (3,)]
    jj = AF.jacobian(lambda a, b: (a * 2, b.sum()), (x, y))
    assert [[b.shape for b in row] for row in jj] == [[(3, 3), (3, 2, 2)], [(3,), (2, 2)]]
    h = AF.hessian(lambda a, b: (a**2).sum() * b.sum(), (x, y))
    assert [[b.shape for b in row] for row in h] == [[(3, 3), (3, 2, 2)], [(2, 2, 3), (2, 2, 2, 2)]]
    out, vj = AF.vjp(lambda a: (a * 2, a), x, (t(V), t(V)))
    assert isinstance(out, tuple) and vj.tolist() == (3 * V).tolist()
    assert AF.jvp(lambda a: a**2, t([2.0]))[1].tolist() == [4.0]  # v = 1 for one element
    assert AF.vjp(lambda a: (a**2).sum(), x)[1].tolist() == (2 * X).tolist()


def test_inputs_and_grads_are_left_alone_and_results_detached():
    x = t(X).requires_grad_()
    jac = AF.jacobian(lambda a: a**2, x)
    assert x.grad is None and not jac.requires_grad
    jac = AF.jacobian(lambda a: a**2, x, create_graph=True)
    assert jac.requires_grad
    (d,) = mg.autograd.grad(jac.sum(), x)  # d/dx of sum(diag(2x)) = 2
    assert d.tolist() == [2.0, 2.0, 2.0]
    _, hv = AF.hvp(lambda a: (a**3).sum(), x, t(V), create_graph=True)
    assert hv.requires_grad
    assert AF.jacobian(lambda a: a * 2, t(X), vectorize=True).shape == (3, 3)


def test_independent_outputs_give_zeros_or_raise_in_strict_mode():
    x, y = t(X), t(Y)
    jx, jy = AF.jacobian(lambda a, b: a * 2, (x, y))
    assert jy.shape == (3, 2, 2) and not jy.numpy().any()
    with pytest.raises(
        RuntimeError, match="Output 0 of the user-provided function is independent of input 1"
    ):
        AF.jacobian(lambda a, b: a * 2, (x, y), strict=True)
    with pytest.raises(RuntimeError, match="does not require gradients"):
        AF.jacobian(lambda a: mg.ones(3), x, strict=True)
    assert not AF.hvp(lambda a: a.sum(), x, t(V))[1].numpy().any()
    with pytest.raises(RuntimeError, match="While computing the hessian"):
        AF.hvp(lambda a: a.sum(), x, t(V), strict=True)
    with pytest.raises(RuntimeError, match="While computing the hessian"):
        AF.hessian(lambda a: a.sum(), x, strict=True)


BAD = {
    "non-tensor input": lambda L, T: L.jacobian(lambda a: a * 2, 1.0),
    "list input": lambda L, T: L.jacobian(lambda a: a * 2, [T([1.0])]),
    "non-tensor output": lambda L, T: L.jacobian(lambda a: 3.0, T([1.0])),
    "integer input": lambda L, T: L.jacobian(lambda a: a * 2, T([1, 2])),
    "bad strategy": lambda L, T: L.jacobian(lambda a: a, T([1.0]), strategy="sideways"),
    "forward without vectorize": lambda L, T: L.jacobian(
        lambda a: a, T([1.0]), strategy="forward-mode"
    ),
    "forward with strict": lambda L, T: L.jacobian(
        lambda a: a, T([1.0]), strict=True, vectorize=True, strategy="forward-mode"
    ),
    "hessian of a vector": lambda L, T: L.hessian(lambda a: a**3, T([1.0, 2.0])),
    "hessian of a tuple": lambda L, T: L.hessian(lambda a: ((a**3).sum(),), T([1.0, 2.0])),
    "vjp without v": lambda L, T: L.vjp(lambda a: a**2, T([1.0, 2.0])),
    "vjp v size": lambda L, T: L.vjp(lambda a: a**2, T([1.0, 2.0]), T([1.0, 1.0, 1.0])),
    "vjp v count": lambda L, T: L.vjp(lambda a: (a**2, a), T([1.0, 2.0]), (T([1.0, 1.0]),)),
    "vjp v list": lambda L, T: L.vjp(lambda a: a**2, T([1.0, 2.0]), [1.0, 1.0]),
    "jvp without v": lambda L, T: L.jvp(lambda a: a**2, T([1.0, 2.0])),
    "jvp strict": lambda L, T: L.jvp(lambda a: T([1.0]), T([1.0]), T([1.0]), strict=True),
    "hvp of a vector": lambda L, T: L.hvp(lambda a: a**3, T([1.0, 2.0]), T([1.0, 1.0])),
    "vhp without v": lambda L, T: L.vhp(lambda a: (a**3).sum(), T([1.0, 2.0])),
}
# minigrad says ValueError where PyTorch asserts (AssertionError is not an API error); its
# sizes print as tuples, PyTorch's as torch.Size; its integer-dtype message is its own
TYPE_DIFFERS = {"bad strategy": (AssertionError, ValueError)}
TEXT_DIFFERS = {"vjp v size", "integer input"}


@pytest.mark.oracle
@pytest.mark.parametrize("case", BAD)
def test_errors_match_torch(torch, case):
    with pytest.raises(Exception) as theirs:
        BAD[case](torch.autograd.functional, lambda v: torch.tensor(v))
    want = TYPE_DIFFERS.get(case, (theirs.type,))[-1]
    with pytest.raises(want) as ours:
        BAD[case](AF, lambda v: mg.tensor(v))
    if case not in TEXT_DIFFERS and want is theirs.type:
        assert str(ours.value) == str(theirs.value).replace("torch.", "minigrad.").replace(
            "<class 'minigrad.Tensor'>", "<class 'minigrad.tensor.Tensor'>"
        )


CASES = {
    "jacobian": lambda L, x, y, v: L.jacobian(lambda a, b: (a.exp() * b.sum(), a.tanh()), (x, y)),
    "hessian": lambda L, x, y, v: L.hessian(
        lambda a, b: (a.sin() * a).sum() * (b**2).sum(), (x, y)
    ),
    "vjp": lambda L, x, y, v: L.vjp(lambda a: a.sin() * a.sum(), x, v),
    "jvp": lambda L, x, y, v: L.jvp(lambda a: a.sin() * a.sum(), x, v),
    "hvp": lambda L, x, y, v: L.hvp(lambda a: (a.exp() * a.sin()).sum(), x, v),
    "vhp": lambda L, x, y, v: L.vhp(lambda a: (a.exp() * a.sin()).sum(), x, v),
}


def _flat(tree):
    if isinstance(tree, (tuple, list)):
        return [a for item in tree for a in _flat(item)]
    return [tree.detach().numpy()]


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES)
def test_values_match_torch(torch, case):
    ours = CASES[case](AF, t(X), t(Y), t(V))
    tt = lambda a: torch.tensor(a, dtype=torch.float64)  # noqa: E731
    theirs = CASES[case](torch.autograd.functional, tt(X), tt(Y), tt(V))
    a, b = _flat(ours), _flat(theirs)
    assert [x.shape for x in a] == [x.shape for x in b]
    for x, y in zip(a, b):
        np.testing.assert_allclose(x, y, rtol=1e-12, atol=1e-14)


@pytest.mark.oracle
def test_the_tutorial_example(torch):
    """ "The Fundamentals of Autograd": the Jacobian of exp_adder at two random inputs."""

    def exp_adder(x, y):
        return 2 * x.exp() + 3 * y

    for lib in (mg, torch):
        inputs = (lib.rand(1), lib.rand(1))
        jx, jy = lib.autograd.functional.jacobian(exp_adder, inputs)
        assert jx.shape == (1, 1) and abs(jx.item() - 2 * np.exp(inputs[0].item())) < 1e-5
        assert jy.item() == 3.0
