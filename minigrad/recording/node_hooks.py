"""A node's own hooks, PyTorch's ``grad_fn.register_prehook(fn)`` and ``grad_fn.register_hook(fn)``
(a feature the core does without: the engine calls :func:`run_node_hooks` only for a node that has
one). They run around the node's backward formula, after the hooks of its output tensors.
"""

from __future__ import annotations

from .. import errors
from ..tensor import _HookHandle


class NodeHooks:
    """A node's own hooks (PyTorch's ``Node.register_prehook`` / ``register_hook``), which the
    engine runs around the node's backward formula, after the hooks of its output tensors."""

    _node_hooks = None  # {"pre": [...], "post": [...]} once one is registered

    def register_prehook(self, fn):
        """In backward, call ``fn(grad_outputs)`` before this node's formula; a tuple it
        returns replaces ``grad_outputs``. Returns a handle with ``remove()``."""
        return self._add_node_hook("pre", fn)

    def register_hook(self, fn):
        """In backward, call ``fn(grad_inputs, grad_outputs)`` after this node's formula; a
        tuple it returns replaces ``grad_inputs``. Returns a handle with ``remove()``."""
        return self._add_node_hook("post", fn)

    def _add_node_hook(self, kind: str, fn):
        if not callable(fn):
            raise TypeError(errors.HOOK_NOT_CALLABLE.format(got=type(fn).__name__))
        if self._node_hooks is None:
            self._node_hooks = {"pre": [], "post": []}
        self._node_hooks[kind].append(fn)
        return _HookHandle(self._node_hooks[kind], fn)


def run_node_hooks(node, kind: str, grads, *also):
    """The node's pre-hooks ``fn(grad_outputs)`` (``kind="pre"``) or hooks
    ``fn(grad_inputs, grad_outputs)`` (``"post"``, ``also`` = the grad_outputs): each may
    return a tuple that replaces ``grads``, one entry per entry."""
    grads = tuple(grads)
    for fn in tuple(node._node_hooks[kind]):
        new = fn(grads, *also)
        if new is not None:
            new = tuple(new) if isinstance(new, (tuple, list)) else (new,)
            if len(new) != len(grads):
                raise RuntimeError(errors.NODE_HOOK_COUNT.format(got=len(new), want=len(grads)))
            grads = new
    return grads
