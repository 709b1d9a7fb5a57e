"""The operator and op methods of :class:`~minigrad.tensor.Tensor` and of its sparse kind.

Each method is one line that hands over to ``minigrad.ops``, where the op's
forward and backward live side by side. In-place methods (``add_`` ...) are
here too, with the version-counter and leaf checks PyTorch does, and so is
``backward()``, which hands over to the engine. The few op methods of
:class:`~minigrad.sparse.tensor.SparseTensor` (``@``, ``*``, ``t``, ``sum`` ...) hand
over to ``minigrad.sparse.ops`` the same way (:class:`SparseTensorOps`).

``tensor.py`` and ``sparse/tensor.py`` know nothing of the ops built on them; the
methods here are installed on ``Tensor`` and ``SparseTensor`` (:func:`install`, called at
the bottom of this module) when ``minigrad`` is imported. That is the one place where
tensors and ops are tied both ways.
"""

from __future__ import annotations

import numpy as np

from . import _abstract, _dtype, errors
from . import factory as _factory
from .autograd import backward as _backward
from .autograd import grad_mode
from .factory import _as_array
from .ops import (
    arith,
    arith_more,
    convert,
    inplace,
    linalg,
    reduce,
    reduce_more,
    rounding,
    select,
    select_more,
    shape,
    shape_more,
    unary,
    unary_more,
)
from .ops import norm as norms
from .ops._util import check_tensor, make, norm_dim, to_tensor
from .sparse import embedding
from .sparse import ops as sparse_ops
from .sparse import ops_values as sparse_values
from .sparse.tensor import SparseTensor, ToSparse
from .tensor import Tensor, _init

_grad = grad_mode.state


class TensorOps:
    """Mixin with every operator of Tensor (PyTorch names and semantics)."""

    def __init__(self, data, requires_grad: bool = False):
        _init(self, _as_array(data, None), False, None)
        if requires_grad:
            self.requires_grad_(True)

    def size(self, dim: int | None = None):
        """The shape, or the size of one dimension."""
        if dim is None:
            return self._data.shape
        return self._data.shape[norm_dim(dim, self.ndim)]

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute gradients of this tensor w.r.t. graph leaves (``torch.Tensor.backward``).

        Args:
            gradient: d(something)/d(self); may be omitted for a one-element tensor.
            retain_graph: keep saved tensors for another backward (default: create_graph).
            create_graph: record the backward pass so gradients can be differentiated.
            inputs: if given, only these leaves accumulate gradient.
        """
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # --- arithmetic ---------------------------------------------------------------
    def __add__(self, other):
        if type(other) is float or type(other) is int:
            return arith.AddScalar.apply(self, value=other)
        return arith.add(self, other)

    def __radd__(self, other):
        return arith.add(self, other)

    def __sub__(self, other):
        return arith.sub(self, other)

    def __rsub__(self, other):
        return arith.rsub(self, other)

    def __mul__(self, other):
        if type(other) is float or type(other) is int:
            return arith.MulScalar.apply(self, value=other)
        return arith.mul(self, other)

    def __rmul__(self, other):
        return arith.mul(self, other)

    def __truediv__(self, other):
        return arith.div(self, other)

    def __rtruediv__(self, other):
        return arith.rdiv(self, other)

    def __pow__(self, other):
        return arith.pow(self, other)

    def __rpow__(self, other):
        return arith.rpow(self, other)

    def __neg__(self):
        return arith.Neg.apply(self)

    def __pos__(self):
        return self

    def __abs__(self):
        return unary.Abs.apply(self)

    def __matmul__(self, other):
        return linalg.matmul(self, other)

    def __rmatmul__(self, other):
        return linalg.matmul(to_tensor(other, self, "matmul"), self)

    add = arith.add
    sub = arith.sub
    mul = arith.mul
    div = arith.div
    pow = arith.pow
    neg = arith.neg
    maximum = arith_more.maximum
    minimum = arith_more.minimum
    logaddexp = arith_more.logaddexp
    matmul = linalg.matmul
    mm = linalg.mm
    bmm = linalg.bmm
    dot = linalg.dot

    # --- comparisons (bool results, no gradient) ---------------------------------
    def __lt__(self, other):
        return select.compare(self, other, np.less, "lt")

    def __le__(self, other):
        return select.compare(self, other, np.less_equal, "le")

    def __gt__(self, other):
        return select.compare(self, other, np.greater, "gt")

    def __ge__(self, other):
        return select.compare(self, other, np.greater_equal, "ge")

    def __eq__(self, other):
        return select.compare(self, other, np.equal, "eq")

    def __ne__(self, other):
        return select.compare(self, other, np.not_equal, "ne")

    def __invert__(self):
        if self._data.dtype != np.bool_:
            raise TypeError(f"~ (logical not) needs a bool tensor, got {self.dtype}")
        return select.compare(self, False, np.equal, "~")  # an op: make_jaxpr can trace it

    def __and__(self, other):
        return select.compare(self, other, np.logical_and, "and")

    def __or__(self, other):
        return select.compare(self, other, np.logical_or, "or")

    lt, le, gt, ge, eq, ne = __lt__, __le__, __gt__, __ge__, __eq__, __ne__

    def equal(self, other) -> bool:
        """True when shapes and all values agree (``torch.equal``)."""
        check_tensor(other, "equal", "other", 2)
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    allclose = select.allclose
    isclose = select.isclose
    isnan = select.isnan
    isinf = select.isinf
    isfinite = select.isfinite

    # --- elementwise math ---------------------------------------------------------------
    def exp(self):
        return unary.Exp.apply(self)

    def log(self):
        return unary.Log.apply(self)

    def sqrt(self):
        return unary.Sqrt.apply(self)

    def sin(self):
        return unary.Sin.apply(self)

    def cos(self):
        return unary.Cos.apply(self)

    def tanh(self):
        return unary.Tanh.apply(self)

    def sigmoid(self):
        return unary.Sigmoid.apply(self)

    def relu(self):
        return unary.Relu.apply(self)

    def abs(self):
        return unary.Abs.apply(self)

    def sign(self):
        return unary.Sign.apply(self)

    def clamp(self, min=None, max=None):  # noqa: A002
        return unary.Clamp.apply(self, min=min, max=max)

    def square(self):
        """``self ** 2`` (``Tensor.square``; the node is PowBackward, as in PyTorch)."""
        return arith.pow(self, 2)

    clip = clamp

    def log1p(self):
        return unary_more.Log1p.apply(self)

    def expm1(self):
        return unary_more.Expm1.apply(self)

    def reciprocal(self):
        return unary_more.Reciprocal.apply(self)

    def rsqrt(self):
        return unary_more.Rsqrt.apply(self)

    def sinh(self):
        return unary_more.Sinh.apply(self)

    def cosh(self):
        return unary_more.Cosh.apply(self)

    def asin(self):
        return unary_more.Asin.apply(self)

    def acos(self):
        return unary_more.Acos.apply(self)

    def atan(self):
        return unary_more.Atan.apply(self)

    def atan2(self, other):
        check_tensor(other, "atan2", "other", 1)  # other is argument 1 of the method
        return unary_more.atan2(self, other)

    def hypot(self, other):
        check_tensor(other, "hypot", "other", 1)
        return unary_more.hypot(self, other)

    def floor(self):
        return rounding.Floor.apply(self)

    def ceil(self):
        return rounding.Ceil.apply(self)

    def trunc(self):
        return rounding.Trunc.apply(self)

    def frac(self):
        return rounding.Frac.apply(self)

    round = rounding.round

    # --- reductions -------------------------------------------------------------------
    sum = reduce.sum
    mean = reduce.mean
    max = reduce.max
    min = reduce.min
    amax = reduce.amax
    amin = reduce.amin
    var = reduce.var
    std = reduce_more.std
    prod = reduce_more.prod
    cumsum = reduce_more.cumsum
    logsumexp = reduce.logsumexp
    norm = norms.norm
    softmax = reduce.softmax
    log_softmax = reduce.log_softmax

    def argmax(self, dim=None, keepdim=False):
        """Index of the largest element (flattened when dim is None)."""
        return _arg_extreme(self, np.argmax, "argmax", dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        """Index of the smallest element (flattened when dim is None)."""
        return _arg_extreme(self, np.argmin, "argmin", dim, keepdim)

    def all(self, dim=None, keepdim=False):
        """True where every element (along ``dim``) is nonzero (``Tensor.all``)."""
        return _logical_reduce(self, np.all, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        """True where some element (along ``dim``) is nonzero (``Tensor.any``)."""
        return _logical_reduce(self, np.any, dim, keepdim)

    # --- shapes -----------------------------------------------------------------------
    reshape = shape.reshape
    view = shape.view
    flatten = shape.flatten
    unflatten = shape.unflatten
    permute = shape.permute
    movedim = shape.movedim
    transpose = shape.transpose
    t = shape.t
    unsqueeze = shape.unsqueeze
    squeeze = shape.squeeze
    expand = shape.expand
    roll = shape_more.roll
    tril = shape_more.tril
    triu = shape_more.triu
    chunk = shape_more.chunk
    narrow = shape_more.narrow
    masked_fill = select_more.masked_fill

    def flip(self, *args, dims=None):
        """Reverse the order along dims: ``x.flip(0, 1)``, ``x.flip((0, 1))`` or
        ``x.flip(dims=[0, 1])`` (``Tensor.flip``)."""
        if dims is None:
            dims = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        return shape_more.flip(self, tuple(dims))

    def split(self, split_size, dim=0):
        """Pieces of ``split_size`` (an int, or a list of sizes) along ``dim``, as views
        (``Tensor.split``; :func:`minigrad.split` names the sizes ``split_size_or_sections``)."""
        return shape_more.split(self, split_size, dim)

    def expand_as(self, other):
        return shape.expand(self, *other.shape)

    def view_as(self, other):
        return shape.view(self, *other.shape)

    def reshape_as(self, other):
        return shape.reshape(self, *other.shape)

    def contiguous(self):
        """Self if its memory is in C order, else a C-ordered copy (differentiable)."""
        if self._data.flags.c_contiguous:
            return self
        return shape.reshape(shape.reshape(self, -1), *self.shape)  # flattening copies in C order

    def __getitem__(self, key):
        return select.getitem(self, key)

    def index_select(self, dim, index):
        return embedding.index_select(self, dim, index)

    def gather(self, dim, index, *, sparse_grad=False):
        return embedding.gather(self, dim, index, sparse_grad=sparse_grad)

    # --- dtype and device conversions --------------------------------------------------------
    to = convert.to
    cpu = convert.cpu
    cuda = convert.cuda

    def type(self, dtype=None):
        """The dtype, or a cast to ``dtype`` (a dtype or its name: ``"float64"``)."""
        if dtype is None:
            return self.dtype
        if isinstance(dtype, str):  # a dtype's name here, where .to("...") means a device
            try:
                dtype = _dtype.as_dtype(dtype.removeprefix("minigrad."))
            except TypeError:
                raise ValueError(errors.INVALID_TYPE.format(got=dtype)) from None
        return convert.to(self, dtype)

    def float(self):
        return convert.to(self, _dtype.float32)

    def double(self):
        return convert.to(self, _dtype.float64)

    def half(self):
        return convert.to(self, _dtype.float16)

    def long(self):
        return convert.to(self, _dtype.int64)

    def int(self):
        return convert.to(self, _dtype.int32)

    def bool(self):
        return convert.to(self, _dtype.bool_)

    def clone(self):
        return convert.Clone.apply(self)

    # --- new tensors like this one (its dtype unless told; device-generic code uses them) ----
    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        """Zeros of ``size`` with this tensor's dtype (``Tensor.new_zeros``)."""
        d = dtype or self.dtype
        return _factory.zeros(*size, dtype=d, device=device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        """Ones of ``size`` with this tensor's dtype (``Tensor.new_ones``)."""
        d = dtype or self.dtype
        return _factory.ones(*size, dtype=d, device=device, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        """An uninitialised tensor (zeros here) with this tensor's dtype (``Tensor.new_empty``)."""
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        """``fill_value`` everywhere, with this tensor's dtype (``Tensor.new_full``)."""
        d = dtype or self.dtype
        return _factory.full(size, fill_value, d, requires_grad, device=device)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        """A copy of ``data`` with this tensor's dtype (``Tensor.new_tensor``)."""
        d = dtype or self.dtype
        return _factory.tensor(data, d, requires_grad, device=device)

    # --- layouts (minigrad.sparse) -----------------------------------------------------
    def to_dense(self, masked_grad=True):
        """A dense tensor is already dense: returns self."""
        return self

    def to_sparse(self, sparse_dim=None, *, layout="sparse_coo"):
        """A sparse copy with the zeros dropped (``sparse_dim`` leading dims sparse, COO)."""
        if layout not in ("sparse_coo", "sparse_csr", "sparse_csc"):
            raise ValueError(errors.BAD_LAYOUT.format(got=layout))
        return ToSparse.apply(self, layout=layout, sparse_dim=sparse_dim)

    def to_sparse_coo(self):
        return self.to_sparse()

    def to_sparse_csr(self):
        """A CSR copy of a 2-D tensor (zeros dropped)."""
        return self.to_sparse(layout="sparse_csr")

    def to_sparse_csc(self):
        """A CSC copy of a 2-D tensor (zeros dropped)."""
        return self.to_sparse(layout="sparse_csc")

    def _alias(self):
        """A new tensor object for the same data, without history (internal)."""
        t = self._make(self._data, False, None)
        t._share_version_with(self)
        return t

    # --- in-place ------------------------------------------------------------------------
    def _inplace(self, op_name, compute):
        """Run ``compute(src)`` out of place and write the result into self.

        When the graph is recorded, self's history is rebased onto the new node
        (as PyTorch does), and the op sees a snapshot of self's old value. When
        self is a view, the write goes through to its base, whose history gets a
        ``CopySlices`` node, so gradients through the base see the change too.
        """
        recording = _grad.enabled
        base = self._base if self._is_view else None
        traced = _abstract.is_traced(self._data)  # make_jaxpr / jit: see _abstract.rebind
        if traced:
            _abstract.check_writable(self, op_name)
        if recording and self._requires_grad and self.grad_fn is None and base is None:
            raise RuntimeError(errors.LEAF_INPLACE)
        if recording and base is not None and base._requires_grad and base.grad_fn is None:
            raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
        tracked = recording and (self._requires_grad or _any_requires_grad(compute))
        if tracked:
            old = self._data if traced else self._data.copy()  # traced: no write will follow
            src = self._make(old, self._requires_grad, self.grad_fn)
            src._output_nr = self._output_nr
            result = compute(src)
        else:
            with grad_mode.no_grad():
                result = compute(self._alias())
        _check_inplace(self, result, op_name)
        if result.dtype is not self.dtype and (result.grad_fn is not None or traced):
            result = result.to(self.dtype)
        if tracked and base is not None:
            _write_through_view(self, base, result)
            return self
        if traced:  # a traced program has no memory to write into: self takes the new value
            self._data = result._data
        else:
            np.copyto(self._data, result._data, casting="unsafe")
        self._bump_version()
        if result.grad_fn is not None:  # self now carries the node that made its new value
            self.grad_fn, self._output_nr, self._requires_grad = result.grad_fn, 0, True
            result.grad_fn._rebase_saved(result, self)
        return self

    def __setitem__(self, key, value):
        """``x[key] = value``: an in-place write (gradient flows to ``value`` where it landed)."""
        idx = inplace.index_positions(self.shape, select._convert_key(key, self.shape))
        self._inplace("__setitem__", _Bound(_put, value, idx=idx))

    def where(self, condition, other):
        """``self`` where ``condition`` holds, else ``other`` (``Tensor.where``)."""
        return select.where(condition, self, other)

    def add_(self, other, *, alpha=1):
        """In-place ``self += alpha * other`` (``other`` may be sparse: see _add_sparse_)."""
        if isinstance(other, SparseTensor):
            return _add_sparse_(self, other, alpha, "add_")
        return self._inplace("add_", _Bound(arith.add, other, alpha=alpha))

    def sub_(self, other, *, alpha=1):
        """In-place ``self -= alpha * other`` (``other`` may be sparse: see _add_sparse_)."""
        if isinstance(other, SparseTensor):
            return _add_sparse_(self, other, -alpha, "sub_")
        return self._inplace("sub_", _Bound(arith.sub, other, alpha=alpha))

    def mul_(self, other):
        """In-place ``self *= other``."""
        return self._inplace("mul_", _Bound(arith.mul, other))

    def div_(self, other):
        """In-place ``self /= other``."""
        return self._inplace("div_", _Bound(arith.div, other))

    def clamp_(self, min=None, max=None):  # noqa: A002
        """In-place clamp."""
        return self._inplace("clamp_", lambda s: s.clamp(min, max))

    def pow_(self, exponent):
        """In-place ``self **= exponent``."""
        return self._inplace("pow_", _Bound(arith.pow, exponent))

    def round_(self, **kwargs):
        """In-place ``round`` (``decimals=`` as for ``round``: to that many decimal places)."""
        return self._inplace("round_", lambda s: rounding.round(s, **kwargs))

    def atan2_(self, other):
        """In-place ``atan2``: ``self = atan2(self, other)``."""
        return self._inplace("atan2_", _Bound(TensorOps.atan2, other))

    def hypot_(self, other):
        """In-place ``hypot``: ``self = hypot(self, other)``."""
        return self._inplace("hypot_", _Bound(TensorOps.hypot, other))

    def zero_(self):
        """Fill with zeros in place."""
        return self.fill_(0)

    def fill_(self, value):
        """Fill with ``value`` in place."""
        return self._inplace("fill_", _Bound(_filled, value))

    def copy_(self, src):
        """Copy ``src`` (broadcast to self's shape) into self in place; gradient flows to src."""
        return self._inplace("copy_", _Bound(_copied, src))

    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)


def _inplace_unary(name: str):
    """``x.exp_()`` and friends: ``x.exp()`` written into x (with ``_inplace``'s checks:
    a leaf that requires grad refuses, a computed tensor is rebased onto the new node)."""

    def method(self):
        return self._inplace(name + "_", lambda src: getattr(src, name)())

    method.__name__ = name + "_"
    method.__doc__ = f"In-place ``{name}``: ``x.{name}_()`` writes ``x.{name}()`` into x."
    return method


INPLACE_UNARY = ("exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg")
INPLACE_UNARY += ("sign", "square")
INPLACE_UNARY += ("log1p", "expm1", "reciprocal", "rsqrt", "sinh", "cosh", "asin", "acos", "atan")
INPLACE_UNARY += ("floor", "ceil", "trunc", "frac")
for _name in INPLACE_UNARY:
    setattr(TensorOps, _name + "_", _inplace_unary(_name))


def _arg_extreme(t, reducer, name: str, dim, keepdim: bool):
    """argmax/argmin: an int64 index tensor, with PyTorch's errors for bad dims."""
    if dim is None:
        if t._data.size == 0:
            raise IndexError(errors.ARG_EMPTY.format(op=name))
        return reduce.ArgReduce.apply(t, fn=reducer, dim=None, keepdim=False)
    d = norm_dim(dim, t.ndim)
    if t.ndim and t.shape[d] == 0:
        raise IndexError(errors.REDUCE_EMPTY.format(op=name, dim=d, shape=t.shape))
    return reduce.ArgReduce.apply(t, fn=reducer, dim=d, keepdim=keepdim)


def _logical_reduce(t, reducer, dim, keepdim: bool):
    axis = None if dim is None else norm_dim(dim, t.ndim) if t.ndim else None
    out = reducer(t._data, axis=axis, keepdims=keepdim and axis is not None)
    return t._make(np.asarray(out), False, None)


class _Bound:
    """``compute(src)`` for in-place ops; exposes ``other`` to check its requires_grad."""

    def __init__(self, fn, other, **kw):
        self.fn, self.other, self.kw = fn, other, kw

    def __call__(self, src):
        return self.fn(src, self.other, **self.kw)


def _put(src, value, idx):
    value = to_tensor(value, src, "__setitem__")
    if value.dtype is not src.dtype:
        value = value.to(src.dtype)
    shape = _setitem_shape(value.shape, idx.shape)
    if shape != value.shape:
        value = value.reshape(*shape)
    return inplace.CopySlices.apply(src, value, idx=idx)


def _setitem_shape(value_shape: tuple, target: tuple) -> tuple:
    """``value``'s shape for ``x[key] = value``: leading size-1 dims dropped, then it must
    broadcast to the selected region, else PyTorch's expand error (a RuntimeError)."""
    shape = tuple(value_shape)
    while len(shape) > len(target) and shape[0] == 1:
        shape = shape[1:]
    lead = len(target) - len(shape)
    if lead < 0:
        raise RuntimeError(errors.SETITEM_DIMS.format(got=list(value_shape), want=list(target)))
    for i, n in enumerate(shape):
        want = target[lead + i]
        if n not in (want, 1):
            raise RuntimeError(
                errors.EXPAND.format(
                    new=want, old=n, dim=i, target=list(target), shape=list(value_shape)
                )
            )
    return shape


def _write_through_view(view, base, result):
    """Write a view's new value into its base and rebase both onto the graph."""
    idx = inplace.view_index(base._data, view._data)
    old = base._make(base._data, base._requires_grad, base.grad_fn)
    old._output_nr = base._output_nr
    new_base = inplace.CopySlices.apply(old, result, idx=idx)
    np.copyto(base._data, new_base._data)
    base._bump_version()
    base.grad_fn, base._output_nr, base._requires_grad = new_base.grad_fn, 0, True
    fresh = select.getitem(shape.reshape(base, -1), idx)
    view.grad_fn, view._output_nr, view._requires_grad = fresh.grad_fn, 0, True


def _any_requires_grad(compute) -> bool:
    other = getattr(compute, "other", None)
    return bool(getattr(other, "_requires_grad", False))


def _add_sparse_(self, other, alpha, op_name):
    """``dense.add_(sparse, alpha=a)``: the update of an optimizer step or of the hand-written
    ``p.data -= lr * p.grad`` with a sparse gradient, scatter-added into the dense array
    (duplicates summed), as PyTorch does. It is an update, outside the graph: while grad mode
    records, neither tensor may require grad. (A sparse ``self`` never gets here: SparseTensor
    refuses in-place ops, see sparse/tensor.py.)"""
    if _grad.enabled and (self._requires_grad or other._requires_grad):
        raise RuntimeError(errors.SPARSE_INTO_DENSE_RECORDED.format(op=op_name))
    if other.shape != self.shape or other.dtype is not self.dtype:
        raise RuntimeError(
            errors.SPARSE_INTO_DENSE_MISMATCH.format(
                op=op_name,
                shape=list(self.shape),
                dtype=self.dtype,
                other_shape=list(other.shape),
                other_dtype=other.dtype,
            )
        )
    coo = other._data if other.layout == "sparse_coo" else other._data.to_coo()
    np.add.at(self._data, tuple(coo.indices), coo.values * self._data.dtype.type(alpha))
    self._bump_version()
    return self


def _filled(src, value):
    out = make(np.full(src.shape, value, dtype=src._data.dtype), False, None)
    if src._requires_grad:  # keep history: the old value's gradient is zero
        return src * 0.0 + out
    return out


def _copied(src, other):
    other = to_tensor(other, src, "copy_")
    if other.dtype is not src.dtype:
        other = other.to(src.dtype)
    out = other.expand(*src.shape) if other.shape != src.shape else other
    if src._requires_grad:
        return src * 0.0 + out
    return out if out.grad_fn is not None else out.clone()


def _check_inplace(t, result, op_name):
    if result.shape != t.shape:
        raise RuntimeError(errors.INPLACE_SHAPE.format(op=op_name, got=result.shape, want=t.shape))
    if result.dtype is not t.dtype and result.dtype._kind > t.dtype._kind:
        raise RuntimeError(errors.INPLACE_DTYPE.format(op=op_name, got=result.dtype, want=t.dtype))


class SparseTensorOps:
    """The op methods of SparseTensor; each hands over to :mod:`minigrad.sparse.ops`."""

    def __matmul__(self, other) -> Tensor:
        """``S @ D``: full gradient for S (``torch.mm``); see :func:`minigrad.sparse.mm`."""
        return sparse_ops.matmul(self, other)

    def __rmatmul__(self, other) -> Tensor:
        return sparse_ops.matmul(other, self)

    def matmul(self, other) -> Tensor:
        """``torch.matmul`` with a sparse operand: the full gradient for S."""
        return sparse_ops.matmul(self, other)

    def mm(self, mat2) -> Tensor:
        """``torch.mm`` with a sparse operand: the full gradient for S."""
        return sparse_ops.full_mm(self, mat2)

    def _rmm(self, mat1) -> Tensor:
        """``minigrad.mm(dense, sparse)``: the full gradient for S (called by ``mm``)."""
        return sparse_ops.full_mm(mat1, self)

    def t(self) -> SparseTensor:
        """Transpose of a sparse matrix: COO swaps index rows, CSR <-> CSC share arrays."""
        return sparse_ops.t(self)

    def transpose(self, dim0: int, dim1: int) -> SparseTensor:
        """Swap two sparse dims (CSR becomes CSC and back); the gradient transposes back."""
        return sparse_ops.transpose(self, dim0, dim1)

    def __mul__(self, other) -> SparseTensor:
        """``S * c`` or ``S * D`` (masked: S's pattern); see :func:`minigrad.sparse.ops.mul`."""
        return sparse_ops.mul(self, other)

    __rmul__ = __mul__
    mul = __mul__

    def __truediv__(self, other) -> SparseTensor:
        """``S / c`` for a number ``c``: values divided, pattern kept."""
        return sparse_ops.div(self, other)

    div = __truediv__

    def __neg__(self) -> SparseTensor:
        return sparse_ops.neg(self)

    neg = __neg__

    def _cast(self, dtype) -> SparseTensor:
        """The values cast to ``dtype`` (what ``to``, ``float()``, ``double()`` ... do)."""
        if not dtype.is_floating_point and self._requires_grad:  # as dense: no gradient
            with grad_mode.no_grad():
                return sparse_values.SparseTo.apply(self, dtype=dtype)
        return sparse_values.SparseTo.apply(self, dtype=dtype)

    def sum(self, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
        """``Tensor.sum``: values as :func:`minigrad.sparse.sum`, but the FULL (dense)
        gradient, as PyTorch's ``Tensor.sum`` on a sparse tensor. For the masked (sparse)
        gradient use :func:`minigrad.sparse.sum`."""
        return sparse_ops.sum_full(self, dim, keepdim, dtype)


_SKIP = ("__module__", "__doc__", "__slots__", "__dict__", "__weakref__", "__hash__")


def install() -> None:
    """Put every method of :class:`TensorOps` on ``Tensor`` and of :class:`SparseTensorOps`
    on ``SparseTensor`` (``__hash__`` stays by identity: defining ``__eq__`` set
    ``TensorOps.__hash__`` to None)."""
    for mixin, cls in ((TensorOps, Tensor), (SparseTensorOps, SparseTensor)):
        for name, value in vars(mixin).items():
            if name not in _SKIP:
                setattr(cls, name, value)


install()
