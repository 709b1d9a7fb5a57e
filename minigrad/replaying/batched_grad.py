"""``torch.autograd.grad(..., is_grads_batched=True)``: many vector-Jacobian products at once.

With ``is_grads_batched=True`` each ``grad_outputs[i]`` carries a leading batch dimension:
row b is one gradient of ``outputs[i]``, and the answer stacks the b-th vector-Jacobian
product as row b of each input's gradient. ``grad_outputs = eye(n)`` so gives the whole
Jacobian of an n-vector in one call. PyTorch vectorises this with ``vmap``; here it is a
loop of ordinary backward passes over the rows, keeping the graph until the last one.
"""

from __future__ import annotations

from ..errors import autograd_functional as errors
from ..ops.select import stack
from ..tensor import Tensor


def grad_rows(plain_grad, outputs, inputs, grad_outputs, retain_graph, create_graph, **kwargs):
    """``plain_grad`` (:func:`minigrad.replaying.api.grad`) once per row of ``grad_outputs``,
    the graph kept until the last row; each input's gradients stacked, row b from row b."""
    rows = _as_tuple(grad_outputs)
    if not rows or any(not isinstance(g, Tensor) or g.ndim == 0 for g in rows):
        raise RuntimeError(errors.BATCHED_GRAD_OUTPUTS)
    n = rows[0].shape[0]
    if any(g.shape[0] != n for g in rows):
        raise RuntimeError(errors.BATCHED_SIZES.format(sizes=[g.shape[0] for g in rows]))
    keep = create_graph if retain_graph is None else retain_graph
    per_row = [
        plain_grad(
            outputs,
            inputs,
            tuple(g[b] for g in rows),
            True if b < n - 1 else keep,
            create_graph,
            **kwargs,
        )
        for b in range(n)
    ]
    return tuple(
        None if per_row[0][i] is None else stack([r[i] for r in per_row])
        for i in range(len(per_row[0]))
    )


def _as_tuple(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)
