"""The engine's guard: a sparse gradient that reaches a backward formula with no sparse form is
densified through the policy (rule ``no_sparse_formula``, an event naming the node); the formulas
declared in ``minigrad/sparse/formulas.py`` take it and keep it sparse, as PyTorch does."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
import viz
from minigrad.accumulation.accumulate import DensificationError
from minigrad.sparse.formulas import SPARSE_FORMULAS, takes_sparse

IDX = [[2], [1], [2]]


def _lookup(make, shape, sparse=True, lib=mg):
    """``embedding(IDX, make(lib, w), sparse).sum()`` for a leaf ``w`` of ``shape``, in minigrad
    or in PyTorch (``lib``): (w, loss)."""
    data = np.random.default_rng(0).standard_normal(shape)
    w = lib.tensor(data, requires_grad=True)
    lookup = F.embedding if lib is mg else lib.nn.functional.embedding
    return w, (lookup(lib.tensor(IDX), make(lib, w), sparse=sparse) * 1.5).sum()


# name, shape of w, the weight made from w (the same code in minigrad and PyTorch), the node
# whose formula densifies (None: the gradient stays sparse all the way to w.grad)
CASES = [
    ("plus_number", (4, 3), lambda lib, w: w + 0.0, None),
    ("plus_tensor", (4, 3), lambda lib, w: w + lib.ones(4, 3, dtype=lib.float64), None),
    ("minus_from_tensor", (4, 3), lambda lib, w: lib.ones(4, 3, dtype=lib.float64) - w, None),
    ("neg", (4, 3), lambda lib, w: -w, None),
    ("clone", (4, 3), lambda lib, w: w.clone(), None),
    ("cast", (4, 3), lambda lib, w: w.float(), None),
    ("squeeze", (4, 1, 3), lambda lib, w: w.squeeze(1), None),
    ("view_keeping_rows", (4, 1, 3), lambda lib, w: w.view(4, 3), None),
    ("times_number", (4, 3), lambda lib, w: w * 2.0, None),
    ("elementwise_op", (4, 3), lambda lib, w: w.sin(), None),
    (
        "times_tensor",
        (4, 3),
        lambda lib, w: w * lib.full((4, 3), 2.0, dtype=lib.float64),
        None,
    ),
    ("broadcast_plus", (4, 3), lambda lib, w: w + lib.ones(3, dtype=lib.float64), "AddBackward0"),
    ("transpose_of_rows", (3, 4), lambda lib, w: w.t(), "TBackward0"),
    ("contiguous_transpose", (3, 4), lambda lib, w: w.t().contiguous(), "TBackward0"),
    ("slice", (5, 3), lambda lib, w: w[1:], "SliceBackward0"),
    ("reshape_across_rows", (12,), lambda lib, w: w.reshape(4, 3), "ViewBackward0"),
]
# Where minigrad's layout differs from PyTorch's on purpose: PyTorch keeps the broadcast sum
# sparse, minigrad densifies it with an event (no sparse formula declared); PyTorch refuses a
# view of a sparse gradient, minigrad reshapes its dense dims.
LAYOUT_DIFFERS = {"broadcast_plus", "view_keeping_rows"}
DENSIFIES = lambda lib, w: w + lib.ones(3, dtype=lib.float64)  # noqa: E731  (AddBackward0)


@pytest.mark.parametrize("name, shape, make, densified_at", CASES, ids=[c[0] for c in CASES])
def test_a_sparse_gradient_stays_sparse_or_is_densified_by_the_formula_that_needs_it(
    name, shape, make, densified_at
):
    w, loss = _lookup(make, shape)
    steps = list(mg.trace.backward_steps(loss))
    events = [(s.node.name(), e) for s in steps for e in s.events]
    dense_w, dense_loss = _lookup(make, shape, sparse=False)
    dense_loss.backward()
    if densified_at is None:
        assert events == [] and w.grad.layout == "sparse_coo"
        np.testing.assert_allclose(w.grad.to_dense().numpy(), dense_w.grad.numpy())
        return
    assert [(node, e.rule, e.caused_by) for node, e in events] == [
        (densified_at, "no_sparse_formula", densified_at)
    ]
    message = events[0][1].message
    assert f"no sparse formula for {densified_at}" in message
    assert message.startswith(f"the gradient flowing into {densified_at}: a sparse gradient")
    assert w.grad.layout == "strided"
    np.testing.assert_allclose(w.grad.numpy(), dense_w.grad.numpy())


def test_on_densify_error_stops_the_guard():
    w, loss = _lookup(DENSIFIES, (4, 3))
    with mg.sparse.config(on_densify="error"):
        with pytest.raises(DensificationError, match="no sparse formula for AddBackward0"):
            loss.backward()
    assert w.grad is None


def test_on_densify_warn_names_the_node():
    w, loss = _lookup(lambda lib, w: w[1:], (5, 3))
    with mg.sparse.config(on_densify="warn"):
        with pytest.warns(
            mg.sparse.DensificationWarning, match="no sparse formula for SliceBackward0"
        ):
            loss.backward()
    assert w.grad.layout == "strided"


def test_by_default_the_guard_is_recorded_not_announced():
    """Like dense_met_sparse, the guard densifies where PyTorch densifies or refuses: under the
    default policy it is an event on the step, not a warning."""
    import warnings

    w, loss = _lookup(DENSIFIES, (4, 3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loss.backward()
    assert w.grad.layout == "strided"


def test_the_stepper_shows_the_guard_as_a_densification_step():
    _, loss = _lookup(DENSIFIES, (4, 3))
    stepper = viz.BackwardStepper(loss)
    hits = [f for f in stepper.steps if f.events]
    assert [f.node_name for f in hits] == ["AddBackward0"]
    assert repr(hits[0]).endswith("densified: no_sparse_formula (96 B -> 96 B)>")
    html = stepper.frame_html(hits[0].step)
    assert "⚠ densified: no_sparse_formula" in html and "no sparse formula for AddBackward0" in html


def test_a_2d_transpose_of_a_sparse_matrix_gradient_stays_sparse():
    """gather(sparse_grad=True) of a 2-D tensor gives a COO with 2 sparse dims: the transpose's
    formula swaps its index rows (PyTorch: the same)."""
    w = mg.tensor(np.arange(12.0).reshape(3, 4), requires_grad=True)
    index = mg.tensor([[0], [1], [2], [0]])
    steps = list(mg.trace.backward_steps(mg.gather(w.t(), 1, index, sparse_grad=True).sum()))
    assert [e for s in steps for e in s.events] == []
    assert w.grad.layout == "sparse_coo" and w.grad.sparse_dim() == 2
    expected = np.zeros((3, 4))
    expected[[0, 1, 2, 0], [0, 1, 2, 3]] = 1.0
    np.testing.assert_array_equal(w.grad.to_dense().numpy(), expected)


def test_a_hook_that_returns_a_sparse_gradient_meets_the_guard_too():
    w = mg.tensor(np.ones((4, 3)), requires_grad=True)
    h = w + mg.ones(3, dtype=mg.float64)
    sparse = mg.sparse_coo_tensor([[1]], np.full((1, 3), 2.0), (4, 3))
    h.register_hook(lambda g: sparse)
    steps = list(mg.trace.backward_steps(h.sum()))
    assert [(s.node.name(), e.rule) for s in steps for e in s.events] == [
        ("AddBackward0", "no_sparse_formula")
    ]
    np.testing.assert_array_equal(w.grad.numpy(), np.outer([0, 1, 0, 0], [2.0, 2.0, 2.0]))


def test_a_custom_function_gets_the_sparse_gradient_as_it_is():
    """As in PyTorch, a Function's backward is the user's: nothing densifies before it."""
    seen = []

    class Twice(mg.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            seen.append(g.layout)
            return g * 2.0

    w = mg.tensor(np.ones((4, 3)), requires_grad=True)
    F.embedding(mg.tensor([1]), Twice.apply(w), sparse=True).sum().backward()
    assert seen == ["sparse_coo"] and w.grad.layout == "sparse_coo"
    np.testing.assert_array_equal(w.grad.to_dense().numpy()[1], [2.0, 2.0, 2.0])


def test_the_declaration_is_read_for_the_exact_node_class():
    """SparseSumFull (Tensor.sum's full gradient) subclasses SparseSum but is not declared."""
    from minigrad.sparse.ops_values import SparseSum, SparseSumFull

    assert SparseSum in SPARSE_FORMULAS and SparseSumFull not in SPARSE_FORMULAS
    s = mg.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (3, 2), requires_grad=True)
    g = mg.sparse_coo_tensor([[0, 1]], [1.0, 1.0], (3,))
    assert takes_sparse(s.sum(1).grad_fn, g) is False
    assert takes_sparse(mg.sparse.sum(s, 1).grad_fn, g) is True  # its output is sparse
    assert takes_sparse(mg.sparse.sum(s).grad_fn, g) is False  # a dense (0-d) output


@pytest.mark.oracle
@pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled")
@pytest.mark.parametrize("name, shape, make, densified_at", CASES, ids=[c[0] for c in CASES])
def test_against_pytorch(name, shape, make, densified_at):
    """Where PyTorch runs the program: the same values, and its layout unless listed in
    LAYOUT_DIFFERS. Where it refuses (a RuntimeError naming the sparse layout), minigrad's
    result is the dense program's (checked above)."""
    torch = pytest.importorskip("torch")
    w, loss = _lookup(make, shape)
    loss.backward()
    tw, tloss = _lookup(make, shape, lib=torch)
    try:
        tloss.backward()
    except RuntimeError as e:  # NotImplementedError included
        assert name in {
            "view_keeping_rows",
            "transpose_of_rows",
            "contiguous_transpose",
            "slice",
            "reshape_across_rows",
            "cast",
        }, e
        return
    theirs = tw.grad.to_dense() if tw.grad.is_sparse else tw.grad
    ours = w.grad.to_dense() if w.grad.layout != "strided" else w.grad
    np.testing.assert_allclose(ours.numpy(), theirs.numpy())
    if name not in LAYOUT_DIFFERS:
        assert (w.grad.layout == "sparse_coo") == tw.grad.is_sparse
