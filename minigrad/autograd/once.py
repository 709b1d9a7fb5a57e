"""``once_differentiable`` (``torch.autograd.function.once_differentiable``): the decorator for
a custom Function's ``backward`` that is written outside autograd (numpy, in-place updates).

As PyTorch's: the backward runs under ``no_grad``. When a backward records a graph
(``create_graph=True``) and a gradient flowing in requires grad, the gradients it returns
become leaves of a node whose backward raises, so a second derivative through the Function
fails loudly ("trying to differentiate twice ...") instead of silently being zero.
"""

from __future__ import annotations

import functools

from ..recording.function import Function
from ..recording.grad_mode import is_grad_enabled, no_grad
from ..tensor import Tensor

TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"


class DelayedError(Function):
    """Passes its inputs through; its backward raises (PyTorch's ``DelayedError`` node)."""

    @staticmethod
    def forward(ctx, *tensors):
        return tuple(t.clone() for t in tensors)

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(TWICE)


def once_differentiable(backward):
    """Run ``backward(ctx, *grads)`` without recording; see the module's docstring."""

    @functools.wraps(backward)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = backward(ctx, *args)
        recording = is_grad_enabled() and any(
            isinstance(a, Tensor) and a.requires_grad for a in args
        )
        if not recording:
            return outputs
        single = not isinstance(outputs, tuple)
        outputs = (outputs,) if single else outputs
        tensors = [o for o in outputs if isinstance(o, Tensor)]
        if not tensors:
            return outputs[0] if single else outputs
        delayed = iter(DelayedError.apply(*(t.detach().requires_grad_(True) for t in tensors)))
        wrapped = tuple(next(delayed) if isinstance(o, Tensor) else o for o in outputs)
        return wrapped[0] if single else wrapped

    return wrapper
