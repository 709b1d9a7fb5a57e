"""Submanifold sparse convolution over active sites: ``subm_conv2d``, ``subm_conv3d``, ``rulebook``.

The layers are ``minigrad.nn.SubMConv2d`` / ``SubMConv3d`` (spconv's names); these are
their functional forms (like ``torch.nn.functional.conv2d`` beside ``nn.Conv2d``). The ops
and their gradients are in :mod:`.ops_conv`, the rule book in :mod:`.conv_rules`.

Input: a hybrid COO tensor, sparse spatial dims and one dense channel dim, shape
``(H, W, C)`` or ``(N, H, W, C)`` (a batch: along it the window has extent 1, so images
never mix); ``(D, H, W, C)`` or ``(N, D, H, W, C)`` in 3-D. Sites that are sorted and
unique are used as they are, whether flagged coalesced or not. Duplicated (or unsorted)
sites are summed first (``coalesce()``, as everywhere in ``torch.sparse``; each duplicate
then gets the gradient of its site); do that once outside a training loop, since the rule
book is kept with the coalesced pattern and each ``coalesce()`` makes a new one.

Output: a coalesced hybrid COO with the input's sites (the very same indices array) and
``out_channels`` values per site. Nothing here densifies: a dense input is refused with a
message saying how to make the sparse one.
"""

from __future__ import annotations

import operator

import numpy as np

from ..errors import sparse_conv as errors
from ..formats import _kernels
from ..tensor import Tensor
from .conv_rules import RuleBook, rulebook_for
from .ops import SparseDtypeError, SparseOpError, need_tensor
from .ops_conv import SubMConv
from .tensor import SparseTensor

MAX_KERNEL = 15  # largest kernel side accepted (errors.KERNEL_LARGE says why)
_AXES = {2: ("H", "W"), 3: ("D", "H", "W")}


def subm_conv2d(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> SparseTensor:  # noqa: A002
    """2-D submanifold convolution of the active sites of ``input`` (spconv's ``SubMConv2d``).

    ``out[p] = bias + sum_o weight[:, :, r + o] @ input[p + o]`` over the offsets ``o`` of
    the centred window whose site ``p + o`` is active: at the active sites, exactly
    ``torch.nn.functional.conv2d`` (cross-correlation, ``padding=k // 2``) of the
    zero-filled input. Gradients: weight and bias dense; input sparse, on its pattern.

    Args:
        input: sparse COO tensor of shape ``(H, W, C)`` or ``(N, H, W, C)``: 2 (or 3, with
            a batch) sparse dims and 1 dense channel dim; floating point values.
        weight: dense ``(out_channels, C, kH, kW)``, PyTorch's conv2d layout; odd kH, kW
            of at most 15.
        bias: optional dense ``(out_channels,)``.

    Returns:
        A coalesced COO tensor of shape ``(H, W, out_channels)`` (or with ``N``) on the
        input's active sites.

    Example:
        >>> import minigrad as mg
        >>> x = mg.sparse_coo_tensor([[0, 1], [0, 1]], [[1.0], [2.0]], (3, 3, 1))
        >>> w = mg.ones(1, 1, 3, 3)           # sums each site's 3 x 3 neighbourhood
        >>> y = mg.sparse.subm_conv2d(x, w)
        >>> y.indices()                       # the same active sites
        tensor([[0, 1],
                [0, 1]])
        >>> y.values()                        # (0,0) and (1,1) are neighbours
        tensor([[3.],
                [3.]])
    """
    return _subm_conv("subm_conv2d", input, weight, bias, 2)


def subm_conv3d(input: Tensor, weight: Tensor, bias: Tensor | None = None) -> SparseTensor:  # noqa: A002
    """3-D submanifold convolution (spconv's ``SubMConv3d``): :func:`subm_conv2d` on
    ``(D, H, W, C)`` or ``(N, D, H, W, C)`` sites with a ``(out, C, kD, kH, kW)`` weight;
    equals ``torch.nn.functional.conv3d(..., padding=k // 2)`` at the active sites."""
    return _subm_conv("subm_conv3d", input, weight, bias, 3)


def rulebook(input: Tensor, kernel_size) -> RuleBook:  # noqa: A002
    """The rule book a submanifold convolution of ``input`` with this window uses (cached).

    ``kernel_size`` is an int (the same side along every sparse dim) or a tuple with one
    side per spatial dim; a tuple one shorter than the sparse dims means the first sparse
    dim is a batch (extent 1). See :mod:`minigrad.sparse.conv_rules`.

    Example:
        >>> import minigrad as mg
        >>> x = mg.sparse_coo_tensor([[0, 1], [0, 1]], [[1.0], [2.0]], (3, 3, 1))
        >>> book = mg.sparse.rulebook(x, 3)
        >>> book
        RuleBook(window=(3, 3), sites=2, offsets=9, pairs=4, 64 bytes)
        >>> [(tuple(o.tolist()), i.tolist(), j.tolist())
        ...  for o, i, j in zip(book.offsets, book.inputs, book.outputs) if len(i)]
        [((-1, -1), [0], [1]), ((0, 0), [0, 1], [0, 1]), ((1, 1), [1], [0])]
    """
    op = "rulebook"
    need_tensor(op, input, "input")
    if isinstance(kernel_size, tuple | list):
        n = len(kernel_size)
    else:
        n = input.sparse_dim() if input.layout == "sparse_coo" else 2
    _check_input(op, input, n)
    kernel = check_kernel_size(op, kernel_size, n)
    return _rules(op, _coalesced(input), kernel)


# --- the shared path ----------------------------------------------------------------------
def _subm_conv(op, x, weight, bias, n: int) -> SparseTensor:
    _check_input(op, x, n)
    _check_weight(op, weight, x, n)
    if bias is not None:
        _check_bias(op, bias, weight, x)
    x = _coalesced(x)
    rules = _rules(op, x, tuple(weight.shape[2:]))
    inputs = (x, weight) if bias is None else (x, weight, bias)
    return SubMConv.apply(*inputs, rules=rules)


def _coalesced(x: SparseTensor) -> SparseTensor:
    """``x`` itself when its sites are sorted and unique (flagged so or not), else coalesced."""
    coo = x._data
    if coo.is_coalesced or _kernels.is_lex_sorted_unique(coo.indices, coo.shape[: coo.sparse_dim]):
        return x
    return x.coalesce()


def _rules(op: str, x: SparseTensor, kernel: tuple) -> RuleBook:
    coo = x._data
    batch = (1,) * (coo.sparse_dim - len(kernel))  # a batch dim: the window does not cross it
    return rulebook_for(coo.indices, coo.shape[: coo.sparse_dim], batch + kernel, op)


# --- checks ---------------------------------------------------------------------------------
def check_kernel_size(op: str, kernel_size, n: int) -> tuple:
    """``kernel_size`` (an int or ``n`` ints, odd, at most :data:`MAX_KERNEL`) as a tuple."""
    sides = kernel_size if isinstance(kernel_size, tuple | list) else (kernel_size,) * n
    if len(sides) != n or not all(_is_int(k) for k in sides):
        raise TypeError(errors.KERNEL_TYPE.format(op=op, n=n, got=kernel_size))
    sides = tuple(operator.index(k) for k in sides)
    if any(k < 1 or k % 2 == 0 for k in sides):
        raise SparseOpError(errors.KERNEL_EVEN.format(op=op, got=sides))
    if max(sides) > MAX_KERNEL:
        volume = MAX_KERNEL**n
        raise SparseOpError(
            errors.KERNEL_LARGE.format(op=op, got=sides, limit=MAX_KERNEL, n=n, volume=volume)
        )
    return sides


def _is_int(k) -> bool:
    return isinstance(k, int | np.integer) and not isinstance(k, bool)


def _check_input(op: str, x, n: int) -> None:
    need_tensor(op, x, "input")
    axes = _AXES.get(n, tuple(f"S{i}" for i in range(n)))
    accepted = f"({', '.join(axes)}, C) or (N, {', '.join(axes)}, C)"
    if x.layout != "sparse_coo":
        raise SparseOpError(
            errors.INPUT_LAYOUT.format(
                op=op, accepted=accepted, layout=x.layout, shape=tuple(x.shape), sd=n
            )
        )
    sd, dd = x.sparse_dim(), x.dense_dim()
    if sd not in (n, n + 1) or dd != 1:
        sds = f"{n} (or {n + 1} with a batch)"
        raise SparseOpError(
            errors.INPUT_DIMS.format(
                op=op, accepted=accepted, sds=sds, shape=tuple(x.shape), sd=sd, dd=dd
            )
        )
    if not x.dtype.is_floating_point:
        raise SparseDtypeError(errors.FLOAT_ONLY.format(op=op, arg="input", dtype=x.dtype.name))


def _check_weight(op: str, w, x: SparseTensor, n: int) -> None:
    need_tensor(op, w, "weight")
    if w.layout != "strided":
        raise SparseOpError(errors.WEIGHT_LAYOUT.format(op=op, layout=w.layout))
    if w.ndim != n + 2:
        accepted = f"(out_channels, in_channels, {', '.join('k' + a for a in _AXES[n])})"
        raise SparseOpError(
            errors.WEIGHT_DIMS.format(op=op, ndim=n + 2, accepted=accepted, shape=list(w.shape))
        )
    check_kernel_size(op, tuple(w.shape[2:]), n)
    if w.shape[1] != x.shape[-1]:
        raise SparseOpError(
            errors.CHANNELS.format(
                op=op, wshape=list(w.shape), shape=tuple(x.shape), want=w.shape[1], got=x.shape[-1]
            )
        )
    _check_dtype(op, w, x, "weight")


def _check_bias(op: str, b, w: Tensor, x: SparseTensor) -> None:
    need_tensor(op, b, "bias")
    if b.layout != "strided" or tuple(b.shape) != (w.shape[0],):
        shape = list(b.shape) if b.layout == "strided" else f"{list(b.shape)} ({b.layout})"
        raise SparseOpError(
            errors.BIAS.format(op=op, wshape=list(w.shape), want=w.shape[0], shape=shape)
        )
    _check_dtype(op, b, x, "bias")


def _check_dtype(op: str, t: Tensor, x: SparseTensor, arg: str) -> None:
    if not t.dtype.is_floating_point:
        raise SparseDtypeError(errors.FLOAT_ONLY.format(op=op, arg=arg, dtype=t.dtype.name))
    if t.dtype is not x.dtype:
        raise SparseDtypeError(
            errors.DTYPE.format(op=op, a="input", da=x.dtype.name, b=arg, db=t.dtype.name)
        )
