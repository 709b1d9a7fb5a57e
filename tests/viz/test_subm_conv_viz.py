"""What students see of a submanifold convolution: trace.graph, draw_graph, the stepper and
memory_report show the conv node and its sparse output (layout, nnz, real density and
bytes, the masked edge), and nothing densifies on the way."""

import numpy as np
import pytest

import minigrad as mg
import viz

SITES = {2: [[0, 5, 5], [3, 5, 6]], 3: [[0, 1, 1], [0, 5, 5], [3, 5, 6]]}


def _graph(spatial=2, batch=False):
    """x (3 active sites, 2 channels) -> SubMConv (4 channels) -> sparse.sum."""
    mg.manual_seed(0)
    sizes, sites = ((8, 8) if spatial == 2 else (4, 8, 8)), SITES[spatial]
    if batch:
        sizes, sites = (2, *sizes), [[0, 1, 1], *sites]
    x = mg.sparse_coo_tensor(sites, mg.ones(3, 2), (*sizes, 2), requires_grad=True)
    x.name = "x"
    conv = (mg.nn.SubMConv2d if spatial == 2 else mg.nn.SubMConv3d)(2, 4, 3)
    return x, conv, mg.sparse.sum(conv(x))


def test_trace_graph_shows_the_conv_node_with_its_sparse_output():
    x, conv, loss = _graph()
    g = mg.trace.graph(loss)
    node = next(n for n in g.nodes if n.name == "SubMConvBackward0")
    assert node.layout == "sparse_coo" and node.nnz == 3
    assert node.shape == (8, 8, 4)
    assert node.nbytes == 3 * 2 * 8 + 3 * 4 * 4  # int64 indices (2 sparse dims) + float32 values
    assert node.density == pytest.approx(3 / 64)  # sites over H * W, not over the channels
    assert node.grad_semantics == "masked"
    leaf = g.nodes[node.inputs[0]]
    assert leaf.tensor is x and leaf.layout == "sparse_coo" and leaf.nnz == 3


@pytest.mark.parametrize("spatial, batch", [(2, True), (3, False)])
def test_the_density_of_a_hybrid_output_counts_its_sparse_dims_only(spatial, batch):
    _, _, loss = _graph(spatial, batch)
    node = next(n for n in mg.trace.graph(loss).nodes if n.name == "SubMConvBackward0")
    sites = int(np.prod(node.shape[:-1]))
    assert node.density == pytest.approx(3 / sites)
    text = viz.draw_graph(loss).to_text()
    assert f"density={viz._model.fmt(3 / sites)}" in text


def test_draw_graph_shows_layout_nnz_and_the_masked_edge():
    x, conv, loss = _graph()
    text = viz.draw_graph(loss, show_saved=True).to_text()
    conv_line = next(line for line in text.splitlines() if "SubMConvBackward0" in line)
    assert "(8, 8, 4) | sparse_coo nnz=3 density=0.04688 96 B" in conv_line
    assert "[masked] n2 SubMConvBackward0" in conv_line
    leaf_line = next(line for line in text.splitlines() if " x |" in line)
    assert "[masked]" in leaf_line and "sparse_coo nnz=3" in leaf_line
    source = viz.draw_graph(loss).source
    assert "SubMConvBackward0" in source and 'label="masked"' in source


def test_the_stepper_shows_the_sparse_gradients_that_travel():
    x, conv, loss = _graph()
    stepper = viz.BackwardStepper(loss)
    frame = next(
        f for f in stepper.steps if any(name == "SubMConvBackward0" for _, name, _ in f.sent)
    )
    ((_, _, sent),) = [s for s in frame.sent if s[1] == "SubMConvBackward0"]
    assert sent.layout == "sparse_coo" and sent.nnz == 3 and sent.shape == (8, 8, 4)
    conv_frame = next(f for f in stepper.steps if f.sent and f.sent[0][1] == "AccumulateGrad")
    to_x = next(info for _, _, info in conv_frame.sent if info.shape == (8, 8, 2))
    assert to_x.layout == "sparse_coo" and to_x.nnz == 3 and len(to_x.entries) == 3


def test_memory_report_counts_the_sparse_input_as_stored():
    x, conv, loss = _graph()
    report = mg.sparse.memory_report(loss)
    x_row = next(row for row in report.leaf_grads if row[0].startswith("leaf 'x'"))
    assert x_row[1:3] == ("sparse_coo", 3)
    assert x_row[3] == mg.trace.storage(x.grad).nbytes
    # saved for backward: x as stored (indices + values), the weight and the bias
    assert report.saved_bytes == mg.trace.storage(x).nbytes + 4 * (4 * 2 * 9 + 4)
    assert report.densifications == []


def test_nothing_densifies_even_under_the_strictest_policy():
    x, conv, loss = _graph()
    with mg.sparse.config(densify="auto", on_densify="error"):
        loss.backward()
    assert x.grad.layout == "sparse_coo"
    assert conv.weight.grad.layout == "strided"  # a dense parameter's gradient is dense
