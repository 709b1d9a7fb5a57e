"""Masked/full edge labels (issue 28, point 4), checked against the gradient that travels.

An edge labelled "masked" must carry a sparse gradient (the sparse operand's, on its stored
entries), one labelled "full" a dense gradient to a sparse operand, and an op's edge to its
dense operand no label (its gradient is an ordinary dense one), in every case: the sparse
operand requiring grad or not, each operand a leaf or computed.
"""

import itertools

import numpy as np
import pytest

import minigrad as mg
import viz
from viz._model import build

A = np.array([[0.0, 1.0, 0.0], [2.0, 0.0, 3.0], [0.0, 0.0, 4.0]], dtype=np.float32)
D = np.arange(6, dtype=np.float32).reshape(3, 2) / 4


def program(op: str, sparse_grad: bool, sparse_leaf: bool, dense_leaf: bool):
    """``op(S, X)`` summed: S sparse (a leaf, or computed from one), X dense (idem)."""
    s = mg.tensor(A).to_sparse().requires_grad_(sparse_grad)
    x = mg.tensor(D, requires_grad=True)
    if not sparse_leaf:
        s = s * 2.0
    if not dense_leaf:
        x = x * 3.0
    if op == "sparse.mm":
        out = mg.sparse.mm(s, x)
    elif op == "mm":
        out = mg.mm(s, x)
    else:  # sparse.addmm: the sparse operand is the second input
        out = mg.sparse.addmm(mg.zeros(3, 2), s, x)
    return (out * mg.tensor(D)).sum(), s


CASES = list(itertools.product(("sparse.mm", "mm", "sparse.addmm"), *[(True, False)] * 3))


@pytest.mark.parametrize("op, sparse_grad, sparse_leaf, dense_leaf", CASES)
def test_labels_match_the_layout_of_the_gradient_sent(op, sparse_grad, sparse_leaf, dense_leaf):
    loss, s = program(op, sparse_grad, sparse_leaf, dense_leaf)
    g = mg.trace.graph(loss)
    leaves = [n for n in g.nodes if n.tensor is s]
    s_ids = [g.id_of(s.grad_fn)] if s.grad_fn is not None else [n.id for n in leaves]
    s_key = f"n{s_ids[0] + 1}" if s_ids else None  # S's node: None when S needs no grad
    labels = {(v.key, dst): label for v in build(g) for dst, label in v.children}
    frames = viz.BackwardStepper(loss).steps
    sent = {(f.node, dst): info for f in frames for dst, _, info in f.sent}
    semantics = {f"n{n.id + 1}": n.grad_semantics for n in g.nodes if n.grad_semantics}
    assert len(semantics) == 1  # the product (and, when computed, S = S0 * 2 is not one)
    (op_key, expected) = next(iter(semantics.items()))
    to_sparse = [e for e in sent if e == (op_key, s_key)]
    for edge, grad in sent.items():
        label = labels.get(edge)
        if edge[0] != op_key:
            assert label is None
        elif edge in to_sparse:  # the sparse operand's edge: its gradient's layout says which
            assert label == expected
            assert grad.sparse == (expected == "masked")
        else:  # the dense operand's: a dense gradient, no label (the bug drew it "masked")
            assert label is None and not grad.sparse
    assert bool(to_sparse) == sparse_grad  # labelled exactly when S requires grad


def test_constant_adjacency_draws_no_masked_edge():
    # a GCN's usual case: the adjacency is data, only the features' weight learns
    loss, _ = program("sparse.mm", sparse_grad=False, sparse_leaf=True, dense_leaf=True)
    source = viz.draw_graph(loss, rankdir="TB").source
    assert 'label="masked"' not in source and "masked gradient" not in source
