"""Embedding, EmbeddingBag, index_select and gather: forward against dense equivalents
(one_hot @ W), the structure of their sparse gradients, padding, bags, gradient checks,
densification by weight tying, and nnz = 0."""

import warnings

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

RNG = np.random.default_rng(3)


def table(n=10, d=3, dtype=np.float64):
    return mg.tensor(RNG.standard_normal((n, d)).astype(dtype), requires_grad=True)


def one_hot(ids, n):
    ids = np.asarray(ids, dtype=np.int64)
    out = np.zeros(ids.shape + (n,))
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out


def upstream(shape):
    return mg.tensor(RNG.standard_normal(shape))


def dense_grad(g):
    return g.coalesce().to_dense().detach().numpy() if g.layout != "strided" else g.detach().numpy()


# --- embedding: forward and gradient against one_hot @ W --------------------------------------


@pytest.mark.parametrize("ids", [[1, 2, 1, 7], [[1, 2], [1, 7], [0, 9]], [[[3]], [[3]]], 4, []])
@pytest.mark.parametrize("sparse", [False, True])
def test_embedding_is_one_hot_times_weight(ids, sparse):
    W = table()
    idx = mg.tensor(ids, dtype=mg.int64)
    out = F.embedding(idx, W, sparse=sparse)
    expected = one_hot(ids, 10) @ W.detach().numpy()
    assert out.shape == expected.shape
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    g = upstream(out.shape)
    with mg.sparse.config(densify="never"):
        out.backward(g)
    assert (W.grad.layout != "strided") == sparse
    flat = one_hot(ids, 10).reshape(-1, 10)
    np.testing.assert_allclose(
        dense_grad(W.grad), flat.T @ g.detach().numpy().reshape(-1, 3), atol=1e-12
    )


def test_sparse_gradient_lists_every_lookup_uncoalesced():
    """SPARSE_SEMANTICS: rows [1, 2, 1, 7] give nnz 4 uncoalesced, nnz 3 coalesced."""
    emb = mg.nn.Embedding(10, 3, sparse=True)
    g = upstream((4, 3)).float()
    emb(mg.tensor([1, 2, 1, 7])).backward(g)
    grad = emb.weight.grad
    assert grad.layout == "sparse_coo" and grad.is_sparse
    assert grad.sparse_dim() == 1 and grad.dense_dim() == 1
    assert grad._indices().shape == (1, 4) and grad._values().shape == (4, 3)
    assert grad.nnz == 4 and not grad.is_coalesced()
    np.testing.assert_array_equal(grad._indices().detach().numpy(), [[1, 2, 1, 7]])
    np.testing.assert_array_equal(grad._values().detach().numpy(), g.detach().numpy())
    c = grad.coalesce()
    assert c.nnz == 3 and c.is_coalesced()
    np.testing.assert_array_equal(c.indices().detach().numpy(), [[1, 2, 7]])
    np.testing.assert_allclose(
        c.values().detach().numpy()[0], g.detach().numpy()[0] + g.detach().numpy()[2]
    )


def test_sparse_gradient_costs_indices_plus_rows():
    emb = mg.nn.Embedding(1000, 16, sparse=True)
    emb(mg.tensor([5, 9, 5])).sum().backward()
    assert emb.weight.grad._data.nbytes == 3 * 8 + 3 * 16 * 4  # int64 index + float32 row


@pytest.mark.parametrize("sparse", [False, True])
def test_padding_rows_get_no_gradient(sparse):
    emb = mg.nn.Embedding(10, 3, padding_idx=2, sparse=sparse)
    np.testing.assert_array_equal(emb.weight.detach().numpy()[2], 0.0)
    with mg.sparse.config(densify="never"):
        emb(mg.tensor([[1, 2], [2, 7]])).sum().backward()
    grad = emb.weight.grad
    if sparse:
        np.testing.assert_array_equal(
            grad._indices().detach().numpy(), [[1, 7]]
        )  # dropped, not zeroed
    np.testing.assert_array_equal(dense_grad(grad)[2], 0.0)
    np.testing.assert_array_equal(dense_grad(grad)[[1, 7]], 1.0)


def test_negative_padding_idx_counts_from_the_end():
    emb = mg.nn.Embedding(10, 3, padding_idx=-1)
    assert emb.padding_idx == 9
    assert repr(emb) == "Embedding(10, 3, padding_idx=9)"
    np.testing.assert_array_equal(emb.weight.detach().numpy()[9], 0.0)


def test_init_is_randn_from_the_seeded_generator():
    mg.manual_seed(0)
    expected = mg.randn(10, 3).detach().numpy()
    mg.manual_seed(0)
    emb = mg.nn.Embedding(10, 3, padding_idx=1)
    np.testing.assert_array_equal(
        np.delete(emb.weight.detach().numpy(), 1, 0), np.delete(expected, 1, 0)
    )
    assert emb.weight.dtype is mg.float32 and emb.weight.requires_grad and emb.weight.is_leaf


def test_from_pretrained_shares_and_freezes():
    w = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    emb = mg.nn.Embedding.from_pretrained(w, padding_idx=0)
    assert not emb.weight.requires_grad
    np.testing.assert_array_equal(
        emb(mg.tensor([0, 1])).detach().numpy(), w.detach().numpy()
    )  # padding row kept
    emb.weight.detach().numpy()[1, 0] = 9.0
    assert w.detach().numpy()[1, 0] == 9.0
    trainable = mg.nn.Embedding.from_pretrained(w, freeze=False, sparse=True)
    assert trainable.weight.requires_grad and trainable.sparse


def test_two_lookups_of_one_table_concatenate():
    emb = mg.nn.Embedding(100, 4, sparse=True)
    (emb(mg.tensor([3, 5])).sum() + emb(mg.tensor([5, 8, 9])).sum()).backward()
    grad = emb.weight.grad
    assert grad.layout != "strided" and grad.nnz == 5 and not grad.is_coalesced()
    assert sorted(grad._indices().detach().numpy()[0].tolist()) == [3, 5, 5, 8, 9]
    np.testing.assert_array_equal(grad.coalesce().to_dense().detach().numpy()[5], 2.0)


def test_second_backward_accumulates_sparse_into_sparse():
    emb = mg.nn.Embedding(100, 4, sparse=True)
    emb(mg.tensor([1, 2])).sum().backward()
    emb(mg.tensor([2])).sum().backward()
    assert emb.weight.grad.layout != "strided" and emb.weight.grad.nnz == 3


def test_scale_grad_by_freq_divides_by_the_count():
    emb = mg.nn.Embedding(10, 2, scale_grad_by_freq=True, sparse=True)
    emb(mg.tensor([4, 4, 4, 1])).sum().backward()
    dense = emb.weight.grad.coalesce().to_dense().detach().numpy()
    np.testing.assert_allclose(dense[[4, 1]], 1.0)


def test_max_norm_renormalises_looked_up_rows_in_place():
    w = mg.tensor([[3.0, 4.0], [0.3, 0.4], [6.0, 8.0]])
    emb = mg.nn.Embedding.from_pretrained(w, max_norm=1.0)
    out = emb(mg.tensor([0, 1]))
    np.testing.assert_allclose(np.linalg.norm(out.detach().numpy(), axis=1), [1.0, 0.5], rtol=1e-6)
    np.testing.assert_array_equal(w.detach().numpy()[2], [6.0, 8.0])  # not looked up: untouched


# --- nnz = 0 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("sparse", [False, True])
def test_empty_batch(sparse):
    emb = mg.nn.Embedding(10, 3, sparse=sparse)
    out = emb(mg.tensor([], dtype=mg.int64))
    assert out.shape == (0, 3)
    out.sum().backward()
    grad = emb.weight.grad
    assert grad is not None and grad.shape == (10, 3)
    assert (grad.nnz == 0) if sparse else not grad.detach().numpy().any()
    np.testing.assert_array_equal(dense_grad(grad), 0.0)


def test_all_padding_batch_gives_an_empty_sparse_gradient():
    emb = mg.nn.Embedding(10, 3, padding_idx=0, sparse=True)
    emb(mg.tensor([0, 0])).sum().backward()
    assert emb.weight.grad.layout != "strided" and emb.weight.grad.nnz == 0


# --- gradient checks (float64) ----------------------------------------------------------------


def test_gradcheck_dense_gradient():
    W = table()
    idx = mg.tensor([[1, 2, 1], [7, 0, 9]])
    assert mg.autograd.gradcheck(lambda w: F.embedding(idx, w, padding_idx=4), (W,))
    assert mg.autograd.gradgradcheck(lambda w: F.embedding(idx, w) ** 2, (W,))


def numeric_jacobian(f, W, eps=1e-6):
    x = W.detach().numpy().reshape(-1)
    cols = []
    for k in range(x.size):
        orig = x[k]
        x[k] = orig + eps
        plus = f(W).detach().numpy().ravel().copy()
        x[k] = orig - eps
        minus = f(W).detach().numpy().ravel().copy()
        x[k] = orig
        cols.append((plus - minus) / (2 * eps))
    return np.stack(cols)


def sparse_jacobian(f, W):
    """One backward per output element; each sparse gradient densified (to_dense)."""
    out = f(W)
    rows = []
    for j in range(out.detach().numpy().size):
        onehot = np.zeros(out.detach().numpy().size)
        onehot[j] = 1.0
        (g,) = mg.autograd.grad(out, [W], mg.tensor(onehot.reshape(out.shape)), retain_graph=True)
        assert g.layout != "strided"
        rows.append(g.coalesce().to_dense().detach().numpy().ravel())
    return np.stack(rows, axis=1)


@pytest.mark.parametrize(
    "f",
    [
        lambda w: F.embedding(mg.tensor([[1, 2, 1], [7, 0, 9]]), w, padding_idx=4, sparse=True),
        lambda w: F.embedding_bag(
            mg.tensor([1, 2, 1, 7, 0]), w, mg.tensor([0, 2, 2]), mode="mean", sparse=True
        ),
        lambda w: F.embedding_bag(mg.tensor([[1, 2], [3, 3]]), w, mode="max", sparse=True),
        lambda w: mg.gather(w, 1, mg.tensor([[0, 0], [2, 1], [1, 1]]), sparse_grad=True),
    ],
    ids=["embedding", "bag-mean", "bag-max", "gather"],
)
def test_sparse_gradient_matches_central_differences(f):
    W = table(n=10)
    with mg.sparse.config(densify="never"):
        analytic = sparse_jacobian(f, W)
    np.testing.assert_allclose(analytic, numeric_jacobian(f, W), atol=1e-5, rtol=1e-3)


def test_double_backward_through_a_sparse_gradient():
    W = table()
    idx = mg.tensor([1, 2, 1])
    v = mg.tensor(RNG.standard_normal((3, 3)), requires_grad=True)
    out = F.embedding(idx, W, sparse=True)
    with mg.sparse.config(densify="never"):
        (g,) = mg.autograd.grad(out, [W], v, create_graph=True)
    assert g.layout != "strided" and g.requires_grad
    R = RNG.standard_normal((10, 3))
    (g.to_dense(masked_grad=False) * mg.tensor(R)).sum().backward()
    np.testing.assert_allclose(v.grad.numpy(), R[[1, 2, 1]])


# --- EmbeddingBag --------------------------------------------------------------------------------


def bag_reference(W, ids, offsets, mode, psw=None, padding_idx=None):
    ends = list(offsets[1:]) + [len(ids)]
    rows = []
    for start, end in zip(offsets, ends):
        picked = [(i, ids[i]) for i in range(start, end) if ids[i] != padding_idx]
        if not picked:
            rows.append(np.zeros(W.shape[1]))
            continue
        vecs = np.stack([W[r] * (1.0 if psw is None else psw[i]) for i, r in picked])
        rows.append({"sum": vecs.sum(0), "mean": vecs.mean(0), "max": vecs.max(0)}[mode])
    return np.stack(rows)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
@pytest.mark.parametrize("sparse", [False, True])
def test_bag_matches_reference_and_its_gradient(mode, sparse):
    W = table()
    ids, offsets = [1, 2, 4, 5, 4, 3, 2, 9], [0, 4, 4, 6]  # bag 1 is empty
    out = F.embedding_bag(mg.tensor(ids), W, mg.tensor(offsets), mode=mode, sparse=sparse)
    np.testing.assert_allclose(
        out.detach().numpy(), bag_reference(W.detach().numpy(), ids, offsets, mode), rtol=1e-12
    )
    W64 = W.detach().numpy().copy()
    numeric = numeric_jacobian(
        lambda w: F.embedding_bag(mg.tensor(ids), w, mg.tensor(offsets), mode=mode), W
    )
    with mg.sparse.config(densify="never"):
        analytic = sparse_jacobian(
            lambda w: F.embedding_bag(
                mg.tensor(ids), w, mg.tensor(offsets), mode=mode, sparse=True
            ),
            W,
        )
    np.testing.assert_allclose(analytic, numeric, atol=1e-5, rtol=1e-3)
    np.testing.assert_array_equal(W.detach().numpy(), W64)


def test_bag_sparse_gradient_structure_mean():
    bag = mg.nn.EmbeddingBag(100, 3, mode="mean", sparse=True)
    bag(mg.tensor([1, 2, 4, 5, 4, 3, 2, 9]), mg.tensor([0, 4])).sum().backward()
    g = bag.weight.grad
    np.testing.assert_array_equal(g._indices().detach().numpy(), [[1, 2, 4, 5, 4, 3, 2, 9]])
    np.testing.assert_allclose(g._values().detach().numpy(), 0.25)


def test_bag_per_sample_weights_and_padding():
    W = table()
    ids, offsets, psw = [1, 2, 4, 5, 4, 3, 2, 9], [0, 4], np.arange(8.0)
    w = mg.tensor(psw, requires_grad=True)
    out = F.embedding_bag(
        mg.tensor(ids), W, mg.tensor(offsets), mode="sum", per_sample_weights=w, padding_idx=2
    )
    expected = bag_reference(W.detach().numpy(), ids, offsets, "sum", psw, padding_idx=2)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12)
    assert mg.autograd.gradcheck(
        lambda w_, W_: F.embedding_bag(
            mg.tensor(ids), W_, mg.tensor(offsets), mode="sum", per_sample_weights=w_, padding_idx=2
        ),
        (w, W),
    )


def test_bag_2d_input_include_last_offset_and_modes():
    W = table()
    two_d = F.embedding_bag(mg.tensor([[1, 2], [3, 4]]), W, mode="sum")
    one_d = F.embedding_bag(mg.tensor([1, 2, 3, 4]), W, mg.tensor([0, 2]), mode="sum")
    np.testing.assert_allclose(two_d.detach().numpy(), one_d.detach().numpy())
    last = F.embedding_bag(
        mg.tensor([1, 2, 3]), W, mg.tensor([0, 1, 2]), mode="sum", include_last_offset=True
    )
    np.testing.assert_allclose(
        last.detach().numpy(), W.detach().numpy()[[1, 2]]
    )  # the tail after the last offset
    empty = F.embedding_bag(mg.tensor([], dtype=mg.int64), W, mg.tensor([0, 0]), mode="max")
    np.testing.assert_array_equal(empty.detach().numpy(), np.zeros((2, 3)))
    no_cols = F.embedding_bag(mg.zeros(2, 0, dtype=mg.int64), W, mode="mean")
    np.testing.assert_array_equal(no_cols.detach().numpy(), np.zeros((2, 3)))


def test_bag_module():
    mg.manual_seed(0)
    bag = mg.nn.EmbeddingBag(10, 3, mode="sum", padding_idx=1, sparse=True)
    assert repr(bag) == "EmbeddingBag(10, 3, mode='sum', padding_idx=1)"
    np.testing.assert_array_equal(bag.weight.detach().numpy()[1], 0.0)
    out = bag(mg.tensor([[1, 2], [3, 3]]), per_sample_weights=mg.tensor([[1.0, 2.0], [1.0, 1.0]]))
    np.testing.assert_allclose(
        out.detach().numpy(),
        [2 * bag.weight.detach().numpy()[2], 2 * bag.weight.detach().numpy()[3]],
    )
    assert mg.nn.EmbeddingBag(4, 2).mode == "mean"  # PyTorch's default


# --- index_select and gather ---------------------------------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, -1, 2])
def test_index_select_forward_and_gradient(dim):
    x = mg.tensor(RNG.standard_normal((3, 4, 5)), requires_grad=True)
    index = mg.tensor([2, 0, 2])
    out = x.index_select(dim, index)
    np.testing.assert_array_equal(
        out.detach().numpy(), np.take(x.detach().numpy(), [2, 0, 2], axis=dim)
    )
    assert mg.autograd.gradcheck(lambda t: mg.index_select(t, dim, index), (x,))
    assert mg.autograd.gradgradcheck(lambda t: mg.index_select(t, dim, index) ** 2, (x,))


def test_index_select_scalar_input_and_empty_index():
    s = mg.tensor(3.0, requires_grad=True)
    out = mg.index_select(s, 0, mg.tensor([0]))
    assert out.shape == () and out.item() == 3.0
    out.backward()
    assert s.grad.item() == 1.0
    x = mg.ones(3, 2, requires_grad=True)
    e = x.index_select(0, mg.tensor([], dtype=mg.int64))
    assert e.shape == (0, 2)
    e.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 0.0)


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("sparse_grad", [False, True])
def test_gather_forward_and_gradient(dim, sparse_grad):
    x = mg.tensor(RNG.standard_normal((3, 4)), requires_grad=True)
    index = mg.tensor(RNG.integers(0, 3, (2, 3)))
    out = mg.gather(x, dim, index, sparse_grad=sparse_grad)
    d = dim % 2
    part = x.detach().numpy()[
        tuple(slice(None) if k == d else slice(0, index.shape[k]) for k in range(2))
    ]
    np.testing.assert_array_equal(
        out.detach().numpy(), np.take_along_axis(part, index.detach().numpy(), axis=d)
    )
    g = upstream(out.shape)
    with mg.sparse.config(densify="never"):
        out.backward(g)
    assert (x.grad.layout != "strided") == sparse_grad
    expected = np.zeros((3, 4))
    coords = list(np.indices(index.shape))
    coords[dim] = index.detach().numpy()
    np.add.at(expected, tuple(coords), g.detach().numpy())
    np.testing.assert_allclose(dense_grad(x.grad), expected)
    if sparse_grad:  # every gathered coordinate listed, in index order
        assert x.grad.nnz == index.detach().numpy().size and x.grad.sparse_dim() == 2
        np.testing.assert_array_equal(x.grad._values().detach().numpy(), g.detach().numpy().ravel())


def test_gather_gradchecks_and_method():
    x = mg.tensor(RNG.standard_normal((3, 4)), requires_grad=True)
    index = mg.tensor([[0, 0, 3], [1, 2, 2]])
    np.testing.assert_array_equal(
        x.gather(1, index).detach().numpy(), mg.gather(x, 1, index).detach().numpy()
    )
    assert mg.autograd.gradcheck(lambda t: mg.gather(t, 1, index), (x,))
    assert mg.autograd.gradgradcheck(lambda t: mg.gather(t, 1, index) ** 2, (x,))
    s = mg.tensor(2.0, requires_grad=True)
    mg.gather(s, 0, mg.tensor(0)).backward()
    assert s.grad.item() == 1.0


# --- weight tying: a sparse and a dense use of one weight ------------------------------------------


def tied_model(order):
    """A weight looked up sparsely and also used by a dense op (``W @ h``)."""
    mg.manual_seed(0)
    emb = mg.nn.Embedding(50, 4, sparse=True)
    h = mg.randn(4, 3)
    if order == "sparse_first":  # the engine runs the later node first
        dense_use = (emb.weight @ h).sum()
        sparse_use = emb(mg.tensor([1, 2, 1])).sum()
    else:
        sparse_use = emb(mg.tensor([1, 2, 1])).sum()
        dense_use = (emb.weight @ h).sum()
    return emb, h, sparse_use + dense_use


@pytest.mark.parametrize("order", ["sparse_first", "dense_first"])
def test_weight_tying_densifies_and_records_an_event(order):
    emb, h, loss = tied_model(order)
    steps = list(mg.trace.backward_steps(loss))
    events = [e for s in steps for e in s.events]
    assert [e.rule for e in events] == ["dense_met_sparse"]
    event = events[0]
    second = "MmBackward0" if order == "sparse_first" else "EmbeddingBackward0"
    assert event.caused_by == second  # the contribution that arrived second
    assert event.nnz == 3 and event.bytes_before == 3 * (8 + 16) and event.bytes_after == 800
    assert "leaf" in event.where and "[50, 4]" in event.where
    assert emb.weight.grad.layout == "strided"
    expected = np.zeros((50, 4))
    np.add.at(expected, [1, 2, 1], 1.0)
    expected += h.detach().numpy().sum(1)[None, :]
    np.testing.assert_allclose(emb.weight.grad.numpy(), expected, rtol=1e-6)


def test_weight_tying_under_on_densify_error_and_warn():
    _, _, loss = tied_model("sparse_first")
    with mg.sparse.config(on_densify="error"):
        with pytest.raises(mg.sparse.DensificationError, match="dense gradient met a sparse one"):
            loss.backward()
    emb, _, loss = tied_model("dense_first")
    with mg.sparse.config(on_densify="warn"):
        with pytest.warns(mg.sparse.DensificationWarning) as record:
            loss.backward()
    message = str(record[0].message)
    assert "because a dense gradient met a sparse one" in message  # why
    assert "nnz=3" in message and "72 bytes" in message and "800 bytes" in message  # the cost
    assert emb.weight.grad.layout == "strided"


def test_no_event_when_every_use_is_sparse():
    emb = mg.nn.Embedding(1000, 4, sparse=True)
    loss = emb(mg.tensor([1, 2])).sum() + F.embedding(mg.tensor([3]), emb.weight, sparse=True).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with mg.sparse.config(on_densify="error"):
            steps = list(mg.trace.backward_steps(loss))
    assert not any(s.events for s in steps)
    assert emb.weight.grad.layout != "strided" and emb.weight.grad.nnz == 3


def test_auto_policy_stores_an_oversized_sparse_gradient_dense():
    emb = mg.nn.Embedding(4, 2, sparse=True)  # 6 lookups of a 4-row table: sparse is bigger
    with mg.sparse.config(densify="auto", on_densify=None):  # the opt-in policy
        steps = list(mg.trace.backward_steps(emb(mg.tensor([0, 1, 2, 3, 0, 1])).sum()))
    assert [e.rule for s in steps for e in s.events] == ["outgrew_dense"]
    assert emb.weight.grad.layout == "strided"
    np.testing.assert_array_equal(emb.weight.grad.numpy()[:, 0], [2, 2, 1, 1])


def test_by_default_an_embeddings_sparse_gradient_stays_sparse():
    emb = mg.nn.Embedding(4, 2, sparse=True)  # as in PyTorch, whatever the bytes say
    emb(mg.tensor([0, 1, 2, 3, 0, 1])).sum().backward()
    assert emb.weight.grad.layout == "sparse_coo"
    np.testing.assert_array_equal(emb.weight.grad.to_dense().numpy()[:, 0], [2, 2, 1, 1])
