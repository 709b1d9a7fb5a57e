"""Forward mode (``jvp``, ``jacfwd``) checked row by row on the op table.

Every row of ``tests/ops/op_table_rows.py`` whose ops have forward rules is checked twice:
J·v from ``jvp`` against float64 central differences (eps 1e-6, atol 1e-5, rtol 1e-3) and
against the reverse-mode Jacobian built from ``mg.autograd.grad`` rows. Rows whose op has
no forward rule are listed in ``NO_RULE`` and must raise the "no jvp rule" error instead.
"""

from __future__ import annotations

import pathlib
import sys
import warnings

import numpy as np
import pytest

sys.path.insert(0, str(pathlib.Path(__file__).parents[1] / "ops"))
from op_table_rows import ROWS, cases  # noqa: E402

import minigrad as mg  # noqa: E402
from minigrad.func.forward import jacfwd, jvp  # noqa: E402
from minigrad.recording import modes  # noqa: E402

# Rows outside forward mode, each checked to raise its clear error. ``x[k] = v`` records
# CopySlices, which has no forward rule; in-place methods rebase a tensor outside the per-op
# hook, so reading the tangent of a tensor whose version moved raises.
NO_RULE = {  # row name -> the op named in the error
    "y[1:] = z": "CopySlices",
    "y[0, 1] = z": "CopySlices",
    "y[:, [0, 2]] = z": "CopySlices",
    "y[..., -1] = z": "CopySlices",
    "y[2:2 (empty)] = z": "CopySlices",
    "y[bool mask] = z": "CopySlices",
}
IN_PLACE = {
    "add_(2.0)",
    "add_(z)",
    "add_(z, alpha=2)",
    "sub_(z)",
    "sub_(1.5)",
    "mul_(2)",
    "mul_(z)",
    "div_(4.0)",
    "div_(z)",
    "zero_()",
    "fill_(3.0)",
    "copy_(z)",
    "y += z",
    "y -= z",
    "y *= z",
    "y /= z",
    "chained in-place",
    "y[1:] = 2.5",
    "y[0].mul_(z)",
    "y[:, 1:].add_(z)",
    "y.view(-1)[::2].zero_()",
    "y.t()[1].copy_(z)",
    "y.unsqueeze(0)[0, 1].fill_(2.0)",
    "y.mT.div_(z)",
    *(f"{name}_()" for name in ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu")),
    *(f"{name}_()" for name in ("abs", "neg", "sign", "square")),
    "pow_(3)",
    "pow_(z)",
    *(
        f"{name}_()"
        for name in ("log1p", "log2", "log10", "expm1", "reciprocal", "rsqrt", "sinh", "cosh")
    ),
    *(f"{name}_()" for name in ("asin", "acos", "atan", "floor", "ceil", "trunc", "round", "frac")),
    *(f"round_(decimals={d})" for d in (1, 2, -1)),
    "atan2_(z)",
    "hypot_(z)",
}
FD = {"eps": 1e-6, "atol": 1e-5, "rtol": 1e-3}
RULE_ROWS = [r for r in ROWS if r.name not in NO_RULE and r.name not in IN_PLACE]
CASES = cases(RULE_ROWS)


def as_tuple(out):
    return tuple(out) if isinstance(out, tuple) else (out,)


def float_outputs(out):
    return [o for o in as_tuple(out) if o.dtype.is_floating_point]


def tangents_for(arrays, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1.0, 1.0, a.shape) for a in arrays]


def run_jvp(row, arrays, vs):
    xs = tuple(mg.tensor(a) for a in arrays)
    ts = tuple(mg.tensor(v) for v in vs)
    outs, tans = jvp(lambda *a: row.fn(mg, *a), xs, ts)
    return float_outputs(outs), [
        t for o, t in zip(as_tuple(outs), as_tuple(tans)) if o.dtype.is_floating_point
    ]


def central_difference(row, arrays, vs, eps):
    def f(sign):
        xs = [mg.tensor(a + sign * eps * v) for a, v in zip(arrays, vs)]
        return [o.detach().numpy() for o in float_outputs(row.fn(mg, *xs))]

    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [(p - m) / (2 * eps) for p, m in zip(f(1), f(-1))]


def reverse_jv(row, arrays, vs):
    """J·v with J built one row at a time by mg.autograd.grad."""
    xs = [mg.tensor(a, requires_grad=True) for a in arrays]
    result = []
    for o in float_outputs(row.fn(mg, *xs)):
        flat = o.reshape(-1)
        jv = np.zeros(flat.shape[0])
        for i in range(flat.shape[0]):
            if not flat.requires_grad:
                break
            gs = mg.autograd.grad(flat[i], xs, retain_graph=True, materialize_grads=True)
            jv[i] = sum(float((g.detach().numpy() * v).sum()) for g, v in zip(gs, vs))
        result.append(jv.reshape(o.shape))
    return result


@pytest.mark.parametrize(("row", "shapes"), CASES)
def test_jvp_matches_central_differences(row, shapes):
    arrays = row.sample(shapes)
    vs = tangents_for(arrays)
    outs, tans = run_jvp(row, arrays, vs)
    expected = central_difference(row, arrays, vs, FD["eps"])
    assert len(tans) == len(expected)
    for o, t, e in zip(outs, tans, expected):
        assert t.shape == o.shape and t.dtype is o.dtype
        finite = np.isfinite(o.detach().numpy())  # e.g. logsumexp over an empty dim is -inf
        np.testing.assert_allclose(
            t.detach().numpy()[finite], e[finite], atol=FD["atol"], rtol=FD["rtol"]
        )


@pytest.mark.parametrize(("row", "shapes"), CASES)
def test_jvp_matches_reverse_mode(row, shapes):
    arrays = row.sample(shapes)
    vs = tangents_for(arrays, seed=1)
    _, tans = run_jvp(row, arrays, vs)
    expected = reverse_jv(row, arrays, vs)
    for t, e in zip(tans, expected):
        # 1e-6, not 1e-9: rows like to(float32).to(float64) round through float32
        np.testing.assert_allclose(t.detach().numpy(), e, atol=1e-9, rtol=1e-6)


@pytest.mark.parametrize(("row", "shapes"), cases([r for r in ROWS if r.name in NO_RULE]))
def test_no_rule_rows_raise_naming_the_op(row, shapes):
    arrays = row.sample(shapes)
    op = NO_RULE[row.name]
    with pytest.raises(NotImplementedError, match=f"{op} has no jvp rule"):
        run_jvp(row, arrays, tangents_for(arrays))
    assert not modes.state.active


@pytest.mark.parametrize(("row", "shapes"), cases([r for r in ROWS if r.name in IN_PLACE]))
def test_in_place_rows_raise(row, shapes):
    arrays = row.sample(shapes)
    with pytest.raises(NotImplementedError, match="modified in place"):
        run_jvp(row, arrays, tangents_for(arrays))
    assert not modes.state.active


def test_skip_lists_name_real_rows():
    names = {r.name for r in ROWS}
    assert set(NO_RULE) <= names and IN_PLACE <= names
    assert len(RULE_ROWS) == len(ROWS) - len(NO_RULE) - len(IN_PLACE)


# --- jacfwd -------------------------------------------------------------------------------------


def jacrev_loops(f, x):
    """d f / d x by one mg.autograd.grad per output element: shape out.shape + x.shape."""
    x = mg.tensor(x.detach().numpy(), requires_grad=True)
    out = f(x)
    flat = out.reshape(-1)
    rows = [
        mg.autograd.grad(flat[i], x, retain_graph=True)[0].detach().numpy()
        for i in range(flat.shape[0])
    ]
    return np.stack(rows).reshape(tuple(out.shape) + tuple(x.shape))


FUNCS = {
    "tanh-matmul": lambda x: (x.tanh() @ mg.tensor(np.arange(6.0).reshape(3, 2))).exp(),
    "softmax": lambda x: x.softmax(-1) * x.sum(),
    "logsumexp-reshape": lambda x: x.reshape(3, 1).expand(3, 2).logsumexp(0),
    "wide-input": lambda x: (x**2).sum(),
    "select-cat": lambda x: mg.cat([x[1:], x[:1] * 3.0, x.max().reshape(1)]).sigmoid(),
}


@pytest.mark.parametrize("name", list(FUNCS))
def test_jacfwd_matches_jacrev_by_loops(name):
    x = mg.tensor(np.array([0.3, -1.2, 0.7]))
    got = jacfwd(FUNCS[name])(x)
    np.testing.assert_allclose(
        got.detach().numpy(), jacrev_loops(FUNCS[name], x), atol=1e-12, rtol=1e-10
    )


def test_jacfwd_argnums_tuple_and_matrix_input():
    a = mg.tensor(np.array([[1.0, 2.0], [3.0, 4.0]]))
    b = mg.tensor(np.array([0.5, -1.0]))
    ja, jb = jacfwd(lambda a, b: (a @ b).sin(), argnums=(0, 1))(a, b)
    assert ja.shape == (2, 2, 2) and jb.shape == (2, 2)
    c = np.cos(a.detach().numpy() @ b.detach().numpy())
    np.testing.assert_allclose(jb.detach().numpy(), c[:, None] * a.detach().numpy())
    expected_a = np.zeros((2, 2, 2))
    for i in range(2):
        expected_a[i, i, :] = c[i] * b.detach().numpy()
    np.testing.assert_allclose(ja.detach().numpy(), expected_a)


def test_hessian_as_jacfwd_of_reverse_mode():
    """Forward over reverse: the backward pass's ops carry tangents too."""

    def grad_f(x):
        x.requires_grad_()
        (g,) = mg.autograd.grad((x.sin() * x**3).sum(), x, create_graph=True)
        return g

    x = np.array([0.5, -1.0, 2.0])
    h = jacfwd(grad_f)(mg.tensor(x))
    d2 = -np.sin(x) * x**3 + 6 * np.cos(x) * x**2 + 6 * x * np.sin(x)
    np.testing.assert_allclose(h.detach().numpy(), np.diag(d2), atol=1e-10)


def test_reverse_over_forward():
    """jvp inside a reverse-mode graph: d/dx of (J v) = d/dx (cos(x) v)."""
    x = mg.tensor([0.5, 1.0], requires_grad=True)
    v = mg.tensor([1.0, 2.0])
    _, t = jvp(lambda x: x.sin(), (x,), (v,))
    (g,) = mg.autograd.grad(t.sum(), x)
    np.testing.assert_allclose(
        g.detach().numpy(), -np.sin(x.detach().numpy()) * v.detach().numpy(), rtol=1e-6
    )


# --- the jvp contract ---------------------------------------------------------------------------


def test_jvp_outputs_and_aux_and_constant_outputs():
    x = mg.tensor([1.0, 2.0])
    (out, const), (t_out, t_const), aux = jvp(
        lambda x: ((x * 2.0, mg.ones(3)), "aux"), (x,), (mg.tensor([1.0, 1.0]),), has_aux=True
    )
    assert aux == "aux"
    np.testing.assert_allclose(t_out.detach().numpy(), [2.0, 2.0])
    np.testing.assert_allclose(t_const.detach().numpy(), np.zeros(3))
    assert t_const.shape == const.shape and not out.requires_grad


@pytest.mark.parametrize(
    ("primal", "tangent", "err"),
    [
        (mg.tensor([1.0, 2.0]), mg.tensor([1.0]), "shape"),
        (mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0], dtype=mg.float64), "dtype"),
    ],
)
def test_jvp_rejects_mismatched_tangents(primal, tangent, err):
    with pytest.raises(RuntimeError if err == "shape" else ValueError, match=err):
        jvp(lambda x: x, (primal,), (tangent,))


def test_jvp_rejects_non_tuple_and_int_primals():  # PyTorch's classes
    with pytest.raises(RuntimeError, match="tuple of Tensors"):
        jvp(lambda x: x, [1.0], (mg.tensor(1.0),))
    with pytest.raises(RuntimeError, match="tuple of Tensors"):
        jvp(lambda x: x, (mg.tensor(1.0),), (1.0,))
    with pytest.raises(ValueError, match="floating-point"):
        jvp(lambda x: x, (mg.tensor([1]),), (mg.tensor([1]),))
    with pytest.raises(RuntimeError, match="must return a Tensor or a tuple, list or dict"):
        jvp(lambda x: 3, (mg.tensor(1.0),), (mg.tensor(1.0),))


def test_jvp_takes_dicts_of_parameters_as_torch_func_does():
    params = {"w": mg.tensor([1.0, 2.0]), "b": mg.tensor(0.5)}
    tangents = {"w": mg.tensor([1.0, 0.0]), "b": mg.tensor(1.0)}
    out, tan = jvp(lambda p: {"y": (p["w"] * 3).sum() + p["b"]}, (params,), (tangents,))
    assert list(out) == ["y"] and list(tan) == ["y"]
    assert out["y"].item() == 9.5 and tan["y"].item() == 4.0  # 3 * 1 + 1
    with pytest.raises(RuntimeError, match="same structure"):
        jvp(lambda p: p["w"], (params,), ({"w": tangents["w"]},))
    with pytest.raises(RuntimeError, match="as many tangents as primals"):
        jvp(lambda p: p["w"], (params,), (tangents, tangents))


def test_missing_rule_names_the_op_and_mode_is_off():
    from minigrad.ops.inplace import CopySlices

    assert not hasattr(CopySlices, "jvp")

    def f(x):
        y = x * 1.0
        y[0] = x[1]
        return y

    with pytest.raises(NotImplementedError, match="CopySlices has no jvp rule"):
        jvp(f, (mg.tensor([1.0, 2.0]),), (mg.tensor([1.0, 0.0]),))
    assert not modes.state.active


def test_sparse_input_is_a_clear_error():
    s = mg.tensor([[1.0, 0.0], [0.0, 2.0]]).to_sparse()
    with pytest.raises(NotImplementedError, match="sparse"):
        jvp(lambda x: x, (s,), (s,))
    x = mg.tensor([1.0, 2.0])
    with pytest.raises(NotImplementedError, match="sparse tensor"):
        jvp(lambda x: s @ x, (x,), (mg.tensor([1.0, 0.0]),))
    assert not modes.state.active


def test_mode_is_off_after_an_exception_in_func():
    def boom(x):
        x.exp()
        raise KeyError("inside func")

    with pytest.raises(KeyError):
        jvp(boom, (mg.tensor([1.0]),), (mg.tensor([1.0]),))
    assert not modes.state.active
    _, t = jvp(lambda x: x.exp(), (mg.tensor([0.0]),), (mg.tensor([2.0]),))
    np.testing.assert_allclose(t.detach().numpy(), [2.0])


def test_nested_jvp_gives_second_derivatives():
    def inner(x):
        return jvp(lambda y: (y * y * y).sum(), (x,), (mg.ones_like(x),))[1]

    x = mg.tensor([0.5, -2.0], dtype=mg.float64)
    out, t = jvp(inner, (x,), (mg.ones_like(x),))
    np.testing.assert_allclose(
        out.item(), (3 * x.detach().numpy() ** 2).sum()
    )  # d/dx of x**3, summed
    np.testing.assert_allclose(t.item(), (6 * x.detach().numpy()).sum())  # and once more
    assert not modes.state.active


def test_jacfwd_of_jacfwd_equals_the_hessian():
    def f(x):
        return (x * x * x).sum() + (x[0] * x[1]).sin()

    x = mg.tensor([0.5, -1.2, 2.0], dtype=mg.float64)
    h_ff = mg.func.jacfwd(mg.func.jacfwd(f))(x)
    h_fr = mg.func.hessian(f)(x)
    np.testing.assert_allclose(h_ff.detach().numpy(), h_fr.detach().numpy(), rtol=1e-10)
    eps, n = 1e-5, x.shape[0]
    g = mg.func.grad(f)
    numeric = np.stack(
        [
            (
                g(mg.tensor(x.detach().numpy() + eps * np.eye(n)[i])).detach().numpy()
                - g(mg.tensor(x.detach().numpy() - eps * np.eye(n)[i])).detach().numpy()
            )
            / (2 * eps)
            for i in range(n)
        ]
    )
    np.testing.assert_allclose(h_ff.detach().numpy(), numeric, rtol=1e-5, atol=1e-6)


def test_custom_function_without_jvp_reached_by_a_tangent_is_refused():
    class Double(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = mg.tensor([1.0, 2.0], dtype=mg.float64)
    with pytest.raises(NotImplementedError, match="must implement the jvp.*Double has no jvp"):
        mg.func.jvp(Double.apply, (x,), (mg.ones_like(x),))
    assert not modes.state.active
