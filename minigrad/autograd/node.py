"""Nodes of the backward graph (PyTorch: ``torch.autograd.graph.Node``).

A tensor's ``grad_fn`` is a :class:`Node`. Each node knows the edges to the
nodes that produced its inputs (``next_functions``, as in PyTorch), the tensors
it saved for backward, and the hooks registered on its outputs. Leaves that
require grad get an :class:`AccumulateGrad` node, whose job is to add the
arriving gradient into ``leaf.grad``.

Why the internals look the way they do: a long forward pass creates one node
per op, and each object that outlives a few hundred allocations is promoted
by Python's cyclic garbage collector and later walked by a *full* collection,
which also walks every other object in the process (some 170,000 once PyTorch
is imported). So a one-input op leaves nothing behind but its node
(``tests/engine/test_gc_footprint.py`` pins it):

* ``__slots__``, no ``__dict__``;
* edges in ``_next``: for the common one-input op whose input came from output 0
  of its producer, the producer node itself; otherwise one flat tuple
  ``(node0, nr0, node1, nr1, ...)``. Read them with :meth:`Node._edges`;
* a saved output is kept as its array and version number, not as the tensor
  (which would be a cycle) nor by weak reference (another object): in-place
  writes report to the tensor's ``grad_fn`` instead (:meth:`Node._note_version`);
* the output's shape and dtype in two slots rather than a tuple holding a dtype,
  which the collector could never drop.
"""

from __future__ import annotations

import itertools
import traceback
import weakref

from .. import errors

_sequence = itertools.count()  # creation order; the engine runs later nodes first
_Tensor = None  # set by minigrad.tensor once Tensor exists (avoids an import cycle)


class Node:
    """Base of every backward node. Subclasses define ``backward(ctx, *grads)``.

    Attributes:
        next_functions: one ``(node_or_None, output_nr)`` pair per differentiable
            input, pointing at whatever produced that input.
        sequence_nr: creation order (PyTorch: ``Node._sequence_nr()``).
    """

    __slots__ = (
        "_next",
        "_seq",
        "_saved",
        "_saved_versions",
        "_freed",
        "_pre_hooks",
        "_anomaly_trace",
        "_out_shape",
        "_out_dtype",
        "_out_sparse",
        "_out_data",
        "_out_version",
        "_out_now",
        "_out_ref",
        "__weakref__",
    )
    n_outputs = 1
    _kind = 0  # what the engine does with it: 0 built-in op, 1 leaf accumulation, 2 custom

    def _init_node(self) -> None:
        """Set the slots every node needs (``Op.apply`` repeats this inline: keep in step)."""
        self._seq = next(_sequence)
        self._saved = None
        self._saved_versions = ()
        self._freed = False
        self._pre_hooks = None
        self._anomaly_trace = None
        self._out_shape = None  # shape and numpy dtype of output 0, for introspection
        self._out_data = None  # the array of a saved output (see _save_output)

    node_name: str | None = None  # set where PyTorch's name differs from the class name

    def name(self) -> str:
        """The node's name, e.g. ``"MulBackward"`` (PyTorch adds a digit: ``MulBackward0``)."""
        return self.node_name or type(self).__name__ + "Backward"

    def __repr__(self) -> str:
        return f"<{self.name()}>"

    def _edges(self) -> tuple:
        """The edges as one flat tuple ``(node0, nr0, node1, nr1, ...)``."""
        nx = self._next
        return nx if type(nx) is tuple else (nx, 0)

    @property
    def next_functions(self) -> tuple:
        """``((node, output_nr), ...)``, one pair per differentiable input."""
        nx = self._edges()
        return tuple((nx[k], nx[k + 1]) for k in range(0, len(nx), 2))

    @property
    def needs_input_grad(self) -> tuple:
        """One bool per differentiable input: does a gradient for it lead anywhere?"""
        nx = self._edges()
        return tuple(nx[k] is not None for k in range(0, len(nx), 2))

    @property
    def _out_meta(self) -> tuple | None:
        """``(shape, numpy dtype)`` of output 0, plus ``(layout, nnz, nbytes)`` if sparse."""
        if self._out_shape is None:
            return None
        return (self._out_shape, self._out_dtype) + (getattr(self, "_out_sparse", None) or ())

    @property
    def sequence_nr(self) -> int:
        """Creation order of the node."""
        return self._seq

    # --- saved tensors ------------------------------------------------------
    def save_for_backward(self, *tensors) -> None:
        """Keep tensors for backward; their versions are checked when read."""
        from ..tensor import Tensor

        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(errors.SAVE_NOT_TENSOR.format(i=i, got=type(t).__name__))
        self._saved = tensors
        self._saved_versions = tuple(None if t is None else t._version for t in tensors)

    def _save_output(self, out) -> None:
        """Save this node's own output without a reference cycle (out -> node -> out).

        Like PyTorch's SavedVariable for outputs: the node keeps the array and
        the version, and backward gets a tensor rebuilt from them (same data,
        ``grad_fn`` = this node). ``out`` must own its version counter (not a
        view): an in-place write to it, or to a view of it, bumps that counter
        and tells ``out.grad_fn`` (this node), see :meth:`_note_version`.
        """
        if out._base is not None:
            raise RuntimeError("internal error: an op saved an output that is a view")
        self._out_data = out.data
        self._out_version = self._out_now = out._ver
        self._out_ref = None

    def _note_version(self, version: int) -> None:
        """The output this node saved was modified in place (called by ``_bump_version``)."""
        if self._out_data is not None:
            self._out_now = version

    def _keep_output_identity(self, out) -> None:
        """Make ``saved_tensors`` hand back ``out`` itself while it lives (not a rebuilt twin).

        Forward mode needs this: it keys tangents by tensor identity. Costs a weak
        reference, so ordinary recording does not do it.
        """
        if self._out_data is not None and self._out_data is out.data:
            self._out_ref = weakref.ref(out)

    def _saved_output(self):
        ref = self._out_ref
        if ref is not None and ref() is not None:
            return ref()
        out = _Tensor._make(self._out_data, True, self)
        out._ver = self._out_now
        return out

    def _peek_saved(self) -> tuple:
        """The saved tensors without version checks (for introspection)."""
        saved = tuple(self._saved or ())
        if self._out_data is not None:
            saved += (self._saved_output(),)
        return saved

    @property
    def saved_tensors(self) -> tuple:
        """The saved tensors; raises if freed by backward or modified in place since."""
        if self._freed:
            raise RuntimeError(errors.BACKWARD_TWICE.format(node=self.name()))
        saved = self._saved
        if saved is not None:
            for i, (t, v) in enumerate(zip(saved, self._saved_versions)):
                if t is not None and t._version != v:
                    raise RuntimeError(self._version_error(t, i, v))
        if self._out_data is None:
            return () if saved is None else saved
        out = self._saved_output()
        if self._out_now != self._out_version:
            raise RuntimeError(self._version_error(out, 0, self._out_version))
        return (out,) if saved is None else saved + (out,)

    def _version_error(self, t, idx, saved_version) -> str:
        return errors.VERSION_MISMATCH.format(
            desc=f"{t.dtype.name} {list(t.shape)}",
            idx=idx,
            node=self.name(),
            now=t._version,
            saved=saved_version,
        )

    def release(self) -> None:
        """Free saved tensors after backward (unless ``retain_graph``)."""
        self._saved = None
        self._out_data = None
        self._out_ref = None
        self._freed = True

    # --- hooks ----------------------------------------------------------------
    def _add_pre_hook(self, output_nr: int, hook) -> None:
        if self._pre_hooks is None:
            self._pre_hooks = {}
        self._pre_hooks.setdefault(output_nr, []).append(hook)

    # --- graph construction -----------------------------------------------------
    def _link(self, inputs) -> None:
        """Record the edges to the inputs' producers (called once at creation)."""
        nx = []
        for t in inputs:
            nx.extend(t._edge())
        self._next = nx[0] if len(nx) == 2 and nx[1] == 0 and nx[0] is not None else tuple(nx)

    def _record_trace(self) -> None:
        """Anomaly mode: remember where the forward op was called."""
        self._anomaly_trace = "".join(traceback.format_stack()[:-3])


class AccumulateGrad(Node):
    """Adds the arriving gradient into ``variable.grad`` (PyTorch: ``AccumulateGrad``)."""

    __slots__ = ("variable", "densified")
    _kind = 1

    def __init__(self, variable):
        self._init_node()
        self._next = ()
        self.variable = variable
        self.densified = ()  # densification events of this leaf's gradient, in order

    def name(self) -> str:
        return "AccumulateGrad"
