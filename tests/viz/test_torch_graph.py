"""viz on PyTorch graphs (issue 28): the same program in both libraries gives the same
drawing, text, steps and memory chart up to node names; torch's backward is stepped in its own
order, leaving ``.grad`` alone; sparse gradients and torch's silent densifications are shown."""

import numpy as np
import pytest
import torch_twins as twins

import minigrad as mg
import viz
from viz import _fit

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle
PROGRAMS = pytest.mark.parametrize("program", twins.PROGRAMS, ids=lambda p: p.__name__)
# torch sums two coalesced sparse gradients into a coalesced one (A's two masked gradients of
# the learned-adjacency GCN: nnz 6); minigrad concatenates them (nnz 12, SPARSE_SEMANTICS.md's
# sparse + sparse row). An engine difference, not viz's: strict, so it flips when it is fixed.
SUM_DIFFERS = pytest.mark.xfail(
    strict=True, reason="minigrad's sparse + sparse gradient sum is uncoalesced, torch's not"
)
AFTER_BACKWARD = pytest.mark.parametrize(
    "program",
    [
        p if p is not twins.gcn_learned_adjacency else pytest.param(p, marks=SUM_DIFFERS)
        for p in twins.PROGRAMS
    ],
    ids=lambda p: p.__name__,
)


def both(program):
    """``((minigrad loss, params), (torch loss, params))``; the minigrad leaves are named as
    ``params`` names the torch ones (minigrad's own events use a leaf's ``.name``)."""
    lm, pm = program(mg)
    for name, t in pm.items():
        t.name = name
    return (lm, pm), program(torch)


@PROGRAMS
def test_same_drawing_and_text_up_to_node_names(program):
    (lm, pm), (lt, pt) = both(program)
    ours, theirs = viz.draw_graph(lm), viz.draw_graph(lt, params=pt)
    assert twins.modulo_names(theirs.to_text()) == twins.modulo_names(ours.to_text())
    # the same DOT (boxes, spine weights, legend), so the same layout rules and width choice
    assert twins.modulo_names(theirs.source) == twins.modulo_names(ours.source)
    assert theirs.rankdir == ours.rankdir and theirs.fits
    assert "AccumulateGrad" not in theirs.to_text()  # leaves are boxes, named by params=


@AFTER_BACKWARD
def test_same_steps_in_torchs_own_order(program):
    (lm, pm), (lt, pt) = both(program)
    ours, theirs = viz.BackwardStepper(lm), viz.BackwardStepper(lt, params=pt)
    assert [twins.modulo_names(repr(f)) for f in theirs.steps] == [
        twins.modulo_names(repr(f)) for f in ours.steps
    ]
    assert [f.live_bytes for f in theirs.steps] == [f.live_bytes for f in ours.steps]
    # step k is the k-th node torch's engine ran: record the order with hooks of our own
    ran = []
    nodes, stack = set(), [lt.grad_fn]
    while stack:
        n = stack.pop()
        if n is not None and n not in nodes:
            nodes.add(n)
            stack.extend(m for m, _ in n.next_functions)
    handles = [n.register_prehook(lambda g, n=n: ran.append(n.name())) for n in nodes]
    lt.backward(retain_graph=True)
    for h in handles:
        h.remove()
    assert [f.node_name for f in theirs.steps] == [r.rsplit("::", 1)[-1] for r in ran]


@AFTER_BACKWARD
def test_after_backward_the_grads_are_drawn_alike(program):
    (lm, pm), (lt, pt) = both(program)
    lm.backward()
    lt.backward()
    ours = viz.draw_graph(lm).to_text().splitlines()
    theirs = viz.draw_graph(lt, params=pt).to_text().splitlines()
    # minigrad's leaf also says where its engine densified; torch keeps no such record
    ours = [line.split(" | densified:")[0] for line in ours]
    assert [twins.modulo_names(x) for x in theirs] == [twins.modulo_names(x) for x in ours]


def test_the_users_grad_and_graph_are_left_alone():
    loss, p = twins.tied(torch)
    before = torch.full((4, 3), 7.0)
    p["W"].grad = before
    viz.BackwardStepper(loss, params=p)
    assert p["W"].grad is before and bool((before == 7.0).all())
    loss.backward()  # the graph is still there (the stepper retained it)
    assert p["W"].grad is before  # torch accumulated in place, as it would have anyway


@pytest.mark.parametrize(
    "program", [twins.sparse_meets_dense_inside, twins.sparse_meets_dense_later]
)
def test_a_sum_inside_the_graph_densifies_with_the_same_event(program):
    (lm, _), (lt, pt) = both(program)
    ours = [(f.step, e.message) for f in viz.BackwardStepper(lm).steps for e in f.events]
    theirs = [(f.step, e.message) for f in viz.BackwardStepper(lt).steps for e in f.events]
    assert len(theirs) == 1 and "the gradient flowing into MulBackward0" in theirs[0][1]
    assert [(k, twins.modulo_names(m)) for k, m in theirs] == [
        (k, twins.modulo_names(m)) for k, m in ours
    ]


def test_tied_embeddings_densification_is_an_event_with_minigrads_words():
    (lm, pm), (lt, pt) = both(twins.tied)
    ours = [(f.step, e) for f in viz.BackwardStepper(lm).steps for e in f.events]
    theirs = [(f.step, e) for f in viz.BackwardStepper(lt, params=pt).steps for e in f.events]
    assert len(theirs) == 1 and theirs[0][1].rule == "dense_met_sparse"
    assert theirs[0][0] == ours[0][0]
    assert twins.modulo_names(theirs[0][1].message) == twins.modulo_names(ours[0][1].message)
    assert "leaf 'W' of shape [4, 3]" in theirs[0][1].message
    stepper = viz.BackwardStepper(lt, params=pt)
    assert "densified: dense_met_sparse" in stepper.frame_html(theirs[0][0])  # the banner
    lt.backward()
    assert pt["W"].grad.layout == torch.strided  # what the event explains


def test_sparse_gradients_show_nnz_and_torchs_own_bytes():
    emb = torch.nn.Embedding(10, 3, sparse=True)
    loss = emb(torch.tensor([1, 4, 4])).sum()
    s = viz.BackwardStepper(loss, params=emb)
    last = s.steps[-1]
    assert last.leaf_name == "weight"
    g = last.accumulation[2]
    loss.backward()
    want = emb.weight.grad
    assert g.sparse and g.nnz == want._nnz() == 3 and g.duplicates == 1  # index 4 twice
    assert g.nbytes == want._indices().nbytes + want._values().nbytes
    assert "nnz=3" in repr(last) and "sparse_coo" in repr(last)
    text = viz.draw_graph(loss, params=emb).to_text()
    assert "weight | (10, 3) float32 | grad sparse_coo nnz=3" in text
    assert "grad is sparse (leaf is dense)" in text


def test_masked_label_on_torchs_sparse_mm_only_when_the_adjacency_learns():
    (lm, _), (lt, pt) = both(twins.gcn)
    assert "masked" not in viz.draw_graph(lt, params=pt).source.split("  legend")[0]
    (lm, _), (lt, pt) = both(twins.gcn_learned_adjacency)
    s = viz.BackwardStepper(lt, params=pt)
    drawn = viz.draw_graph(lt, params=pt)
    a_key = next(v.key for v in drawn._vnodes if v.lines[0] == "A")
    masked = [(v.key, d) for v in drawn._vnodes for d, lab in v.children if lab == "masked"]
    assert [d for _, d in masked] == [a_key, a_key]  # both products send to A, masked
    sent = {(f.node, d): g for f in s.steps for d, _, g in f.sent}
    assert all(sent[e].sparse for e in masked)
    lt.backward()
    assert pt["A"].grad.layout == torch.sparse_coo


def test_memory_timeline_of_a_torch_loss():
    import matplotlib

    matplotlib.use("Agg")
    (lm, _), (lt, _) = both(twins.tied)
    ours, theirs = viz.memory_timeline(lm), viz.memory_timeline(lt)
    assert theirs.minigrad_series == ours.minigrad_series
    assert [(k, e.rule, e.bytes_before) for k, e in theirs.minigrad_events] == [
        (k, e.rule, e.bytes_before) for k, e in ours.minigrad_events
    ]


def test_params_from_a_module_name_the_leaves():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    loss = model(torch.ones(3, 2)).pow(2).mean()
    text = viz.draw_graph(loss, params=model).to_text()
    for name in ("0.weight", "0.bias", "2.weight", "2.bias"):
        assert f" {name} | " in text
    s = viz.BackwardStepper(loss, params=model)
    assert {f.leaf_name for f in s.steps if f.leaf_name} == {
        "0.weight",
        "0.bias",
        "2.weight",
        "2.bias",
    }
    assert "AddmmBackward0" in text and viz.draw_graph(loss).to_text().count(" leaf | ") == 4


def test_a_torch_stepper_after_backward_says_what_to_do():
    loss, p = twins.mlp(torch)
    loss.backward()
    with pytest.raises(RuntimeError, match=r"retain_graph=True.*draw_graph") as err:
        viz.BackwardStepper(loss)
    assert "before calling loss.backward()" in str(err.value)
    assert "freed" in viz.draw_graph(loss, show_saved=True).to_text()  # drawing still works

    loss, p = twins.mlp(torch)
    loss.backward(retain_graph=True)
    grads = {k: v.grad.clone() for k, v in p.items()}
    s = viz.BackwardStepper(loss, params=p)  # saved tensors alive: it steps
    assert s.num_steps == 13
    assert all(bool((p[k].grad == g).all()) for k, g in grads.items())


def test_wrong_inputs_name_both_libraries():
    with pytest.raises(TypeError, match=r"minigrad Tensor or a torch.Tensor.*numpy.ndarray"):
        viz.draw_graph(np.ones(2))
    with pytest.raises(TypeError, match="two libraries"):
        viz.draw_graph((twins.tied(mg)[0], twins.tied(torch)[0]))
    with pytest.raises(TypeError, match=r"params=.*dict of name -> tensor"):
        viz.draw_graph(twins.tied(torch)[0], params=[1, 2])


def test_a_torch_drawing_follows_the_fit_rules():
    torch.manual_seed(0)
    layers = [torch.nn.Linear(4, 4) for _ in range(12)]
    x = torch.ones(2, 4)
    for layer in layers:
        x = torch.tanh(layer(x))
    view = viz.draw_graph(x.sum())
    assert view.width_px is not None and view.width_px <= _fit.FIT_PX + 0.5


def test_spy_and_bytes_comparison_read_torch_gradients():
    import matplotlib

    matplotlib.use("Agg")
    emb = torch.nn.Embedding(10, 3, sparse=True)
    emb(torch.tensor([1, 4, 4])).sum().backward()
    ax = viz.spy(emb.weight.grad)
    assert ax.get_title().startswith("sparse_coo (10, 3): nnz=3")
    ax = viz.bytes_comparison({"emb": emb.weight.grad})
    want = emb.weight.grad._indices().nbytes + emb.weight.grad._values().nbytes
    labels = " ".join(t.get_text() for t in ax.texts) + ax.get_title()
    assert want == 60 and "60 B" in labels, labels


def test_a_long_torch_graph_is_collapsed_as_minigrads():
    x = torch.ones(3, requires_grad=True)
    y = x
    for _ in range(300):
        y = y * 1.5
    view = viz.draw_graph(y.sum(), max_nodes=20, rankdir="TB")
    assert len(view) == 20
    assert "more … 283 more nodes (MulBackward0 x283)" in view.to_text()


@pytest.mark.parametrize("op", ["sparse.mm", "mm"])
@pytest.mark.parametrize("sparse_grad", [True, False])
@pytest.mark.parametrize("sparse_leaf", [True, False])
def test_torch_masked_full_labels_match_the_gradient_sent(op, sparse_grad, sparse_leaf):
    s = torch.tensor(twins.W1[:3, :3]).to_sparse().requires_grad_(sparse_grad)
    x = torch.tensor(twins.X[:3, :2], requires_grad=True)
    s_used = s if sparse_leaf else s * 2.0
    out = torch.sparse.mm(s_used, x) if op == "sparse.mm" else torch.mm(s_used, x)
    loss = (out * out).sum()
    view = viz.draw_graph(loss, rankdir="TB")
    labels = {(v.key, d): lab for v in view._vnodes for d, lab in v.children if lab}
    sent = {(f.node, d): g for f in viz.BackwardStepper(loss).steps for d, _, g in f.sent}
    if not sparse_grad:
        assert labels == {}  # the constant sparse operand: the dense one's edge is unlabelled
        return
    ((edge, label),) = labels.items()
    assert label == ("masked" if op == "sparse.mm" else "full")
    assert sent[edge].sparse == (label == "masked")
    loss.backward()
    assert (s.grad.layout == torch.sparse_coo) == (label == "masked")  # the gradient itself
