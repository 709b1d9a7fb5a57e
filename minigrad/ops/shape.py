"""Shape ops: reshape view flatten unflatten transpose permute movedim unsqueeze squeeze expand,
and sum_to.

All of them move gradients without arithmetic: the backward of a reshape is a
reshape back, of a permute the inverse permute, of an expand a sum (:class:`SumTo`,
which lives here beside :class:`Expand`: each is the other's backward). Outputs
that share memory with the input share its version counter (``view = True``),
so an in-place change through a view is noticed by backward, as in PyTorch.
"""

from __future__ import annotations

import math

import numpy as np

from .. import errors
from ..recording.function import Op
from ..tensor import Tensor
from ._util import check_sizes, named, norm_dim, reduced_axes


def infer_shape(shape, numel: int, op: str = "reshape") -> tuple:
    """Resolve one ``-1`` in a target shape; PyTorch's message when impossible."""
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        shape = tuple(shape[0])
    shape = check_sizes(shape, op)
    if shape.count(-1) > 1:
        raise RuntimeError(errors.RESHAPE_INFER.format(shape=list(shape)))
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(errors.RESHAPE.format(shape=list(shape), numel=numel))
        shape = tuple(numel // known if s == -1 else s for s in shape)
    if math.prod(shape) != numel or any(s < 0 for s in shape):
        raise RuntimeError(errors.RESHAPE.format(shape=list(shape), numel=numel))
    return shape


class Reshape(Op):
    """Same elements, new shape; grad = g reshaped back."""

    node_name = "ViewBackward0"

    view = True
    saved_values = {"self_sym_sizes": lambda ctx: ctx.in_shape}  # PyTorch's name

    @staticmethod
    def forward(ctx, a, shape):
        ctx.in_shape = a.shape
        try:
            return a.reshape(shape, copy=False)  # a view whenever the layout allows
        except ValueError:
            # A copy must own its memory: an array with a .base would be taken for a
            # view of ``a`` and share its version counter.
            out = np.empty(shape, a.dtype)
            out.reshape(a.shape)[...] = a
            return out

    @staticmethod
    def backward(ctx, g):
        if g.layout != "strided":  # sparse: only its dense dims change (sparse/formulas.py)
            return g._view_dense_dims(ctx.in_shape)
        return Reshape.apply(g, shape=ctx.in_shape)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a reshaped (a copy when t_a's layout needs one)."""
        return Reshape.apply(tangents[0], shape=params["shape"])


class View(Reshape):
    """Like Reshape but never copies: fails when the memory layout does not allow it."""

    @staticmethod
    def forward(ctx, a, shape):
        ctx.in_shape = a.shape
        try:
            return a.reshape(shape, copy=False)
        except ValueError:
            raise RuntimeError(errors.VIEW_STRIDE) from None


class Permute(Op):
    """Reorder dimensions; grad = g permuted by the inverse permutation."""

    view = True
    saved_values = {"dims": lambda ctx: ctx.dims}

    @staticmethod
    def forward(ctx, a, dims):
        ctx.dims = dims
        return a.transpose(dims)  # the method: 0.2 us, np.transpose's wrapper 1 us (W.T per Linear)

    @staticmethod
    def backward(ctx, g):
        back = tuple(sorted(range(len(ctx.dims)), key=ctx.dims.__getitem__))  # the inverse
        if g.layout != "strided":  # sparse dims among sparse ones (sparse/formulas.py)
            return g.permute(*back)
        return Permute.apply(g, dims=back)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a permuted the same way."""
        return Permute.apply(tangents[0], dims=params["dims"])


class Expand(Op):
    """Broadcast to a larger shape without copying; grad = g summed back (SumTo)."""

    view = True
    saved_values = {"self_sym_sizes": lambda ctx: ctx.in_shape}

    @staticmethod
    def forward(ctx, a, shape):
        ctx.in_shape = a.shape
        out = np.broadcast_to(a, shape)  # numpy marks it read-only
        if a.flags.writeable:
            # PyTorch's expand is a view that writes reach: elements that repeat share memory,
            # and in-place ops refuse to write into those (_tensor_inplace_methods._check_writable).
            # Setting the flag (numpy allows it: the memory is a's) costs 0.1 us, where a
            # second view from as_strided cost 2.6 us: every Sum and Mean backward expands.
            out.flags.writeable = True
        return out

    @staticmethod
    def backward(ctx, g):
        return SumTo.apply(g, shape=ctx.in_shape)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a expanded the same way."""
        return Expand.apply(tangents[0], shape=params["shape"])


class SumTo(Op):
    """Sum a broadcast gradient down to ``shape``; its backward expands back (Expand)."""

    @staticmethod
    def forward(ctx, a, shape):
        ctx.in_shape = a.shape
        axes, lead = reduced_axes(a.shape, shape)
        out = a.sum(axis=axes, keepdims=True, dtype=a.dtype) if axes else a
        return out.reshape(shape) if lead or out.shape != shape else out

    @staticmethod
    def backward(ctx, g):
        return Expand.apply(g, shape=ctx.in_shape)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a summed to ``shape``."""
        return SumTo.apply(tangents[0], shape=params["shape"])


def sum_to(g: Tensor, shape: tuple, dtype=None) -> Tensor:
    """Reduce a broadcast gradient back to ``shape`` (and ``dtype``): a differentiable op."""
    if g._data.shape != shape:
        g = SumTo.apply(g, shape=shape)
    if dtype is not None and g._data.dtype != dtype.np:
        g = g.to(dtype)
    return g


def reshape(a, *shape):
    """Same data in a new shape (``torch.reshape``); one dim may be -1."""
    return Reshape.apply(a, shape=infer_shape(shape, a._data.size))


def view(a, *shape):
    """Like reshape, but an error instead of a copy (``Tensor.view``)."""
    return View.apply(a, shape=infer_shape(shape, a._data.size, "view"))


def flatten(a, start_dim: int = 0, end_dim: int = -1):
    """Merge dims ``start_dim..end_dim`` into one (``torch.flatten``)."""
    s, e = norm_dim(start_dim, a.ndim), norm_dim(end_dim, a.ndim)
    if a.ndim == 0:  # dims 0 and -1 only (PyTorch too)
        return reshape(a, 1)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:  # nothing to merge: the tensor itself, as PyTorch returns it
        return a
    shp = a.shape
    return reshape(a, *shp[:s], math.prod(shp[s : e + 1]), *shp[e + 1 :])


def unflatten(a, dim: int, sizes):
    """Split dim ``dim`` into ``sizes`` (one may be -1) (``torch.unflatten``).

    Example:
        >>> import minigrad as mg
        >>> mg.zeros(3, 10).unflatten(1, (2, -1)).shape
        minigrad.Size([3, 2, 5])
    """
    if a.ndim == 0:
        raise RuntimeError(errors.UNFLATTEN_0D.format(dim=dim))
    d = norm_dim(dim, a.ndim)
    sizes, n = tuple(sizes), a.shape[d]
    if not sizes:
        raise RuntimeError(errors.UNFLATTEN_EMPTY)
    for i, s in enumerate(sizes):
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool) or s < -1:
            raise RuntimeError(errors.UNFLATTEN_SIZE.format(got=s, i=i, sizes=list(sizes)))
    if sizes.count(-1) > 1:
        raise RuntimeError(errors.RESHAPE_INFER.format(shape=list(sizes)))
    known = math.prod(s for s in sizes if s != -1)
    if -1 in sizes and known == 0:
        raise RuntimeError(errors.UNFLATTEN_AMBIGUOUS.format(sizes=list(sizes), dim=dim, n=n))
    new = tuple(n // known if s == -1 else int(s) for s in sizes)
    if math.prod(new) != n:
        raise RuntimeError(
            errors.UNFLATTEN_SIZES.format(sizes=list(sizes), dim=dim, n=n, shape=tuple(a.shape))
        )
    return Reshape.apply(a, shape=a.shape[:d] + new + a.shape[d + 1 :])


def permute(a, *dims):
    """Reorder dimensions (``torch.permute``)."""
    if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
        dims = tuple(dims[0])
    n = a.ndim
    norm = tuple(norm_dim(d, n) for d in dims)
    if sorted(norm) != list(range(n)):
        raise RuntimeError(errors.PERMUTE.format(dims=list(dims), n=n - 1))
    return Permute.apply(a, dims=norm)  # the identity too: a view, as PyTorch's (x.T of 0-d)


def transpose(a, dim0: int, dim1: int):
    """Swap two dimensions (``torch.transpose``)."""
    n = a.ndim
    d0, d1 = norm_dim(dim0, n), norm_dim(dim1, n)
    dims = list(range(n))
    dims[d0], dims[d1] = dims[d1], dims[d0]
    return named(Permute.apply(a, dims=tuple(dims)), "TransposeBackward0")


def t(a):
    """Transpose a tensor of at most 2 dims (``torch.t``)."""
    if a.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a.ndim}D")
    # 0-d and 1-D: the tensor itself, as a view that keeps the graph (PyTorch too)
    dims = (1, 0) if a.ndim == 2 else tuple(range(a.ndim))
    return named(Permute.apply(a, dims=dims), "TBackward0")


def movedim(a, source, destination):
    """Move dims ``source`` to positions ``destination``; the other dims keep their order
    (``torch.movedim``, numpy's ``moveaxis``). A permute, so the gradient permutes back.

    Example:
        >>> import minigrad as mg
        >>> x = mg.zeros(2, 3, 4)
        >>> x.movedim(0, -1).shape, mg.movedim(x, (0, 1), (2, 0)).shape
        (minigrad.Size([3, 4, 2]), minigrad.Size([3, 4, 2]))
    """
    return Permute.apply(a, dims=movedim_order(a.ndim, source, destination))


def movedim_order(n: int, source, destination) -> tuple:
    """The permutation ``movedim`` applies to ``n`` dims (checked as ``torch.movedim`` does)."""
    src, dst = _dim_seq(source), _dim_seq(destination)
    seqs = isinstance(source, (tuple, list)), isinstance(destination, (tuple, list))
    if src is None or dst is None or seqs[0] != seqs[1]:
        raise TypeError(errors.MOVEDIM_TYPE.format(src=source, dst=destination))
    if len(src) != len(dst):
        raise RuntimeError(errors.MOVEDIM_LEN.format(src=list(src), dst=list(dst)))
    moved = {"source": [norm_dim(d, n) for d in src], "destination": [norm_dim(d, n) for d in dst]}
    for which, dims in moved.items():
        if len(set(dims)) != len(dims):
            raise RuntimeError(errors.MOVEDIM_REPEATED.format(which=which, dims=dims))
    order = [d for d in range(n) if d not in moved["source"]]
    if n:  # (a 0-d tensor accepts dim 0 or -1, and has nothing to move)
        for to, d in sorted(zip(moved["destination"], moved["source"])):
            order.insert(to, d)
    return tuple(order)


def _dim_seq(dims) -> tuple | None:
    """An int or a sequence of ints as a tuple; None when it is neither."""
    seq = (dims,) if isinstance(dims, (int, np.integer)) else dims
    if not isinstance(seq, (tuple, list)):
        return None
    if any(not isinstance(d, (int, np.integer)) or isinstance(d, bool) for d in seq):
        return None
    return tuple(seq)


def unsqueeze(a, dim: int):
    """Insert a size-1 dim at ``dim`` (``torch.unsqueeze``); dim may be ``a.ndim``."""
    d = norm_dim(dim, a.ndim + 1)
    return named(Reshape.apply(a, shape=a.shape[:d] + (1,) + a.shape[d:]), "UnsqueezeBackward0")


def squeeze(a, dim=None):
    """Remove size-1 dims (all, or the given ones that have size 1) (``torch.squeeze``)."""
    if dim is None:
        dims = {i for i, n in enumerate(a.shape) if n == 1}
    else:
        ds = dim if isinstance(dim, (tuple, list)) else (dim,)
        norm = [norm_dim(x, a.ndim) for x in ds]  # a 0-d tensor accepts dim 0 or -1
        dims = {d for d in norm if a.ndim and a.shape[d] == 1}
    out = Reshape.apply(a, shape=tuple(n for i, n in enumerate(a.shape) if i not in dims))
    # PyTorch numbers its overloads: squeeze(), squeeze(dim), squeeze(dims)
    overload = 0 if dim is None else 2 if isinstance(dim, (tuple, list)) else 1
    return named(out, f"SqueezeBackward{overload}")


def expand(a, *sizes):
    """Broadcast size-1 dims to larger sizes without copying (``Tensor.expand``); -1 keeps a dim."""
    if len(sizes) == 1 and isinstance(sizes[0], (tuple, list)):
        sizes = tuple(sizes[0])
    sizes = check_sizes(sizes, "expand")
    lead = len(sizes) - a.ndim
    if lead < 0:
        raise RuntimeError(
            f"expand: the number of sizes provided ({len(sizes)}) must be greater or equal to "
            f"the number of dimensions in the tensor ({a.ndim})"
        )
    target = []
    for i, s in enumerate(sizes):
        old = a.shape[i - lead] if i >= lead else None
        if s == -1:
            if old is None:
                raise RuntimeError(
                    f"expand: -1 is not allowed in a leading, non-existing dimension {i}"
                )
            s = old
        if old is not None and old != s and old != 1:
            raise RuntimeError(
                errors.EXPAND.format(new=s, old=old, dim=i, target=list(sizes), shape=list(a.shape))
            )
        target.append(int(s))
    return Expand.apply(a, shape=tuple(target))


def broadcast_to(a, shape):
    """``torch.broadcast_to``: expand to ``shape``."""
    return expand(a, *shape)


__all__ = [
    "reshape",
    "view",
    "flatten",
    "unflatten",
    "permute",
    "movedim",
    "transpose",
    "t",
    "unsqueeze",
    "squeeze",
    "expand",
    "broadcast_to",
    "sum_to",
    "reduced_axes",
]
