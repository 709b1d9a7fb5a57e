"""The tensor ops beside the op table: maximum minimum logaddexp, std, flip roll tril triu,
chunk split narrow, masked_fill, cumsum, prod.

The op table (op_table_rows.py) checks values and gradients away from ties and kinks; here
are the cases it cannot hold: exact ties of maximum/minimum (PyTorch splits the gradient
evenly), zeros in prod, bad arguments (the same exception type as PyTorch, and our message),
node names, result dtypes, and views.
"""

from __future__ import annotations

import numpy as np
import pytest

import minigrad as mg


def _torch():
    return pytest.importorskip("torch")


def _grads(lib, fn, *values, create_graph=False):
    xs = [lib.tensor(v, dtype=lib.float64, requires_grad=True) for v in values]
    out = fn(lib, *xs)
    return out, xs, lib.autograd.grad(out.sum(), xs, create_graph=create_graph)


# --- maximum / minimum at exact ties ------------------------------------------------------------

TIES = [
    ("same values", [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]),
    ("some tied", [1.0, 2.0, 3.0], [1.0, 1.0, 4.0]),
    ("broadcast tie", [[2.0], [1.0]], [2.0, 2.0, 0.5]),
    ("0-d against a row", 1.0, [1.0, 0.0, 1.0]),
]


@pytest.mark.parametrize("op", ["maximum", "minimum"])
def test_ties_split_the_gradient_evenly(op):
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = mg.tensor([1.0, 1.0, 4.0], requires_grad=True)
    getattr(mg, op)(x, y).sum().backward()
    want_x = [0.5, 1.0, 0.0] if op == "maximum" else [0.5, 0.0, 1.0]
    assert x.grad.tolist() == want_x
    assert y.grad.tolist() == [1 - w for w in want_x]


@pytest.mark.oracle
@pytest.mark.parametrize("op", ["maximum", "minimum"])
@pytest.mark.parametrize(("case", "a", "b"), TIES, ids=[t[0] for t in TIES])
def test_ties_match_torch(op, case, a, b):
    torch = _torch()

    def fn(lib, x, y):
        return getattr(lib, op)(x, y) * lib.tensor(3.0, dtype=lib.float64)

    ours, xs, g_ours = _grads(mg, fn, a, b, create_graph=True)
    theirs, ts, g_theirs = _grads(torch, fn, a, b, create_graph=True)
    np.testing.assert_array_equal(ours.detach().numpy(), theirs.detach().numpy())
    for g, h, x in zip(g_ours, g_theirs, xs):
        assert g.shape == x.shape
        np.testing.assert_array_equal(g.detach().numpy(), h.detach().numpy())
    # and the JVP (forward mode) gives the same shares as the backward
    t = [mg.ones_like(x) for x in xs]
    _, jv = mg.func.jvp(lambda x, y: fn(mg, x, y), tuple(x.detach() for x in xs), tuple(t))
    want = sum(g.sum() for g in g_theirs)  # 1.(J 1) = (J^T 1).1: the gradients, summed
    assert float(jv.sum()) == pytest.approx(float(want))


def test_maximum_promotes_and_keeps_integers():
    i = mg.tensor([1, 5, 3])
    assert mg.maximum(i, mg.tensor([2, 2, 2])).tolist() == [2, 5, 3]
    assert mg.maximum(i, mg.tensor([1.5, 0.0, 0.0])).dtype is mg.float32
    assert mg.maximum(mg.ones(2), mg.tensor(2.0, dtype=mg.float64)).dtype is mg.float32


def test_maximum_propagates_nan_as_torch():
    x = mg.tensor([float("nan"), 1.0], requires_grad=True)
    y = mg.tensor([0.0, float("nan")], requires_grad=True)
    out = mg.maximum(x, y)
    assert np.isnan(out.detach().numpy()).all()
    out.sum().backward()  # PyTorch: both operands get the full gradient at a NaN
    assert x.grad.tolist() == [1.0, 1.0] and y.grad.tolist() == [1.0, 1.0]


# --- logaddexp ------------------------------------------------------------------------------------


def test_logaddexp_is_stable():
    inf = float("inf")
    a = mg.tensor([-inf, inf, 1000.0, -1000.0, 0.0])
    b = mg.tensor([-inf, inf, 1000.0, -1000.0, 1000.0])
    got = mg.logaddexp(a, b).numpy()
    np.testing.assert_allclose(got, [-inf, inf, 1000 + np.log(2), -1000 + np.log(2), 1000.0])


def test_logaddexp_second_derivative_far_apart_is_finite():
    """PyTorch's double backward gives nan here (exp(2000) overflows in its formula);
    ours goes through sigmoid, which stays finite: the exact value is 0."""
    x = mg.tensor([1000.0, -1000.0], dtype=mg.float64, requires_grad=True)
    y = mg.tensor([-1000.0, 1000.0], dtype=mg.float64, requires_grad=True)
    (gx, gy) = mg.autograd.grad(mg.logaddexp(x, y).sum(), [x, y], create_graph=True)
    assert gx.tolist() == [1.0, 0.0] and gy.tolist() == [0.0, 1.0]
    hx, hy = mg.autograd.grad(gx.sum(), [x, y])
    assert hx.tolist() == [0.0, 0.0] and hy.tolist() == [0.0, 0.0]
    assert mg.autograd.gradgradcheck(mg.logaddexp, [x, y])


def test_max_and_min_of_two_tensors_are_maximum_and_minimum():
    a = mg.tensor([1.0, 5.0])
    b = mg.tensor([3.0, 2.0], requires_grad=True)
    for out, want, node in [
        (mg.max(a, b), [3.0, 5.0], "MaximumBackward0"),
        (a.max(b), [3.0, 5.0], "MaximumBackward0"),
        (mg.min(a, other=b), [1.0, 2.0], "MinimumBackward0"),
        (a.min(b), [1.0, 2.0], "MinimumBackward0"),
    ]:
        assert out.tolist() == want and out.grad_fn.name() == node
    with pytest.raises(TypeError, match=r"max\(a, b\) of two tensors is elementwise"):
        mg.max(a, b, keepdim=True)
    assert mg.max(a).item() == 5.0 and a.max(0).indices.item() == 1  # the other forms stay


# --- std ------------------------------------------------------------------------------------------


def test_std_gradient_is_zero_where_std_is_zero():
    x = mg.ones(2, 3, dtype=mg.float64, requires_grad=True)
    s = x.std(dim=1)
    assert s.tolist() == [0.0, 0.0]
    s.sum().backward()
    assert not x.grad.numpy().any()


def test_std_is_sqrt_of_var():
    x = mg.tensor([[1.0, 4.0, 2.0], [0.5, 0.0, 3.0]], dtype=mg.float64)
    for kw in ({}, {"dim": 1}, {"dim": 0, "correction": 0}, {"dim": (0, 1), "keepdim": True}):
        np.testing.assert_allclose(x.std(**kw).numpy(), np.sqrt(x.var(**kw).numpy()))
    assert x.std(0, False).tolist() == pytest.approx(np.std(x.numpy(), 0).tolist())


def test_float32_var_and_std_are_computed_in_float64_and_rounded_once():
    # numpy's float32 var sums in float32: on these values its var(0) differs from the
    # float64 computation rounded to float32 (PyTorch's CPU kernel) in the last bit
    a = (np.random.default_rng(1).normal(size=(12, 16)) * 1.3 + 0.4).astype(np.float32)
    wide = a.astype(np.float64)
    assert not np.array_equal(a.var(0, ddof=1), wide.var(0, ddof=1).astype(np.float32))
    x = mg.tensor(a)
    for kw, ddof in (({"dim": 0}, 1), ({"dim": 1, "correction": 0}, 0), ({}, 1)):
        axis = kw.get("dim")
        want = wide.var(axis=axis, ddof=ddof)
        assert x.var(**kw).dtype is mg.float32
        np.testing.assert_array_equal(x.var(**kw).numpy(), want.astype(np.float32))
        np.testing.assert_array_equal(x.std(**kw).numpy(), np.sqrt(want).astype(np.float32))


@pytest.mark.oracle
def test_float32_var_and_std_equal_torchs_bit_for_bit():
    torch = _torch()
    rng = np.random.default_rng(2)
    for shape, dim in (((12, 16), 0), ((7, 33), 1), ((1000,), None), ((301, 3), 0)):
        a = (rng.normal(size=shape) * 2.5 - 1.0).astype(np.float32)
        for c in (0, 1):
            for name in ("var", "std"):
                ours = getattr(mg.tensor(a), name)(dim, correction=c).numpy()
                theirs = getattr(torch.tensor(a), name)(dim, correction=c).numpy()
                np.testing.assert_array_equal(ours, theirs, err_msg=f"{name} {shape} {dim} {c}")


@pytest.mark.oracle
def test_std_dim_empty_tuple_is_over_all_as_torch():
    """``dim=()`` means every dim (the value as torch's). torch's *gradient* here is inf: its
    backward reads ``()`` as "no dims"; ours is the gradient of the std over all elements."""
    torch = _torch()
    a = np.arange(6.0).reshape(2, 3) ** 1.5
    assert mg.tensor(a).std(dim=()).item() == pytest.approx(torch.tensor(a).std(dim=()).item())
    x = mg.tensor(a, requires_grad=True)
    assert mg.autograd.gradcheck(lambda t: t.std(dim=()), [x])


# --- prod with zeros ---------------------------------------------------------------------------------

ZEROS = [[2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 3.0, 0.0], [[0.0, 2.0], [3.0, 0.0]], [0.0, 0.0]]


@pytest.mark.oracle
@pytest.mark.parametrize("dim", [None, 0, -1])
@pytest.mark.parametrize("values", ZEROS, ids=[str(v) for v in ZEROS])
def test_prod_with_zeros_matches_torch(values, dim):
    torch = _torch()

    def fn(lib, x):
        return x.prod() if dim is None else x.prod(dim)

    out, xs, (g,) = _grads(mg, fn, values, create_graph=True)
    tout, ts, (tg,) = _grads(torch, fn, values, create_graph=True)
    np.testing.assert_allclose(out.detach().numpy(), tout.detach().numpy())
    np.testing.assert_allclose(g.detach().numpy(), tg.detach().numpy())
    (h,) = mg.autograd.grad((g * g).sum(), xs)
    (th,) = torch.autograd.grad((tg * tg).sum(), ts)
    np.testing.assert_allclose(h.numpy(), th.numpy())


def test_prod_gradient_with_one_and_two_zeros():
    x = mg.tensor([2.0, 0.0, 4.0], requires_grad=True)
    x.prod().backward()
    assert x.grad.tolist() == [0.0, 8.0, 0.0]
    y = mg.tensor([0.0, 3.0, 0.0], requires_grad=True)
    y.prod().backward()
    assert y.grad.tolist() == [0.0, 0.0, 0.0]


# --- views and gradients of the slicing ops ----------------------------------------------------------


def test_split_pieces_are_views_whose_gradients_land_in_place():
    x = mg.arange(10.0).reshape(5, 2).requires_grad_()
    a, b, c = x.split(2)
    assert isinstance(x.split(2), tuple)
    (a.sum() * 1 + c.sum() * 3).backward()
    assert x.grad.tolist() == [[1.0, 1.0]] * 2 + [[0.0, 0.0]] * 2 + [[3.0, 3.0]]
    base = mg.arange(6.0)
    piece = base.chunk(3)[1]
    piece.mul_(10)  # a view: the write reaches the base, as in PyTorch
    assert base.tolist() == [0.0, 1.0, 20.0, 30.0, 4.0, 5.0]
    n = base.narrow(0, -2, 2)
    n.zero_()
    assert base.tolist()[-2:] == [0.0, 0.0]


def test_narrow_accepts_a_0d_int_tensor_start():
    x = mg.arange(6.0)
    assert x.narrow(0, mg.tensor(1), 2).tolist() == [1.0, 2.0]


def test_masked_fill_value_tensor_gets_the_filled_gradient():
    x = mg.arange(6.0).reshape(2, 3).requires_grad_()
    v = mg.tensor(3.0, requires_grad=True)
    x.masked_fill(mg.tensor([True, False, True]), v).sum().backward()
    assert v.grad.item() == 4.0
    assert x.grad.tolist() == [[0.0, 1.0, 0.0]] * 2


def test_cumsum_dtype_argument():
    x = mg.tensor([1, 2, 3])
    assert x.cumsum(0).dtype is mg.int64
    assert x.cumsum(0, dtype=mg.float32).dtype is mg.float32
    assert mg.cumsum(x, 0, dtype=mg.float64).tolist() == [1.0, 3.0, 6.0]


# --- node names and dtypes, against PyTorch -------------------------------------------------------

GRAPHS = {
    "maximum": lambda m, x: m.maximum(x, x * 2),
    "minimum": lambda m, x: m.minimum(x, x * 2),
    "logaddexp": lambda m, x: m.logaddexp(x, x),
    "std": lambda m, x: x.std(),
    "std(dim)": lambda m, x: x.std(1),
    "flip": lambda m, x: x.flip(0),
    "roll": lambda m, x: x.roll(1, 0),
    "tril": lambda m, x: x.tril(),
    "triu": lambda m, x: x.triu(1),
    "chunk": lambda m, x: x.chunk(2)[0],
    "split": lambda m, x: x.split(1)[1],
    "split(sizes)": lambda m, x: x.split([1, 1])[0],
    "narrow": lambda m, x: x.narrow(1, 0, 2),
    "masked_fill": lambda m, x: x.masked_fill(x > 0, 1.0),
    "masked_fill(tensor)": lambda m, x: x.masked_fill(x > 0, m.tensor(1.0)),
    "cumsum": lambda m, x: x.cumsum(0),
    "prod": lambda m, x: x.prod(),
    "prod(dim)": lambda m, x: x.prod(1),
}


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(GRAPHS))
def test_node_names_match_torch(name):
    torch = _torch()
    a = np.array([[1.0, -2.0, 3.0], [0.5, 2.0, -1.0]])
    ours = GRAPHS[name](mg, mg.tensor(a, requires_grad=True)).grad_fn.name()
    theirs = GRAPHS[name](torch, torch.tensor(a, requires_grad=True)).grad_fn.name()
    assert ours == theirs


DTYPES = {
    "cumsum int32": lambda m: m.tensor([1, 2], dtype=m.int32).cumsum(0),
    "cumsum bool": lambda m: m.tensor([True, False]).cumsum(0),
    "prod int32": lambda m: m.tensor([1, 2], dtype=m.int32).prod(),
    "prod bool dim": lambda m: m.tensor([[True, False]]).prod(1),
    "prod float32": lambda m: m.ones(2, dtype=m.float32).prod(),
    "prod dtype=float64": lambda m: m.ones(2, dtype=m.float32).prod(dtype=m.float64),
    "tril int64": lambda m: m.ones(2, 2, dtype=m.int64).tril(),
    "flip int64": lambda m: m.tensor([1, 2]).flip(0),
    "roll bool": lambda m: m.tensor([True, False]).roll(1),
    "chunk int64": lambda m: m.tensor([1, 2]).chunk(2)[0],
    "masked_fill int64 2.5": lambda m: m.tensor([1, 2]).masked_fill(m.tensor([True, False]), 2.5),
    "masked_fill float32 float64 value": lambda m: m.ones(2).masked_fill(
        m.tensor([True, False]), m.tensor(2.0, dtype=m.float64)
    ),
    "maximum int64 float32": lambda m: m.maximum(m.tensor([1, 2]), m.tensor([1.5, 0.0])),
    "minimum float32 float64 0-d": lambda m: m.minimum(m.ones(2), m.tensor(0.0, dtype=m.float64)),
    "logaddexp float32 float64": lambda m: m.logaddexp(m.ones(2), m.ones(2, dtype=m.float64)),
    "std float32": lambda m: m.ones(3).std(),
}


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(DTYPES))
def test_result_dtypes_and_values_match_torch(name):
    torch = _torch()
    ours, theirs = DTYPES[name](mg), DTYPES[name](torch)
    assert ours.dtype.name == str(theirs.dtype).removeprefix("torch.")
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())


def test_masked_fill_truncates_a_float_value_for_an_integer_tensor():
    got = mg.tensor([1, 2, 3]).masked_fill(mg.tensor([True, False, True]), 2.5)
    assert got.tolist() == [2, 2, 2] and got.dtype is mg.int64


# --- bad arguments: PyTorch's exception type, our message ---------------------------------------


def _x(m):
    return m.ones(2, 3)


ERRORS = [
    ("maximum number", lambda m: m.maximum(_x(m), 2.0), TypeError, "'other'"),
    ("maximum shapes", lambda m: m.maximum(_x(m), m.ones(4)), RuntimeError, "size of tensor a"),
    ("minimum number", lambda m: _x(m).minimum(1), TypeError, "must be Tensor"),
    ("logaddexp int", lambda m: m.logaddexp(m.arange(3), m.arange(3)), NotImplementedError, "int"),
    ("logaddexp number", lambda m: m.logaddexp(_x(m), 1.0), TypeError, "'other'"),
    ("std int", lambda m: m.arange(3).std(), RuntimeError, "floating point"),
    ("std dim 2", lambda m: _x(m).std(2), IndexError, "[-2, 1], but got 2"),
    ("std dim -3", lambda m: m.std(_x(m), dim=-3), IndexError, "[-2, 1], but got -3"),
    ("flip int dims", lambda m: m.flip(_x(m), 0), TypeError, "dims"),
    ("flip repeated", lambda m: _x(m).flip((0, -2)), RuntimeError, "multiple times"),
    ("flip dim 2", lambda m: _x(m).flip(2), IndexError, "[-2, 1], but got 2"),
    ("flip no dims", lambda m: m.flip(_x(m)), TypeError, "dims"),
    ("roll align", lambda m: _x(m).roll((1, 2), 0), RuntimeError, "must align"),
    ("roll align no dims", lambda m: _x(m).roll((1, 2)), RuntimeError, "must align"),
    ("roll 0-d dim", lambda m: m.tensor(2.0).roll(1, 0), IndexError, "no dimensions"),
    ("roll dim 2", lambda m: _x(m).roll(1, 2), IndexError, "[-2, 1], but got 2"),
    ("roll float shift", lambda m: _x(m).roll(1.5), TypeError, "shifts"),
    ("tril 1-D", lambda m: m.ones(3).tril(), RuntimeError, "at least 2 dimensions"),
    ("triu 0-d", lambda m: m.triu(m.tensor(1.0)), RuntimeError, "at least 2 dimensions"),
    ("tril float diagonal", lambda m: _x(m).tril(1.5), TypeError, "diagonal"),
    ("chunk 0", lambda m: _x(m).chunk(0), RuntimeError, "greater than 0"),
    ("chunk -1", lambda m: _x(m).chunk(-1), RuntimeError, "greater than 0"),
    ("chunk 0-d", lambda m: m.tensor(1.0).chunk(1), RuntimeError, "1-dimensional"),
    ("chunk float", lambda m: _x(m).chunk(2.0), TypeError, "chunks"),
    ("chunk dim 2", lambda m: _x(m).chunk(2, 2), IndexError, "[-2, 1], but got 2"),
    ("split sum", lambda m: _x(m).split([1, 2]), RuntimeError, "sum exactly to 2"),
    ("split negative size", lambda m: _x(m).split([3, -1]), RuntimeError, "non-negative"),
    ("split 0", lambda m: _x(m).split(0), RuntimeError, "can only be 0"),
    ("split -1", lambda m: _x(m).split(-1), RuntimeError, "non-negative"),
    ("split 0-d", lambda m: m.tensor(1.0).split(1), RuntimeError, "1-dimensional"),
    ("split dim 2", lambda m: m.split(_x(m), 1, dim=2), IndexError, "[-2, 1], but got 2"),
    ("narrow start", lambda m: _x(m).narrow(0, 3, 0), IndexError, "[-2, 2], but got 3"),
    ("narrow start -3", lambda m: _x(m).narrow(0, -3, 1), IndexError, "but got -3"),
    ("narrow exceeds", lambda m: _x(m).narrow(1, 2, 2), RuntimeError, "exceeds dimension size"),
    ("narrow length", lambda m: _x(m).narrow(1, 0, -1), RuntimeError, "non-negative"),
    ("narrow 0-d", lambda m: m.tensor(1.0).narrow(0, 0, 1), RuntimeError, "0-dim"),
    ("narrow dim 2", lambda m: m.narrow(_x(m), 2, 0, 1), IndexError, "[-2, 1], but got 2"),
    (
        "masked_fill int mask",
        lambda m: _x(m).masked_fill(m.tensor([1, 0, 1]), 0.0),
        RuntimeError,
        "boolean masks",
    ),
    (
        "masked_fill 1-D value",
        lambda m: _x(m).masked_fill(m.tensor([True, False, True]), m.ones(2)),
        RuntimeError,
        "0-dimensional value",
    ),
    (
        "masked_fill str value",
        lambda m: _x(m).masked_fill(m.tensor([True, False, True]), "a"),
        TypeError,
        "value",
    ),
    (
        "masked_fill None value",
        lambda m: _x(m).masked_fill(m.tensor([True, False, True]), None),
        TypeError,
        "value",
    ),
    (
        "masked_fill shapes",
        lambda m: _x(m).masked_fill(m.tensor([True, False]), 0.0),
        RuntimeError,
        "size of tensor a",
    ),
    ("cumsum dim 2", lambda m: _x(m).cumsum(2), IndexError, "[-2, 1], but got 2"),
    ("cumsum no dim", lambda m: _x(m).cumsum(), TypeError, "dim"),
    ("prod tuple dim", lambda m: _x(m).prod((0, 1)), TypeError, "dim"),
    ("prod keepdim without dim", lambda m: _x(m).prod(keepdim=True), TypeError, "keepdim"),
    ("prod dim 2", lambda m: m.prod(_x(m), 2), IndexError, "[-2, 1], but got 2"),
    ("mg.maximum non-tensor", lambda m: m.maximum([1.0], _x(m)), TypeError, "Tensor"),
    ("mg.flip non-tensor", lambda m: m.flip([1.0], (0,)), TypeError, "Tensor"),
]


@pytest.mark.parametrize(
    ("build", "kind", "words"), [e[1:] for e in ERRORS], ids=[e[0] for e in ERRORS]
)
def test_bad_arguments_raise_clear_errors(build, kind, words):
    with pytest.raises(kind) as info:
        build(mg)
    assert words in str(info.value)


@pytest.mark.oracle
@pytest.mark.parametrize(("build", "kind"), [e[1:3] for e in ERRORS], ids=[e[0] for e in ERRORS])
def test_bad_arguments_raise_what_torch_raises(build, kind):
    torch = _torch()
    with pytest.raises(kind):
        build(torch)


def test_std_refuses_both_unbiased_and_correction():
    with pytest.raises(TypeError, match="unbiased or correction"):
        mg.ones(3).std(unbiased=True, correction=1)


SPARSE_CALLS = {
    "mg.maximum(S, D)": lambda s, d: mg.maximum(s, d),
    "mg.minimum(D, S)": lambda s, d: mg.minimum(d, s),
    "S.logaddexp(D)": lambda s, d: s.logaddexp(d),
    "mg.std(S)": lambda s, d: mg.std(s),
    "S.prod()": lambda s, d: s.prod(),
    "mg.cumsum(S, 0)": lambda s, d: mg.cumsum(s, 0),
    "S.flip(0)": lambda s, d: s.flip(0),
    "mg.roll(S, 1)": lambda s, d: mg.roll(s, 1),
    "S.tril()": lambda s, d: s.tril(),
    "mg.triu(S)": lambda s, d: mg.triu(s),
    "S.chunk(2)": lambda s, d: s.chunk(2),
    "mg.split(S, 1)": lambda s, d: mg.split(s, 1),
    "S.narrow(0, 0, 1)": lambda s, d: s.narrow(0, 0, 1),
    "mg.masked_fill(S, m, 0)": lambda s, d: mg.masked_fill(s, d > 0, 0.0),
}


@pytest.mark.parametrize("call", list(SPARSE_CALLS.values()), ids=list(SPARSE_CALLS))
def test_sparse_inputs_are_refused_with_the_no_kernel_message(call):
    dense = mg.eye(3)
    with pytest.raises(NotImplementedError, match="has no sparse kernel"):
        call(dense.to_sparse(), dense)


def test_mean_of_an_integer_tensor_names_the_dtype_as_pytorch():
    with pytest.raises(RuntimeError, match="floating point or complex dtype. Got: Long$"):
        mg.arange(3).mean()
    with pytest.raises(RuntimeError, match="Got: Bool$"):
        mg.tensor([True]).mean()
