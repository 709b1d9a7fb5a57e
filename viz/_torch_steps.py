"""PyTorch's own backward pass, recorded step by step as :class:`minigrad.trace.Step` records.

:func:`backward_steps` runs ``torch.autograd.backward`` once, with a pre-hook and a hook on
every node of the graph: each node that runs is one step, in the order torch ran it, with the
gradients that arrived (the pre-hook) and those it sent (the hook). The pass retains the
graph, and each leaf's ``.grad`` is set aside before and put back after (the very same tensor
object), so the user's graph and gradients are as they were and ``loss.backward()`` still works.

Where torch sums two gradients for one tensor before a node runs (its input buffer), a sparse
and a dense gradient give a dense sum: torch does it silently; here it becomes a
:class:`minigrad.sparse.DensificationEvent` at the step that sent the second gradient, with
the words minigrad's engine uses (rule ``dense_met_sparse``).

The pass is torch's real one, so every hook the user put on the graph runs too: tensor hooks
(which may change a gradient, as they would in ``backward()``) and post-accumulate-grad hooks
on leaves (an optimizer step placed in such a hook would run: build the stepper on a model
without them).
"""

from __future__ import annotations

import sys

from minigrad import sparse as mg_sparse
from minigrad import trace

from . import _errors as errors
from ._torch_graph import ACCUMULATE, TorchGraph, freed, layout_name, to_minigrad


def check_alive(graph: TorchGraph, fn: str) -> None:
    """Refuse a graph whose saved tensors backward already freed, saying what to do."""
    for node in graph._order:
        if freed(node.raw):
            raise RuntimeError(errors.GRAPH_FREED.format(fn=fn, node=node.name()))


def _where(node, names) -> str:
    """What a gradient was summed into, in minigrad's words (``_Where`` in its accumulate)."""
    if node.name() == ACCUMULATE:
        v = node.raw.variable
        name = names.get(id(v))
        label = f"'{name}' " if name else ""
        return f"leaf {label}of shape {list(v.shape)}"
    return f"the gradient flowing into {node.name()}"


def _event(sparse_grad, where: str, sender: str):
    data = trace.storage(to_minigrad(sparse_grad))
    return mg_sparse.DensificationEvent(
        where, "dense_met_sparse", sender, data.nnz, data.density, data.nbytes, data.dense_nbytes
    )


class _Buffers:
    """The layout of what waits for each node, to see where torch's sums densify: one slot
    per output of a node (``(node, input_nr)``), as torch's input buffers have."""

    def __init__(self):
        self.waiting: dict = {}  # (raw node, output number) -> the gradient waiting

    def add(self, dst, grad, where: str, sender: str) -> list:
        before = self.waiting.get(dst)
        if before is None:
            self.waiting[dst] = grad
            return []
        sparse_before = layout_name(before) != "strided"
        sparse_now = layout_name(grad) != "strided"
        if sparse_before == sparse_now:
            return []
        self.waiting[dst] = grad if not sparse_now else before  # the sum is dense
        return [_event(before if sparse_before else grad, where, sender)]


def _run(graph: TorchGraph, roots, gradient) -> list:
    """Run torch's backward with hooks; ``[(raw node, arrived, sent, leaf grad after)]``."""
    torch = sys.modules["torch"]
    ran, running, handles = [], {}, []

    def pre(raw):
        def hook(grad_outputs):
            running[raw] = [raw, tuple(grad_outputs), (), None]
            ran.append(running[raw])

        return hook

    def post(raw):
        def hook(grad_inputs, grad_outputs):
            entry = running.pop(raw)
            entry[2] = tuple(grad_inputs)
            if raw.name().endswith(ACCUMULATE):
                entry[3] = raw.variable.grad  # what this pass accumulated (.grad was None)

        return hook

    leaves = [n.raw.variable for n in graph._order if n.name() == ACCUMULATE]
    kept = [v.grad for v in leaves]
    try:
        for node in graph._order:
            handles.append(node.raw.register_prehook(pre(node.raw)))
            handles.append(node.raw.register_hook(post(node.raw)))
        for v in leaves:
            v.grad = None
        torch.autograd.backward(roots, gradient, retain_graph=True)
        return ran
    finally:
        for h in handles:
            h.remove()
        for v, g in zip(leaves, kept):
            v.grad = g


def backward_steps(roots: tuple, gradient=None, names=None, graph=None) -> tuple:
    """``(graph, steps)``: torch's graph numbered in the order its backward ran, and one
    :class:`minigrad.trace.Step` per node run (gradients copied into minigrad tensors)."""
    names = names or {}
    graph = TorchGraph(roots, names) if graph is None else graph
    check_alive(graph, "BackwardStepper")
    ran = _run(graph, roots, gradient)
    order = [raw for raw, *_ in ran]
    if order != [n.raw for n in graph._order]:  # number the nodes as torch ran them
        graph = TorchGraph(
            roots, names, order + [n.raw for n in graph._order if n.raw not in order]
        )
    buffers, steps = _Buffers(), []
    for index, (raw, arrived, sent, after) in enumerate(ran):
        node = graph._order[graph.id_of(raw)]
        events = []
        for (dst, nr), grad in zip(node.next_functions, sent):
            if dst is not None and grad is not None:
                events += buffers.add((dst.raw, nr), grad, _where(dst, names), node.name())
        acc = None
        if node.name() == ACCUMULATE:
            incoming = to_minigrad(arrived[0]) if arrived else None
            shown = graph.nodes[graph.id_of(raw)].tensor
            acc = trace.Accumulation(shown, None, incoming, to_minigrad(after))
        steps.append(
            trace.Step(
                index,
                node,
                tuple(to_minigrad(g) for g in arrived),
                tuple(to_minigrad(g) for g in sent),
                acc,
                events=events,
            )
        )
    return graph, tuple(steps)
