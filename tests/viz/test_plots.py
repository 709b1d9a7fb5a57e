"""viz plots: spy, memory_timeline, bytes_comparison (checked on the data actually drawn)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import minigrad as mg  # noqa: E402
import viz.plots as plots  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _points(ax):
    """(row, col) pairs of the spy scatter, as a set."""
    (line,) = ax.lines
    return set(zip(np.asarray(line.get_ydata()).tolist(), np.asarray(line.get_xdata()).tolist()))


def _embedding_grad():
    mg.manual_seed(0)
    emb = mg.nn.Embedding(1000, 8, sparse=True)
    emb(mg.tensor([3, 7, 7, 999])).sum().backward()
    return emb.weight.grad


def _tied(sparse=True):
    """Weight tying: the embedding table also feeds a dense matmul, so its gradient densifies."""
    mg.manual_seed(0)
    emb = mg.nn.Embedding(50, 4, sparse=sparse)
    h = emb(mg.tensor([1, 5, 5]))
    x = mg.randn(3, 4)
    return emb, h.sum() + (x @ emb.weight.T).sum()


# --- spy ------------------------------------------------------------------------------------
def test_spy_dense_matrix_draws_its_nonzeros():
    t = mg.tensor([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0]])
    ax = plots.spy(t)
    assert _points(ax) == {(0, 1), (1, 0), (1, 2)}
    assert ax.get_title() == "strided (2, 3): nnz=3, density 50.00%"
    assert ax.get_ylim() == (1.5, -0.5)  # row 0 on top


def test_spy_coo_with_duplicates_draws_each_position_once():
    a = mg.sparse_coo_tensor([[0, 2, 0], [1, 3, 1]], [1.0, 2.0, 5.0], (4, 5))
    ax = plots.spy(a)
    assert _points(ax) == {(0, 1), (2, 3)}
    assert ax.get_title() == "sparse_coo (4, 5): nnz=3, density 15.00%"


def test_spy_csr_matches_its_coo():
    a = mg.sparse_coo_tensor([[0, 3, 1], [4, 0, 2]], [1.0, 2.0, 3.0], (4, 5))
    ax = plots.spy(a.to_sparse_csr())
    assert _points(ax) == {(0, 4), (3, 0), (1, 2)}
    assert ax.get_title().startswith("sparse_csr (4, 5): nnz=3")


def test_spy_row_sparse_embedding_grad_shows_whole_rows():
    g = _embedding_grad()
    ax = plots.spy(g)
    assert _points(ax) == {(r, c) for r in (3, 7, 999) for c in range(8)}
    assert ax.get_title() == f"sparse_coo (1000, 8): nnz={g.nnz}, density {g._data.density:.2%}"
    assert ax.get_xlim() == (-0.5, 7.5) and ax.get_ylim() == (999.5, -0.5)


def test_spy_flattens_trailing_dims():
    d = np.zeros((2, 3, 4), dtype=np.float32)
    d[1, 2, 3] = 1.0
    d[0, 1, 0] = 1.0
    ax = plots.spy(mg.tensor(d))
    assert _points(ax) == {(1, 2 * 4 + 3), (0, 1 * 4 + 0)}
    s = mg.sparse_coo_tensor([[1], [2]], [[5.0, 0.0, 6.0, 0.0]], (2, 3, 4))  # 2 sparse + 1 dense
    assert _points(plots.spy(s)) == {(1, 8), (1, 9), (1, 10), (1, 11)}


def test_spy_downsamples_large_patterns_deterministically():
    d = np.zeros((1000, 1000), dtype=np.float32)
    d[::2, :] = 1.0  # 500,000 entries
    d[999, 999] = 1.0
    ax = plots.spy(mg.tensor(d), max_points=10_000)
    assert len(ax.lines) == 0
    (image,) = ax.images
    grid = np.asarray(image.get_array())
    assert grid.shape == (100, 100)
    assert grid.all()  # every 10x10 block holds a nonzero row
    assert "downsampled to 100x100" in ax.get_title()
    again = plots.spy(mg.tensor(d), max_points=10_000)
    assert np.array_equal(np.asarray(again.images[0].get_array()), grid)


def test_spy_downsampled_image_is_empty_where_the_matrix_is():
    d = np.zeros((400, 400), dtype=np.float32)
    d[:200, :200] = 1.0  # the top-left quarter only
    grid = np.asarray(plots.spy(mg.tensor(d), max_points=100).images[0].get_array())
    assert grid.shape == (10, 10)
    assert grid[:5, :5].all() and not grid[5:, :].any() and not grid[:, 5:].any()


def test_spy_honours_ax_and_markersize():
    fig, ax = plt.subplots()
    out = plots.spy(mg.eye(3), ax=ax, markersize=2.5)
    assert out is ax and ax.figure is fig
    assert ax.lines[0].get_markersize() == 2.5


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (mg.tensor([1.0, 2.0]), r"at least 2 dims.*got a tensor of shape \(2,\)"),
        (mg.tensor(3.0), r"at least 2 dims.*got a tensor of shape \(\)"),
        (np.eye(3), r"minigrad tensor.*got a ndarray.*mg.tensor\(array\)"),
        (None, r"backward\(\)"),
    ],
)
def test_spy_rejects_what_it_cannot_draw(bad, message):
    with pytest.raises(ValueError, match=message):
        plots.spy(bad)


# --- memory timeline ----------------------------------------------------------------------------
def _expected_series(steps):
    """Independent bookkeeping: per step, bytes of leaf grads so far + grads sent, not yet run."""
    out, pending, leaf_bytes = [], [], {}
    for step in steps:
        pending = [(dst, b) for dst, b in pending if dst is not step.node]
        for (dst, _), g in zip(step.node.next_functions, step.grad_inputs):
            if dst is not None and g is not None:
                pending.append((dst, g._data.nbytes))
        if step.accumulation is not None:
            leaf_bytes[step.accumulation.tensor.shape] = step.accumulation.after._data.nbytes
        out.append((step.index + 1, sum(leaf_bytes.values()) + sum(b for _, b in pending)))
    return out


def test_memory_timeline_dense_series():
    x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    steps = list(mg.trace.backward_steps((x * x).sum()))
    ax = plots.memory_timeline(steps)
    # Sum sends 12 bytes to Mul; Mul sends 12 + 12 to x; x's AccumulateGrad holds 12.
    assert ax.minigrad_series == [(1, 12), (2, 24), (3, 12)]  # steps numbered from 1
    (line,) = ax.lines
    assert list(line.get_xdata()) == [1, 2, 3] and list(line.get_ydata()) == [12, 24, 12]
    assert ax.minigrad_events == []


def test_memory_timeline_sparse_embedding_matches_independent_count_and_report():
    mg.manual_seed(0)
    emb = mg.nn.Embedding(1000, 8, sparse=True)
    loss = emb(mg.tensor([3, 7, 7, 999])).sum()
    steps = list(mg.trace.backward_steps(loss, retain_graph=True))
    ax = plots.memory_timeline(steps)
    assert ax.minigrad_series == _expected_series(steps)
    assert ax.minigrad_series[-1] == (len(steps), emb.weight.grad._data.nbytes)
    assert emb.weight.grad._data.nbytes == 4 * (8 + 8 * 4)  # 4 stored rows, far below 32000
    emb.weight.grad = None
    peak = mg.sparse.memory_report(loss).peak_grad_bytes
    assert max(b for _, b in ax.minigrad_series) == peak


def test_memory_timeline_marks_densification_of_tied_weights():
    emb, loss = _tied()
    steps = list(mg.trace.backward_steps(loss))
    event_steps = [s.index + 1 for s in steps if s.events]
    assert len(event_steps) == 1
    ax = plots.memory_timeline(steps)
    assert ax.minigrad_series == _expected_series(steps)
    assert [(i, e.rule) for i, e in ax.minigrad_events] == [(event_steps[0], "dense_met_sparse")]
    markers = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert [tuple(m.get_xdata()) for m in markers] == [(event_steps[0], event_steps[0])]
    assert any(t.get_text().startswith("densified (dense_met_sparse)") for t in ax.texts)
    assert ax.minigrad_series[-1][1] == emb.weight.grad._data.nbytes == 50 * 4 * 4  # now dense


def test_memory_timeline_from_a_loss_leaves_user_grads_alone():
    emb, loss = _tied()
    ax = plots.memory_timeline(loss)
    assert emb.weight.grad is None  # private accumulators
    steps = list(mg.trace.backward_steps(loss))  # graph retained: backward still works
    assert ax.minigrad_series == _expected_series(steps)
    assert len(ax.minigrad_events) == 1
    assert [t.get_text() for t in ax.get_xticklabels()][0] == steps[0].node.name()


def test_memory_timeline_honours_ax_and_rejects_bad_input():
    fig, ax = plt.subplots()
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    assert plots.memory_timeline((x * 2).sum(), ax=ax) is ax
    with pytest.raises(TypeError, match=r"list of trace Step records.*list of 2 items \(int\)"):
        plots.memory_timeline([1, 2])
    with pytest.raises(TypeError, match="got a list of 0 items"):
        plots.memory_timeline([])


# --- bytes comparison -----------------------------------------------------------------------------
def _bar_heights(ax):
    stored, dense = ax.containers
    return [p.get_height() for p in stored], [p.get_height() for p in dense]


def test_bytes_comparison_of_sparse_and_dense_tensors():
    g = _embedding_grad()
    a = mg.sparse_coo_tensor([[0, 2], [1, 3]], [1.0, 2.0], (4, 5))
    dense = mg.ones(3, 4)
    ax = plots.bytes_comparison([g, a.to_sparse_csr(), dense])
    stored, dense_bars = _bar_heights(ax)
    assert stored == [g._data.nbytes, (4 + 1) * 8 + 2 * (8 + 4), 48]
    assert dense_bars == [1000 * 8 * 4, 4 * 5 * 4, 48]
    assert ax.get_yscale() == "log"
    assert ax.get_ylim()[0] < min(stored)  # the smallest bar is visible on the log axis
    labels = [t.get_text() for t in ax.texts]
    assert labels[0] == f"sparse_coo\nsaves {1 - g._data.nbytes / 32000:.1%}"
    assert labels[2] == "strided\nsaves 0.0%"
    rate = 1 - (stored[0] + stored[1]) / (dense_bars[0] + dense_bars[1])
    assert ax.get_title() == f"sparse gradients vs dense: saving {rate:.1%}"


def test_bytes_comparison_of_a_memory_report_uses_its_sparse_grads():
    mg.manual_seed(0)
    emb = mg.nn.Embedding(1000, 8, sparse=True)
    lin = mg.randn(8, 2, requires_grad=True)
    report = mg.sparse.memory_report((emb(mg.tensor([1, 2, 1])) @ lin).sum())
    ax = plots.bytes_comparison(report)
    stored, dense = _bar_heights(ax)
    assert stored == [report.sparse_bytes] and dense == [report.dense_equivalent_bytes]
    assert ax.get_title() == f"sparse gradients vs dense: saving {report.saving_rate:.1%}"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["leaf [1000, 8]"]


def test_bytes_comparison_dict_labels_and_ax():
    fig, ax = plt.subplots()
    out = plots.bytes_comparison({"emb": _embedding_grad()}, ax=ax)
    assert out is ax and [t.get_text() for t in ax.get_xticklabels()] == ["emb"]


def test_bytes_comparison_rejects_bad_input():
    with pytest.raises(TypeError, match="list \\(or dict\\) of minigrad tensors"):
        plots.bytes_comparison([np.zeros(3)])
    x = mg.randn(3, requires_grad=True)
    with pytest.raises(ValueError, match="no sparse gradients"):
        plots.bytes_comparison(mg.sparse.memory_report((x * x).sum()))
