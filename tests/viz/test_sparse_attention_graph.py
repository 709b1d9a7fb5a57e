"""What students see of sparse attention: draw_graph, the text rendering and the stepper show
its ops with their layout, nnz and masked edges, like the other sparse ops."""

import re

import numpy as np

import minigrad as mg
import minigrad.nn.functional as F
import viz


def attention_loss(layout="sparse_csr"):
    mg.manual_seed(0)
    q, k, v = (mg.randn(4, 3, requires_grad=True) for _ in range(3))
    q.name, k.name, v.name = "q", "k", "v"
    mask = np.array([[1, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 1]], bool)
    P = mg.tensor(mask.astype(np.float32)).to_sparse().to_sparse(layout)
    return F.sparse_attention(q, k, v, P).sum()


def test_text_rendering_shows_layout_nnz_and_masked_edges():
    text = viz.draw_graph(attention_loss()).to_text()
    assert re.search(
        r"\[masked\] n\d SparseSoftmaxBackward0 \| \(4, 4\) \| sparse_csr nnz=5 ", text
    )
    assert re.search(
        r"\[masked\] n\d SparseSampledAddmmBackward0 \| \(4, 4\) \| sparse_csr nnz=5 ", text
    )
    assert "SparseMmBackward0" in text


def test_dot_source_marks_the_sparse_boxes_and_masked_edges():
    source = viz.draw_graph(attention_loss("sparse_coo")).source
    assert "SparseSoftmaxBackward0" in source and "sparse_coo nnz=5" in source
    assert "masked gradient" in source  # the legend entry of the dashed edges


def test_stepper_shows_the_sparse_gradients_travelling():
    stepper = viz.BackwardStepper(attention_loss())
    frames = [repr(f) for f in stepper.steps]
    sent = [f for f in frames if "sent a sparse_csr gradient (nnz=5" in f]
    assert any("SparseMmBackward0 sent" in f for f in sent)  # to the softmax
    assert any("SparseSoftmaxBackward0 sent" in f for f in sent)  # to the scores
    assert not any(f.events for f in stepper.steps)  # nothing densified
