"""Resetting gradients: shared by ``Module.zero_grad`` and ``Optimizer.zero_grad``."""

from __future__ import annotations

from collections.abc import Iterable

from ...tensor import Tensor


def zero_grads(params: Iterable[Tensor], set_to_none: bool = True) -> None:
    """Set each ``p.grad`` to None, or zero it in place (``set_to_none=False``), as PyTorch."""
    for p in params:
        grad = p.grad
        if grad is None:
            continue
        if set_to_none:
            p.grad = None
            continue
        if grad.grad_fn is not None:
            grad.detach_()
        else:
            grad.requires_grad_(False)
        grad.zero_()
