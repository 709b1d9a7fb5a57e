"""``autograd.functional.jacobian(..., vectorize=True, strategy="forward-mode")``: the
Jacobian by forward mode, one column per input element.

Reverse mode (``functional.py``) builds the Jacobian a row at a time: one backward pass per
output element. Forward mode builds it a column at a time: input element k gets the tangent
1 (every other element 0), one forward pass carries that tangent through ``func``, and the
outputs' tangents are column k, d out / d x_k. So forward mode wins for few inputs and many
outputs, reverse mode for the opposite. PyTorch pushes all the columns at once (``vmap``
over the tangents); here they run one after the other, with the same result.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import autograd_functional as errors
from ..factory import zeros, zeros_like
from ..ops.select import stack
from ..tensor import Tensor
from .forward_ad import enter_dual_level, exit_dual_level, make_dual, unpack_dual


def jacobian_columns(func: Callable, inputs: tuple, as_outputs: Callable) -> tuple:
    """Blocks ``[output][input]`` of the Jacobian, each of shape ``out.shape + x.shape``.
    ``as_outputs(result)`` turns what ``func`` returns into a tuple of Tensors."""
    outputs = as_outputs(func(*inputs))  # the primal pass: the outputs' shapes
    columns = [[] for _ in inputs]  # per input: per element, the outputs' tangents
    for i, x in enumerate(inputs):
        for k in range(x.numel()):
            columns[i].append(_column(func, inputs, i, k, outputs, as_outputs))
    return tuple(
        tuple(_block([col[j] for col in columns[i]], out, x) for i, x in enumerate(inputs))
        for j, out in enumerate(outputs)
    )


def _column(func, inputs, i: int, k: int, outputs: tuple, as_outputs) -> list:
    """d outputs / d inputs[i].flat[k]: one forward pass with a one-hot tangent."""
    x = inputs[i]
    onehot = np.zeros(x.numel(), x._data.dtype)
    onehot[k] = 1
    enter_dual_level()
    try:
        duals = [
            make_dual(a, Tensor._make(onehot.reshape(x.shape), False, None))
            if n == i
            else make_dual(a, zeros_like(a))
            for n, a in enumerate(inputs)
        ]
        tangents = [unpack_dual(o).tangent for o in as_outputs(func(*duals))]
    finally:
        exit_dual_level()
    # an output that does not depend on the inputs has no tangent: its column is zeros
    return [zeros_like(o) if t is None else t for t, o in zip(tangents, outputs)]


def _block(cols: list, out: Tensor, x: Tensor) -> Tensor:
    """Columns (each shaped like ``out``) side by side, shaped ``out.shape + x.shape``."""
    shape = (*out.shape, *x.shape)
    if not cols:
        return zeros(*shape, dtype=out.dtype)
    return stack([c.reshape(-1) for c in cols], dim=1).reshape(*shape).detach()


def check_forward_strict(strict: bool, fn: str) -> None:
    """PyTorch does not combine ``strict=True`` with forward mode."""
    if strict:
        raise RuntimeError(errors.FORWARD_STRICT.format(fn=fn))
