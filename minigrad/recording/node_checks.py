"""What runs around a node's backward: tensor hooks, and the checks on what a custom
``Function`` or an anomaly-mode run returns. (The node's own hooks, ``grad_fn.register_hook``,
are in :mod:`.node_hooks`.)
"""

from __future__ import annotations

import numpy as np

from .. import errors
from ..factory import zeros
from ..tensor import RetainGrad, Tensor


def run_pre_hooks(node, grads):
    """Tensor hooks on a non-leaf output (``register_hook``); ``retain_grad``'s notes are left
    to the engine (:func:`retained`)."""
    grads = list(grads)
    for nr, fns in node._pre_hooks.items():
        if grads[nr] is not None:
            grads[nr] = run_hooks(fns, grads[nr])
    return grads


def retained(node, grads):
    """``(tensor, gradient)`` for each output of ``node`` that retains its grad and got one."""
    for nr, fns in node._pre_hooks.items():
        for fn in fns:
            t = fn.tensor() if isinstance(fn, RetainGrad) else None
            if t is not None and grads[nr] is not None:
                yield t, grads[nr]


def run_hooks(fns, g):
    """Call each hook on the gradient; a hook may return a replacement of the same shape."""
    for fn in fns:
        if isinstance(fn, RetainGrad):
            continue
        result = fn(g)
        if result is None:
            continue
        if not isinstance(result, Tensor) or result.shape != g.shape or result.dtype is not g.dtype:
            got = getattr(result, "shape", type(result).__name__)
            raise RuntimeError(
                errors.HOOK_CHANGED.format(
                    name=getattr(fn, "__name__", repr(fn)),
                    got=got,
                    shape=tuple(g.shape),
                    dtype=g.dtype,
                )
            )
        g = result
    return g


def materialize_grads(node, grads):
    """Custom Functions get zeros for outputs that received no gradient."""
    if not node.materialize_grads or all(g is not None for g in grads):
        return grads
    return [
        zeros(*shape, dtype=dtype) if g is None else g
        for g, (shape, dtype) in zip(grads, node._output_meta)
    ]


def check_custom_grads(node, out):
    """Validate a custom Function's gradients against its inputs, then keep the tensor ones."""
    is_tensor = node._arg_is_tensor
    if len(out) < len(is_tensor) or any(g is not None for g in out[len(is_tensor) :]):
        raise RuntimeError(
            errors.WRONG_GRAD_COUNT.format(node=node.name(), want=len(is_tensor), got=len(out))
        )
    kept = []
    for i, (g, flag) in enumerate(zip(out, is_tensor)):
        if not flag:
            if g is not None:
                raise RuntimeError(errors.GRAD_FOR_NON_TENSOR.format(node=node.name(), i=i + 1))
            continue
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(errors.WRONG_GRAD_TYPE.format(node=node.name(), i=i, got=type(g)))
        kept.append((i, g))
    for (i, g), (shape, dtype) in zip(kept, node._input_meta):
        if g is not None and g.shape != shape:
            raise RuntimeError(
                errors.WRONG_GRAD_SHAPE.format(
                    node=node.name(),
                    i=i,
                    got=f"[{', '.join(map(str, g.shape))}]",
                    want=f"[{', '.join(map(str, shape))}]",
                )
            )
        if g is not None and g.dtype is not dtype:
            raise RuntimeError(
                f"Function {node.name()} returned a gradient of dtype {g.dtype} at index {i} "
                f"for an input of dtype {dtype}; return the input's dtype"
            )
    return tuple(g for _, g in kept)


def check_nan(node, out) -> None:
    for i, g in enumerate(out):
        if g is not None and g.dtype.is_floating_point and np.isnan(g._data).any():
            msg = errors.ANOMALY_NAN.format(node=node.name(), i=i)
            if node._anomaly_trace:
                msg += (
                    "\n\nTraceback of forward call that caused the error:\n" + node._anomaly_trace
                )
            raise RuntimeError(msg)
