"""Growing a tensor: ``repeat`` (tiles of copies) and ``nn.functional.pad`` (a border of a
constant). Their gradients put back what each output element came from: ``repeat``'s sums
the tiles (it is built from ``expand``, whose backward sums), ``pad``'s cuts the border off.
"""

from __future__ import annotations

import operator

import numpy as np

from ..recording.function import Op
from ..tensor import Tensor
from ._util import check_tensor


def repeat(a: Tensor, *sizes) -> Tensor:
    """Tile ``a`` ``sizes[d]`` times along each dim (``Tensor.repeat``; numpy's ``tile``).

    ``sizes`` may have more entries than ``a`` has dims: ``a`` is then seen with leading 1s.
    Built as a view with a new axis before each dim, expanded to the repeats, then reshaped.

    Example:
        >>> import minigrad as mg
        >>> mg.tensor([1, 2]).repeat(2, 2)
        tensor([[1, 2, 1, 2],
                [1, 2, 1, 2]])
    """
    check_tensor(a, "repeat")
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    for s in sizes:
        if isinstance(s, bool) or not hasattr(s, "__index__"):
            raise TypeError(
                f"repeat(): argument 'repeats' must be a tuple of ints, but found {type(s).__name__}"
            )
        if operator.index(s) < 0:
            raise RuntimeError(
                f"Trying to create tensor with negative dimension {s}: {list(sizes)}"
            )
    sizes = tuple(operator.index(s) for s in sizes)
    if len(sizes) < a.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of "
            f"tensor: repeat dims {len(sizes)}, tensor dims {a.ndim}"
        )
    shape = (1,) * (len(sizes) - a.ndim) + tuple(a.shape)
    paired = a.reshape(*[n for s in shape for n in (1, s)])  # (1, s0, 1, s1, ...)
    tiled = paired.expand(*[n for r, s in zip(sizes, shape, strict=True) for n in (r, s)])
    return tiled.reshape(*[r * s for r, s in zip(sizes, shape, strict=True)])


class Pad(Op):
    """A constant border: ``widths`` is a (before, after) pair per dim, negative to cut.

    grad = the gradient's middle: the border cut off (and zeros where the input was cut)."""

    node_name = "ConstantPadNdBackward0"
    saved_values = {"pad": lambda ctx: ctx.widths}

    @staticmethod
    def forward(ctx, a, widths, value):
        ctx.widths = widths
        return _pad(a, widths, value)

    @staticmethod
    def backward(ctx, g):
        return Pad.apply(g, widths=tuple((-lo, -hi) for lo, hi in ctx.widths), value=0)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear in the input): the tangent padded with zeros."""
        return Pad.apply(tangents[0], widths=params["widths"], value=0)


def _pad(a: np.ndarray, widths: tuple, value) -> np.ndarray:
    """Pad with ``value`` where a width is positive, cut where it is negative."""
    cut = tuple(slice(max(-lo, 0), a.shape[d] - max(-hi, 0)) for d, (lo, hi) in enumerate(widths))
    grow = [(max(lo, 0), max(hi, 0)) for lo, hi in widths]
    return np.pad(a[cut], grow, mode="constant", constant_values=value)


def pad(input: Tensor, pad: tuple, mode: str = "constant", value: float | None = None) -> Tensor:  # noqa: A002
    """Pad the last dims (``torch.nn.functional.pad``; ``mode="constant"``).

    ``pad`` lists (before, after) widths from the last dim backwards:
    ``(left, right)`` pads the last dim, ``(left, right, top, bottom)`` the last two. A
    negative width cuts that many elements off instead.

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.pad(mg.tensor([[1.0, 2.0]]), (1, 2))
        tensor([[0., 1., 2., 0., 0.]])
    """
    check_tensor(input, "pad")
    if mode != "constant":
        raise NotImplementedError(
            f"pad(mode={mode!r}): minigrad pads with a constant only (mode='constant')"
        )
    if not isinstance(pad, (tuple, list)) or any(
        isinstance(p, bool) or not hasattr(p, "__index__") for p in pad
    ):
        raise TypeError(f"pad(): argument 'pad' must be a tuple of ints, got {pad!r}")
    if len(pad) % 2 or len(pad) // 2 > input.ndim:
        raise RuntimeError(
            f"Padding length must be divisible by 2 and at most twice the number of dimensions "
            f"of the input ({input.ndim}), got {len(pad)}"
        )
    widths = [(0, 0)] * input.ndim
    for i in range(len(pad) // 2):
        widths[input.ndim - 1 - i] = (operator.index(pad[2 * i]), operator.index(pad[2 * i + 1]))
    for d, (lo, hi) in enumerate(widths):
        if input.shape[d] + lo + hi < 0:
            raise RuntimeError(
                f"The input size {input.shape[d]}, plus negative padding {lo} and {hi} resulted "
                f"in a negative output size, which is invalid. Check dimension {d} of your input."
            )
    fill = 0 if value is None else value
    return Pad.apply(input, widths=tuple(widths), value=fill)
