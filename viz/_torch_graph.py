"""PyTorch's autograd graph as the records viz draws and steps (``minigrad.trace``'s shapes).

viz reads a graph through three things: a :class:`minigrad.trace.Graph`-like object (``nodes``,
``id_of``, ``name_of``, ``inputs_of``), :class:`minigrad.trace.NodeInfo` per node and
:class:`minigrad.trace.Step` per backward step. This module makes all three from what torch
itself records (``grad_fn``, ``next_functions``, ``name()``, ``_input_metadata``,
``_sequence_nr()``, the ``_saved_*`` attributes, ``AccumulateGrad.variable``), so the
drawing, the text, the stepper and the memory chart need no torch-specific code.

torch is never imported here: a torch tensor can only reach viz from a program that imported
torch, so :func:`is_torch_tensor` looks it up in ``sys.modules``.

Gradients are copied into minigrad tensors (:func:`to_minigrad`, indices and values as torch
stored them, duplicates included), so every byte count and summary is the one viz prints for
minigrad: a COO gradient's bytes are its int64 indices plus its values, as in torch.
"""

from __future__ import annotations

import heapq
import sys
from collections.abc import Sequence
from types import SimpleNamespace

import minigrad as mg
from minigrad import trace

from . import _errors as errors

ACCUMULATE = "AccumulateGrad"
# Ops whose gradient for a sparse operand is "masked" (on its stored entries) or "full" (dense),
# and the edge (input position in next_functions) of that operand, as torch records them.
SEMANTICS = {"SparseAddmmBackward0": ("masked", 1, "_saved_mat1")}
FULL_IF_SPARSE = {"MmBackward0": (0, "_saved_self"), "AddmmBackward0": (1, "_saved_mat1")}


def is_torch_tensor(x) -> bool:
    """True for a ``torch.Tensor`` (without importing torch)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(x, torch.Tensor)


def layout_name(t) -> str:
    """``"strided"``, ``"sparse_coo"``, ``"sparse_csr"``... (torch prints ``torch.strided``)."""
    return str(t.layout).rsplit(".", 1)[-1]


def dtype_name(dtype) -> str:
    return str(dtype).rsplit(".", 1)[-1]


def to_minigrad(t):
    """A torch tensor copied into a minigrad tensor of the same layout (None stays None)."""
    if t is None:
        return None
    t = t.detach().cpu()
    layout = layout_name(t)
    if layout == "strided":
        return mg.tensor(t.numpy())
    if layout == "sparse_coo":
        return mg.sparse_coo_tensor(t._indices().numpy(), t._values().numpy(), tuple(t.shape))
    if layout == "sparse_csr":
        parts = (t.crow_indices(), t.col_indices(), t.values())
        return mg.sparse_csr_tensor(*(p.numpy() for p in parts), tuple(t.shape))
    raise TypeError(errors.TORCH_LAYOUT.format(layout=layout))


class TorchNode:
    """One node of torch's graph, as viz's model reads a node: ``name()``, ``next_functions``."""

    __slots__ = ("raw", "next_functions", "_name")

    def __init__(self, raw):
        self.raw = raw
        self._name = raw.name().rsplit("::", 1)[-1]  # "torch::autograd::AccumulateGrad"
        self.next_functions: tuple = ()

    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"<TorchNode {self._name}>"


def _priority(raw) -> int:
    """torch's ready queue runs the node with the highest sequence number first; an
    AccumulateGrad's is the largest integer, so a leaf's gradient is stored as soon as it is
    complete."""
    return raw._sequence_nr()


def schedule(roots: list) -> list:
    """The raw nodes behind ``roots`` in the order torch's engine runs them (CPU, one thread):
    a node is ready once every edge into it has been followed; of the ready nodes, the one with
    the highest sequence number runs first."""
    deps: dict = {}
    stack, seen = list(roots), set(roots)
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] = deps.get(nxt, 0) + 1
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    ready, order, count = [], [], 0
    for node in dict.fromkeys(roots):
        if node not in deps:
            heapq.heappush(ready, (-_priority(node), count, node))
            count += 1
    while ready:
        node = heapq.heappop(ready)[2]
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    heapq.heappush(ready, (-_priority(nxt), count, nxt))
                    count += 1
    return order


def saved_tensors(raw) -> list:
    """``(attribute, tensor or None)`` per tensor the node saved (None: freed by backward)."""
    torch = sys.modules["torch"]
    out = []
    for attr in sorted(a for a in dir(raw) if a.startswith("_saved_")):
        try:
            value = getattr(raw, attr)
        except RuntimeError:  # "Trying to backward through the graph a second time ..."
            out.append((attr, None))
            continue
        if isinstance(value, torch.Tensor):
            out.append((attr, value))
    return out


def freed(raw) -> bool:
    return any(t is None for _, t in saved_tensors(raw))


def _sparse_facts(t) -> tuple:
    """``(layout, nnz, nbytes, density)`` of a torch tensor (None but the layout when dense)."""
    layout = layout_name(t)
    if layout == "strided":
        return layout, None, None, None
    data = trace.storage(to_minigrad(t))
    return layout, int(data.nnz), int(data.nbytes), float(data.density)


class _Nodes(Sequence):
    """``TorchGraph.nodes``: each node described when first read (a drawing that collapses
    the middle of a big graph copies only the leaves and gradients it shows)."""

    def __init__(self, graph):
        self._graph = graph
        self._infos: dict = {}

    def __len__(self) -> int:
        return len(self._graph)

    def __getitem__(self, i: int):
        if i < 0:
            i += len(self)
        if i not in self._infos:
            self._infos[i] = self._graph._describe(i, self._graph._order[i])
        return self._infos[i]


class TorchGraph:
    """torch's graph behind some tensors, with :class:`minigrad.trace.Graph`'s interface.

    Args:
        roots: the torch tensors; order: raw nodes in run order (default: :func:`schedule`);
        names: ``id(torch tensor) -> name`` for leaves (``params=``).
    """

    def __init__(self, roots, names=None, order=None):
        raw_roots = [r.grad_fn for r in roots if r.grad_fn is not None]
        order = schedule(raw_roots) if order is None else order
        self._wrap = {raw: TorchNode(raw) for raw in order}
        for raw, node in self._wrap.items():
            node.next_functions = tuple(
                (None if n is None else self._wrap[n], nr) for n, nr in raw.next_functions
            )
        self._order = [self._wrap[raw] for raw in order]
        self._ids = {n: i for i, n in enumerate(self._order)}
        self._names = names or {}
        self._root_of = {r.grad_fn: r for r in roots if r.grad_fn is not None}
        self._outputs = self._sparse_operands()
        self.nodes = _Nodes(self)

    def __len__(self) -> int:
        return len(self._order)

    def id_of(self, node) -> int:
        return self._ids[node if isinstance(node, TorchNode) else self._wrap[node]]

    def name_of(self, i: int) -> str:
        return self._order[i].name()

    def inputs_of(self, i: int) -> tuple:
        return tuple(self._ids[n] for n, _ in self._order[i].next_functions if n is not None)

    def leaf_name(self, node: TorchNode):
        return self._names.get(id(node.raw.variable))

    def _sparse_operands(self) -> dict:
        """raw node -> torch tensor it produced, for the sparse operands of the ops in
        :data:`SEMANTICS` (their layout is known only from what the op saved)."""
        out = {}
        for node in self._order:
            raw, name = node.raw, node.name()
            edge, attr = (
                SEMANTICS[name][1:] if name in SEMANTICS else FULL_IF_SPARSE.get(name, (None, None))
            )
            if (
                edge is None
                or edge >= len(raw.next_functions)
                or raw.next_functions[edge][0] is None
            ):
                continue
            saved = dict(saved_tensors(raw)).get(attr)
            if saved is not None and layout_name(saved) != "strided":
                out[raw.next_functions[edge][0]] = saved
        return out

    def semantics(self, node: TorchNode):
        name = node.name()
        if name in SEMANTICS:
            return SEMANTICS[name][0]
        if name in FULL_IF_SPARSE:
            attr = FULL_IF_SPARSE[name][1]
            saved = dict(saved_tensors(node.raw)).get(attr)
            if saved is not None and layout_name(saved) != "strided":
                return "full"
            if any(self.nodes_layout(n) != "strided" for n, _ in node.next_functions if n):
                return "full"
        return None

    def nodes_layout(self, node: TorchNode) -> str:
        if node.name() == ACCUMULATE:
            return layout_name(node.raw.variable)
        t = self._output(node.raw)
        return "strided" if t is None else layout_name(t)

    def _output(self, raw):
        """The tensor ``raw`` produced, when viz knows it (a sparse operand, or a root)."""
        t = self._outputs.get(raw)
        return self._root_of.get(raw) if t is None else t

    def _describe(self, i: int, node: TorchNode):
        raw = node.raw
        inputs = self.inputs_of(i)
        if node.name() == ACCUMULATE:
            v = raw.variable
            layout, nnz, nbytes, _ = _sparse_facts(v)
            shown = to_minigrad(v) if layout != "strided" else SimpleNamespace(layout=layout)
            shown.grad = to_minigrad(v.grad)
            return trace.NodeInfo(
                i, ACCUMULATE, "leaf", tuple(v.shape), dtype_name(v.dtype), (), (),
                self.leaf_name(node), node, shown, layout, nnz, nbytes=nbytes,
            )  # fmt: skip
        meta = raw._input_metadata
        shape, dtype = (tuple(meta[0].shape), dtype_name(meta[0].dtype)) if meta else (None, None)
        saved = tuple(
            trace.SavedInfo(k, None, None, True)
            if t is None
            else trace.SavedInfo(k, tuple(t.shape), dtype_name(t.dtype), False)
            for k, (_, t) in enumerate(saved_tensors(raw))
        )
        out = self._output(raw)
        layout, nnz, nbytes, density = (
            ("strided", None, None, None) if out is None else _sparse_facts(out)
        )
        return trace.NodeInfo(
            i, node.name(), "op", shape, dtype, inputs, saved, None, node, None, layout, nnz,
            self.semantics(node), nbytes=nbytes, density=density,
        )  # fmt: skip
