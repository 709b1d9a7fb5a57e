"""The in-place methods of :class:`~minigrad.tensor.Tensor`: ``add_``, ``x[k] = v``, ``exp_`` ...

Each runs its op out of place and writes the result into the tensor, with the checks
PyTorch makes (a leaf that requires grad refuses; the version counter is bumped, so a node
that saved the old value raises at backward) and, when the graph is recorded, rebases the
tensor onto the new node. ``minigrad._tensor_methods.install`` puts them on ``Tensor``.
"""

from __future__ import annotations

import weakref

import numpy as np

from . import _dtype, _traced, errors
from .ops import arith, inplace, rounded_division, rounding, select
from .ops._util import broadcast_shapes, named, to_tensor
from .recording import grad_mode, modes
from .recording.function import _SCRATCH
from .sparse.tensor import SparseTensor
from .tensor import RetainGrad, Tensor, has_sparse_layout

_grad = grad_mode.state
_modes = modes.state

# Tensor._creation of a view made while its root did not require grad, whose root then
# changed in place in the graph: minigrad gives it its new grad_fn at once
# (``_rebase_views``), PyTorch builds it when it is first read (``is_leaf``, ``repr``, the
# view as an op's input, ``autograd.node.gradient_edge``, or backward's root). Until then PyTorch's in-place check sees a view
# without grad_fn that requires grad, a leaf, and refuses an in-place op on it that requires
# grad: ``v = x[0:1]; x.mul_(w); v.add_(1)`` ("a leaf Variable that requires grad ...").
UNREAD_GRAD_FN = "grad_fn unread"


class InplaceTensorOps:
    """Mixin with the in-place methods of Tensor (PyTorch names and semantics)."""

    def _inplace(self, op_name, compute):
        """Run ``compute(src)`` out of place and write the result into self.

        When the graph is recorded, self's history is rebased onto the new node
        (as PyTorch does), and the op sees a snapshot of self's old value. When
        self is a view, the write goes through to its base, whose history gets a
        ``CopySlices`` node, so gradients through the base see the change too.
        """
        recording = _grad.enabled
        base = self._view_of  # None unless self is a view
        traced = _traced.is_traced(self._data)  # make_jaxpr / jit: see _traced.rebind
        tracked = recording and (self._requires_grad or _any_requires_grad(compute))
        other = getattr(compute, "other", None)
        _check_write(self, op_name, tracked, traced, other)
        if isinstance(other, Tensor) and not traced and compute.fn is not _put:
            _check_no_partial_overlap(self._data, other._data)
        node = None
        if tracked:
            old = self._data if traced else self._data.copy()  # traced: no write will follow
            src = self._make(old, self._requires_grad, self.grad_fn)
            src._output_nr = self._output_nr
            result = compute(src)
            data, node = result._data, result.grad_fn
        elif type(compute) is _Bound and not _modes.active:
            # its one operand, ``other``, does not require grad (checked above), so its op
            # records nothing even in grad mode: no no_grad() needed, which costs 0.45 us of
            # a 10 us counting-loop step (benchmarks/bench_loops.py). A mode (a tape that
            # watches self, forward AD) may see the op: then no_grad() as below.
            kernel = _number_kernel(compute) if not traced else None
            if kernel is not None:
                # ``x += 1`` with nothing to record: the op's forward on the array, without
                # an output Tensor from Op.apply: ``v.add_(1)`` 5.2 -> 3.6 us, a counting-loop
                # step ``N[i, j] += 1`` 10.2 -> 8.6 us (CPU time, benchmarks/bench_loops.py)
                data = kernel(self, other)
            else:
                result = compute(self._alias())
                data, node = result._data, result.grad_fn
        else:  # a lambda may hold other tensors (clamp_'s bounds): nothing may record
            with grad_mode.no_grad():
                result = compute(self._alias())
            data, node = result._data, result.grad_fn
        _check_inplace(self, data, op_name)
        if data.dtype != self._data.dtype and (node is not None or traced):
            result = result.to(self.dtype)
            data, node = result._data, result.grad_fn
        owner = self if base is None else base  # the tensor whose node changes
        retained = tracked and owner._retains_grad() and (owner.grad_fn, owner._output_nr)
        if tracked and base is not None:
            # one value per memory location: a fill, or x.copy_(x) (each element its own)
            once = op_name in ("fill_", "zero_") or (op_name == "copy_" and other is self)
            _write_through_view(self, base, result, once)
            if result.grad_fn is not None:  # what the op saved of its result is the view now
                result.grad_fn._rebase_saved(result, self)
            _rebase_views(base, self)
            if retained:
                _move_retain_grad(base, *retained)
            return self
        if traced:  # a traced program has no memory to write into: self takes the new value
            self._data = data
        else:
            np.copyto(self._data, data, casting="unsafe")
        self._bump_version()
        if node is not None:  # self now carries the node that made its new value
            self.grad_fn, self._output_nr, self._requires_grad = node, 0, True
            node._rebase_saved(result, self)
            _rebase_views(self, None)
            if retained:
                _move_retain_grad(self, *retained)
        return self

    def __setitem__(self, key, value):
        """``x[key] = value``: an in-place write (gradient flows to ``value`` where it landed).

        A tensor ``value`` is checked as PyTorch checks it (``_check_setitem_source``)."""
        key = select._convert_key(key)
        if self._creation == UNREAD_GRAD_FN and _grad.enabled and not _writes_itself(self, key):
            self._creation = None  # PyTorch indexes first: the view it records reads grad_fn
        if _untracked_write(self, value):
            _setitem_untracked(self, key, value)
            return
        idx = inplace.index_positions(self.shape, key)
        if isinstance(value, Tensor) and idx.size:
            _check_setitem_source(self, key, value)
        self._inplace("__setitem__", _Bound(_put, value, idx=idx))

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

    def div_(self, other, *, rounding_mode=None):
        """In-place ``self /= other`` (``rounding_mode=`` as for ``div``)."""
        if rounding_mode is not None:  # (None: true division, as without it)
            return self._inplace(
                "div_", lambda s: rounded_division.div(s, other, rounding_mode=rounding_mode)
            )
        return self._inplace("div_", _Bound(arith.div, other))

    def clamp_(self, min=None, max=None):  # noqa: A002
        """In-place clamp."""
        return self._inplace("clamp_", lambda s: s.clamp(min, max))

    clip_ = clamp_

    def clamp_min_(self, min):  # noqa: A002
        """In-place ``clamp_min``."""
        return self._inplace("clamp_min_", lambda s: s.clamp_min(min))

    def clamp_max_(self, max):  # noqa: A002
        """In-place ``clamp_max``."""
        return self._inplace("clamp_max_", lambda s: s.clamp_max(max))

    def scatter_(self, dim, index, src=None, *, value=None, reduce=None):
        """In-place :func:`minigrad.scatter` (``Tensor.scatter_``: ``x.scatter_(1, idx, 1.0)``
        writes a one-hot encoding)."""
        return self._inplace(
            "scatter_", lambda s: s.scatter(dim, index, src, value=value, reduce=reduce)
        )

    def scatter_add_(self, dim, index, src):
        """In-place :func:`minigrad.scatter_add`."""
        return self._inplace("scatter_add_", lambda s: s.scatter_add(dim, index, src))

    def index_add_(self, dim, index, source, *, alpha=1):
        """In-place :func:`minigrad.index_add` (``Tensor.index_add_``)."""
        return self._inplace("index_add_", lambda s: s.index_add(dim, index, source, alpha=alpha))

    def index_fill_(self, dim, index, value):
        """In-place :func:`minigrad.index_fill`."""
        return self._inplace("index_fill_", lambda s: s.index_fill(dim, index, value))

    def addcmul_(self, tensor1, tensor2, *, value=1):
        """In-place ``self += value * tensor1 * tensor2`` (``Tensor.addcmul_``, the update
        of hand-written optimizers)."""
        return self._inplace("addcmul_", lambda s: s.addcmul(tensor1, tensor2, value=value))

    def addcdiv_(self, tensor1, tensor2, *, value=1):
        """In-place ``self += value * tensor1 / tensor2`` (``Tensor.addcdiv_``)."""
        return self._inplace("addcdiv_", lambda s: s.addcdiv(tensor1, tensor2, value=value))

    def pow_(self, exponent):
        """In-place ``self **= exponent``."""
        return self._inplace("pow_", _Bound(arith.pow, exponent))

    def round_(self, **kwargs):
        """In-place ``round`` (``decimals=`` as for ``round``: to that many decimal places)."""
        return self._inplace("round_", lambda s: rounding.round(s, **kwargs))

    def atan2_(self, other):
        """In-place ``atan2``: ``self = atan2(self, other)``."""
        return self._inplace("atan2_", _Bound(_atan2, other))

    def hypot_(self, other):
        """In-place ``hypot``: ``self = hypot(self, other)``."""
        return self._inplace("hypot_", _Bound(_hypot, other))

    def zero_(self):
        """Fill with zeros in place (PyTorch records ``ZeroBackward0``)."""
        return self._inplace("zero_", lambda src: inplace.Zero.apply(src, value=0))

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
INPLACE_UNARY += (
    "log1p",
    "log2",
    "log10",
    "expm1",
    "reciprocal",
    "rsqrt",
    "sinh",
    "cosh",
    "asin",
    "acos",
    "atan",
)
INPLACE_UNARY += ("floor", "ceil", "trunc", "frac")
INPLACE_UNARY += ("tan", "asinh", "acosh", "atanh", "sinc", "exp2", "deg2rad", "rad2deg", "sgn")
INPLACE_UNARY += ("lgamma", "digamma", "tril", "triu", "negative", "fix", "logit", "erf", "erfc")
for _name in INPLACE_UNARY:
    setattr(InplaceTensorOps, _name + "_", _inplace_unary(_name))


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


def _writes_itself(t, key) -> bool:
    """Whether PyTorch's ``t[key] = value`` writes into ``t`` itself (a ``copy_`` or an
    ``index_put_`` on ``t``) rather than into a view it makes first: every part of the key
    is ``...``, an index array, or a slice from the start to at least the end with step 1
    (its indexing returns ``t`` itself for such a slice)."""
    parts = key if isinstance(key, tuple) else (key,)
    if any(p is None or isinstance(p, (bool, int, np.bool_, np.integer)) for p in parts):
        return False  # a dim selected or added: a view
    width = [p.ndim if isinstance(p, np.ndarray) and p.dtype == bool else 1 for p in parts]
    dim = 0
    for p, n in zip(parts, width):
        if p is Ellipsis:
            dim += t.ndim - (sum(width) - 1)
            continue
        if isinstance(p, slice):
            stop = p.stop if p.stop is not None else t.shape[dim]
            if p.start not in (None, 0) or p.step not in (None, 1) or stop < t.shape[dim]:
                return False
        dim += n
    return True


def _untracked_write(t, value) -> bool:
    """True when ``t[key] = value`` records nothing: grad mode is off, or neither ``t`` nor
    ``value`` requires grad (``_inplace``'s ``tracked`` is False), and no mode (forward AD,
    a tape, a trace) watches the op; a sparse ``value`` takes the op path."""
    if _grad.enabled and (t._requires_grad or getattr(value, "_requires_grad", False)):
        return False
    return not (_modes.active or _traced.is_traced(t._data) or has_sparse_layout(value))


def _setitem_untracked(t, key, value) -> None:
    """``t[key] = value`` with nothing recorded: ``_inplace``'s checks, then the values
    written straight into ``t``'s array (every view of it sees them) and the version bumped.

    The recorded path numbers every element of ``t`` (``index_positions``) and builds the
    whole new array (``CopySlices``): a cost in ``t``'s size for one element written. In the
    lectures' counting loop (``N[i, j] += 1`` on 27x27, benchmarks/bench_loops.py) the write
    back ``N[i, j] = v`` took 5.3 us that way and takes 1.5 us here (CPU time)."""
    _check_write(t, "__setitem__", False)
    region = select.indexed(t._data, key)  # its shape; out-of-bounds: PyTorch's IndexError
    # x[i, j] = v writes one element through a basic index (a copy_): it cannot partly
    # overlap v, so there is nothing to check (0.6 us of a counting-loop step)
    if isinstance(value, Tensor) and region.size and not select._element_key(key):
        _check_setitem_source(t, key, value)
    src = to_tensor(value, t, "__setitem__")._data
    shape = _setitem_shape(src.shape, region.shape)
    t._data[key] = src if shape == src.shape else src.reshape(shape)  # numpy casts as .to
    t._bump_version()


def _setitem_shape(value_shape: tuple, target: tuple) -> tuple:
    """``value``'s shape for ``x[key] = value``: leading size-1 dims dropped, then it must
    broadcast to the selected region, else PyTorch's expand error (a RuntimeError)."""
    if value_shape == target:
        return value_shape
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


def _check_write(t, op_name: str, tracked: bool, traced: bool = False, src=None):
    """What PyTorch checks before any in-place write into ``t`` (``_inplace`` and the
    untracked ``x[key] = v`` share it): memory it may write (``_check_writable``); with grad
    mode on, no view made under no_grad or by split/unbind in a ``tracked`` op (one that
    requires grad), no leaf that requires grad, nor a view of one."""
    if traced:
        _traced.check_writable(t, op_name)
    else:
        _check_writable(t, op_name, src)
    if not _grad.enabled:
        return
    base = t._view_of
    if base is None:
        if tracked and t._requires_grad and t.grad_fn is None:
            raise RuntimeError(errors.LEAF_INPLACE)
        return
    if t._creation is not None:
        _check_view_creation(t, tracked)
    if base._requires_grad and base.grad_fn is None:
        raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)


def _check_writable(t, op_name: str, src=None) -> None:
    """PyTorch's error for a tensor whose elements share memory (``expand``'s zero strides),
    except for fills (one value written everywhere is well defined, PyTorch allows them) and
    ``x.copy_(x)`` (PyTorch's copy_ returns before any check when ``src`` is ``x`` itself);
    a read-only array (a broadcast numpy made, a cached constant) gets a memory of its own
    first."""
    data = t._data
    strides = data.strides  # ``0 in strides`` first: no generator for the usual array
    shared = data.size > 1 and 0 in strides and any(map(_repeats, data.shape, strides))
    if shared and op_name not in ("fill_", "zero_") and not (op_name == "copy_" and src is t):
        raise RuntimeError(errors.INPLACE_OVERLAP)
    if not data.flags.writeable:
        t._data = data.copy()


def _repeats(n: int, stride: int) -> bool:
    """A dim whose elements all share one memory location (``expand``'s zero stride)."""
    return stride == 0 and n > 1


def _check_setitem_source(t, key, value) -> None:
    """``t[key] = value`` for a tensor ``value``, as PyTorch checks it: through a basic index
    it is a ``copy_`` (dtype converted; a 0-d value: a ``fill_``), through an advanced one an ``index_put_`` (dtypes
    must match); neither may read memory it writes. Except: a single bool mask (among basic
    indices) with a one-element value is a ``masked_fill_`` with that value read as a number
    (dtype converted, no overlap to check), as PyTorch's ``index_put_`` dispatches it.
    Nothing selected: nothing checked."""
    if _traced.is_traced(t._data):
        return
    if select._is_basic(key):  # copy_; a 0-d value: fill_, which reads it as a number first
        if value.ndim:  # (a value of another shape is expanded first: see below)
            dest = t._data[key]
            _check_no_partial_overlap(dest, value._data, expand=dest.shape != value.shape)
        return
    parts = key if isinstance(key, tuple) else (key,)
    arrays = [p for p in parts if isinstance(p, np.ndarray)]  # the advanced indices
    if value.numel() == 1 and len(arrays) == 1 and arrays[0].dtype == np.bool_:
        return  # masked_fill_
    if value.dtype is not t.dtype:
        dst, src = _dtype.c_name(t.dtype), _dtype.c_name(value.dtype)
        raise RuntimeError(errors.INDEX_PUT_DTYPE.format(dst=dst, src=src))
    _check_no_partial_overlap(t._data, value._data, exact_ok=False)


def _check_no_partial_overlap(dest: np.ndarray, src, exact_ok: bool = True, expand=False) -> None:
    """PyTorch's refusal when the values read and the memory written partly coincide
    (``x[0:2].mul_(x[1:3])``): the result would depend on the order of the writes. The
    very same memory (``x.add_(x)``) is fine, unless ``exact_ok`` is False (index_put_).
    ``expand``: ``src`` (of another shape) is read as ``x[key] = src`` reads it, expanded
    to ``dest``'s shape after dropping its leading size-1 dims (PyTorch's ``copy_to``)."""
    if not isinstance(src, np.ndarray) or not isinstance(dest, np.ndarray):
        return  # a numpy scalar (``x[i, j]`` with ints) is a copy: it shares no memory
    if not np.may_share_memory(dest, src):
        return
    # as PyTorch's get_overlap_status: the shapes and strides (in elements) it would see
    d_shape, d_strides = dest.shape, _pytorch_strides(dest)
    s_shape, s_strides = src.shape, _pytorch_strides(src)
    if expand:
        expanded = _expanded(s_shape, s_strides, d_shape)
        if expanded is None:
            return  # does not broadcast: the write raises PyTorch's expand error
        s_shape, s_strides = d_shape, expanded
    if not (_fills_a_block(d_shape, d_strides) and _fills_a_block(s_shape, s_strides)):
        return  # PyTorch's "too hard to tell" (get_overlap_status): it does not refuse
    same = (
        exact_ok
        and dest.__array_interface__["data"][0] == src.__array_interface__["data"][0]
        and dest.size == src.size
        and d_strides == s_strides
    )
    if not same and np.shares_memory(dest, src):
        raise RuntimeError(errors.INPLACE_PARTIAL_OVERLAP)


def _pytorch_strides(a: np.ndarray) -> tuple:
    """``a``'s strides in elements as PyTorch gives them: numpy's, except that a size-1 dim
    numpy gives stride 0 (inserted by ``None``, or by a broadcast) has PyTorch's
    ``unsqueeze``/``expand`` stride there, the next dim's size times its stride (1 last)."""
    out, after = [], 1
    for n, s in zip(reversed(a.shape), reversed(a.strides)):
        s = s // a.itemsize if s or n != 1 else after
        out.append(s)
        after = n * s
    return tuple(reversed(out))


def _expanded(shape: tuple, strides: tuple, target: tuple):
    """The strides of ``src.expand(target)`` after its leading size-1 dims are dropped
    (PyTorch's ``copy_to`` then ``inferExpandGeometry``); None if it does not broadcast."""
    while shape and shape[0] == 1:
        shape, strides = shape[1:], strides[1:]
    if not shape:  # a 0-d tensor expands with stride 0 everywhere
        return (0,) * len(target)
    lead = len(target) - len(shape)
    if lead < 0:
        return None
    out = [0] * len(target)
    after = 1
    for i in range(len(target) - 1, -1, -1):
        n, s = (shape[i - lead], strides[i - lead]) if i >= lead else (1, after)
        if n != target[i]:
            if n != 1:
                return None
            s = 0
        out[i] = s
        after = target[i] * s
    return tuple(out)


def _fills_a_block(shape: tuple, strides: tuple) -> bool:
    """PyTorch's ``is_non_overlapping_and_dense``: the elements fill a block of memory, with
    no gap and no element twice (the dims, ordered by stride, are C-contiguous)."""
    expected = 1
    for stride, n in sorted((s, n) for n, s in zip(shape, strides) if n != 1):
        if stride != expected:
            return False
        expected *= n
    return True


def _move_retain_grad(t, old_fn, old_nr) -> None:
    """``retain_grad`` follows an in-place change to the tensor's new node, as PyTorch moves
    it: ``.grad`` is then the gradient of the new value only."""
    hooks = old_fn._pre_hooks[old_nr]
    hooks[:] = [h for h in hooks if not isinstance(h, RetainGrad)]
    t.retain_grad()


def _check_view_creation(view, tracked: bool) -> None:
    """In-place on a view made under no_grad, or on one output of split/chunk/unbind, with
    grad mode on: refused as PyTorch refuses (the gradient would be ambiguous or wrong).
    ``tracked``: the op requires grad (the view, or its other operand, does)."""
    made = view._creation
    if made is None:
        return
    if made == UNREAD_GRAD_FN:  # PyTorch sees no grad_fn yet: a leaf that requires grad
        if tracked:
            raise RuntimeError(errors.LEAF_INPLACE)
        return
    if made == "no_grad":
        if tracked:
            raise RuntimeError(errors.NO_GRAD_VIEW_INPLACE)
        return
    if tracked:
        op, n = made
        raise RuntimeError(errors.MULTI_OUTPUT_VIEW_INPLACE.format(n=n, op=op))


def _write_through_view(view, base, result, fill: bool = False):
    """Write a view's new value into its base and rebase both onto the graph. A ``fill``
    may go through a view that shows an element several times (``expand``): one value."""
    idx = inplace.view_index(base._data, view._data, repeats=fill)
    old = base._make(base._data, base._requires_grad, base.grad_fn)
    old._output_nr = base._output_nr
    new_base = inplace.CopySlices.apply(old, result, idx=idx)
    np.copyto(base._data, new_base._data)
    base._bump_version()
    base.grad_fn, base._output_nr, base._requires_grad = new_base.grad_fn, 0, True
    _regenerate_grad_fn(view, base, idx)


def _regenerate_grad_fn(view, base, idx=None) -> None:
    """The view's grad_fn anew: its elements picked from the base's current history, in one
    node (``take_positions``), named as PyTorch's regenerated view (AsStridedBackward0)."""
    if idx is None:
        idx = inplace.view_index(base._data, view._data, repeats=True)
    fresh = named(inplace.take_positions(base, idx), "AsStridedBackward0")
    view.grad_fn, view._output_nr, view._requires_grad = fresh.grad_fn, 0, True


def _rebase_views(root, written) -> None:
    """After ``root`` (or its view ``written``) changed in place in the graph, every other
    live view of ``root`` sees the new values, so its history must lead through the new
    node too: ``y = x * 1; v = y[:]; y[0] = 5`` gives ``v`` no gradient path to ``x[0]``."""
    if not root._views:
        return
    views = [v for v in (r() for r in root._views) if v is not None]
    root._views = [weakref.ref(v) for v in views]  # (regenerating adds temporaries: dropped)
    for view in views:
        if view is written or view._creation not in (None, UNREAD_GRAD_FN):
            continue  # the others: refused when used
        unread = view.grad_fn is None  # made before the root required grad
        _regenerate_grad_fn(view, root)
        if unread:
            view._creation = UNREAD_GRAD_FN
    root._views = [weakref.ref(v) for v in views]


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
    if isinstance(value, Tensor):  # fill_ with a 0-d tensor: a copy_ of it (its gradient flows)
        if value.ndim:
            raise RuntimeError(errors.FILL_DIMS.format(ndim=value.ndim))
        return _copied(src, value)
    return inplace.Fill.apply(src, value=value)


def _copied(src, other):
    other = to_tensor(other, src, "copy_")
    if broadcast_shapes(other.shape, src.shape, "copy_") != src.shape:
        raise RuntimeError(errors.COPY_SHAPE.format(src=list(other.shape), dst=list(src.shape)))
    return inplace.Copy.apply(src, other)


def _check_inplace(t, data, op_name):
    """The op's result (its array ``data``) fits ``t``: the same shape, and a dtype ``t`` can
    hold (PyTorch: an int tensor refuses a float result)."""
    if data.shape == t._data.shape and data.dtype == t._data.dtype:
        return  # the common case, in 0.1 us (a loop of element updates: bench_loops.py)
    if data.shape != t._data.shape:
        raise RuntimeError(
            errors.INPLACE_SHAPE.format(op=op_name, got=tuple(data.shape), want=tuple(t.shape))
        )
    got = _dtype._FROM_NP[data.dtype]
    if got is not t.dtype and got._kind > t.dtype._kind:
        raise RuntimeError(errors.INPLACE_DTYPE.format(op=op_name, got=got, want=t.dtype))


def _add_number(t, value):
    return arith.AddScalar.forward(_SCRATCH, t._data, value)


def _sub_number(t, value):
    arith._refuse_bool_sub(t, value)  # as arith.sub: PyTorch refuses ``-`` on bool tensors
    return arith.AddScalar.forward(_SCRATCH, t._data, -value)


def _mul_number(t, value):
    return arith.MulScalar.forward(_SCRATCH, t._data, value)


# The array kernel of ``add_``/``sub_``/``mul_`` with a Python number, used when nothing
# records (see _inplace): the same forward the op runs, so the same values and dtype rules.
_NUMBER_KERNELS = {arith.add: _add_number, arith.sub: _sub_number, arith.mul: _mul_number}


def _number_kernel(compute):
    """The array kernel for ``compute`` (a ``_Bound``) when its operand is a Python number
    and ``alpha`` is 1, else None."""
    if type(compute.other) not in (int, float):
        return None
    alpha = compute.kw.get("alpha", 1)
    if type(alpha) is not int or alpha != 1:
        return None
    return _NUMBER_KERNELS.get(compute.fn)


def _atan2(src, other):
    return src.atan2(other)  # the method: it checks that other is a tensor


def _hypot(src, other):
    return src.hypot(other)
