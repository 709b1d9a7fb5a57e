"""Hooks on the tensors the graph saves for backward (``torch.autograd.graph``).

Every node keeps what its backward needs: ``x * y`` keeps ``x`` and ``y``, ``x.tanh()`` its
output. Inside :class:`saved_tensors_hooks`, each tensor a node saves is handed to your
``pack_hook`` as it is saved, and the node keeps what the hook returns instead; when backward
needs the tensor, your ``unpack_hook`` turns that back into one. PyTorch uses this to offload
activations (:class:`save_on_cpu`), and to recompute them instead of keeping them
(non-reentrant checkpointing).

``grad_fn._saved_<name>`` (e.g. ``_saved_self``, ``_saved_result``) shows what one node saved,
under PyTorch's names, and ``grad_fn._raw_saved_<name>.register_hooks(pack, unpack)`` gives one
saved tensor hooks of its own.
"""

from __future__ import annotations

import contextlib

from .. import errors
from .node import Node
from .saved import SavedTensor, check_hooks, state

__all__ = [
    "Node",
    "SavedTensor",
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
]


class saved_tensors_hooks:  # noqa: N801  (PyTorch's name)
    """Pack every tensor saved for backward inside the block; unpack it when it is read.

    ``pack_hook(tensor)`` runs when a node saves ``tensor`` (with grad mode off; it must not
    modify ``tensor`` in place) and may return anything. ``unpack_hook(packed)`` runs each time
    backward, ``ctx.saved_tensors`` or ``grad_fn._saved_<name>`` reads it, and must return a
    tensor of the saved tensor's shape and dtype (which minigrad checks; PyTorch only checks
    that it is a tensor). The tensor it returns is put where the saved one was in the graph,
    so double backward works even when ``pack_hook`` detaches. Contexts nest: the innermost
    pair applies. The hooks a tensor was saved with are the ones that unpack it, wherever it
    is read.

    NB: PyTorch checks no version counters through hooks, so it misses an in-place change of
    a saved tensor that ``pack_hook`` kept as it is. minigrad still raises the in-place error
    while the unpacked tensor shares the modified tensor's memory. And as in PyTorch, a
    ``pack_hook`` that returns a node's output itself makes a reference cycle (output, node,
    what it packed) that only backward, or Python's garbage collector, breaks.

    Example:
        >>> import minigrad as mg
        >>> from minigrad.recording.graph import saved_tensors_hooks
        >>> calls = []
        >>> def pack(t):
        ...     calls.append("pack")
        ...     return t.detach().clone()  # e.g. move it elsewhere
        >>> def unpack(packed):
        ...     calls.append("unpack")
        ...     return packed
        >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> with saved_tensors_hooks(pack, unpack):
        ...     y = (x * x).sum()  # Mul saves both operands: two packs
        >>> y.backward()
        >>> calls, x.grad
        (['pack', 'pack', 'unpack', 'unpack'], tensor([2., 4.]))
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook, self.unpack_hook = check_hooks(
            pack_hook, unpack_hook, "saved_tensors_hooks"
        )

    def __enter__(self):
        if state.disabled is not None:
            raise RuntimeError(state.disabled)
        state.stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc):
        state.stack.pop()
        return False


class save_on_cpu(saved_tensors_hooks):  # noqa: N801  (PyTorch's name)
    """Keep the tensors saved inside the block on the CPU, and move each back to its device
    when backward needs it (PyTorch's ``torch.autograd.graph.save_on_cpu``).

    minigrad tensors always live on the CPU, so this keeps them as they are
    (``pin_memory=True`` keeps a copy of a dense tensor instead, as PyTorch's pinned buffer
    is one); it is here so that code written for a GPU runs unchanged. ``device_type`` is
    accepted and ignored.

    Example:
        >>> import minigrad as mg
        >>> from minigrad.recording.graph import save_on_cpu
        >>> x = mg.tensor([1.0, 2.0], requires_grad=True)
        >>> with save_on_cpu(pin_memory=True):
        ...     y = x.exp().sum()
        >>> y.backward()
        >>> x.grad
        tensor([2.7183, 7.3891])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda"):
        def pack_to_cpu(t):
            copy = pin_memory and t.layout == "strided"
            return t.device, (t.detach().clone() if copy else t)

        def unpack_from_cpu(packed):
            device, t = packed
            return t.to(device)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str):
    """Forbid saved-tensor hooks inside the block: entering :class:`saved_tensors_hooks`
    there raises ``RuntimeError(error_message)``, and so does entering this block while such
    hooks are on (PyTorch's ``torch.autograd.graph.disable_saved_tensors_hooks``).

    Example:
        >>> from minigrad.recording.graph import disable_saved_tensors_hooks, saved_tensors_hooks
        >>> with disable_saved_tensors_hooks("no hooks in here"):
        ...     saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        Traceback (most recent call last):
        RuntimeError: no hooks in here
    """
    if not isinstance(error_message, str):
        raise TypeError(
            errors.NOT_A_STR.format(what="error_message", got=type(error_message).__name__)
        )
    if state.stack:
        raise RuntimeError(error_message)
    previous, state.disabled = state.disabled, error_message
    try:
        yield
    finally:
        state.disabled = previous
