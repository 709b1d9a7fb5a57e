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
    """(row, col) pairs spy drew: the stored cells of its image (one cell per matrix entry
    here), or its markers when it drew markers."""
    if ax.images:
        (image,) = ax.images
        rows, cols = np.nonzero(np.asarray(image.get_array()))
        return set(zip(rows.tolist(), cols.tolist()))
    (line,) = ax.lines
    return set(zip(np.asarray(line.get_ydata()).tolist(), np.asarray(line.get_xdata()).tolist()))


def _axes_of(width_px: int, height_px: int):
    """Axes exactly ``width_px`` x ``height_px`` pixels (a 100-dpi figure of twice the size)."""
    fig = plt.figure(figsize=(2 * width_px / 100, 2 * height_px / 100), dpi=100)
    return fig.add_axes((0.25, 0.25, 0.5, 0.5))


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
    ax = plots.spy(g, ax=_axes_of(100, 2000))  # 2 px per row: one cell per entry
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


def test_spy_draws_a_pattern_too_fine_for_the_axes_in_blocks_shaded_by_the_share_stored():
    d = np.zeros((1000, 1000), dtype=np.float32)
    d[::2, :] = 1.0  # 500,000 entries: every block of 10 x 10 stores half of its entries
    ax = plots.spy(mg.tensor(d), ax=_axes_of(200, 200))  # 2 px per block: 100 x 100 blocks
    assert len(ax.lines) == 0
    (image,) = ax.images
    grid = np.asarray(image.get_array())
    assert grid.shape == (100, 100)
    assert np.allclose(grid, 0.5, atol=1 / 255)  # 127 or 128 of 255 grey levels
    assert grid.mean() == pytest.approx(0.5, abs=1 / 255 / 100)  # mean shade = density
    assert "(grey: share stored in blocks of 10 x 10)" in ax.get_title()
    again = plots.spy(mg.tensor(d), ax=_axes_of(200, 200))
    assert np.array_equal(np.asarray(again.images[0].get_array()), grid)


def test_spy_draws_one_cell_per_entry_when_the_axes_have_room():
    ax = plots.spy(mg.tensor(np.eye(50, dtype=np.float32)), ax=_axes_of(100, 100))
    grid = np.asarray(ax.images[0].get_array())
    assert np.array_equal(grid, np.eye(50)) and "blocks" not in ax.get_title()


def test_spy_max_points_caps_the_image():
    d = np.zeros((400, 400), dtype=np.float32)
    d[:200, :200] = 1.0  # the top-left quarter only
    ax = plots.spy(mg.tensor(d), ax=_axes_of(400, 400), max_points=100)  # room for 200 x 200
    grid = np.asarray(ax.images[0].get_array())
    assert grid.shape == (10, 10)
    assert (grid[:5, :5] == 1).all() and not grid[5:, :].any() and not grid[:, 5:].any()


def test_spy_blocks_of_unequal_size_keep_the_ink_of_each_row_of_blocks():
    rows, cols = np.array([0, 0, 6, 6, 3]), np.array([0, 1, 9, 10, 5])
    image = plots._shares(rows, cols, 7, 11, (4, 4))  # blocks of 1-2 rows and 2-3 columns
    row_cells = np.bincount(np.arange(7) * 4 // 7)
    col_cells = np.bincount(np.arange(11) * 4 // 11)
    exact = np.zeros((4, 4))
    np.add.at(exact, (rows * 4 // 7, cols * 4 // 11), 1.0)
    exact /= np.outer(row_cells, col_cells)
    assert np.allclose(image * 255, np.round(image * 255))  # whole grey levels
    assert np.allclose(image.sum(axis=1), exact.sum(axis=1), atol=0.5 / 255)  # ink kept
    assert np.abs(image - exact).max() <= 1 / 255


def test_grey_levels_keep_faint_rows_instead_of_whitening_them():
    faint = np.full((3, 600), 1 / 740)  # one entry in a block of 740: under half a level
    levels = plots._to_grey_levels(faint)
    assert np.round(faint * 255).sum() == 0  # rounding each block alone: all white
    assert levels.sum(axis=1) == pytest.approx(faint.sum(axis=1), abs=0.5 / 255)
    assert set(np.round(levels.ravel() * 255)) == {0.0, 1.0}


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
    assert ax.get_yscale() == "linear" and ax.get_ylim()[0] == 0  # bars compare as bytes do
    assert ax.get_ylim()[1] > max(dense_bars)
    labels = [t.get_text() for t in ax.texts]
    assert labels[0] == f"sparse_coo\nsaves {1 - g._data.nbytes / 32000:.1%}"
    assert labels[2] == "strided\nsaves 0.0%"
    assert labels[3:] == ["160 B", "64 B", "48 B", "32.0 KB", "80 B", "48 B"]  # on the bars
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


def test_bytes_comparison_key_is_outside_the_frame():
    """Inside the frame the key covered the first pair's "saves" label (nb09, nb10)."""
    ax = plots.bytes_comparison({"emb": _embedding_grad(), "dense": mg.ones(3, 4)})
    ax.figure.canvas.draw()
    key = ax.get_legend().get_window_extent()
    assert key.x0 >= ax.get_window_extent().x1


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


# --- spy: ink follows density ------------------------------------------------------------------
INK_FACTOR = 1.25  # the rendered ink is within this factor of the density (measured: 0.99-1.03)


def _random_pattern(nrows, ncols, density, seed=0):
    """A COO of ``nrows x ncols`` with about ``density`` of its entries stored, more of them in
    the first rows and columns (hubs), as in notebook 09's graphs and ratings."""
    rng = np.random.default_rng(seed)
    nnz = int(density * nrows * ncols)
    rows = (nrows * rng.power(0.5, nnz)).astype(int)  # power law: many small indices
    cols = rng.integers(0, ncols, nnz)
    return mg.sparse_coo_tensor(np.stack([rows, cols]), np.ones(nnz, np.float32), (nrows, ncols))


def _ink(ax) -> float:
    """The ink of what is drawn inside ``ax`` (Agg, the figure's dpi): the mean darkness (0
    white, 1 black) of the pixels inside its frame, the frame itself hidden. For black on white
    this is the share of non-white pixels; a grey pixel counts by its darkness."""
    for spine in ax.spines.values():
        spine.set_visible(False)
    fig = ax.figure
    fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(float) / 255
    box, height = ax.get_window_extent(), img.shape[0]
    top, bottom = height - int(round(box.y1)), height - int(round(box.y0))
    left, right = int(round(box.x0)), int(round(box.x1))
    return float(np.mean(1.0 - img[top:bottom, left:right].mean(axis=2)))


def _density(t) -> float:
    return t.coalesce().nnz / t.numel()


@pytest.mark.parametrize(
    "shape, density",
    [((34, 34), 0.13), ((1000, 1000), 0.006), ((2000, 10_000), 0.0016)],
    ids=["karate-sized 13%", "graph 0.6%", "ratings 0.16%"],
)
def test_spy_ink_is_the_density(shape, density):
    """The default drawing inks the axes in proportion to the matrix's density (issue 24: the
    notebook's markers inked 22 % for matrices 0.60 % and 0.16 % dense)."""
    t = _random_pattern(*shape, density)
    fig, ax = plt.subplots(figsize=(4.5, 4), dpi=100)
    plots.spy(t, ax=ax)
    ink, want = _ink(ax), _density(t)
    assert want / INK_FACTOR <= ink <= want * INK_FACTOR, (ink, want)


def test_spy_ink_measure_sees_markers_that_overstate_the_density():
    """The measure above can fail: markers one point wide, as notebook 09 drew them, ink a
    0.6 %-dense 1000 x 1000 matrix many times over."""
    t = _random_pattern(1000, 1000, 0.006)
    fig, ax = plt.subplots(figsize=(4.5, 4), dpi=100)
    plots.spy(t, ax=ax, markersize=1.0)
    assert _ink(ax) > 5 * _density(t)
