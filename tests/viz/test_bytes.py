"""Every byte figure viz shows is the tensor's real ``nbytes``: checked against numpy for every
dtype and layout, and against ``mg.sparse.memory_report`` (issue 9: a (3, 8) float32 gradient
was shown as 192 B, counted at 8 bytes an entry; it is 96 B)."""

import numpy as np
import pytest

import minigrad as mg
import viz
from minigrad import trace
from viz._model import fmt_bytes, tensor_nbytes
from viz._stepper_frames import grad_info

DTYPES = [mg.float16, mg.float32, mg.float64]
LAYOUTS = ["strided", "sparse_coo", "sparse_csr", "sparse_csc"]


def _make(layout, dtype):
    """A (3, 8) tensor with 5 stored entries, in ``layout``."""
    a = np.zeros((3, 8))
    a[0, 1], a[0, 5], a[1, 2], a[2, 0], a[2, 7] = 1.0, -2.0, 3.0, 4.0, 0.5
    t = mg.tensor(a, dtype=dtype)
    return {
        "strided": lambda: t,
        "sparse_coo": t.to_sparse,
        "sparse_csr": t.to_sparse_csr,
        "sparse_csc": t.to_sparse_csc,
    }[layout]()


def _numpy_bytes(t) -> int:
    """What the arrays behind ``t`` take, from numpy and the public accessors alone."""
    parts = {
        "strided": lambda: [t.numpy()],
        "sparse_coo": lambda: [t.indices().numpy(), t.values().numpy()],
        "sparse_csr": lambda: [
            t.crow_indices().numpy(),
            t.col_indices().numpy(),
            t.values().numpy(),
        ],
        "sparse_csc": lambda: [
            t.ccol_indices().numpy(),
            t.row_indices().numpy(),
            t.values().numpy(),
        ],
    }[t.layout]()
    return sum(int(np.prod(p.shape)) * p.dtype.itemsize for p in parts)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_bytes_are_the_tensors_own_for_every_dtype_and_layout(dtype, layout):
    t = _make(layout, dtype)
    expected = _numpy_bytes(t)
    if layout == "strided":
        assert expected == 3 * 8 * np.dtype(dtype.name).itemsize  # 96 B for float32
    assert tensor_nbytes(t) == expected
    assert grad_info(t).nbytes == expected  # the stepper's panel


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: d.name)
def test_drawing_of_a_leaf_gradient_shows_its_bytes(dtype, layout):
    leaf = mg.zeros(3, 8, dtype=dtype, requires_grad=True)
    leaf.name = "w"
    loss = (leaf * 2).sum()
    loss.backward()
    leaf.grad = _make(layout, dtype)
    source = viz.draw_graph(loss).source
    line = next(line for line in source.splitlines() if line.startswith("  n3 "))
    assert f" {fmt_bytes(_numpy_bytes(leaf.grad))}" in line


def test_panel_and_memory_report_agree_on_a_float32_gradient():
    """The (3, 8) float32 case of the issue: 96 B in the panel, the drawing and the report."""
    w = mg.randn(3, 8, requires_grad=True)
    w.name = "w"
    loss = (w * w).sum()
    s = viz.BackwardStepper(loss)
    leaf = s.steps[-1]
    assert leaf.accumulation[2].nbytes == 96
    assert "(3, 8), 96 B" in s.frame_html(s.num_steps)
    report = mg.sparse.memory_report((w * w).sum())
    assert [b for *_, b, _ in report.leaf_grads] == [96]
    loss.backward()
    assert "96 B" in viz.draw_graph(loss).source


def test_sparse_gradient_bytes_agree_with_memory_report():
    mg.manual_seed(0)
    emb = mg.nn.Embedding(50, 4, sparse=True)
    loss = emb(mg.tensor([1, 3, 1, 7])).sum()
    report = mg.sparse.memory_report(emb(mg.tensor([1, 3, 1, 7])).sum())
    s = viz.BackwardStepper(loss)
    after = s.steps[-1].accumulation[2]
    assert [b for *_, b, _ in report.leaf_grads] == [after.nbytes]
    assert after.nbytes == 4 * (8 + 4 * 4)  # 4 stored rows: an int64 index + 4 float32 values
    assert max(f.live_bytes for f in s.steps) == report.peak_grad_bytes
    steps = list(trace.backward_steps(loss, store={}))  # memory_report already filled .grad
    assert max(b for _, b in viz.plots.live_gradient_bytes(steps)) == report.peak_grad_bytes


@pytest.mark.parametrize(
    "n, text",
    [(0, "0 B"), (96, "96 B"), (999, "999 B"), (1_081_344, "1.1 MB"), (256e6, "256.0 MB")],
)
def test_byte_format_matches_memory_report_units(n, text):
    assert fmt_bytes(n) == text


@pytest.mark.parametrize("layout", LAYOUTS)
def test_trace_storage_is_what_the_tensor_stores(layout):
    """viz's door to the array or sparse format (``t.data`` is a Tensor, as in PyTorch)."""
    t = _make(layout, mg.float32)
    stored = trace.storage(t)
    assert stored is t._data and stored.nbytes == _numpy_bytes(t)
    assert isinstance(stored, np.ndarray) == (layout == "strided")
    if layout != "strided":
        assert stored.nnz == t.nnz == 5 and stored.dense_nbytes == 3 * 8 * 4
    with pytest.raises(TypeError, match="storage\\(t\\): t must be a Tensor, got numpy.ndarray"):
        trace.storage(np.zeros(3))
