"""Selection: indexing and slicing, where, cat, stack, and non-differentiable comparisons."""

from __future__ import annotations

import numbers
import re

import numpy as np

from .. import _dtype, errors
from ..recording.function import Op
from ..tensor import Tensor, has_sparse_layout
from ._util import broadcast_shapes, check_tensor, make, norm_dim, result_dtype, to_tensor
from .shape import Reshape, sum_to


class GetItem(Op):
    """a[key] for ints, slices, None, Ellipsis, integer and bool arrays.

    grad = zeros of a's shape with g added at ``key`` (repeated indices add up); for a key
    that only adds size-1 dims (``_adds_dims_only``) g itself, reshaped: a view of g, as
    PyTorch's (its ``UnsqueezeBackward0`` and ``AliasBackward0`` return views), so the
    gradient of ``a[:, None].sum()`` is an expanded tensor that refuses in-place writes."""

    view = True

    @staticmethod
    def forward(ctx, a, key):
        ctx.info = (a.shape, key)
        out = np.asarray(indexed(a, key))
        if out.base is not None and not _is_basic(key):
            # numpy may return an advanced-indexing copy as a view of a scratch array;
            # it must own its memory, or it would share a's version counter
            out = out.copy()
        return out

    def name(self) -> str:
        return self.node_name or _index_node_name(self.info[1])

    @staticmethod
    def backward(ctx, g):
        shape, key = ctx.info
        if g.layout == "strided" and _adds_dims_only(key, shape):
            return Reshape.apply(g, shape=shape)
        return IndexAdd.apply(g, shape=shape, key=key)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = t_a[key]."""
        return GetItem.apply(tangents[0], key=params["key"])


def _index_node_name(key) -> str:
    """PyTorch's node for ``a[key]``: a key of one int, one slice or one None (``:`` and ``...``
    aside) is one SelectBackward0, SliceBackward0 or UnsqueezeBackward0 there; other keys are
    IndexBackward0 here, where PyTorch records one node per part (docs/differences.md)."""
    parts = key if isinstance(key, tuple) else (key,)
    active = [p for p in parts if p is not Ellipsis and not _is_full_slice(p)]
    if len(active) == 1:
        part = active[0]
        if part is None:
            return "UnsqueezeBackward0"
        if isinstance(part, slice):
            return "SliceBackward0"
        if isinstance(part, (int, np.integer)) and not isinstance(part, (bool, np.bool_)):
            return "SelectBackward0"
        if isinstance(part, np.ndarray) and part.ndim == 0 and part.dtype.kind in "iu":
            return "SelectBackward0"  # a 0-d integer tensor as the index
    return "IndexBackward0"


def _adds_dims_only(key, shape) -> bool:
    """Whether ``a[key]`` is ``a`` with size-1 dims added, as PyTorch indexes: its parts are
    None and ``...`` and, in a tuple, slices from the start to at least the end with step 1
    (PyTorch skips those; ``a[:]`` alone is a SliceBackward0, whose gradient is new memory)."""
    if key is None or key is Ellipsis:
        return True
    if not isinstance(key, tuple):
        return False
    consumed = sum(p is not None and p is not Ellipsis for p in key)
    dim = 0
    for p in key:
        if p is Ellipsis:
            dim += len(shape) - consumed
        elif isinstance(p, slice):
            stop = shape[dim] if p.stop is None else p.stop
            if p.start not in (None, 0) or p.step not in (None, 1) or stop < shape[dim]:
                return False
            dim += 1
        elif p is not None:
            return False
    return True


def _is_full_slice(part) -> bool:
    return isinstance(part, slice) and part == slice(None)


class IndexAdd(Op):
    """Zeros of ``shape`` with g added at ``key``; backward reads ``key`` back (GetItem)."""

    @staticmethod
    def forward(ctx, g, shape, key):
        ctx.key = key
        out = np.zeros(shape, dtype=g.dtype)
        if _is_basic(key):
            out[key] = g
        else:
            np.add.at(out, key, g)
        return out

    @staticmethod
    def backward(ctx, gg):
        return GetItem.apply(gg, key=ctx.key)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule (linear op): t_out = IndexAdd(t_g)."""
        return IndexAdd.apply(tangents[0], **params)


def indexed(a: np.ndarray, key):
    """``a[key]``; numpy's IndexError reworded as PyTorch says it (dimension, tensor)."""
    try:
        return a[key]
    except IndexError as e:
        words = re.sub(r"\baxis\b", "dimension", str(e))
        raise IndexError(re.sub(r"\barray\b", "tensor", words)) from None


def _is_basic(key) -> bool:
    """Basic indexing (no arrays) never repeats an element, so plain assignment is enough."""
    items = key if isinstance(key, tuple) else (key,)
    for k in items:  # a loop, not all(...): indexing in a loop calls this twice per element
        if not (k is None or k is Ellipsis or isinstance(k, (int, slice))):
            return False
    return True


def _element_key(key) -> bool:
    """``i`` or ``(i, j, ...)`` in plain ints: the key of a loop over elements
    (``N[i, j] += 1``), which needs no conversion and is basic."""
    if type(key) is int:
        return True
    if type(key) is not tuple:
        return False
    for k in key:
        if type(k) is not int:
            return False
    return True


def _convert_key(key):
    if _element_key(key):  # nothing to convert: 0.2 us here instead of 0.9 (bench_loops.py)
        return key
    items = key if isinstance(key, tuple) else (key,)
    out = []
    for k in items:
        if isinstance(k, Tensor):
            k = k._data
        if isinstance(k, range):  # a sequence of ints, as PyTorch reads it: x[range(n), y]
            k = np.arange(k.start, k.stop, k.step, dtype=np.int64)
        if isinstance(k, list):
            k = np.asarray(k)
            if k.size == 0:
                k = k.astype(np.int64)
        if isinstance(k, np.ndarray):
            if k.dtype.kind not in "iub":
                raise IndexError(errors.INDEX_TYPE.format(got=f"an array of dtype {k.dtype}"))
        elif isinstance(k, (bool, np.bool_)):
            pass
        elif isinstance(k, (int, np.integer)):
            k = int(k)
        elif isinstance(k, slice):
            if k.step is not None and k.step <= 0:  # numpy allows it, PyTorch does not
                raise ValueError(errors.SLICE_STEP.format(step=k.step))
        elif not (
            k is None or k is Ellipsis
        ):  # PyTorch: IndexError for x[1.5], TypeError for x["a"]
            kind = IndexError if isinstance(k, numbers.Real) else TypeError
            raise kind(errors.INDEX_TYPE.format(got=type(k).__name__))
        out.append(k)
    return tuple(out) if isinstance(key, tuple) else out[0]


def getitem(a, key):
    """Index or slice a tensor, as PyTorch does (numpy's steps <= 0 are refused, as there)."""
    if _element_key(key):  # x[i, j] in a loop: a 0-d view (see below), nothing to convert
        return GetItem.apply(a, key=(key if type(key) is tuple else (key,)) + (Ellipsis,))
    key = _convert_key(key)
    if _is_basic(key) and not isinstance(key, slice):  # x[1:3] stays a slice: a view, and
        # PyTorch's SliceBackward0, where x[1:3, ...] is a tuple (see _adds_dims_only)
        items = key if isinstance(key, tuple) else (key,)
        if not any(k is Ellipsis for k in items):
            # x[0] of a 1-D array is a numpy scalar (a copy); x[0, ...] is a 0-d view,
            # which is what PyTorch returns
            key = items + (Ellipsis,)
    return GetItem.apply(a, key=key)


class Where(Op):
    """where(cond, a, b); grad_a = g where cond else 0, grad_b = g where not cond else 0."""

    # PyTorch saves the condition (``grad_fn._saved_condition``), 0-d or not, so a second
    # backward through a freed WhereBackward raises
    saved_values = {"condition": lambda ctx: make(np.asarray(ctx.info[0]), False, None)}

    @staticmethod
    def forward(ctx, a, b, cond):
        ctx.info = (cond, a.shape, b.shape)
        return np.where(cond, a, b)

    @staticmethod
    def backward(ctx, g):
        cond, sa, sb = ctx.info
        zero = make(np.zeros((), g._data.dtype), False, None)  # +0.0 (g * 0.0 could be -0.0)
        c = make(cond, False, None)
        return sum_to(where(c, g, zero), sa), sum_to(where(c, zero, g), sb)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = where(cond, t_a, t_b) (a missing tangent is zero)."""
        ta, tb = (t if t is not None else x * 0.0 for t, x in zip(tangents, inputs))
        return Where.apply(ta, tb, cond=params["cond"])


def where(condition, input=None, other=None):  # noqa: A002  (PyTorch names)
    """Pick from ``input`` where ``condition`` is True, else from ``other`` (``torch.where``).

    ``where(condition)`` alone is ``nonzero(condition, as_tuple=True)``, as in PyTorch."""
    if input is None and other is None:
        from .masked import nonzero  # masked.py imports this module: import here, not at the top

        return nonzero(to_tensor(condition, None, "where"), as_tuple=True)
    if input is None or other is None:
        raise TypeError(errors.WHERE_ARGS)
    cond = to_tensor(condition, None, "where")
    if cond._data.dtype != np.bool_:
        raise TypeError(errors.WHERE_COND.format(got=cond.dtype))
    a = to_tensor(input, other if isinstance(other, Tensor) else None, "where")
    b = to_tensor(other, a, "where")
    try:
        np.broadcast_shapes(cond.shape, a.shape, b.shape)
    except ValueError:
        raise RuntimeError(
            errors.WHERE_SHAPE.format(sc=tuple(cond.shape), sa=tuple(a.shape), sb=tuple(b.shape))
        ) from None
    if a._data.dtype != b._data.dtype:
        d = result_dtype(a, b)
        a, b = a.to(d), b.to(d)
    return Where.apply(a, b, cond=cond._data)


class Cat(Op):
    """Concatenate along dim; each input gets its slice of g."""

    @staticmethod
    def forward(ctx, *arrays, dim):
        ctx.dim = dim
        ctx.sizes = [x.shape[dim] for x in arrays]
        return np.concatenate(arrays, axis=dim)

    @staticmethod
    def backward(ctx, g):
        grads, start = [], 0
        for n in ctx.sizes:
            if g.layout != "strided":  # COO, cut along a dense dim (sparse/formulas.py)
                grads.append(g._narrow_dense_dim(ctx.dim, start, start + n))
            else:
                grads.append(g[(slice(None),) * ctx.dim + (slice(start, start + n),)])
            start += n
        return tuple(grads)

    @staticmethod
    def jvp(params, inputs, tangents, out):
        """Forward rule: t_out = the inputs' tangents concatenated (zeros where missing)."""
        ts = [t if t is not None else x * 0.0 for t, x in zip(tangents, inputs)]
        return Cat.apply(*ts, dim=params["dim"])


def _check_list(tensors, op):
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(errors.CAT_NOT_LIST.format(op=op, got=type(tensors).__name__))
    if not tensors:  # PyTorch: ValueError for cat, RuntimeError for stack
        raise (ValueError if op == "cat" else RuntimeError)(errors.CAT_EMPTY.format(op=op))
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(
                errors.NOT_A_TENSOR.format(what=f"{op}(): entry {i}", got=type(t).__name__)
            )
    d = tensors[0].dtype
    for t in tensors[1:]:  # all count fully, 0-d ones too (stack makes them 1-d first)
        d = _dtype.promote(d, t.dtype)
    return [t if t.dtype is d else t.to(d) for t in tensors]


def cat(tensors, dim: int = 0):
    """Join tensors along an existing dimension (``torch.cat``)."""
    tensors = _check_list(tensors, "cat")
    for i, t in enumerate(tensors):
        if t.ndim == 0:  # PyTorch's wording (to move to minigrad.errors)
            raise RuntimeError(
                f"zero-dimensional tensor (at position {i}) cannot be concatenated; "
                "use stack() to join 0-d tensors"
            )
    ref = tensors[0]
    d = norm_dim(dim, ref.ndim)
    for i, t in enumerate(tensors[1:], 1):
        if t.ndim != ref.ndim or any(t.shape[k] != ref.shape[k] for k in range(ref.ndim) if k != d):
            raise RuntimeError(
                errors.CAT_SHAPE.format(
                    op="cat", dim=d, i=i, got=tuple(t.shape), want=tuple(ref.shape)
                )
            )
    return Cat.apply(*tensors, dim=d)


def stack(tensors, dim: int = 0):
    """Join tensors along a new dimension (``torch.stack``)."""
    tensors = _check_list(tensors, "stack")
    ref = tensors[0]
    for i, t in enumerate(tensors[1:], 1):
        if t.shape != ref.shape:
            raise RuntimeError(
                errors.STACK_SHAPE.format(want=list(ref.shape), got=list(t.shape), i=i)
            )
    d = norm_dim(dim, ref.ndim + 1)
    return Cat.apply(*[t.unsqueeze(d) for t in tensors], dim=d)


class Compare(Op):
    """Elementwise comparison: a bool tensor, no gradient (as in PyTorch)."""

    differentiable = False

    @staticmethod
    def forward(ctx, a, b, fn):
        return np.asarray(fn(a, b))


def compare(a, b, fn, name):
    b = to_tensor(b, a, name)
    broadcast_shapes(a.shape, b.shape, name)  # PyTorch's RuntimeError, not numpy's ValueError
    if a._data.dtype != b._data.dtype:  # compared in torch.result_type, not numpy's choice
        d = result_dtype(a, b)
        a, b = a.to(d), b.to(d)
    return Compare.apply(a, b, fn=fn)


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):  # noqa: A002
    """Elementwise ``|input - other| <= atol + rtol * |other|``, a bool tensor
    (``torch.isclose``). Shapes broadcast; the dtypes must match (no promotion, as in
    PyTorch). Infinities of the same sign are close; nan is close to nan only when
    ``equal_nan``.

    Example:
        >>> import minigrad as mg
        >>> mg.isclose(mg.tensor([1.0, 2.0, float("nan")]), mg.tensor([1.0 + 1e-9, 2.1, float("nan")]))
        tensor([ True, False, False])
    """
    _check_close(input, other, rtol, atol, "isclose")
    broadcast_shapes(input.shape, other.shape, "isclose")
    a, b = input._data, other._data
    if a.dtype == np.bool_:
        return make(np.asarray(a == b), False, None)
    out = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return make(np.asarray(out), False, None)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False) -> bool:  # noqa: A002
    """True when every pair of elements is close, as :func:`isclose` decides
    (``torch.allclose``).

    Example:
        >>> import minigrad as mg
        >>> mg.allclose(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0 + 1e-7]))
        True
    """
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


def isnan(input) -> Tensor:  # noqa: A002  (PyTorch's name)
    """True where an element is NaN, a bool tensor with no gradient (``torch.isnan``).

    Computed as ``input != input`` (NaN is the one value unequal to itself), so it traces
    as one ``ne`` equation; an integer or bool tensor has no NaN (all False).

    Example:
        >>> import minigrad as mg
        >>> mg.isnan(mg.tensor([1.0, float("nan"), float("inf")]))
        tensor([False,  True, False])
    """
    if not _check_classified(input, "isnan"):
        return make(np.zeros(input.shape, dtype=np.bool_), False, None)
    return input != input


def isinf(input) -> Tensor:  # noqa: A002
    """True where an element is +inf or -inf, a bool tensor with no gradient
    (``torch.isinf``); an integer or bool tensor has no infinity (all False).

    Example:
        >>> import minigrad as mg
        >>> mg.isinf(mg.tensor([1.0, float("nan"), float("-inf")]))
        tensor([False, False,  True])
    """
    if not _check_classified(input, "isinf"):
        return make(np.zeros(input.shape, dtype=np.bool_), False, None)
    return (input == np.inf) | (input == -np.inf)


def isfinite(input) -> Tensor:  # noqa: A002
    """True where an element is neither NaN nor infinite, a bool tensor with no gradient
    (``torch.isfinite``); every element of an integer or bool tensor is finite.

    Example:
        >>> import minigrad as mg
        >>> mg.isfinite(mg.tensor([1.0, float("nan"), float("inf")]))
        tensor([ True, False, False])
    """
    if not _check_classified(input, "isfinite"):
        return make(np.ones(input.shape, dtype=np.bool_), False, None)
    return (input == input) & (input != np.inf) & (input != -np.inf)


def _check_classified(x, op: str) -> bool:
    """PyTorch's TypeError for a non-tensor, a clear one for a sparse tensor; True when
    ``x`` is floating point (the only dtypes with NaN and infinities)."""
    check_tensor(x, op)
    if has_sparse_layout(x):
        raise TypeError(errors.SPARSE_UNSUPPORTED_OP.format(op=op))
    return x.dtype.is_floating_point


def _check_close(a, b, rtol, atol, op):
    for name, t in (("input", a), ("other", b)):
        if not isinstance(t, Tensor):
            raise TypeError(
                errors.NOT_A_TENSOR.format(what=f"{op}(): {name}", got=type(t).__name__)
            )
    if a.dtype is not b.dtype:
        raise RuntimeError(errors.CLOSE_DTYPE.format(op=op, a=a.dtype, b=b.dtype))
    for name, tol in (("rtol", rtol), ("atol", atol)):
        if tol < 0:
            raise RuntimeError(errors.CLOSE_TOL.format(op=op, name=name, got=tol))
