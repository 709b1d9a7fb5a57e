"""Second order through sparse gradients: under ``create_graph=True`` every sum that involves a
sparse gradient (sparse + sparse, sparse + dense, dense + sparse) and every densification is a
recorded op, so second derivatives equal the dense program's (and PyTorch's); where a second
derivative through a sparse op is not implemented, differentiating it raises."""

import numpy as np
import pytest

import minigrad as mg

pytestmark = pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled")

IDX = [[2], [1]]


def _second_order(lib, program, w_data):
    """``g = d program(w) / dw`` with create_graph, then ``(g*g).sum() + g.sin().sum()``
    backward: (g as dense numbers, w.grad as dense numbers)."""
    w = lib.tensor(w_data, requires_grad=True)
    (g,) = lib.autograd.grad(program(lib, w), [w], create_graph=True)
    gd = _as_dense(g)
    ((gd * gd).sum() + gd.sin().sum()).backward()
    return gd.detach().numpy(), _as_dense(w.grad).detach().numpy()


def _as_dense(t):
    """``t``, densified if sparse (minigrad's layout "strided", PyTorch's torch.strided)."""
    return t if "strided" in str(t.layout) else t.to_dense()


def _embedding(lib, idx, w, sparse):
    return lib.nn.functional.embedding(lib.tensor(idx), w, sparse=sparse)


# --- the issue's program ------------------------------------------------------------------------
def issue_program(sparse):
    def program(lib, w):
        h = _embedding(lib, IDX, w, sparse)
        return (h * w).sum()

    return program


W = np.arange(12.0).reshape(4, 3) / 10
PYTORCH_NUMBERS = np.array(  # torch 2.13, sparse=True and sparse=False alike (issue 25)
    [
        [8.99185562, 11.22504139, 14.14813423],
        [22.82693099, 27.75727463, 34.03126526],
        [22.82693099, 27.75727463, 34.03126526],
        [8.99185562, 11.22504139, 14.14813423],
    ]
)


def test_the_issues_program_keeps_the_sparse_path():
    g_sparse, second_sparse = _second_order(mg, issue_program(True), W)
    g_dense, second_dense = _second_order(mg, issue_program(False), W)
    np.testing.assert_allclose(g_sparse, g_dense, rtol=1e-12)
    np.testing.assert_allclose(second_sparse, second_dense, rtol=1e-12)
    np.testing.assert_allclose(second_sparse, PYTORCH_NUMBERS, rtol=1e-7)


def test_the_sum_of_a_sparse_and_a_dense_gradient_is_recorded():
    w = mg.tensor(W, requires_grad=True)
    (g,) = mg.autograd.grad(issue_program(True)(mg, w), [w], create_graph=True)
    assert g.layout == "strided" and g.requires_grad
    names, stack = set(), [g.grad_fn]
    while stack:
        node = stack.pop()
        names.add(node.name())
        stack.extend(n for n, _ in node.next_functions if n is not None and n.name() not in names)
    assert {"AddBackward0", "ToDenseBackward0", "ScatterAddBackward0"} <= names


# name, program (the same code in minigrad and PyTorch, given sparse=True/False)
def _two_lookups(sparse):  # sparse + sparse: concatenated, then densified by g * g
    return lambda lib, w: (
        (_embedding(lib, IDX, w, sparse) ** 2).sum()
        + (_embedding(lib, [[0], [2]], w, sparse) * w[:1]).sum()
    )


def _dense_first(sparse):  # the dense gradient reaches w first, the sparse one after
    return lambda lib, w: (w * w).sum() + (_embedding(lib, IDX, w.tanh(), sparse) ** 3).sum()


def _through_a_formula(sparse):  # the sparse gradient meets MulBackward0: densified, recorded
    return lambda lib, w: (_embedding(lib, IDX, w * w, sparse) * 1.5).sin().sum()


def _kept_sparse(sparse):  # sparse through w + 0.0 and w.clone(): it stays sparse to the end
    return lambda lib, w: (_embedding(lib, IDX, (w + 0.0).clone(), sparse) ** 2).sum()


PROGRAMS = [
    ("sparse_plus_sparse", _two_lookups),
    ("dense_plus_sparse", _dense_first),
    ("through_a_dense_formula", _through_a_formula),
    ("kept_sparse", _kept_sparse),
    ("issue", issue_program),
]


@pytest.mark.parametrize("name, make", PROGRAMS, ids=[p[0] for p in PROGRAMS])
def test_second_derivatives_equal_the_dense_programs(name, make):
    g_sparse, second_sparse = _second_order(mg, make(True), W)
    g_dense, second_dense = _second_order(mg, make(False), W)
    np.testing.assert_allclose(g_sparse, g_dense, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(second_sparse, second_dense, rtol=1e-10, atol=1e-12)


def test_a_sparse_first_derivative_stays_sparse_and_differentiable():
    w = mg.tensor(W, requires_grad=True)
    (g,) = mg.autograd.grad(_kept_sparse(True)(mg, w), [w], create_graph=True)
    assert g.layout == "sparse_coo" and g.requires_grad and g.nnz == 2


def test_backward_with_create_graph_leaves_a_differentiable_sparse_grad():
    results = []
    for sparse in (True, False):
        w = mg.tensor(W, requires_grad=True)
        _two_lookups(sparse)(mg, w).backward(create_graph=True)
        g = w.grad.to_dense() if sparse else w.grad
        assert w.grad.requires_grad
        w.grad = None
        (g**2).sum().backward()
        results.append(w.grad.numpy())
    np.testing.assert_allclose(*results, rtol=1e-12)


# --- sparse.mm / addmm over to_sparse() -------------------------------------------------------
MASK = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=np.float64)


def _masked_product(kind, sparse):
    def program(lib, w):
        a = w * lib.tensor(MASK)  # zeros that stay zeros: to_sparse() keeps a fixed pattern
        b = (w.t() @ w).tanh()  # (3, 3), dense, depends on w
        if not sparse:
            out = a @ b if kind == "mm" else (w @ w.t()) * 0.5 + 2.0 * (a @ b[:, :1]).expand(4, 4)
        elif kind == "mm":
            out = lib.sparse.mm(a.to_sparse(), b)
        else:
            out = lib.sparse.addmm(
                w @ w.t(), a.to_sparse(), b[:, :1].expand(3, 4), beta=0.5, alpha=2.0
            )
        return out.sin().sum()

    return program


W_NONZERO = (np.arange(12.0).reshape(4, 3) - 5.5) / 10  # no zero where MASK keeps an entry


@pytest.mark.parametrize("kind", ["mm", "addmm"])
def test_masked_products_differentiate_twice_like_the_dense_program(kind):
    g_sparse, second_sparse = _second_order(mg, _masked_product(kind, True), W_NONZERO)
    g_dense, second_dense = _second_order(mg, _masked_product(kind, False), W_NONZERO)
    np.testing.assert_allclose(g_sparse, g_dense, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(second_sparse, second_dense, rtol=1e-9, atol=1e-10)


# --- each op on the way, by central differences -------------------------------------------------
_M = mg.tensor(MASK)
_ROWS = mg.tensor([[2], [1], [2]])
OPS = [
    (
        "embedding",
        lambda w: (mg.nn.functional.embedding(_ROWS, w, sparse=True) * w[:3].unsqueeze(1)).sin(),
    ),
    (
        "embedding_of_a_product",
        lambda w: mg.nn.functional.embedding(_ROWS, w * w, sparse=True).tanh(),
    ),
    ("sparse_mm", lambda w: mg.sparse.mm((w * _M).to_sparse(), (w.t() @ w).tanh())),
    ("sparse_mm_csr", lambda w: mg.sparse.mm((w * _M).to_sparse(layout="sparse_csr"), w.t() @ w)),
    (
        "sparse_addmm",
        lambda w: mg.sparse.addmm(w @ w.t(), (w * _M).to_sparse(), w.t(), beta=0.5, alpha=1.5),
    ),
    ("values", lambda w: (w * _M).to_sparse().coalesce().values() ** 3),
    (
        "sparse_sum_of_a_dim",
        lambda w: mg.sparse.sum((w * _M).to_sparse() * (w * _M), 1).to_dense() ** 2,
    ),
    ("sparse_times_dense", lambda w: ((w * _M).to_sparse() * w.sin()).to_dense() ** 2),
    ("sparse_times_broadcast", lambda w: ((w * _M).to_sparse() * w[0].sin()).to_dense() ** 2),
    ("to_dense_full", lambda w: ((w * _M).to_sparse().to_dense(masked_grad=False) * w) ** 2),
    ("sparse_transpose", lambda w: ((w * _M).to_sparse().t().to_dense() @ w) ** 2),
    ("sparse_clone", lambda w: ((w * _M).to_sparse().clone().to_dense() * w) ** 2),
    (
        "gather_sparse_grad",
        lambda w: mg.gather(w * w, 1, mg.tensor([[0], [1], [2], [0]]), sparse_grad=True) ** 2,
    ),
]


@pytest.mark.parametrize("name, f", OPS, ids=[o[0] for o in OPS])
def test_second_derivatives_through_each_op_by_central_differences(name, f):
    w = mg.tensor(W_NONZERO, requires_grad=True)
    assert mg.autograd.gradcheck(f, (w,))
    assert mg.autograd.gradgradcheck(f, (w,))


# --- where there is no second derivative, differentiating says so ------------------------------
def test_no_silent_none_through_an_op_without_double_backward():
    q = mg.tensor(np.arange(6.0).reshape(3, 2) / 10, requires_grad=True)
    pattern = mg.sparse_coo_tensor(
        [[0, 1, 2], [1, 2, 0]], [1.0, 1.0, 1.0], (3, 3), dtype=mg.float64
    )
    scores = mg.sparse.sampled_addmm(pattern, q, q.t())
    (g,) = mg.autograd.grad(
        mg.sparse.softmax(scores, 1).to_dense().sin().sum(), [q], create_graph=True
    )
    with pytest.raises(RuntimeError, match="not implemented"):
        mg.autograd.grad(g.sum(), [q])


# --- PyTorch --------------------------------------------------------------------------------------
ORACLE = PROGRAMS + [
    ("mm", lambda sparse: _masked_product("mm", sparse)),
    ("addmm", lambda sparse: _masked_product("addmm", sparse)),
]
# PyTorch has no sparse formula for tanh's backward ("Could not run 'aten::tanh_backward' with
# arguments from the 'SparseCPU' backend"): minigrad densifies there and gives the dense
# program's numbers (test_second_derivatives_equal_the_dense_programs).
PYTORCH_REFUSES = {"dense_plus_sparse"}


@pytest.mark.oracle
@pytest.mark.parametrize("name, make", ORACLE, ids=[p[0] for p in ORACLE])
def test_second_derivatives_against_pytorch(name, make):
    torch = pytest.importorskip("torch")
    data = W_NONZERO if name in ("mm", "addmm") else W
    if name in PYTORCH_REFUSES:
        with pytest.raises(NotImplementedError, match="SparseCPU"):
            _second_order(torch, make(True), data)
        return
    ours = _second_order(mg, make(True), data)
    theirs = _second_order(torch, make(True), data)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-9, atol=1e-10)
