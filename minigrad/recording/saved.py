"""Saved tensors kept by hooks (PyTorch: a ``SavedVariable`` with hooks, ``SavedTensor``).

A node normally keeps the tensors its backward needs as they are (``node.py``). While a
:class:`minigrad.recording.graph.saved_tensors_hooks` context is active, each tensor a node
saves goes to its ``pack_hook`` instead, and the node keeps whatever that returns: a copy
elsewhere, a file name, a compressed form. When backward (or ``ctx.saved_tensors``, or
``grad_fn._saved_self``) reads it, ``unpack_hook`` turns it back into a tensor. What the node
keeps for one such tensor is a :class:`Packed` record.

This module holds the hooks' state (one module-level object, so the per-op check is one
attribute read, as for grad mode), the :class:`Packed` record, :class:`SavedSlots` (a
node's saved tensors one at a time, which ``Node`` inherits), the :class:`SavedTensor` handle
behind ``grad_fn._raw_saved_<name>``, and the code that gives a node class PyTorch's
``grad_fn._saved_<name>`` attributes from its ``saved_names`` / ``saved_values`` tables.
"""

from __future__ import annotations

import weakref

import numpy as np

from .. import errors
from ..tensor import Tensor
from . import grad_mode


class _State:
    def __init__(self):
        self.stack: list = []  # (pack_hook, unpack_hook) pairs; the innermost is last
        self.disabled: str | None = None  # disable_saved_tensors_hooks' message, while on


state = _State()


def check_hooks(pack_hook, unpack_hook, where: str) -> tuple:
    """The pair, once both are known to be callable."""
    for what, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
        if not callable(hook):
            raise TypeError(
                errors.SAVED_HOOK_NOT_CALLABLE.format(
                    where=where, what=what, got=type(hook).__name__
                )
            )
    return pack_hook, unpack_hook


class Packed:
    """One saved tensor kept by hooks: what ``pack_hook`` returned, and what it takes to give
    backward a tensor again.

    Attributes:
        value: what ``pack_hook`` returned.
        unpack_hook: the hook that turns ``value`` back into a tensor.
        shape, dtype: the saved tensor's (``trace`` describes the node by them; the unpacked
            tensor must have them too).
        edge: where the saved tensor's gradient went, ``(node, input_nr)`` as in
            ``next_functions``; None when it is the saving node's own output ``output_nr``
            (kept apart so that the node does not keep itself alive).
        source, version: a weak reference to the saved tensor and its version when saved,
            so an in-place change since is caught while the unpacked tensor shares its memory.
    """

    __slots__ = ("value", "unpack_hook", "shape", "dtype", "edge", "output_nr", "source", "version")

    def __init__(self, t, hooks, edge, output_nr: int = 0, version: int | None = None):
        pack_hook, self.unpack_hook = hooks
        before = t._version
        with grad_mode.no_grad():  # as in PyTorch: what the hook computes is not recorded
            self.value = pack_hook(t)
        if t._version != before:
            raise RuntimeError(errors.PACK_INPLACE)
        self.version = before if version is None else version  # the version when saved
        self.shape, self.dtype = t.shape, t.dtype
        self.edge, self.output_nr = edge, output_nr
        self.source = weakref.ref(t)

    def unpack(self, node_name: str) -> Tensor:
        """``unpack_hook(value)``, checked: a Tensor of the saved shape and dtype."""
        t = self.unpack_hook(self.value)
        if not isinstance(t, Tensor):
            raise TypeError(errors.UNPACK_NOT_TENSOR.format(got=type(t).__name__))
        if t.shape != self.shape or t.dtype is not self.dtype:
            raise RuntimeError(
                errors.UNPACK_CHANGED.format(
                    got_shape=list(t.shape),
                    got_dtype=t.dtype,
                    node=node_name,
                    shape=list(self.shape),
                    dtype=self.dtype,
                )
            )
        return t

    def modified_since(self, t: Tensor) -> Tensor | None:
        """The saved tensor, if it was modified in place after it was saved and ``t`` (the
        unpacked tensor) still shares its memory; else None.

        PyTorch checks no versions through hooks. Here the check stays wherever it can tell:
        a pack hook that kept the tensor itself (or a view of it) would otherwise give
        backward the new values silently; one that copied it is not affected.
        """
        source = self.source()
        if source is None or source._version == self.version:
            return None
        a, b = t._data, source._data
        shared = a is b or (
            type(a) is np.ndarray and type(b) is np.ndarray and np.may_share_memory(a, b)
        )
        return source if shared else None


class SavedSlots:
    """The saved tensors of a node one at a time: what saved-tensor hooks and
    ``grad_fn._saved_<name>`` need. :class:`~minigrad.recording.node.Node` inherits it, so
    ``node.py`` keeps only the plain path (``saved_tensors`` reads them all at once).

    Slots number the saved tensors as ``saved_tensors`` does: those in ``_saved``, then the
    output. A slot whose tensor went to a pack hook holds a :class:`Packed` record in
    ``_packed`` instead.
    """

    _packed = None  # {slot: Packed}: saved tensors kept by saved-tensor hooks

    def _peek_saved(self) -> tuple:
        """The saved tensors without version checks or unpack hooks (``trace`` reads them); one
        kept by hooks shows as its ``saved.Packed`` record, which has its shape and dtype."""
        if self._packed is not None:
            slots = range(self._slot_count())
            return tuple(self._packed.get(i) or self._plain_slot(i)[0] for i in slots)
        saved = tuple(self._saved or ())
        if self._out_data is not None:
            saved += (self._rebuilt_output(),)
        return saved

    def _slot_count(self) -> int:
        n = len(self._saved or ())
        packed_output = self._packed is not None and n in self._packed
        return n + (self._out_data is not None or packed_output)

    def _plain_slot(self, slot: int) -> tuple:
        """``(tensor, its version when saved)`` as the node keeps it; ``(None, None)`` for a
        slot whose tensor went to hooks (or a saved None)."""
        saved = self._saved or ()
        if slot < len(saved):
            return saved[slot], self._versions_at_save[slot]
        if self._out_data is None:
            return None, None
        return self._rebuilt_output(), self._out_version

    def _read_slot(self, slot: int):
        """``saved_tensors[slot]`` alone: unpacked if hooks keep it, else version-checked."""
        if self._freed:
            raise RuntimeError(errors.BACKWARD_TWICE.format(node=self.name()))
        packed = None if self._packed is None else self._packed.get(slot)
        if packed is not None:
            return self._unpack(slot, packed)
        t, version = self._plain_slot(slot)
        if t is not None and t._version != version:
            raise RuntimeError(self._version_error(t, self._slot_idx(slot), version))
        return t

    def _slot_idx(self, slot: int) -> int:
        """The index the version error names: the slot, or 0 for the node's output."""
        return slot if slot < len(self._saved or ()) else 0

    def _pack_slot(self, slot: int, hooks) -> None:
        """Hand the tensor in ``slot`` to ``pack_hook`` and keep what it returns instead."""
        from .node import gradient_edge  # node.py imports this module (Node is a SavedSlots)

        t, version = self._plain_slot(slot)
        node, nr = gradient_edge(t)
        if node is self:  # the node's own output: no edge to itself (it would keep itself)
            record = Packed(t, hooks, None, nr, version)
        else:
            record = Packed(t, hooks, (node, nr), version=version)
        if slot < len(self._saved or ()):
            self._saved = self._saved[:slot] + (None,) + self._saved[slot + 1 :]
        else:
            self._out_data = self._out_ref = None
        if self._packed is None:
            self._packed = {}
        self._packed[slot] = record

    def _pack_saved(self, hooks) -> None:
        """``saved_tensors_hooks`` is on: every tensor just saved goes to its pack hook."""
        for slot in range(self._slot_count()):
            if self._plain_slot(slot)[0] is not None:
                self._pack_slot(slot, hooks)

    def _unpack(self, slot: int, record):
        """The unpack hook's tensor, put where the saved one was in the graph."""
        t = record.unpack(self.name())
        stale = record.modified_since(t)
        if stale is not None:
            raise RuntimeError(self._version_error(stale, self._slot_idx(slot), record.version))
        return _reattached(t, record.edge or (self, record.output_nr))


def _reattached(t, edge):
    """A tensor with ``t``'s values whose gradient flows along ``edge``, as the saved tensor's
    did. PyTorch does the same with what an unpack hook returns, so a hook may return a
    detached copy and double backward still reaches the saved tensor's history."""
    from .node import AccumulateGrad  # node.py imports this module (Node is a SavedSlots)

    node, nr = edge
    if node is None:
        return t
    if isinstance(node, AccumulateGrad):  # a leaf: a new leaf that accumulates into it
        new = type(t)._make(t._data, True, None)
        new._acc = weakref.ref(node)
        return new
    new = type(t)._make(t._data, True, node)
    new._output_nr = nr
    return new


class SavedTensor:
    """``grad_fn._raw_saved_<name>``: one tensor a node saved (PyTorch:
    ``torch._C._autograd.SavedTensor``).

    Its one method, :meth:`register_hooks`, gives this tensor hooks of its own, as
    ``saved_tensors_hooks`` does for every tensor saved inside it.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x.pow(2)
        >>> y.grad_fn._saved_self is x, y.grad_fn._saved_exponent
        (True, 2)
        >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t.tolist(), mg.tensor)
        >>> y.sum().backward()  # unpack: mg.tensor([1.0, 2.0])
        >>> x.grad
        tensor([2., 4.])
    """

    __slots__ = ("_node", "_slot")

    def __init__(self, node, slot: int):
        self._node, self._slot = node, slot

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        """Call ``pack_hook(tensor)`` now and keep what it returns instead of the tensor;
        ``unpack_hook(packed)`` gives the tensor back each time it is read.

        Raises RuntimeError, as PyTorch does, after backward freed it, when it already has
        hooks (its own, or those of a ``saved_tensors_hooks`` context it was saved in), and
        for a saved None.
        """
        hooks = check_hooks(pack_hook, unpack_hook, "register_hooks()")
        node = self._node
        if node._freed:
            raise RuntimeError(errors.SAVED_HOOKS_FREED)
        if node._packed is not None and self._slot in node._packed:
            raise RuntimeError(errors.SAVED_HOOKS_TWICE)
        if node._plain_slot(self._slot)[0] is None:
            raise RuntimeError(errors.SAVED_HOOKS_NONE)
        node._pack_slot(self._slot, hooks)

    def __repr__(self) -> str:
        return f"<SavedTensor {self._slot} of {self._node.name()}>"


# --- grad_fn._saved_<name>: PyTorch's names for what a node saved ----------------------------
def install_saved_attributes(cls) -> None:
    """Give a node class the attributes its ``saved_names`` and ``saved_values`` tables name.

    ``saved_names[i]`` names ``saved_tensors[i]``: ``_saved_<name>`` reads it (version checks,
    unpack hooks and all) and ``_raw_saved_<name>`` is its :class:`SavedTensor`.
    ``saved_values[name](ctx)`` is a value that is not a saved tensor, e.g. a dim.
    """
    for slot, name in enumerate(cls.__dict__.get("saved_names", ())):
        setattr(cls, "_saved_" + name, property(lambda node, i=slot: node._read_slot(i)))
        setattr(cls, "_raw_saved_" + name, property(lambda node, i=slot: SavedTensor(node, i)))
    for name, value_of in cls.__dict__.get("saved_values", {}).items():
        setattr(cls, "_saved_" + name, property(value_of))
