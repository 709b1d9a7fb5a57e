"""Issue 27's fourth batch of PyTorch names: order statistics (``kthvalue mode quantile
nanquantile msort unique_consecutive``), builders (``logspace tensordot diag_embed diagflat
tensor_split block_diag cartesian_prod combinations vander``), statistics (``cov corrcoef
trapezoid trapz cumulative_trapezoid renorm``), integer and bit math (``floor_divide // //= div(rounding_mode=)
heaviside gcd lcm bitwise_* & | ^ ~ ldexp frexp nextafter``), dtype queries (``promote_types
result_type can_cast asarray randint_like``) and ``minigrad.special``.

Each case runs the same line with ``m = minigrad`` and ``m = torch``: values, dtypes, the
gradients of a random weighting of the outputs and the output's node name must agree; the
error cases must raise the same class with the same message. gradcheck covers the gradients
without torch.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

R = np.random.default_rng(27)
A3, B3 = R.normal(size=(2, 3, 4)), R.normal(size=(3, 4, 5))
X = np.array([[3.0, 1.0, 3.0, 2.0, 1.0], [5.0, 5.0, 4.0, 4.0, 0.0], [0.5, 2.5, -1.0, 7.0, 2.0]])
XD = X + np.arange(15.0).reshape(3, 5) * 0.01  # distinct values
NANS = np.array([[1.0, np.nan, 3.0, 7.0], [np.nan] * 4, [2.0, 5.0, 1.0, 0.0]])
S = R.normal(size=(3, 5))
F = np.array([-7.0, 7.0, 5.5, -0.5, 0.5, 0.0, -0.0, 3.0])
G = np.array([2.0, -2.0, -1.5, 2.0, 2.0, 3.0, -3.0, 0.0])
I = np.array([-7, 7, 5, 0, -128, 9])  # noqa: E741
J = np.array([2, -2, 3, 5, -1, 9])
P = np.array([0.01, 0.2, 0.5, 0.7, 0.99])
Q3 = lambda m: m.tensor([0.1, 0.5, 0.9], dtype=m.float64)  # noqa: E731

# name -> (fn(m, *tensors), input arrays, options); floating inputs require grad
CASES = {
    "kthvalue": (lambda m, x: m.kthvalue(x, 2), [XD], {}),
    "kthvalue dim 0 keepdim": (lambda m, x: m.kthvalue(x, 3, 0, True), [XD], {}),
    "kthvalue 0-d": (lambda m, x: m.kthvalue(x, 1), [np.array(3.0)], {}),
    "x.kthvalue": (lambda m, x: x.kthvalue(1, dim=1), [XD], {}),
    "mode": (lambda m, x: m.mode(x), [X], {}),
    "mode dim 0 keepdim": (lambda m, x: m.mode(x, 0, True), [X], {}),
    "mode NaN": (lambda m, x: m.mode(x), [np.array([2.0, np.nan, 1.0, np.nan])], {}),
    "mode NaN first": (lambda m, x: m.mode(x), [np.array([np.nan, np.nan, 1.0])], {}),
    "x.mode int": (lambda m, x: x.mode(), [np.array([2, 1, 2, 1, 3])], {}),
    "msort": (lambda m, x: m.msort(x), [X], {}),
    "quantile": (lambda m, x: m.quantile(x, 0.37), [X], {"node": False}),
    "quantile dim q": (lambda m, x: m.quantile(x, Q3(m), 1), [X], {"node": False}),
    "quantile keepdim": (lambda m, x: m.quantile(x, Q3(m), 0, True), [X], {"node": False}),
    "quantile all keepdim": (
        lambda m, x: m.quantile(x, Q3(m), keepdim=True),
        [X],
        {"node": False},
    ),
    "quantile NaN": (lambda m, x: m.quantile(x, 0.5, 1), [NANS], {"node": False}),
    "quantile 0-d": (lambda m, x: m.quantile(x, 0.5, 0, True), [np.array(3.0)], {"node": False}),
    "nanquantile": (lambda m, x: m.nanquantile(x, Q3(m), 1), [NANS], {"node": False}),
    "x.quantile float32": (lambda m, x: x.float().quantile(0.3, 1), [X], {"node": False}),
    **{
        f"quantile {how}": (
            lambda m, x, how=how: m.quantile(x, Q3(m), 1, interpolation=how),
            [X],
            {"node": False},
        )
        for how in ("lower", "higher", "midpoint", "nearest")
    },
    **{
        f"nanquantile {how}": (
            lambda m, x, how=how: m.nanquantile(x, 0.4, 1, interpolation=how),
            [NANS],
            {"node": False},
        )
        for how in ("lower", "higher", "midpoint", "nearest")
    },
    "unique_consecutive": (
        lambda m, x: m.unique_consecutive(x, True, True),
        [np.array([1, 1, 2, 2, 3, 1, 1, 2])],
        {},
    ),
    "unique_consecutive dim": (
        lambda m, x: x.unique_consecutive(return_counts=True, dim=1),
        [np.array([[1, 1, 2, 2], [1, 1, 3, 3]])],
        {},
    ),
    "unique_consecutive node": (lambda m, x: m.unique_consecutive(x), [X], {"grad": False}),
    # builders
    "logspace": (lambda m: m.logspace(0, 2, 5), [], {"tol": 1e-6}),
    "logspace base 2 float64": (lambda m: m.logspace(-1, 1.5, 7, 2, dtype=m.float64), [], {}),
    "logspace int64": (lambda m: m.logspace(0, 3, 4, dtype=m.int64), [], {}),
    "logspace 1 step": (lambda m: m.logspace(0, 3, 1), [], {}),
    "tensordot 2": (lambda m, a, b: m.tensordot(a, b), [A3, B3], {}),
    "tensordot 0": (lambda m, a, b: m.tensordot(a[0, 0], b[0, 0], 0), [A3, B3], {}),
    "tensordot lists": (lambda m, a, b: m.tensordot(a, b, ([2, 1], [1, 0])), [A3, B3], {}),
    "tensordot one pair": (lambda m, a, b: m.tensordot(a, b, ([1], [0])), [A3, B3], {}),
    "diag_embed": (lambda m, a: m.diag_embed(a), [A3], {}),
    "diag_embed offset dims": (lambda m, a: m.diag_embed(a, 1, 0, 2), [A3], {}),
    "x.diag_embed negative": (lambda m, a: a.diag_embed(-2, -1, 1), [A3], {}),
    "diagflat": (lambda m, a: m.diagflat(a, -1), [A3[0]], {}),
    "x.diagflat 0-d": (lambda m, a: a.diagflat(), [np.array(3.0)], {}),
    "tensor_split sections": (
        lambda m, a: m.tensor_split(a, 3, 2),
        [R.normal(size=(2, 7))[None]],
        {},
    ),
    "tensor_split indices": (
        lambda m, a: m.tensor_split(a, [1, 5, 9], 1),
        [R.normal(size=(2, 7))],
        {},
    ),
    "tensor_split negative": (
        lambda m, a: a.tensor_split([2, -2], dim=1),
        [R.normal(size=(2, 7))],
        {},
    ),
    "tensor_split tensor": (
        lambda m, a: m.tensor_split(a, m.tensor([1, 4])),
        [R.normal(size=7)],
        {},
    ),
    "tensor_split 0-d tensor": (
        lambda m, a: m.tensor_split(a, m.tensor(4)),
        [R.normal(size=7)],
        {},
    ),
    "block_diag": (lambda m, a, b, c: m.block_diag(a, b, c), [np.array(1.0), P, S[:2, :2]], {}),
    "block_diag ints": (
        lambda m, a, b: m.block_diag(a, b.int()),
        [np.array([[1, 2]]), np.array([[3], [4]])],
        {},
    ),
    "block_diag none": (lambda m: m.block_diag(), [], {}),
    "cartesian_prod": (lambda m, a, b: m.cartesian_prod(a, b, a), [P[:2], P[:3]], {"node": False}),
    "combinations": (lambda m, a: m.combinations(a), [P[:4]], {"node": False}),
    "combinations r=3 replacement": (
        lambda m, a: m.combinations(a, 3, True),
        [P[:4]],
        {"node": False},
    ),
    "combinations r > n": (lambda m, a: m.combinations(a, 5), [P[:4]], {"node": False}),
    "combinations r=0": (lambda m, a: m.combinations(a, 0), [P[:4]], {"grad": False}),
    "vander": (lambda m, a: m.vander(a), [P[:3]], {"grad": False}),
    "vander N increasing": (lambda m, a: m.vander(a, 4, True), [P[:3]], {"grad": False}),
    "vander int32": (lambda m, a: m.vander(a.int()), [np.array([1, 2, 3])], {}),
    # statistics
    "cov": (lambda m, x: m.cov(x), [S], {"node": False}),
    "cov 1-D": (lambda m, x: m.cov(x[0]), [S], {"node": False}),
    "cov correction 0": (lambda m, x: m.cov(x, correction=0), [S], {"node": False}),
    "cov fweights": (
        lambda m, x: m.cov(x, fweights=m.tensor([1, 2, 0, 3, 1])),
        [S],
        {"node": False},
    ),
    "cov both weights": (
        lambda m, x, a: m.cov(x, correction=2, fweights=m.tensor([1, 2, 1, 3, 1]), aweights=a),
        [S, P + 0.5],
        {"node": False},
    ),
    "cov int": (lambda m, x: m.cov(x), [np.array([[1, 2, 4], [0, 5, 1]])], {"tol": 1e-6}),
    "x.corrcoef": (lambda m, x: x.corrcoef(), [S], {"node": False}),
    "corrcoef 1-D": (lambda m, x: m.corrcoef(x[0]), [S], {"node": False}),
    "trapezoid": (lambda m, y: m.trapezoid(y), [S], {"node": False}),
    "trapezoid dx dim 0": (lambda m, y: m.trapezoid(y, dx=0.5, dim=0), [S], {"node": False}),
    "trapezoid x": (lambda m, y, x: m.trapezoid(y, x), [S, np.sort(P)], {"node": False}),
    "trapezoid x 2-D": (lambda m, y, x: m.trapezoid(y, x, dim=0), [S, S + 1], {"node": False}),
    "trapz": (lambda m, y, x: m.trapz(y, x, dim=0), [S, P[:3]], {"node": False}),
    "trapz dx": (lambda m, y: m.trapz(y, dx=2), [S], {"node": False}),
    "trapezoid int": (lambda m, y: m.trapezoid(y), [np.array([1, 2, 4])], {}),
    "trapezoid empty": (lambda m, y: m.trapezoid(y), [np.zeros(0)], {"node": False}),
    "cumulative_trapezoid": (lambda m, y: m.cumulative_trapezoid(y), [S], {"node": False}),
    "cumulative_trapezoid x dim 0": (
        lambda m, y, x: m.cumulative_trapezoid(y, x, dim=0),
        [S, P[:3]],
        {"node": False},
    ),
    "renorm": (lambda m, x: m.renorm(x, 2, 0, 1.2), [S], {}),
    "x.renorm p=1 dim 1": (lambda m, x: x.renorm(1, 1, 0.9), [S], {}),
    "renorm inf 3-D": (lambda m, x: m.renorm(x, float("inf"), 1, 0.9), [A3], {}),
    # integer and bit math
    "floor_divide": (lambda m, a, b: m.floor_divide(a, b), [F, G], {"grad": False}),
    "a // b float": (lambda m, a, b: a // b, [F, G], {"grad": False}),
    "a // b float32": (lambda m, a, b: a.float() * 1.37 // b.float(), [F, G], {"grad": False}),
    "a // b int": (lambda m, a, b: a // b, [I, J], {}),
    "a // b int8": (lambda m, a, b: a.to(m.int8) // b.to(m.int8), [I, J], {}),
    "a // 2": (lambda m, a: a // 2, [I], {}),
    "a // -2.5": (lambda m, a: a // -2.5, [I], {}),
    "7 // b": (lambda m, b: 7 // b, [J], {}),
    "7.5 // b": (lambda m, b: 7.5 // b, [G], {"grad": False}),
    "a // 0": (lambda m, a: a // 0, [F], {"grad": False}),
    "a //= 3": (lambda m, a: a.clone().__ifloordiv__(3), [I], {}),
    "x.floor_divide_": (lambda m, a: a.clone().floor_divide_(-2), [I], {}),
    "div trunc": (lambda m, a, b: m.div(a, b, rounding_mode="trunc"), [F, G], {}),
    "div floor float32": (
        lambda m, a, b: a.float().div(b.float() * 1.3, rounding_mode="floor"),
        [F, G],
        {},
    ),
    "div trunc ints": (lambda m, a, b: m.div(a, b, rounding_mode="trunc"), [I, J], {}),
    "x.div floor 2.5": (lambda m, a: a.div(2.5, rounding_mode="floor"), [I], {}),
    "divide trunc": (lambda m, a: m.divide(a, 2, rounding_mode="trunc"), [F], {}),
    "x.div_ floor": (lambda m, a: (a * 1).div_(2, rounding_mode="floor"), [F], {}),
    "div rounding_mode None": (lambda m, a, b: m.div(a, b, rounding_mode=None), [F, P[:1]], {}),
    "heaviside": (
        lambda m, a, b: m.heaviside(a, b),
        [np.array([-1.0, 0.0, 2.0, np.nan]), P[:1]],
        {"grad": False},
    ),
    "x.heaviside int": (lambda m, a, b: a.heaviside(b), [np.array([-1, 0, 2]), np.array([7])], {}),
    "gcd": (lambda m, a, b: m.gcd(a, b), [np.array([0, -12, 9, 7]), np.array([0, 18, -6, 0])], {}),
    "x.lcm int32": (
        lambda m, a, b: a.lcm(b.int()),
        [np.array([0, -12, 9]), np.array([5, 18, -6])],
        {},
    ),
    "x.gcd_": (lambda m, a, b: a.clone().gcd_(b), [np.array([4, 6]), np.array([6, 9])], {}),
    **{
        f"{op}": (lambda m, a, b, op=op: getattr(m, op)(a, b), [I, J], {})
        for op in ("bitwise_and", "bitwise_or", "bitwise_xor")
    },
    **{
        f"{op} bool with int": (
            lambda m, a, b, op=op: getattr(m, op)(a, b),
            [np.array([True, False, True]), np.array([3, 1, 0])],
            {},
        )
        for op in ("bitwise_and", "bitwise_or", "bitwise_xor")
    },
    "x.bitwise_xor_ number": (lambda m, a: a.clone().bitwise_xor_(5), [I], {}),
    "bitwise_not": (lambda m, a: m.bitwise_not(a), [I], {}),
    "bitwise_not bool": (lambda m, a: m.bitwise_not(a), [np.array([True, False])], {}),
    "a & b": (lambda m, a, b: a & b, [I, J], {}),
    "a | b": (lambda m, a, b: a | b, [I, J], {}),
    "a ^ b": (lambda m, a, b: a ^ b, [I, J], {}),
    "6 & a": (lambda m, a: 6 & a, [I], {}),
    "bool ^ True": (lambda m, a: a ^ True, [np.array([True, False])], {}),
    "~ int": (lambda m, a: ~a, [I], {}),
    "~ uint8": (lambda m, a: ~a.abs().to(m.uint8), [I], {}),
    "~ bool": (lambda m, a: ~a, [np.array([True, False])], {}),
    "a &= b": (lambda m, a, b: a.clone().__iand__(b), [I, J], {}),
    "ldexp": (lambda m, a, b: m.ldexp(a, b), [F, np.array([1, 2, 3, 1, 0, 5, 2, 1])], {}),
    "ldexp float exponent": (lambda m, a, b: m.ldexp(a, b), [F, G], {}),
    "ldexp ints": (lambda m, a, b: m.ldexp(a, b), [np.array([1, 2]), np.array([1, 2])], {}),
    "x.ldexp float32": (
        lambda m, a, b: a.float().ldexp(b),
        [F, np.array([1, 2, 3, 1, 0, 5, 2, 1])],
        {},
    ),
    "frexp": (lambda m, a: m.frexp(a * 3), [np.array([1.0, 8.0, 0.0, -3.5, 1e-3])], {}),
    "x.frexp special values": (
        lambda m, a: a.frexp(),
        [np.array([1e-310, np.inf, np.nan, -0.0])],
        {"grad": False},
    ),
    "nextafter": (lambda m, a, b: m.nextafter(a, b), [F, G], {}),
    "x.nextafter float32 broadcast": (
        lambda m, a, b: a.float().reshape(2, 1, 4).nextafter(b[:4].float()),
        [F, G],
        {"tol": 0},
    ),
    # minigrad.special
    "special.logit eps": (lambda m, a: m.special.logit(a, 0.1), [P], {}),
    "special.xlogy": (lambda m, a, b: m.special.xlogy(a, b), [F, np.abs(G) + 0.5], {}),
    "special.softmax": (lambda m, a: m.special.softmax(a, 0), [F], {}),
    "special.softmax dtype": (lambda m, a: m.special.softmax(a, 0, m.float64), [I], {}),
    "special.log_softmax": (lambda m, a: m.special.log_softmax(a.reshape(2, 4), 1), [F], {}),
    "special.logsumexp": (lambda m, a: m.special.logsumexp(a.reshape(2, 4), 1, True), [F], {}),
    "special.round": (lambda m, a: m.special.round(a), [F * 2.5], {}),
    "special.round decimals": (
        lambda m, a: m.special.round(a, decimals=1),
        [np.array([1.25, 2.5, -0.35])],
        {},
    ),
    "special.ndtr int": (lambda m, a: m.special.ndtr(a), [np.array([1, 2])], {}),
    "i0": (lambda m, a: m.i0(a), [F], {}),
    "special.multigammaln": (lambda m, a: m.special.multigammaln(a, 3), [np.abs(F) + 1.1], {}),
    "mvlgamma": (lambda m, a: m.mvlgamma(a, 2), [np.abs(F) + 1.1], {}),
    "special.polygamma": (lambda m, a: m.special.polygamma(1, a), [np.abs(F) + 0.5], {"tol": 1e-9}),
    "x.i0_": (lambda m, a: a.clone().i0_(), [F], {}),
    # Tensor methods: windows and writes at indices
    "x.unfold": (lambda m, a: a.unfold(1, 2, 1), [S], {}),
    "x.unfold step": (lambda m, a: a.unfold(0, 2, 2), [S], {}),
    "x.unfold 1-D": (lambda m, a: a.reshape(-1).unfold(0, 5, 3), [S], {}),
    "x.unfold size 0": (lambda m, a: a.unfold(1, 0, 1), [S], {}),
    "x.unfold 0-d": (lambda m, a: a[0, 0].unfold(0, 1, 1), [S], {}),
    "x.unfold twice": (lambda m, a: a.unfold(1, 2, 1).unfold(0, 2, 1), [S], {}),
    "index_put": (
        lambda m, a, v: a.index_put((m.tensor([0, 1]), m.tensor([2, 2])), v),
        [S, P[:2]],
        {},
    ),
    "index_put broadcast": (lambda m, a, v: a.index_put((m.tensor([0, 2]),), v), [S, P], {}),
    "index_put accumulate": (
        lambda m, a, v: a.index_put((m.tensor([0, 0]), m.tensor([1, 1])), v, True),
        [S, P[:2]],
        {},
    ),
    "index_put mask": (
        lambda m, a, v: a.index_put((m.tensor([[True, False], [False, True], [True, True]]),), v),
        [S[:, :2], P[:4]],
        {},
    ),
    "index_put_": (
        lambda m, a, v: (a * 1).index_put_((m.tensor([-1]),), v),
        [S, np.array(5.0)],
        {},
    ),
    "torch.index_put": (lambda m, a, v: m.index_put(a, (m.tensor([1]),), v), [S, P], {}),
    "put": (lambda m, a, s: a.put(m.tensor([0, -1, 4]), s), [S, P[:3]], {}),
    "put accumulate": (lambda m, a, s: a.put(m.tensor([1, 1]), s, accumulate=True), [S, P[:2]], {}),
    "put_": (lambda m, a, s: (a * 1).put_(m.tensor([[1, 7]]), s), [S, P[None, :2]], {}),
    "masked_scatter": (
        lambda m, a, s: a.masked_scatter(m.tensor([[True, False, True]] * 3), s),
        [S[:, :3], np.arange(1.0, 8.0)],
        {},
    ),
    "masked_scatter_": (
        lambda m, a, s: (a * 1).masked_scatter_(m.tensor([True, False, True]), s),
        [S[:, :3], np.arange(1.0, 8.0)],
        {},
    ),
}
X6 = np.array([-1.7, -0.3, 0.0, 0.4, 1.2, 2.5])
for _name, _x in [
    ("expit", X6),
    ("erf", X6),
    ("erfc", X6),
    ("erfinv", P * 2 - 1),
    ("gammaln", np.abs(X6) + 0.1),
    ("digamma", np.abs(X6) + 0.1),
    ("psi", np.abs(X6) + 0.1),
    ("i0", X6),
    ("i1", X6),
    ("ndtr", X6),
    ("ndtri", P),
    ("sinc", X6),
    ("log1p", np.abs(X6)),
    ("expm1", X6),
    ("exp2", X6),
    ("entr", np.array([0.0, 0.3, 1.2, np.nan, -1.0])),
    ("i0e", X6),
    ("i1e", X6),
    ("erfcx", X6),
    ("log_ndtr", np.array([-40.0, -3.0, 0.0, 1.5, 5.0])),
]:
    CASES[f"special.{_name}"] = (lambda m, a, n=_name: getattr(m.special, n)(a), [_x], {})
    CASES[f"special.{_name} float32"] = (
        lambda m, a, n=_name: getattr(m.special, n)(a.float()),
        [_x],
        {"tol": 1e-6},
    )


def _run(lib, fn, arrays, grad: bool):
    xs = [lib.tensor(a, requires_grad=grad and np.asarray(a).dtype.kind == "f") for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(lib, *xs)
    return xs, list(out) if isinstance(out, tuple) else [out]


def _dtype_name(t) -> str:
    return str(t.dtype).split(".")[-1]


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(name):
    torch = pytest.importorskip("torch")
    fn, arrays, opts = CASES[name]
    grad, tol = opts.get("grad", True), opts.get("tol", 1e-12)
    xs_t, outs_t = _run(torch, fn, arrays, grad)
    xs_m, outs_m = _run(mg, fn, arrays, grad)
    assert len(outs_t) == len(outs_m)
    for t, m in zip(outs_t, outs_m):
        assert tuple(t.shape) == tuple(m.shape) and _dtype_name(t) == _dtype_name(m)
        np.testing.assert_allclose(
            m.detach().numpy(), t.detach().numpy(), rtol=tol, atol=tol, equal_nan=True
        )
    if not outs_t[0].requires_grad:
        return
    if opts.get("node", True):
        assert outs_m[0].grad_fn.name() == outs_t[0].grad_fn.name().removeprefix(
            "torch::autograd::"
        )
    if outs_t[0].grad_fn.name().endswith("NotImplemented"):
        return
    weights = [R.normal(size=tuple(t.shape)) for t in outs_t]
    for lib, outs in ((torch, outs_t), (mg, outs_m)):
        total = sum((o * lib.tensor(w)).sum() for o, w in zip(outs, weights) if o.requires_grad)
        total.backward()
    for t, m in zip(xs_t, xs_m):
        if t.requires_grad:
            gtol = 1e-9 if tol < 1e-9 else tol * 10
            np.testing.assert_allclose(m.grad.numpy(), t.grad.numpy(), rtol=gtol, atol=gtol)


# name -> fn(m) that raises in both libraries
ERRORS = {
    "kthvalue k too large": lambda m: m.kthvalue(m.ones(2, 2), 3),
    "mode of an empty dim": lambda m: m.mode(m.ones(2, 0), 1),
    "quantile q out of range": lambda m: m.quantile(m.ones(3), 1.5),
    "quantile q 2-D": lambda m: m.quantile(m.ones(3), m.ones(1, 1)),
    "quantile q dtype": lambda m: m.quantile(m.ones(3), m.ones(1, dtype=m.float64)),
    "quantile of ints": lambda m: m.quantile(m.tensor([1, 2]), 0.5),
    "quantile interpolation": lambda m: m.quantile(m.ones(3), 0.5, interpolation="foo"),
    "quantile empty": lambda m: m.nanquantile(m.ones(0), 0.5),
    "unique_consecutive backward": lambda m: (
        m.unique_consecutive(m.ones(3, requires_grad=True)).sum().backward()
    ),
    "logspace negative steps": lambda m: m.logspace(0, 1, -1),
    "tensordot sizes": lambda m: m.tensordot(m.ones(2, 3), m.ones(2, 3), dims=1),
    "tensordot negative": lambda m: m.tensordot(m.ones(2, 3), m.ones(2, 3), dims=-1),
    "tensordot lengths": lambda m: m.tensordot(m.ones(2, 3), m.ones(2, 3), dims=([0], [0, 1])),
    "diag_embed same dims": lambda m: m.diag_embed(m.ones(2, 3), 0, 1, 1),
    "tensor_split 0 sections": lambda m: m.tensor_split(m.ones(3), 0),
    "tensor_split 2-D indices": lambda m: m.tensor_split(m.ones(3), m.tensor([[1]])),
    "tensor_split float indices": lambda m: m.tensor_split(m.ones(3), m.tensor([1.0])),
    "tensor_split 0-d": lambda m: m.tensor_split(m.tensor(1.0), 2),
    "block_diag 3-D": lambda m: m.block_diag(m.ones(2, 2, 2)),
    "cartesian_prod 2-D": lambda m: m.cartesian_prod(m.ones(2, 2)),
    "combinations negative r": lambda m: m.combinations(m.ones(2), -1),
    "vander 2-D": lambda m: m.vander(m.ones(2, 2)),
    "vander negative N": lambda m: m.vander(m.ones(2), N=-1),
    "cov 3-D": lambda m: m.cov(m.ones(2, 2, 2)),
    "cov float fweights": lambda m: m.cov(m.ones(2, 3), fweights=m.ones(3)),
    "cov negative fweights": lambda m: m.cov(m.ones(2, 3), fweights=m.tensor([1, -2, 1])),
    "cov int aweights": lambda m: m.cov(m.ones(2, 3), aweights=m.tensor([1, 2, 1])),
    "cov fweights numel": lambda m: m.cov(m.ones(2, 3), fweights=m.tensor([1, 2])),
    "trapezoid x length": lambda m: m.trapezoid(m.ones(2, 3), m.ones(2)),
    "renorm 1-D": lambda m: m.renorm(m.ones(2), 2, 0, 1),
    "renorm p <= 0": lambda m: m.renorm(m.ones(2, 2), -1, 0, 1),
    "renorm maxnorm < 0": lambda m: m.renorm(m.ones(2, 2), 2, 0, -1),
    "floor_divide backward": lambda m: (m.ones(2, requires_grad=True) // 2).sum().backward(),
    "int // 0": lambda m: m.tensor([1]) // m.tensor([0]),
    "bool // bool": lambda m: m.tensor([True]) // m.tensor([True]),
    "int //= 2.5": lambda m: m.tensor([5]).__ifloordiv__(2.5),
    "div bad rounding_mode": lambda m: m.div(m.ones(1), 2, rounding_mode="x"),
    "div trunc by integer 0": lambda m: m.div(m.tensor([1]), m.tensor([0]), rounding_mode="trunc"),
    "div floor of bools": lambda m: m.div(
        m.tensor([True]), m.tensor([True]), rounding_mode="floor"
    ),
    "heaviside dtypes": lambda m: m.heaviside(m.tensor([1.0]), m.tensor([1])),
    "heaviside backward": lambda m: (
        m.heaviside(m.ones(2, requires_grad=True), m.ones(1)).sum().backward()
    ),
    "gcd of floats": lambda m: m.gcd(m.ones(1), m.ones(1)),
    "gcd with a number": lambda m: m.gcd(m.tensor([4]), 6),
    "bitwise_and floats": lambda m: m.bitwise_and(m.ones(1), m.ones(1)),
    "float & 1": lambda m: m.ones(1) & 1,
    "bitwise_not float": lambda m: m.bitwise_not(m.ones(1)),
    "~ float": lambda m: ~m.ones(1),
    "ldexp with a number": lambda m: m.ldexp(m.ones(1), 2),
    "frexp of ints": lambda m: m.frexp(m.tensor([1])),
    "nextafter of ints": lambda m: m.nextafter(m.tensor([1]), m.tensor([2])),
    "asarray alias a list": lambda m: m.asarray([1, 2], copy=False),
    "asarray alias another dtype": lambda m: m.asarray(m.ones(2), dtype=m.int64, copy=False),
    "unfold too big": lambda m: m.ones(7).unfold(0, 8, 1),
    "unfold step 0": lambda m: m.ones(7).unfold(0, 3, 0),
    "unfold negative size": lambda m: m.ones(7).unfold(0, -1, 1),
    "index_put out of range": lambda m: m.zeros(3).index_put_((m.tensor([5]),), m.tensor(1.0)),
    "index_put float index": lambda m: m.zeros(3).index_put_((m.tensor([1.0]),), m.tensor(1.0)),
    "index_put shape": lambda m: m.zeros(3).index_put_((m.tensor([1]),), m.tensor([1.0, 2.0])),
    "index_put dtypes": lambda m: m.zeros(3).index_put_(
        (m.tensor([1]),), m.ones(1, dtype=m.float64)
    ),
    "index_put_ on a leaf": lambda m: m.zeros(3, requires_grad=True).index_put_(
        (m.tensor([1]),), m.tensor([1.0])
    ),
    "put out of range": lambda m: m.zeros(2, 3).put_(m.tensor([6]), m.tensor([1.0])),
    "put numel": lambda m: m.zeros(2, 3).put_(m.tensor([1, 2]), m.tensor([1.0])),
    "masked_scatter short source": lambda m: m.zeros(2).masked_scatter(
        m.tensor([True, True]), m.ones(1)
    ),
    "masked_scatter int mask": lambda m: m.zeros(2).masked_scatter(m.tensor([1, 0]), m.ones(2)),
    "apply_ requires grad": lambda m: m.ones(2, requires_grad=True).apply_(lambda v: v),
    "map_ shapes": lambda m: m.tensor([1.0, 2.0]).map_(m.ones(3), lambda a, b: a),
    "special.softmax without dim": lambda m: m.special.softmax(m.ones(1)),
}


# minigrad's in-place cast message names the op and the dtypes as minigrad prints them
SAME_CLASS_ONLY = ("int //= 2.5",)


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    torch = pytest.importorskip("torch")
    caught = []
    for lib in (torch, mg):
        with pytest.raises(Exception) as info:  # noqa: PT011  (compared below)
            ERRORS[name](lib)
        caught.append(info.value)
    theirs, ours = caught
    assert type(ours) is type(theirs)
    if name in SAME_CLASS_ONLY:
        assert "can't be cast to the desired output type" in str(ours)
    elif not isinstance(theirs, TypeError):  # TypeErrors: PyTorch lists its overloads
        assert str(theirs).split("\n")[0][:40] in str(ours)


def _x(*shape, positive=False):
    a = R.uniform(0.5, 2.0, shape) if positive else R.normal(size=shape)
    return mg.tensor(a, requires_grad=True)


GRADCHECKS = {
    "kthvalue": (lambda x: mg.kthvalue(x, 2, 1).values, [mg.tensor(XD, requires_grad=True)]),
    "mode": (lambda x: mg.mode(x, 0).values, [mg.tensor(X, requires_grad=True)]),
    "quantile linear": (lambda x: mg.quantile(x, 0.37, 1), [mg.tensor(XD, requires_grad=True)]),
    "tensordot": (lambda a, b: mg.tensordot(a, b, ([2, 1], [1, 0])), [_x(2, 3, 2), _x(3, 2, 2)]),
    "diag_embed": (lambda a: mg.diag_embed(a, 1, 0, 2), [_x(2, 3)]),
    "block_diag": (lambda a, b: mg.block_diag(a, b), [_x(2), _x(2, 2)]),
    "cartesian_prod": (lambda a, b: mg.cartesian_prod(a, b), [_x(2), _x(3)]),
    "combinations": (lambda a: mg.combinations(a, 2, True), [_x(3)]),
    "vander": (lambda a: mg.vander(a, 4), [_x(3)]),
    "cov weights": (lambda x, w: mg.cov(x, aweights=w), [_x(2, 4), _x(4, positive=True)]),
    "corrcoef": (mg.corrcoef, [_x(3, 4)]),
    "trapezoid x": (lambda y, x: mg.trapezoid(y, x), [_x(2, 4), _x(4)]),
    "cumulative_trapezoid": (lambda y: mg.cumulative_trapezoid(y, dx=0.3, dim=0), [_x(3, 2)]),
    "renorm": (lambda x: mg.renorm(x, 3, 1, 0.8), [_x(2, 3)]),
    "ldexp": (lambda a, b: mg.ldexp(a, b), [_x(3), _x(3)]),
    "frexp": (lambda a: mg.frexp(a).mantissa, [_x(4)]),
    "nextafter": (lambda a, b: mg.nextafter(a, b), [_x(3), _x(3)]),
    "special.entr": (mg.special.entr, [_x(4, positive=True)]),
    "special.i0": (mg.special.i0, [_x(4)]),
    "special.i1": (mg.special.i1, [_x(4)]),
    "special.ndtri": (mg.special.ndtri, [mg.tensor(P, requires_grad=True)]),
    "special.ndtr": (mg.special.ndtr, [_x(4)]),
    "special.i0e": (
        mg.special.i0e,
        [mg.tensor([-1.5, -0.2, 0.0, 0.7, 2.0], dtype=mg.float64, requires_grad=True)],
    ),
    "special.i1e": (
        mg.special.i1e,
        [mg.tensor([-1.5, -0.2, 0.0, 0.7, 2.0], dtype=mg.float64, requires_grad=True)],
    ),
    "special.erfcx": (mg.special.erfcx, [_x(4)]),
    "special.log_ndtr": (mg.special.log_ndtr, [_x(4)]),
    "special.multigammaln": (lambda a: mg.special.multigammaln(a, 3), [_x(4, positive=True) + 1]),
    "unfold": (lambda x: x.unfold(1, 2, 1).unfold(0, 2, 1), [_x(3, 4)]),
    "index_put accumulate": (
        lambda a, v: a.index_put((mg.tensor([0, 0]), mg.tensor([1, 1])), v, True),
        [_x(2, 3), _x(2)],
    ),
    "put": (lambda a, s: a.put(mg.tensor([0, -1, 0]), s, accumulate=True), [_x(2, 2), _x(3)]),
    "masked_scatter": (
        lambda a, s: a.masked_scatter(mg.tensor([True, False, True]), s),
        [_x(2, 3), _x(5)],
    ),
}


@pytest.mark.parametrize("name", list(GRADCHECKS))
def test_gradcheck(name):
    fn, inputs = GRADCHECKS[name]
    assert mg.autograd.gradcheck(fn, inputs)


@pytest.mark.parametrize(
    "name",
    ["special.entr", "special.i0", "special.i1", "special.ndtri", "unfold", "index_put accumulate"],
)
def test_second_derivatives(name):
    fn, inputs = GRADCHECKS[name]
    assert mg.autograd.gradgradcheck(fn, inputs)


def test_against_numpy():
    np.testing.assert_array_equal(mg.tensor([7, -7]).floor_divide(2).numpy(), [3, -4])
    np.testing.assert_array_equal((mg.tensor([6, -3]) & 3).numpy(), np.array([6, -3]) & 3)
    np.testing.assert_array_equal((~mg.tensor([0, 5])).numpy(), ~np.array([0, 5]))
    np.testing.assert_allclose(mg.logspace(0, 2, 3).numpy(), [1, 10, 100])
    np.testing.assert_allclose(mg.cov(mg.tensor(S)).numpy(), np.cov(S))
    np.testing.assert_allclose(mg.corrcoef(mg.tensor(S)).numpy(), np.corrcoef(S))
    np.testing.assert_allclose(mg.trapezoid(mg.tensor(S)).numpy(), np.trapezoid(S))
    np.testing.assert_allclose(mg.quantile(mg.tensor(S), 0.3, 1).numpy(), np.quantile(S, 0.3, 1))
    np.testing.assert_allclose(
        mg.tensordot(mg.tensor(A3), mg.tensor(B3)).numpy(), np.tensordot(A3, B3)
    )
    np.testing.assert_allclose(mg.vander(mg.tensor(P)).numpy(), np.vander(P))
    assert [t.tolist() for t in mg.tensor_split(mg.arange(7), [1, 5, 9])] == [
        [0],
        [1, 2, 3, 4],
        [5, 6],
        [],
    ]


def test_dtype_queries():
    assert mg.promote_types(mg.uint8, mg.int8) is mg.int16
    assert (
        mg.result_type(mg.tensor([1], dtype=mg.int32), mg.tensor(1.0, dtype=mg.float64))
        is mg.float64
    )
    assert mg.can_cast(mg.int64, mg.float16) and not mg.can_cast(mg.float16, mg.int64)
    assert mg.can_cast(mg.bool, mg.uint8) and not mg.can_cast(mg.uint8, mg.bool)


def test_asarray_shares_or_copies():
    a = np.array([1.0, 2.0])
    shared, copied = mg.asarray(a), mg.asarray(a, copy=True)
    a[0] = 9.0
    assert shared.tolist() == [9.0, 2.0] and copied.tolist() == [1.0, 2.0]
    x = mg.ones(2)
    assert mg.asarray(x) is x and mg.asarray(x, copy=True) is not x
    assert mg.asarray(x, dtype=mg.float64).dtype is mg.float64
    leaf = mg.ones(2, requires_grad=True)
    with pytest.warns(UserWarning, match="requires_grad"):
        assert mg.asarray(leaf, dtype=mg.float64).grad_fn.name() == "ToCopyBackward0"
    assert mg.asarray(leaf, dtype=mg.float64, requires_grad=False).grad_fn is None


@pytest.mark.oracle
def test_dtype_queries_match_torch():
    torch = pytest.importorskip("torch")
    names = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
    for a in names:
        for b in names:
            ta, tb, ma, mb = (getattr(lib, n) for lib in (torch, mg) for n in (a, b))
            assert (
                str(mg.promote_types(ma, mb)).split(".")[-1]
                == str(torch.promote_types(ta, tb)).split(".")[-1]
            )
            assert mg.can_cast(ma, mb) == torch.can_cast(ta, tb), (a, b)
    for f in (
        lambda m: m.result_type(m.tensor([1]), 2.5),
        lambda m: m.result_type(2, 3.0),
        lambda m: m.result_type(m.tensor([1], dtype=m.uint8), -1),
        lambda m: m.result_type(True, m.tensor([1], dtype=m.int8)),
    ):
        assert str(f(mg)).split(".")[-1] == str(f(torch)).split(".")[-1]


@pytest.mark.oracle
@pytest.mark.parametrize("args", [(10,), (3, 10), (-5, 10), (0, 2**40)])
@pytest.mark.parametrize("dtype", ["float32", "int32", "float64", "int64"])
def test_randint_like_draws_torchs_numbers(args, dtype):
    torch = pytest.importorskip("torch")
    if args[-1] > 2**24 and dtype in ("float32", "int32"):
        pytest.skip("PyTorch warns or refuses: the range does not fit the dtype")
    torch.manual_seed(7)
    theirs = torch.randint_like(torch.zeros(2, 3, dtype=getattr(torch, dtype)), *args)
    mg.manual_seed(7)
    ours = mg.randint_like(mg.zeros(2, 3, dtype=getattr(mg, dtype)), *args)
    assert _dtype_name(ours) == _dtype_name(theirs)
    np.testing.assert_array_equal(ours.numpy(), theirs.numpy())
    gen_t, gen_m = torch.Generator().manual_seed(5), mg.Generator().manual_seed(5)
    np.testing.assert_array_equal(
        mg.randint_like(mg.zeros(7), 4, 9, generator=gen_m).numpy(),
        torch.randint_like(torch.zeros(7), 4, 9, generator=gen_t).numpy(),
    )


@pytest.mark.oracle
def test_return_types_print_as_torchs():
    torch = pytest.importorskip("torch")
    for fn in (
        lambda m: m.kthvalue(m.tensor([3.0, 1.0]), 1),
        lambda m: m.mode(m.tensor([2, 2, 1])),
        lambda m: m.frexp(m.tensor([8.0])),
    ):
        assert repr(fn(mg)).replace("minigrad", "torch") == repr(fn(torch))


# --- testing.assert_close ---------------------------------------------------------------------
NAN, INF = float("nan"), float("inf")
ASSERT_CLOSE = {
    "one mismatch": lambda m, ac: ac(m.tensor([1.0, 2.0, 3.0]), m.tensor([1.0, 2.5, 3.0])),
    "2-D": lambda m, ac: ac(m.tensor([[1.0, 2.0], [3.0, 4.0]]), m.tensor([[1.0, 2.5], [3.1, 4.0]])),
    "ints": lambda m, ac: ac(m.tensor([1, 2, 3]), m.tensor([1, 3, 3])),
    "uint8": lambda m, ac: ac(m.tensor([1, 2], dtype=m.uint8), m.tensor([2, 1], dtype=m.uint8)),
    "bools": lambda m, ac: ac(m.tensor([True]), m.tensor([False])),
    "0-d": lambda m, ac: ac(m.tensor(1.0), m.tensor(1.5)),
    "floats": lambda m, ac: ac(1.0, 1.5),
    "ints as numbers": lambda m, ac: ac(1, 2),
    "int and float": lambda m, ac: ac(1, 1.0),
    "int and float unchecked": lambda m, ac: ac(1, 1.0, check_dtype=False),
    "Python bools": lambda m, ac: ac(True, False),
    "shapes": lambda m, ac: ac(m.ones(2), m.ones(3)),
    "dtypes": lambda m, ac: ac(m.ones(2), m.ones(2, dtype=m.float64)),
    "dtypes unchecked": lambda m, ac: ac(m.ones(2), m.ones(2, dtype=m.float64), check_dtype=False),
    "float16 tolerance": lambda m, ac: ac(
        m.ones(2, dtype=m.float16), m.ones(2) + 1e-4, check_dtype=False
    ),
    "int32 and float": lambda m, ac: ac(
        m.ones(2, dtype=m.int32), m.tensor([1.0, 1.5]), check_dtype=False
    ),
    "float64 default": lambda m, ac: ac(
        m.tensor([1.0, 2.0], dtype=m.float64), m.tensor([1.0, 2.0 + 1e-6], dtype=m.float64)
    ),
    "NaN": lambda m, ac: ac(m.tensor([NAN]), m.tensor([NAN])),
    "NaN equal_nan": lambda m, ac: ac(m.tensor([NAN]), m.tensor([NAN]), equal_nan=True),
    "NaN among mismatches": lambda m, ac: ac(
        m.tensor([[1.0, NAN], [3.0, 4.0]]), m.tensor([[1.0, 2.0], [3.5, 4.0]])
    ),
    "NaN numbers": lambda m, ac: ac(NAN, NAN),
    "infinities": lambda m, ac: ac(m.tensor([INF]), m.tensor([INF])),
    "opposite infinities": lambda m, ac: ac(m.tensor([INF]), m.tensor([-INF])),
    "zero expected": lambda m, ac: ac(m.tensor([0.0, 2.0]), m.tensor([1e-3, 2.0])),
    "rtol alone": lambda m, ac: ac(m.ones(2), m.ones(2), rtol=1e-3),
    "atol alone": lambda m, ac: ac(m.ones(2), m.ones(2), atol=1e-3),
    "explicit tolerances": lambda m, ac: ac(m.tensor([1, 2]), m.tensor([1, 3]), rtol=0.1, atol=0.5),
    "within tolerance": lambda m, ac: ac(m.tensor([1.0, 2.0]), m.tensor([1.0, 2.0 + 1e-6])),
    "requires grad": lambda m, ac: ac(
        m.tensor([1.0, 2.0], requires_grad=True), m.tensor([1.0, 2.0])
    ),
    "msg": lambda m, ac: ac(m.tensor([1.0, 2.0]), m.tensor([1.0, 2.1]), msg="custom"),
    "msg callable": lambda m, ac: ac(m.tensor([1.0]), m.tensor([2.5]), msg=lambda s: "X" + s),
    "list": lambda m, ac: ac([1.0, 2.0], [1.0, 2.5]),
    "nested list": lambda m, ac: ac([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 5.0]]),
    "list of tensors": lambda m, ac: ac([m.ones(2), m.ones(2)], [m.ones(2), m.zeros(2)]),
    "dict": lambda m, ac: ac({"a": m.ones(2)}, {"a": m.zeros(2)}),
    "dict keys": lambda m, ac: ac({"a": 1.0}, {"b": 1.0}),
    "list and tuple": lambda m, ac: ac([1.0, 2.0], (1.0, 2.0)),
    "lengths": lambda m, ac: ac([1.0, 2.0], [1.0, 2.0, 3.0]),
    "tensor and list": lambda m, ac: ac(m.ones(2), [1.0, 1.0]),
    "tensor and number": lambda m, ac: ac(m.tensor([1.0]), 1.0),
    "strings": lambda m, ac: ac("a", "a"),
    "numpy arrays": lambda m, ac: ac(np.ones(2), np.zeros(2)),
    "empty": lambda m, ac: ac(m.ones(0), m.ones(0)),
    "strides": lambda m, ac: ac(m.ones(4)[::2], m.ones(2), check_stride=True),
}


def _outcome(lib, assert_close, fn):
    try:
        fn(lib, assert_close)
    except Exception as error:  # noqa: BLE001  (compared below)
        text = str(error).replace("torch.", "minigrad.")
        return type(error), text.replace(
            "<class 'minigrad.Tensor'>", "<class 'minigrad.tensor.Tensor'>"
        )
    return None


@pytest.mark.oracle
@pytest.mark.parametrize("name", list(ASSERT_CLOSE))
def test_assert_close_matches_torch(name):
    torch = pytest.importorskip("torch")
    theirs = _outcome(torch, torch.testing.assert_close, ASSERT_CLOSE[name])
    ours = _outcome(mg, mg.testing.assert_close, ASSERT_CLOSE[name])
    assert ours == theirs


def test_assert_close_message():
    with pytest.raises(AssertionError) as info:
        mg.testing.assert_close(
            mg.tensor([[1.0, 2.0], [3.0, 4.0]]), mg.tensor([[1.0, 2.5], [3.1, 4.0]])
        )
    assert str(info.value) == (
        "Tensor-likes are not close!\n\nMismatched elements: 2 / 4 (50.0%)\n"
        "Greatest absolute difference: 0.5 at index (0, 1) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (0, 1) (up to 1.3e-06 allowed)"
    )
    mg.testing.assert_close(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0 + 1e-6]))
    with pytest.raises(AssertionError, match=r"item \['a'\]\[1\]"):
        mg.testing.assert_close({"a": [1, 2]}, {"a": [1, 3]})


def test_apply_and_map_write_in_place():
    z = mg.tensor([1.0, 2.0])
    version = z._version
    assert z.apply_(lambda v: v * 10) is z and z.tolist() == [10.0, 20.0]
    assert z.map_(mg.tensor([1.0, 1.0]), lambda a, b: a + b).tolist() == [11.0, 21.0]
    assert z._version > version
    assert mg.tensor([1, 2]).apply_(lambda v: v * 2.7).tolist() == [2, 5]


def test_unfold_is_a_view():
    x = mg.arange(7.0)
    windows = x.unfold(0, 3, 2)
    x[2] = 100.0
    assert windows[1, 0].item() == 100.0 and windows[0, 2].item() == 100.0
