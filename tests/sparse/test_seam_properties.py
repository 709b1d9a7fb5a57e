"""Random small programs through the seam: embedding(sparse=True), sparse.mm and sparse.addmm over
``to_sparse()``, and dense ops, mixed; their first and second derivatives equal those of the
same program written densely (embedding(sparse=False), a masked dense product)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
import minigrad.nn.functional as F

MASK = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 1]], dtype=np.float64)

# Dense ops applied to the weight w (4, 3) before it meets a sparse op; some have a sparse
# formula (the gradient stays sparse through them), some do not (it is densified, recorded).
TRANSFORMS = [
    lambda w: w,
    lambda w: w + 0.0,
    lambda w: w.clone(),
    lambda w: -w,
    lambda w: w * 1.5,
    lambda w: w * w,
    lambda w: w.sin(),
    lambda w: (w + 0.5).tanh(),
]
transform = st.integers(0, len(TRANSFORMS) - 1)


@st.composite
def terms(draw):
    """One scalar term of the loss: (kind, transforms, rows or layout, weights)."""
    kind = draw(st.sampled_from(["embed", "mm", "addmm", "dense"]))
    t = (draw(transform), draw(transform), draw(transform))
    if kind == "embed":
        extra = (draw(st.lists(st.integers(0, 3), min_size=1, max_size=5)), draw(st.integers(0, 2)))
    elif kind in ("mm", "addmm"):
        extra = (
            draw(st.sampled_from(["sparse_coo", "sparse_csr"])),
            draw(st.sampled_from([0.5, 1.0])),
        )
    else:
        extra = ()
    return kind, t, extra


def term_value(term, w, sparse):
    kind, (i, j, k), extra = term
    t1, t2, t3 = TRANSFORMS[i](w), TRANSFORMS[j](w), TRANSFORMS[k](w)
    if kind == "embed":
        rows, reducer = extra
        h = F.embedding(mg.tensor(rows), t1, sparse=sparse)
        return [(h * t2.sum(0)).sum(), (h**2).sum(), h.tanh().sum()][reducer]
    if kind == "dense":
        return t1.cos().sum() + (t2 * t3).sum()
    layout, scale = extra
    a = t1 * mg.tensor(MASK)
    if kind == "mm":
        out = mg.sparse.mm(a.to_sparse(layout=layout), t2.t()) if sparse else a @ t2.t()
    elif sparse:
        out = mg.sparse.addmm(
            t3 @ t3.t(), a.to_sparse(layout=layout), t2.t(), beta=scale, alpha=2.0
        )
    else:
        out = scale * (t3 @ t3.t()) + 2.0 * (a @ t2.t())
    return out.sin().sum()


def _dense(t):
    return t.to_dense() if t.layout != "strided" else t


def derivatives(program, data, sparse):
    """(first derivative, second derivative of (g*g).sum() + g.sin().sum()) as numpy arrays."""
    w = mg.tensor(data, requires_grad=True)
    loss = sum(term_value(term, w, sparse) for term in program)
    (g,) = mg.autograd.grad(loss, [w], create_graph=True)
    g = _dense(g)
    ((g * g).sum() + g.sin().sum()).backward()
    return g.detach().numpy(), _dense(w.grad).numpy()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=60, deadline=None)
@given(st.lists(terms(), min_size=1, max_size=4), st.integers(0, 2**16))
def test_random_programs_through_the_seam_differentiate_like_their_dense_form(program, seed):
    rng = np.random.default_rng(seed)
    data = rng.uniform(0.2, 1.0, (4, 3)) * rng.choice([-1.0, 1.0], (4, 3))  # never 0
    g_sparse, second_sparse = derivatives(program, data, sparse=True)
    g_dense, second_dense = derivatives(program, data, sparse=False)
    np.testing.assert_allclose(g_sparse, g_dense, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(second_sparse, second_dense, rtol=1e-8, atol=1e-10)


@settings(max_examples=40, deadline=None)
@given(st.lists(terms(), min_size=1, max_size=4), st.integers(0, 2**16))
def test_random_programs_first_order_backward_like_their_dense_form(program, seed):
    rng = np.random.default_rng(seed)
    data = rng.uniform(0.2, 1.0, (4, 3)) * rng.choice([-1.0, 1.0], (4, 3))
    grads = []
    for sparse in (True, False):
        w = mg.tensor(data, requires_grad=True)
        sum(term_value(term, w, sparse) for term in program).backward()
        grads.append(_dense(w.grad).numpy())
    np.testing.assert_allclose(*grads, rtol=1e-9, atol=1e-11)
