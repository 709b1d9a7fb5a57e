"""The op table against PyTorch: the torch column.

Every row of ``op_table_rows.py`` runs in float64 through minigrad and through PyTorch (the
same ``fn`` with ``m = torch``, or the row's ``torch_fn``); forward values and dtypes,
gradients and, where the row supports it, second derivatives must agree. The dtype table
is compared too. Needs torch (``make oracle``); skipped without it.
"""

from __future__ import annotations

import numpy as np
import pytest
from op_table_rows import DTYPE_CASES, ROWS, cases

import minigrad as mg

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.oracle,
    # var over an empty dim (output of size 0): torch warns about the degrees of freedom
    pytest.mark.filterwarnings(r"ignore:var\(\). degrees of freedom:UserWarning"),
]

CASES = cases(ROWS)
GG_CASES = cases([r for r in ROWS if r.gradgrad])
RTOL, ATOL = 1e-10, 1e-12


class Side:
    """One library's run of a case: leaves, float outputs, and how to take gradients."""

    def __init__(self, lib, fn, arrays):
        self.lib = lib
        if lib is torch:
            self.xs = [torch.tensor(a, requires_grad=True) for a in arrays]
        else:
            self.xs = [mg.tensor(a, requires_grad=True) for a in arrays]
        out = fn(lib, *self.xs)
        self.outs = list(out) if isinstance(out, tuple) else [out]

    def numpy(self, t):
        # force=True: torch may hand back a ZeroTensor (e.g. abs's second derivative)
        return t.detach().numpy(force=True) if self.lib is torch else t.detach().numpy()

    def grads(self, output, wrt, create_graph=False):
        """d output / d wrt, zeros for unused inputs (None means nothing to differentiate)."""
        if not output.requires_grad:
            return [self.lib.zeros_like(x) for x in wrt]
        gs = self.lib.autograd.grad(output, wrt, create_graph=create_graph, allow_unused=True)
        return [self.lib.zeros_like(x) if g is None else g for g, x in zip(gs, wrt)]

    def weighted(self, tensors, weights):
        """sum_i (t_i * w_i).sum() over the floating tensors, as a tensor of this library."""
        total = self.lib.zeros((), dtype=self.lib.float64)
        with np.errstate(invalid="ignore"):  # logsumexp over an empty dim: -inf*w + inf*w
            for t, w in zip(tensors, weights):
                if t.is_floating_point():
                    total = total + (t * self.lib.tensor(w)).sum()
        return total


def run_both(row, shapes):
    arrays = row.sample(shapes)
    ours = Side(mg, row.fn, arrays)
    theirs = Side(torch, row.torch_fn or row.fn, arrays)
    return ours, theirs


def assert_close(ours, theirs, a, b, what, rtol=RTOL):
    a, b = ours.numpy(a), theirs.numpy(b)
    assert a.shape == b.shape, f"{what}: shape {a.shape}, torch {b.shape}"
    np.testing.assert_allclose(a, b, rtol=rtol, atol=ATOL, err_msg=what)


def torch_dtype_name(t):
    return str(t.dtype).removeprefix("torch.")


@pytest.mark.parametrize(("row", "shapes"), CASES)
def test_forward_and_gradient_match_torch(row, shapes):
    ours, theirs = run_both(row, shapes)
    assert len(ours.outs) == len(theirs.outs)
    for i, (a, b) in enumerate(zip(ours.outs, theirs.outs)):
        assert a.dtype.name == torch_dtype_name(b), f"output {i} dtype"
        assert_close(ours, theirs, a, b, f"output {i}", row.oracle_rtol)
    rng = np.random.default_rng(0)
    weights = [rng.standard_normal(b.shape) for b in theirs.outs]
    ga = ours.grads(ours.weighted(ours.outs, weights), ours.xs)
    gb = theirs.grads(theirs.weighted(theirs.outs, weights), theirs.xs)
    for i, (a, b) in enumerate(zip(ga, gb)):
        assert_close(ours, theirs, a, b, f"gradient of input {i}", row.oracle_rtol)


@pytest.mark.parametrize(("row", "shapes"), GG_CASES)
def test_second_derivative_matches_torch(row, shapes):
    ours, theirs = run_both(row, shapes)
    rng = np.random.default_rng(1)
    weights = [rng.standard_normal(b.shape) for b in theirs.outs]
    vs = [rng.standard_normal(x.shape) for x in theirs.xs]
    results = []
    for side in (ours, theirs):
        gs = side.grads(side.weighted(side.outs, weights), side.xs, create_graph=True)
        results.append(side.grads(side.weighted(gs, vs), side.xs))
    for i, (a, b) in enumerate(zip(*results)):
        assert_close(ours, theirs, a, b, f"second derivative, input {i}", row.oracle_rtol)


@pytest.mark.parametrize(
    ("build", "want"), [c[1:] for c in DTYPE_CASES], ids=[c[0] for c in DTYPE_CASES]
)
def test_result_dtype_matches_torch(build, want):
    assert build(mg).dtype.name == torch_dtype_name(build(torch)) == want


@pytest.mark.parametrize(
    "values",
    [[1.0, 3.0, 3.0], [[2.0, 2.0], [2.0, 1.0]], [0.0, 0.0, 0.0], [-1.0, 0.0, 1.0]],
)
@pytest.mark.parametrize(
    "fn",
    [
        lambda x: x.max(),
        lambda x: x.min(),
        lambda x: x.amax(dim=-1),
        lambda x: x.max(dim=-1).values,
        lambda x: x.relu(),
        lambda x: x.abs(),
        lambda x: x.clamp(-1.0, 0.0),
        lambda x: x.clamp(min=0.0),
        lambda x: x.sign(),
    ],
)
def test_kinks_and_ties_match_torch(fn, values):
    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)
    t = torch.tensor(values, dtype=torch.float64, requires_grad=True)
    fn(x).sum().backward()
    fn(t).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), t.grad.numpy())


ACTIVATION_KINKS = [  # (name, fn(m, x)): the same line under minigrad and torch
    ("leaky_relu", lambda m, x: m.nn.functional.leaky_relu(x)),
    ("leaky_relu(0.2)", lambda m, x: m.nn.functional.leaky_relu(x, 0.2)),
    ("leaky_relu(-0.5)", lambda m, x: m.nn.functional.leaky_relu(x, -0.5)),
    ("relu6", lambda m, x: m.nn.functional.relu6(x)),
    ("hardtanh", lambda m, x: m.nn.functional.hardtanh(x)),
    ("hardtanh(-1, 6)", lambda m, x: m.nn.functional.hardtanh(x, -1.0, 6.0)),
    ("hardtanh(1, 1)", lambda m, x: m.nn.functional.hardtanh(x, 1.0, 1.0)),
    ("elu(alpha=2)", lambda m, x: m.nn.functional.elu(x, alpha=2.0)),
    ("softplus (threshold 20 at x=20)", lambda m, x: m.nn.functional.softplus(x)),
    ("softplus(2, 12) (at x=6)", lambda m, x: m.nn.functional.softplus(x, 2.0, 12.0)),
    ("softplus(0.5, 3) (at x=6)", lambda m, x: m.nn.functional.softplus(x, 0.5, 3.0)),
    ("silu", lambda m, x: m.nn.functional.silu(x)),
    ("gelu", lambda m, x: m.nn.functional.gelu(x)),
    ("gelu tanh", lambda m, x: m.nn.functional.gelu(x, approximate="tanh")),
    ("logsigmoid", lambda m, x: m.nn.functional.logsigmoid(x)),
    ("softsign", lambda m, x: m.nn.functional.softsign(x)),
]


@pytest.mark.parametrize(
    "fn", [f for _, f in ACTIVATION_KINKS], ids=[n for n, _ in ACTIVATION_KINKS]
)
def test_activation_kinks_match_torch(fn):
    """Values, gradients and second derivatives exactly at the kinks (0, the hardtanh and
    relu6 bounds, softplus's threshold), where the op table's domains never go."""
    values = [-6.0, -1.0, 0.0, 1.0, 6.0, 10.0, 20.0]
    results = []
    for lib in (mg, torch):
        x = lib.tensor(values, dtype=lib.float64, requires_grad=True)
        y = fn(lib, x)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        (gg,) = lib.autograd.grad(g.sum(), x, allow_unused=True)
        gg = lib.zeros_like(x) if gg is None else gg
        results.append([t.detach().numpy() for t in (y, g, gg)])
    for what, a, b in zip(("value", "gradient", "second derivative"), *results):
        np.testing.assert_allclose(a, b, rtol=1e-13, atol=1e-14, err_msg=what)


@pytest.mark.parametrize(
    ("base", "exponent"),
    [([0.0, 0.0, 0.0, 2.0], [0.0, 2.0, -1.0, 0.0]), ([0.0, 1.0], [0.5, -0.5])],
)
def test_pow_edges_match_torch(base, exponent):
    grads = []
    for lib, data in ((mg, lambda t: t.detach().numpy()), (torch, lambda t: t.numpy())):
        x = lib.tensor(base, dtype=lib.float64, requires_grad=True)
        y = lib.tensor(exponent, dtype=lib.float64, requires_grad=True)
        with np.errstate(all="ignore"):
            ((x**y).sum() + (0.0**x).sum()).backward()
        grads.append((data(x.grad), data(y.grad)))
    for a, b in zip(*grads):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "fn",
    [lambda m, a, b: a @ b, lambda m, a, b: m.matmul(a, b), lambda m, a, b: m.mm(a, b)],
    ids=["@", "matmul", "mm"],
)
def test_mixed_dtype_matrix_products_are_refused_by_both(fn):
    a32, b64 = np.ones((2, 3), np.float32), np.ones((3, 2), np.float64)
    with pytest.raises(RuntimeError, match="same dtype"):
        fn(torch, torch.tensor(a32), torch.tensor(b64))
    with pytest.raises(RuntimeError, match="same dtype"):
        fn(mg, mg.tensor(a32), mg.tensor(b64))
