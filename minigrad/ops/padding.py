"""Growing a tensor: ``repeat`` and ``tile`` (tiles of copies) and ``nn.functional.pad`` (a border of a
constant). Their gradients put back what each output element came from: ``repeat``'s sums
the tiles (it is built from ``expand``, whose backward sums), ``pad``'s cuts the border off.
"""

from __future__ import annotations

import operator

import numpy as np

from ..recording.function import Op
from ..tensor import Tensor, has_sparse_layout
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


def tile(input: Tensor, dims) -> Tensor:  # noqa: A002  (PyTorch's names)
    """``input`` repeated ``dims[d]`` times along each dim (``torch.tile``): ``repeat``, but
    ``dims`` may be shorter than ``input.dim()`` (it is then padded with leading 1s).

    Example:
        >>> import minigrad as mg
        >>> mg.tile(mg.tensor([[1, 2]]), (2,))
        tensor([[1, 2, 1, 2]])
    """
    check_tensor(input, "tile")
    if has_sparse_layout(input):
        raise NotImplementedError(input._no_kernel("tile"))
    if not isinstance(dims, (tuple, list)):
        raise TypeError(
            f"tile(): argument 'dims' (position 2) must be tuple of ints, not {type(dims).__name__}"
        )
    for k, d in enumerate(dims):
        if isinstance(d, bool) or not hasattr(d, "__index__"):
            raise TypeError(
                "tile(): argument 'dims' (position 2) must be tuple of ints, but found "
                f"element of type {type(d).__name__} at pos {k}"
            )
    return repeat(input, *((1,) * (input.ndim - len(dims)) + tuple(dims)))


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
    """Pad the last dims (``torch.nn.functional.pad``): with ``value`` (``mode="constant"``),
    or from the input's own border (``"reflect"``, ``"replicate"``, ``"circular"``).

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
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(
            f"Unrecognised padding mode {mode}; minigrad pads with mode='constant', "
            "'reflect', 'replicate' or 'circular'"
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
    if mode != "constant":
        return _pad_from_inside(input, widths, len(pad), mode)
    fill = 0 if value is None else value
    return Pad.apply(input, widths=tuple(widths), value=fill)


_NON_CONSTANT_SIZES = {2: (2, 3), 4: (3, 4), 6: (4, 5)}  # pad length -> input dims PyTorch takes


def _pad_from_inside(input: Tensor, widths: list, length: int, mode: str) -> Tensor:  # noqa: A002
    """Reflect, replicate or circular padding: the border is read from the input itself,
    so it is an index_select per padded dim (whose gradient adds the border's gradient back
    onto the elements it was read from). PyTorch records ReflectionPad2DBackward0 and such.

    reflect mirrors without the edge (``[2, 1 | 1, 2, 3 | 2, 1]`` is wrong, ``[3, 2 | 1, 2, 3
    | 2, 1]`` right), replicate repeats the edge, circular wraps around.
    """
    if input.ndim not in _NON_CONSTANT_SIZES.get(length, ()):
        raise NotImplementedError(
            f"Padding size {length} is not supported for {input.ndim}D input tensor. "
            "Supported combinations for non-constant padding: 2D or 3D input with padding "
            "size 2, 3D or 4D input with 4, 4D or 5D input with 6"
        )
    out = input
    for d, (lo, hi) in enumerate(widths):
        if lo == 0 and hi == 0:
            continue
        n = input.shape[d]
        if mode == "reflect" and (lo >= n or hi >= n):
            raise RuntimeError(
                f"Argument #4: Padding size should be less than the corresponding input "
                f"dimension, but got: padding ({lo}, {hi}) at dimension {d} of input "
                f"{list(input.shape)}"
            )
        if mode == "circular" and (lo > n or hi > n):
            raise RuntimeError(
                f"Padding value causes wrapping around more than once: padding ({lo}, {hi}) "
                f"at dimension {d} of input {list(input.shape)}"
            )
        if mode == "replicate" and n == 0:
            raise RuntimeError(f"replicate padding of an empty dimension {d}: nothing to repeat")
        i = np.arange(-lo, n + hi)
        if mode == "reflect":
            i = np.abs(i)
            i = np.where(i >= n, 2 * (n - 1) - i, i)
        elif mode == "replicate":
            i = np.clip(i, 0, n - 1)
        else:
            i = i % n
        out = out.index_select(d, Tensor._make(i.astype(np.int64), False, None))
    return out
