"""``once_differentiable``: a custom Function's backward that cannot itself be differentiated.

Importable from ``minigrad.autograd.function``, PyTorch's path (``autograd/function.py``
puts it there).
"""

from __future__ import annotations

import functools

from .. import errors
from ..tensor import Tensor
from . import grad_mode
from .function import Function

_grad = grad_mode.state


def once_differentiable(backward):
    """Decorate a custom Function's ``backward`` that cannot itself be differentiated
    (``torch.autograd.function.once_differentiable``): say, one computed in numpy.

    It runs under ``no_grad``. Under ``create_graph=True``, gradients it returns that would
    otherwise be differentiated further (an incoming gradient required grad) are tied to a
    node that raises when a second backward reaches it, instead of giving a silently wrong
    (zero) second derivative.
    """

    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        with grad_mode.no_grad():
            outputs = backward(ctx, *grads)
        upstream = [g for g in grads if isinstance(g, Tensor) and g.requires_grad]
        if not _grad.enabled or not upstream:
            return outputs
        single = not isinstance(outputs, tuple)
        tied = tuple(
            _DifferentiatedTwice.apply(o, *upstream) if isinstance(o, Tensor) else o
            for o in ((outputs,) if single else outputs)
        )
        return tied[0] if single else tied

    return wrapper


class _DifferentiatedTwice(Function):
    """The node ``once_differentiable`` puts above its gradients (PyTorch's DelayedError)."""

    @staticmethod
    def forward(ctx, grad, *upstream):
        return grad.detach()

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError(errors.ONCE_DIFFERENTIABLE)
