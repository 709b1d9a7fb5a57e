"""jit: the replay equals eager code (every op of the op table, forward and gradient, bit for
bit), the cache (hits, misses, retraces, static_argnums), composition with grad, vmap,
jacrev, jacfwd in both orders, and clear errors for control flow and bad input."""

import collections
import pathlib
import sys

import numpy as np
import pytest

import minigrad as mg
from minigrad.func import (
    ConcretizationTypeError,
    grad,
    hessian,
    jacfwd,
    jacrev,
    jit,
    vjp,
    vmap,
)
from minigrad.recording import modes
from minigrad.recording.function import Op

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "ops"))
from op_table_rows import ROWS  # noqa: E402

# Rows whose programs cannot be traced, each with the clear error it gets instead (never a
# program silently built from the tracer's zeros): in-place ops on views write through
# memory a program does not have; max/min/median(dim)'s and max_pool2d's backward keep indices
# computed from values; sort and topk choose their order from the values.
VIEW_INPLACE = ("y[0].mul_(z)", "y[:, 1:].add_(z)", "y.view(-1)[::2].zero_()", "y.t()[1].copy_(z)")
VIEW_INPLACE += ("y.unsqueeze(0)[0, 1].fill_(2.0)", "y.mT.div_(z)")
NOT_TRACEABLE = {name: "on a view" for name in VIEW_INPLACE}
# sort and topk pick their values by an order computed from the values (numpy's argsort)
SORTING = ("sort(-1)", "sort(0, descending)", "topk(2)", "topk(1, dim=0, largest=False)")
SORTING += ("msort", "kthvalue(2)")
NOT_TRACEABLE.update({name: "needs the value of a traced tensor" for name in SORTING})


def _cases():
    out = []
    for row in ROWS:
        for shapes in row.shapes:
            out.append(pytest.param(row, shapes, id=f"{row.name}-{shapes}"))
    return out


def _leaves(r):
    return list(r) if isinstance(r, (tuple, list)) else [r]


def _same(want, got):
    """Same dtype, shape and values, bit for bit (nan where nan)."""
    assert got.dtype is want.dtype and got.shape == want.shape
    a, b = want.detach().numpy(), got.detach().numpy()
    assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f")


@pytest.mark.parametrize("row, shapes", _cases())
def test_jit_replays_every_op_of_the_table_bit_for_bit(row, shapes):
    xs = [mg.tensor(a) for a in row.sample(shapes)]

    def f(*xs):
        return row.fn(mg, *xs)

    try:
        want = _leaves(f(*xs))
    except Exception:  # noqa: BLE001  (a row's error case: test_op_table checks it)
        return
    if row.name in NOT_TRACEABLE:
        with pytest.raises(ConcretizationTypeError, match=NOT_TRACEABLE[row.name]):
            jit(f)(*xs)
        return
    for w, g in zip(want, _leaves(jit(f)(*xs)), strict=True):
        _same(w, g)


@pytest.mark.parametrize("row, shapes", _cases())
def test_jit_of_grad_replays_the_backward_of_every_op_bit_for_bit(row, shapes):
    xs = [mg.tensor(a) for a in row.sample(shapes)]

    def loss(*xs):
        out = _leaves(row.fn(mg, *xs))
        return sum(o.sum() for o in out if o.dtype.is_floating_point)

    nums = tuple(range(len(xs)))
    try:
        want = grad(loss, argnums=nums)(*xs)
    except Exception:  # noqa: BLE001  (no gradient here: integer outputs, error cases)
        return
    max_dim = (
        row.name.startswith(("max(dim", "min(dim", "mg.min(dim", "median(0", "median(1"))
        and shapes[0] != ()
    )
    max_dim = max_dim or row.name.startswith("F.max_pool2d")
    if row.name in NOT_TRACEABLE or max_dim:
        with pytest.raises(ConcretizationTypeError):
            jit(grad(loss, argnums=nums))(*xs)
        return
    for w, g in zip(want, jit(grad(loss, argnums=nums))(*xs), strict=True):
        _same(w, g)


@pytest.mark.parametrize("row, shapes", _cases())
def test_grad_of_jit_replays_every_op_through_autograd_bit_for_bit(row, shapes):
    xs = [mg.tensor(a) for a in row.sample(shapes)]

    def loss(*xs):
        out = _leaves(row.fn(mg, *xs))
        return sum(o.sum() for o in out if o.dtype.is_floating_point)

    nums = tuple(range(len(xs)))
    try:
        want = grad(loss, argnums=nums)(*xs)
    except Exception:  # noqa: BLE001  (no gradient here: integer outputs, error cases)
        return
    if row.name in NOT_TRACEABLE:
        return  # refused when traced (the first test)
    for w, g in zip(want, grad(jit(loss), argnums=nums)(*xs), strict=True):
        _same(w, g)


# --- the replay ---------------------------------------------------------------------------
def mlp_loss(params, x, y):
    w1, b1, w2, b2 = params
    h = (x @ w1 + b1).tanh()
    return ((h @ w2 + b2 - y) ** 2).mean()


def mlp_data(seed=0, batch=8):
    rng = np.random.default_rng(seed)

    def t(*s):
        return mg.tensor(rng.standard_normal(s).astype(np.float32))

    return (t(4, 16), t(16), t(16, 1), t(1)), t(batch, 4), t(batch, 1)


def test_the_numpy_replay_builds_no_autograd_node(monkeypatch):
    step = jit(grad(mlp_loss))
    params, x, y = mlp_data()
    step(params, x, y)  # traced here

    def no_op(*args, **kwargs):
        raise AssertionError("an op ran through Op.apply during the replay")

    monkeypatch.setattr(Op, "apply", classmethod(no_op))
    grads = step(params, x, y)
    monkeypatch.undo()
    for w, g in zip(grad(mlp_loss)(params, x, y), grads, strict=True):
        _same(w, g)
        assert g.grad_fn is None and not g.requires_grad


def test_a_full_training_step_inside_jit_equals_eager():
    def sgd_step(params, x, y, lr):
        grads = grad(mlp_loss)(params, x, y)
        return tuple(p - lr * g for p, g in zip(params, grads))

    params, x, y = mlp_data()
    eager = jitted = params
    step = jit(sgd_step, static_argnums=3)
    for _ in range(5):
        eager = sgd_step(eager, x, y, 0.1)
        jitted = step(jitted, x, y, 0.1)
    for a, b in zip(eager, jitted, strict=True):
        _same(a, b)
    assert step._cache_size() == 1


def test_outputs_keep_their_structure_and_an_input_comes_back_as_itself():
    Pair = collections.namedtuple("Pair", "a b")
    x = mg.ones(2)
    out = jit(lambda x: {"same": x, "pair": Pair(x * 2, None), "list": [x.sum()]})(x)
    assert out["same"] is x and out["pair"].b is None and isinstance(out["pair"], Pair)
    assert out["pair"].a.tolist() == [2.0, 2.0] and out["list"][0].item() == 2.0
    const = jit(lambda x: (x, mg.ones(2) * 3))
    first, second = const(x)[1], const(x)[1]
    assert first is not second and first.tolist() == [3.0, 3.0]
    first.zero_()  # each call gets its own array of a value computed once
    assert const(x)[1].tolist() == [3.0, 3.0]


def test_closed_over_tensors_are_read_when_the_program_runs():
    w = mg.ones(3)
    f = jit(lambda x: (x * w).sum())
    assert f(mg.ones(3)).item() == 3.0
    w.mul_(2.0)  # an in-place update (an optimizer step) is seen
    assert f(mg.ones(3)).item() == 6.0
    assert f._cache_size() == 1


# --- the cache ------------------------------------------------------------------------------
def test_traced_once_per_signature_and_retraced_on_a_new_one():
    traces = []

    def f(x, y):
        traces.append((x.shape, x.dtype))
        return x * y

    g = jit(f)
    g(mg.ones(2), mg.ones(2))
    g(mg.zeros(2), mg.full((2,), 3.0))  # same shapes and dtypes: a hit
    assert len(traces) == 1 and g._cache_size() == 1
    g(mg.ones(3), mg.ones(3))  # a new shape
    g(mg.ones(2, dtype=mg.float64), mg.ones(2, dtype=mg.float64))  # a new dtype
    g(mg.ones(2, requires_grad=True), mg.ones(2))  # requires_grad is part of it
    with mg.no_grad():  # and grad mode
        g(mg.ones(2), mg.ones(2))
    assert len(traces) == 5 and g._cache_size() == 5
    g.clear_cache()
    g(mg.ones(2), mg.ones(2))
    assert len(traces) == 6 and g._cache_size() == 1


def test_the_structure_of_pytree_and_keyword_arguments_is_part_of_the_signature():
    calls = []

    def f(params, *, scale):
        calls.append(1)
        return sum(v.sum() for v in params.values()) * scale

    g = jit(f)
    assert g({"a": mg.ones(2)}, scale=mg.tensor(2.0)).item() == 4.0
    assert g({"a": mg.ones(2) * 3}, scale=mg.tensor(1.0)).item() == 6.0
    g({"a": mg.ones(2), "b": mg.ones(1)}, scale=mg.tensor(1.0))
    g({"b": mg.ones(2)}, scale=mg.tensor(1.0))
    assert len(calls) == 3


def test_python_numbers_are_traced_as_0d_tensors():
    g = jit(lambda x, s: x * s)
    assert g(mg.ones(2), 2.0).tolist() == [2.0, 2.0]
    assert g(mg.ones(2), 3.0).tolist() == [3.0, 3.0]
    assert g._cache_size() == 1
    g(mg.ones(2), 3)  # an int is another signature
    assert g._cache_size() == 2
    assert g(mg.ones(2, dtype=mg.float64), 0.1).dtype is mg.float64


def test_static_argnums_specialise_the_program_on_values():
    traces = []

    def power(x, n, flag=True):
        traces.append(n)
        y = x
        for _ in range(n - 1):  # Python control flow on a static value
            y = y * x
        return y if flag else -y

    g = jit(power, static_argnums=(1, -1))
    x = mg.tensor([2.0, 3.0])
    assert g(x, 3, True).tolist() == [8.0, 27.0]
    assert g(x * 0.5, 3, True).tolist() == [1.0, 3.375]
    assert g(x, 2, False).tolist() == [-4.0, -9.0]
    assert traces == [3, 2] and g._cache_size() == 2
    assert jit(power, static_argnums=1)(x, 2).tolist() == [4.0, 9.0]


def test_bad_static_argnums_and_arguments():
    with pytest.raises(TypeError, match="expected a callable"):
        jit(None)
    with pytest.raises(ValueError, match="accepts 2 positional"):
        jit(lambda x, y: x, static_argnums=(2,))
    with pytest.raises(ValueError, match="accepts 2 positional"):
        jit(lambda x, y: x, static_argnums=-3)
    with pytest.raises(TypeError, match="static_argnums must be an int"):
        jit(lambda x, y: x, static_argnums=(True,))
    g = jit(lambda *xs: xs[0], static_argnums=2)  # *args: checked at the call
    with pytest.raises(ValueError, match="static argument 2 is missing"):
        g(mg.ones(1), mg.ones(1))
    h = jit(lambda x, n: x * len(n), static_argnums=1)
    with pytest.raises(ValueError, match="Non-hashable static arguments are not supported"):
        h(mg.ones(1), [1, 2])
    assert h(mg.ones(1), (1, 2)).tolist() == [2.0]
    with pytest.raises(ValueError, match="static argument 1 of <lambda> is a Tensor"):
        h(mg.ones(1), mg.ones(2))
    with pytest.raises(TypeError, match="is a object"):
        jit(lambda x, o: x)(mg.ones(1), object())
    with pytest.raises(NotImplementedError, match="dense tensors only"):
        jit(lambda s: s * 2)(mg.eye(2).to_sparse())


# --- control flow ---------------------------------------------------------------------------
def test_control_flow_on_a_traced_value_names_it_and_suggests_static_argnums():
    def relu_or_not(x, use_relu):
        return x.relu() if use_relu else x

    g = jit(relu_or_not)
    with pytest.raises(ConcretizationTypeError) as info:
        g(mg.ones(2), mg.tensor(True))
    message = str(info.value)
    assert "bool() (an if or while on a tensor)" in message
    assert "bool[], argument 'use_relu' of relu_or_not" in message
    assert "jit(f, static_argnums=(1,))" in message
    fixed = jit(relu_or_not, static_argnums=1)
    assert fixed(mg.tensor([-1.0, 2.0]), True).tolist() == [0.0, 2.0]
    with pytest.raises(ConcretizationTypeError, match="float()"):
        jit(lambda x: x * float(x.mean()))(mg.ones(2))
    assert g._cache_size() == 0


def test_traced_values_cannot_leak_into_python_loops():
    with pytest.raises(ConcretizationTypeError, match="a Python int"):
        jit(lambda x, n: sum(x for _ in range(n)))(mg.ones(2), 3)
    assert jit(lambda x, n: sum(x for _ in range(n)), static_argnums=1)(mg.ones(2), 3).tolist() == [
        3.0,
        3.0,
    ]


# --- composition ----------------------------------------------------------------------------
def f_tanh(x):
    return (x.tanh() * x).sum()


def vec(x):
    return (x.sin() * x.sum()).tanh()


X = mg.tensor([0.3, -1.2, 2.0], dtype=mg.float64)


def test_jit_of_grad_and_grad_of_jit_equal_grad():
    want = grad(f_tanh)(X)
    _same(want, jit(grad(f_tanh))(X))
    _same(want, grad(jit(f_tanh))(X))


def test_grad_of_jit_records_through_the_program_and_matches_central_differences():
    x = X.clone().requires_grad_()
    y = jit(f_tanh)(x)
    assert y.grad_fn is not None
    y.backward()
    _same(grad(f_tanh)(X), x.grad)
    assert mg.autograd.gradcheck(jit(vec), (X.clone().requires_grad_(),))
    assert mg.autograd.gradgradcheck(jit(vec), (X.clone().requires_grad_(),))


def test_second_derivatives_through_jit_in_every_order():
    want = hessian(f_tanh)(X)
    _same(want, jit(hessian(f_tanh))(X))
    _same(want, hessian(jit(f_tanh))(X))
    inner = jit(grad(f_tanh))
    _same(grad(lambda x: grad(f_tanh)(x).sum())(X), grad(lambda x: inner(x).sum())(X))


def test_vmap_and_jit_in_both_orders():
    xs = mg.tensor(np.random.default_rng(1).standard_normal((4, 3)))
    want = vmap(vec)(xs)
    _same(want, vmap(jit(vec))(xs))
    _same(want, jit(vmap(vec))(xs))
    g = jit(vec)
    vmap(g)(xs)
    assert g._cache_size() == 1  # one program, replayed per sample
    _same(vmap(grad(f_tanh))(xs), jit(vmap(grad(f_tanh)))(xs))


def test_jacrev_jacfwd_and_vjp_with_jit_in_both_orders():
    want = jacrev(vec)(X)
    for got in (jacrev(jit(vec))(X), jit(jacrev(vec))(X), jacfwd(jit(vec))(X)):
        _same(want, got)
    # jacfwd computes with forward rules: the same Jacobian up to rounding
    np.testing.assert_allclose(jit(jacfwd(vec))(X).numpy(), want.numpy(), rtol=1e-12)
    _same(jacfwd(vec)(X), jit(jacfwd(vec))(X))
    out, fn = vjp(jit(vec), X)
    _same(vec(X), out)
    _same(vjp(vec, X)[1](mg.ones(3, dtype=mg.float64))[0], fn(mg.ones(3, dtype=mg.float64))[0])


def test_jit_of_jit_and_a_jitted_function_called_with_a_mode_on():
    inner = jit(vec)
    outer = jit(lambda x: inner(x) * 2.0)
    _same(vec(X) * 2.0, outer(X))
    assert inner._cache_size() == 0  # inlined into the outer program
    a, b = mg.randn(3, 3), mg.randn(3, 3)
    mm = jit(lambda a, b: a @ b)
    with mg.autocast(dtype=mg.float16):  # the replay goes through the ops: autocast sees them
        assert mm(a, b).dtype is mg.float16
    assert mm(a, b).dtype is mg.float32 and not modes.state.active


class StraightThrough(mg.autograd.Function):
    """sign(x) forward, identity backward: not the derivative of its forward."""

    @staticmethod
    def forward(ctx, x):
        return x.sign()

    @staticmethod
    def backward(ctx, g):
        return g


def test_a_custom_functions_own_backward_is_used_in_both_orders():
    def f(x):
        return (StraightThrough.apply(x) * x).sum()

    want = grad(f)(X)  # sign(x) + x: the custom backward passes g through
    assert want.tolist() == pytest.approx([1.3, -2.2, 3.0])
    _same(want, jit(grad(f))(X))
    _same(want, grad(jit(f))(X))
    _same(mg.tensor(f(X).item(), dtype=mg.float64), jit(f)(X))


def test_closed_over_parameters_that_require_grad_get_their_gradient():
    lin = mg.nn.Linear(3, 2)
    f = jit(lambda x: lin(x).tanh().sum())
    x = mg.ones(4, 3)
    f(x).backward()
    got = lin.weight.grad.clone()
    lin.weight.grad = None
    lin(x).tanh().sum().backward()
    _same(lin.weight.grad, got)
    with mg.no_grad():  # no gradient wanted: the numpy replay
        _same(lin(x).tanh().sum(), f(x))
