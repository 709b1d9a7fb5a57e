"""Read-only introspection of autograd: the graph, the backward steps, their events.

This is the one door through which ``viz`` (the graph drawing and the backward
stepper) looks at the engine, and a good place for students to poke around:

* :func:`graph` describes the graph behind a tensor: nodes with sequential ids
  in topological order (the root is 0; the order is the one backward runs in),
  op names, output shapes and dtypes, saved tensors, and edges.
* :func:`backward_steps` is the backward pass itself, one :class:`Step` at a
  time: the node that ran, the gradient that arrived, the gradients it sent,
  and, for leaves, the accumulation ``before + incoming = after``.
  ``backward()`` runs exactly this generator to the end.

Example:
    >>> import minigrad as mg
    >>> x = mg.tensor(3.0, requires_grad=True)
    >>> y = x**2 + 2*x
    >>> g = mg.trace.graph(y)
    >>> [(n.id, n.name) for n in g.nodes]
    [(0, 'AddBackward0'), (1, 'MulBackward0'), (2, 'PowBackward0'), (3, 'AccumulateGrad')]
    >>> for step in mg.trace.backward_steps(y):  # 2*x sends None to the number, as PyTorch
    ...     sent = [None if s is None else float(s) for s in step.grad_inputs]
    ...     print(step.index, step.node.name(), sent)
    0 AddBackward0 [1.0, 1.0]
    1 MulBackward0 [2.0, None]
    2 PowBackward0 [6.0]
    3 AccumulateGrad []
    >>> x.grad
    tensor(8.)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from . import errors
from .recording.function import Op
from .recording.grad_mode import no_grad
from .recording.node import AccumulateGrad, gradient_edge
from .recording.steps import Accumulation, Step
from .replaying.api import _make_grads
from .replaying.engine import BackwardPass, schedule
from .tensor import Tensor, typename

__all__ = [
    "storage",
    "local_derivatives",
    "graph",
    "backward_steps",
    "Graph",
    "NodeInfo",
    "EdgeInfo",
    "SavedInfo",
    "Step",
    "Accumulation",
]


@dataclass(frozen=True)
class SavedInfo:
    """A tensor a node saved for backward (None fields once backward freed it).

    ``nbytes`` is what it holds as stored: its array, or a sparse format's indices + values.
    """

    index: int
    shape: tuple | None
    dtype: str | None
    freed: bool
    nbytes: int | None = None


@dataclass(frozen=True)
class EdgeInfo:
    """Gradient flows from node ``src`` to node ``dst`` (the producer of input ``input_nr``)."""

    src: int
    dst: int
    input_nr: int
    output_nr: int


@dataclass(frozen=True)
class NodeInfo:
    """One node of the graph, as :func:`graph` describes it.

    Attributes:
        id: sequential id, topological (every node comes before the nodes it feeds into).
        name: PyTorch-style name, e.g. ``"MulBackward0"`` or ``"AccumulateGrad"``.
        kind: ``"op"`` for a grad_fn, ``"leaf"`` for a leaf's AccumulateGrad.
        shape, dtype: of the tensor the node produced (the leaf itself for leaves).
        inputs: ids of the nodes this one sends gradient to, one per differentiable input.
        saved: what the node saved for backward.
        leaf_name: the leaf tensor's ``name`` attribute, if set.
        node: the engine's node object (``tensor.grad_fn`` or the AccumulateGrad).
        tensor: the leaf tensor, for leaves; None for ops.
        layout: ``"strided"`` or a sparse layout (of the leaf, or of the op's output).
        nnz: stored entries of a sparse leaf or output (None when dense).
        nbytes: bytes of a sparse leaf or output in its own format (None when dense).
        density: of a sparse output, ``nnz`` over its sparse positions (a hybrid COO's
            sparse dims only); None otherwise (a leaf's is ``trace.storage(t).density``).
        grad_semantics: for ops with a sparse operand, ``"masked"`` (the gradient of
            the sparse operand only at its stored entries, ``torch.sparse.mm``) or
            ``"full"`` (a dense gradient, ``torch.mm``); None otherwise.
        densified: for leaves, the densification events of its gradient so far
            (``minigrad.sparse.DensificationEvent``: rule, cause, bytes, message).
    """

    id: int
    name: str
    kind: str
    shape: tuple | None
    dtype: str | None
    inputs: tuple
    saved: tuple
    leaf_name: str | None
    node: object = field(repr=False, compare=False)
    tensor: object = field(repr=False, compare=False)
    layout: str = "strided"
    nnz: int | None = None
    grad_semantics: str | None = None
    densified: tuple = ()
    nbytes: int | None = None
    density: float | None = None


class _Nodes(Sequence):
    """``Graph.nodes``: the :class:`NodeInfo` of each node, described when first read.

    Describing a node (shapes, dtypes, saved tensors) costs far more than walking to it, so a
    drawing that shows 200 boxes of a 200,000-node graph describes only those 200.
    """

    def __init__(self, order, ids):
        self._order, self._ids = order, ids
        self._infos: list = [None] * len(order)

    def __len__(self) -> int:
        return len(self._order)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(len(self))))
        info = self._infos[i]
        if info is None:
            info = self._infos[i] = _describe(i % len(self), self._order[i], self._ids)
        return info

    def __repr__(self) -> str:
        return f"<{len(self)} NodeInfo>"


class Graph:
    """The backward graph behind some tensors: ``nodes`` in id order and ``edges``.

    ``nodes[i]`` is the :class:`NodeInfo` of id ``i``; :meth:`name_of` and :meth:`inputs_of`
    answer the two cheap questions about a node without describing it.
    """

    def __init__(self, order: list):
        self._order = order
        self._ids = {n: i for i, n in enumerate(order)}
        self.nodes = _Nodes(order, self._ids)

    def id_of(self, node) -> int:
        """The id of an engine node (e.g. ``step.node``)."""
        return self._ids[node]

    def name_of(self, i: int) -> str:
        """The op name of node ``i`` (``nodes[i].name``, without describing the node)."""
        return self._order[i].name()

    def inputs_of(self, i: int) -> tuple:
        """Ids of the nodes node ``i`` sends gradient to (``nodes[i].inputs``, cheaply)."""
        return tuple(self._ids[n] for n, _ in self._order[i].next_functions if n is not None)

    @functools.cached_property
    def edges(self) -> tuple:
        """Every edge, as :class:`EdgeInfo`, grouped by source id."""
        ids = self._ids
        return tuple(
            EdgeInfo(i, ids[nxt], k, nr)
            for i, n in enumerate(self._order)
            for k, (nxt, nr) in enumerate(n.next_functions)
            if nxt is not None
        )

    def __len__(self) -> int:
        return len(self._order)

    def __repr__(self) -> str:
        return f"<Graph: {len(self)} nodes>"


def _describe(i, node, ids) -> NodeInfo:
    inputs = tuple(ids[n] for n, _ in node.next_functions if n is not None)
    if type(node) is AccumulateGrad:
        t = node.variable
        sparse = t.layout != "strided"
        nnz = t._data.nnz if sparse else None
        return NodeInfo(
            i,
            node.name(),
            "leaf",
            tuple(t.shape),
            t.dtype.name,
            (),
            (),
            t.name,
            node,
            t,
            t.layout,
            nnz,
            densified=node.densified,
            nbytes=t._data.nbytes if sparse else None,
        )
    meta = node._out_meta
    shape, dtype = (tuple(meta[0]), str(meta[1])) if meta else (None, None)
    if node._freed:  # one freed record per tensor the node had saved
        saved = tuple(SavedInfo(k, None, None, True) for k in range(node._saved_count()))
    else:
        saved = tuple(
            SavedInfo(k, tuple(s.shape), s.dtype.name, False, _stored_nbytes(s))
            for k, s in enumerate(node._peek_saved())
            if s is not None
        )
    sparse = meta[2:6] if meta and len(meta) == 6 else ("strided", None, None, None)
    layout, nnz, nbytes, density = sparse
    return NodeInfo(
        i,
        node.name(),
        "op",
        shape,
        dtype,
        inputs,
        saved,
        None,
        node,
        None,
        layout,
        nnz,
        getattr(node, "grad_semantics", None),
        nbytes=nbytes,
        density=density,
    )


def _stored_nbytes(s) -> int:
    """Bytes a saved tensor holds as stored (its array or sparse format); a record kept by
    saved-tensor hooks (``saved.Packed``) counts as dense, from its shape and dtype."""
    data = getattr(s, "_data", None)
    if data is not None:
        return int(data.nbytes)
    return int(np.prod(s.shape, dtype=np.int64)) * s.dtype.np.itemsize


def graph(*tensors) -> Graph:
    """Describe the backward graph behind ``tensors`` (no recursion; any size).

    The order is found now; each node's :class:`NodeInfo` is made when ``nodes[i]`` is first
    read, and describes the node as it is then (e.g. saved tensors freed by a backward pass
    that ran in between), so a huge graph costs only what is read of it.
    """
    roots = [node for node, _ in map(gradient_edge, tensors) if node is not None]
    return Graph(list(schedule(roots)))


def storage(t: Tensor):
    """What a tensor stores, to read (not to write): its numpy array, or for a sparse layout
    its format container (:class:`~minigrad.sparse.COO`, ``CSR`` or ``CSC``, with the index
    arrays and values exactly as stored, duplicates included, and ``nnz``, ``density``,
    ``nbytes`` = indices + values, ``dense_nbytes``).

    ``t.data`` is a Tensor (as in PyTorch) and ``t.numpy()`` a dense array; this is the
    container itself, whose bytes are what ``viz`` and ``mg.sparse.memory_report`` show.

    Example:
        >>> import minigrad as mg
        >>> s = mg.tensor([[0.0, 2.0], [3.0, 0.0]]).to_sparse()
        >>> fmt = mg.trace.storage(s)
        >>> type(fmt).__name__, fmt.nnz, fmt.nbytes, fmt.dense_nbytes
        ('COO', 2, 40, 16)
        >>> mg.trace.storage(mg.zeros(2, 3)).nbytes
        24
    """
    if not isinstance(t, Tensor):
        raise TypeError(errors.NOT_A_TENSOR.format(what="storage(t): t", got=typename(t)))
    return t._data


def local_derivatives(node) -> tuple | None:
    """For an elementwise op, d(output)/d(input_k) at every element, one array per input.

    This is what the chain rule multiplies the upstream gradient by at this node:
    ``contribution_k = upstream * local_k``. It is computed by running the node's own
    backward formula on a gradient of ones, so it needs the saved tensors (call it
    before backward frees them, or on a graph kept with ``retain_graph=True``). Returns
    None for nodes that are not elementwise (a matmul's "local derivative" is a whole
    Jacobian; its contribution is a vector-Jacobian product); an entry is None where
    that input was broadcast (its gradient is summed, not elementwise).

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x * x
        >>> [d.tolist() for d in mg.trace.local_derivatives(y.grad_fn)]
        [[1.0, 2.0], [1.0, 2.0]]
    """
    if not isinstance(node, Op) or not node.elementwise or node._freed:
        return None
    shape, dtype = node._out_meta[:2]
    with no_grad():
        out = node.backward(node, Tensor._make(np.ones(shape, dtype), False, None))
    out = out if isinstance(out, tuple) else (out,)
    return tuple(
        None if g is None or tuple(g.shape) != tuple(shape) else np.asarray(g._data) for g in out
    )


def backward_steps(tensors, grad_tensors=None, retain_graph=None, create_graph=False, store=None):
    """The backward pass as a generator of :class:`Step` records.

    Arguments are those of ``backward()``. Running the generator to the end has
    exactly the effect of ``backward()``; with ``store`` (a dict), leaf gradients
    go into ``store[leaf]`` instead, and the users' ``.grad`` stay as they were.
    """
    outputs = tuple(tensors) if isinstance(tensors, (tuple, list)) else (tensors,)
    grads = _make_grads(
        outputs,
        None
        if grad_tensors is None
        else (tuple(grad_tensors) if isinstance(grad_tensors, (tuple, list)) else (grad_tensors,)),
    )
    if retain_graph is None:
        retain_graph = create_graph
    return iter(BackwardPass(outputs, grads, retain_graph, create_graph, store=store))
