"""The Tensor: a numpy array plus what autograd needs to differentiate through it.

Like ``torch.Tensor``: ``requires_grad`` marks tensors whose gradient we want,
``grad_fn`` is the node that made a computed tensor (None for leaves), and
``backward()`` fills ``.grad`` of the leaves. The values live in a numpy array,
``t._data``, which students can always look inside (``t.numpy()`` or ``np.asarray(t)``
give it to user code); ``t.data`` is PyTorch's: a detached Tensor sharing that array.

This module is the bottom of the stack: it knows arrays, dtypes, gradients, version
counters and hooks, and nothing of graphs or ops. The methods that record or replay a graph
(``x + y``, ``x.sum()``, ``backward()``, ...) are one-liners in ``minigrad/_tensor_methods.py``,
installed on ``Tensor`` when ``minigrad`` is imported: ops make Tensors and Tensors call ops,
the one two-way seam of every eager framework, and that is the one place it is tied.
"""

from __future__ import annotations

import copy
import warnings
import weakref

import numpy as np

from . import _device, _dtype, errors
from ._format import tensor_repr
from ._size import Size


class Tensor:
    """A multi-dimensional array that can record operations for autograd.

    Build tensors with :func:`minigrad.tensor` and friends rather than with
    this class directly.

    The values are a numpy array: ``t.numpy()`` (``t.detach().numpy()`` when ``t``
    requires grad) or ``np.asarray(t)``. ``t.data`` is, as in PyTorch, a Tensor sharing that
    memory outside autograd, the way to update a parameter by hand
    (``p.data -= lr * p.grad``).
    """

    __array_priority__ = 1000  # numpy scalars defer to our reflected operators

    # What a new tensor starts with; a tensor sets its own only when it changes (a fresh op
    # output needs just data, grad_fn and requires_grad: see _init).
    _grad = None  # .grad
    _ver = 0  # version counter (views count on their base: _version)
    _base = None  # the tensor whose memory and version counter this one shares
    _is_view = False
    _view_of = None  # a view's root: the tensor (not itself a view) whose memory it shows
    _views = None  # weak references to the differentiable views of this tensor (a root)
    _creation = None  # how a view was made, for in-place checks: "no_grad", a multi-output op
    # as (node name, output number) (PyTorch's CreationMeta), or UNREAD_GRAD_FN's string
    _made_at = 0  # a no_grad view's version counter when it was made (autograd.node.gradient_edge)
    _output_nr = 0  # which output of grad_fn this is
    _size = None  # the Size ``shape`` last returned (see there)
    _acc = None  # weak reference to the leaf's AccumulateGrad (autograd.node.accumulator)
    _hooks = None  # register_hook on a leaf
    _post_accumulate_hooks = None  # register_post_accumulate_grad_hook (leaves only)
    name = None  # a label for drawings and messages (x.name = "x")

    @classmethod
    def _make(cls, data: np.ndarray, requires_grad: bool, grad_fn) -> Tensor:
        """The internal constructor: ``data`` must already be an array of a supported dtype
        (``Tensor(data)`` and ``minigrad.tensor(data)`` check and convert)."""
        t = cls.__new__(cls)
        t._data, t.grad_fn, t._requires_grad = data, grad_fn, requires_grad  # as _init
        return t

    # --- properties ---------------------------------------------------------------
    @property
    def data(self) -> Tensor:
        """A new tensor sharing this one's memory, outside autograd (``torch.Tensor.data``).

        It has ``requires_grad=False``, no ``grad_fn`` and a version counter of its own, so a
        change made through it is invisible to autograd: no error at backward, even if a
        node saved this tensor (``detach()`` shares the version counter and would raise). That
        is how hand-written optimizer steps work: ``p.data -= lr * p.grad``,
        ``p.data.zero_()``, ``p.data.clamp_(-1, 1)`` change ``p`` in place. A Parameter's
        ``.data`` is a plain Tensor, a sparse tensor's a sparse tensor sharing its format.
        The numpy array itself is ``t.detach().numpy()`` or ``np.asarray(t)``.

        Assigning ``t.data = value`` makes ``t`` share ``value``'s memory; ``value`` must be
        a Tensor of the same shape, dtype and layout. PyTorch also lets the shape and dtype
        change; minigrad refuses at once, because what was built around ``t`` remembers them
        (the shapes saved by graph nodes to reduce gradients, the ``.grad`` already
        accumulated, an optimizer's state), and a changed tensor would fail later, far from
        the assignment, with an internal error.

        Example:
            >>> import minigrad as mg
            >>> w = mg.tensor([1.0, 2.0], requires_grad=True)
            >>> (w * w).sum().backward()
            >>> w.data -= 0.1 * w.grad
            >>> w
            tensor([0.8000, 1.6000], requires_grad=True)
            >>> w.data.requires_grad, w.data.grad_fn
            (False, None)
        """
        return self._make(self._data, False, None)

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(errors.DATA_NOT_TENSOR.format(got=typename(value)))
        if value._data is self._data:  # ``t.data -= x``: the in-place op already wrote here
            return
        if value.layout != self.layout or value.shape != self.shape or value.dtype != self.dtype:
            raise RuntimeError(
                errors.DATA_MISMATCH.format(got=_describe(value), want=_describe(self))
            )
        self._data = value._data

    @property
    def requires_grad(self) -> bool:
        """Whether gradients are computed for this tensor."""
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self.requires_grad_(value)

    @property
    def grad(self) -> Tensor | None:
        """The accumulated gradient of a leaf (None until a backward pass reaches it)."""
        if self.grad_fn is not None and self._grad is None and not self._retains_grad():
            warnings.warn(
                "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. "
                "Its .grad attribute won't be populated during autograd.backward(). If you "
                "indeed want the gradient for a non-leaf Tensor, use .retain_grad() on the "
                "non-leaf Tensor.",
                UserWarning,
                stacklevel=2,
            )
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(
                    errors.NOT_A_TENSOR.format(what="assigned grad", got=type(value).__name__)
                )
            if value.shape != self.shape:
                raise RuntimeError(
                    f"assigned grad has data of a different size: grad shape "
                    f"{list(value.shape)}, tensor shape {list(self.shape)}"
                )
            if value.dtype is not self.dtype:
                raise TypeError(
                    f"assigned grad has dtype {value.dtype}, expected the tensor's dtype "
                    f"{self.dtype}"
                )
        self._grad = value

    @property
    def is_leaf(self) -> bool:
        """True for tensors not made by a recorded op (user-created or detached)."""
        if self._creation == "grad_fn unread":  # read now: PyTorch builds it (UNREAD_GRAD_FN)
            self._creation = None
        return self.grad_fn is None

    @property
    def shape(self) -> Size:
        """The tensor's shape, a :class:`~minigrad.Size` (a tuple of ints)."""
        if self._size != self._data.shape:  # kept while it holds: 98 ns a read, not 248 ns
            self._size = Size._of(self._data.shape)  # (a moons step reads ~60, bench_loops.py)
        return self._size

    @property
    def dtype(self) -> _dtype.dtype:
        """The element type, e.g. ``minigrad.float32``."""
        return _dtype._FROM_NP[self._data.dtype]

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return self._data.ndim

    @property
    def T(self) -> Tensor:  # noqa: N802  (PyTorch name)
        """The tensor with its dimensions reversed."""
        return self.permute(*range(self.ndim - 1, -1, -1))

    @property
    def mT(self) -> Tensor:  # noqa: N802
        """The last two dimensions swapped (matrices or batches of matrices)."""
        if self._data.ndim < 2:
            raise RuntimeError(errors.MT_NDIM.format(ndim=self._data.ndim))
        return self.transpose(-2, -1)

    @property
    def is_sparse(self) -> bool:
        """False: this is a strided (dense) tensor."""
        return False

    @property
    def layout(self) -> str:
        """``"strided"`` for dense tensors (PyTorch: ``torch.strided``)."""
        return "strided"

    @property
    def device(self) -> _device.device:
        """``device(type='cpu')``: minigrad computes on the CPU only (see ``minigrad.device``)."""
        return _device.CPU

    @property
    def is_cuda(self) -> bool:
        """False: no tensor lives on a GPU here."""
        return False

    @property
    def is_cpu(self) -> bool:
        """True: every tensor lives on the CPU."""
        return True

    def get_device(self) -> int:
        """-1, PyTorch's answer for a CPU tensor."""
        return -1

    @property
    def _version(self) -> int:
        """The version counter (PyTorch: ``Tensor._version``): +1 per in-place change.

        Views share their base's counter, so the count lives on the base tensor.
        """
        base = self._base
        return (self if base is None else base)._ver

    def _bump_version(self) -> None:
        base = self._base
        owner = self if base is None else base
        owner._ver += 1
        if owner.grad_fn is not None:  # the node may have saved owner as its output
            owner.grad_fn._note_version(owner._ver)

    def _share_version_with(self, other) -> None:
        """Make self a view of ``other`` for version counting (views, detach)."""
        base = other._base
        self._base = other if base is None else base

    def dim(self) -> int:
        """Number of dimensions."""
        return self._data.ndim

    def numel(self) -> int:
        """Number of elements."""
        return self._data.size

    def element_size(self) -> int:
        """Bytes per element (of the values, for a sparse tensor)."""
        return self._data.dtype.itemsize

    def is_floating_point(self) -> bool:
        """True for float16/32/64 tensors."""
        return self._data.dtype.kind == "f"

    # --- conversions ----------------------------------------------------------------
    def item(self):
        """The value of a one-element tensor as a Python number."""
        return self._one_value().item()

    def tolist(self):
        """The data as (nested) Python lists."""
        return self._data.tolist()

    def _one_value(self) -> np.ndarray:
        """The data of a one-element tensor as a 0-d array (item, float, int, bool read it)."""
        if self._data.size != 1:
            raise RuntimeError(errors.ITEM_NUMEL.format(n=self._data.size))
        return self._data.reshape(())

    def __float__(self) -> float:
        return float(self._one_value())

    def __int__(self) -> int:
        return int(self._one_value())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        one = self._data.reshape(())
        return (one.astype(np.int64) if one.dtype.kind == "b" else one).__index__()  # bool: 0, 1

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with {self._data.size} elements is ambiguous"
            )
        return bool(self._data.reshape(()))

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __hash__(self) -> int:
        return id(self)

    def __reduce_ex__(self, protocol):
        if self.grad_fn is not None and self._requires_grad:
            raise RuntimeError(errors.PICKLE_NON_LEAF)
        return (_rebuild, (type(self), self._data, self._requires_grad, self._grad, self.name))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None and self._requires_grad:
            raise RuntimeError(errors.PICKLE_NON_LEAF)
        data = copy.deepcopy(self._data, memo)  # an array, or a sparse format's arrays
        t = _rebuild(type(self), data, self._requires_grad, None, self.name)
        if self._grad is not None:
            t._grad = copy.deepcopy(self._grad, memo)
        memo[id(self)] = t
        return t

    def __array__(self, dtype=None, copy=None):
        data = self._data.__array__()  # the array itself (a traced one refuses: _traced.py)
        return data if dtype is None else data.astype(dtype)

    def __repr__(self) -> str:
        return tensor_repr(self)

    # --- autograd ---------------------------------------------------------------------
    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place (leaves only); returns self."""
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(errors.NON_LEAF_REQUIRES_GRAD)
            return self
        if requires_grad and self._data.dtype.kind != "f":
            raise RuntimeError(errors.INT_REQUIRES_GRAD.format(dtype=self.dtype))
        self._requires_grad = bool(requires_grad)
        return self

    def detach(self) -> Tensor:
        """A new leaf sharing data (and version counter) with this tensor, without history.

        A Parameter detaches to a plain Tensor, a sparse tensor to a sparse tensor.
        """
        t = self._make(self._data, False, None)
        t._share_version_with(self)
        return t

    def detach_(self) -> Tensor:
        """Detach this tensor from the graph in place."""
        self.grad_fn = None
        self._requires_grad = False
        return self

    def retain_grad(self) -> None:
        """Populate ``.grad`` of this non-leaf tensor during backward.

        The engine adds each gradient that reaches this tensor into its ``.grad`` as it does
        for a leaf (``minigrad.accumulation.accumulate.add_gradients``: a sparse gradient stays
        sparse, a densification is an event), after the tensor's other hooks have run.
        """
        if not self._requires_grad:
            raise RuntimeError(errors.RETAIN_GRAD_NO_GRAD)
        if self.grad_fn is None or self._retains_grad():
            return
        self.grad_fn._add_pre_hook(self._output_nr, RetainGrad(self))

    def _retains_grad(self) -> bool:
        hooks = self.grad_fn._pre_hooks if self.grad_fn is not None else None
        if not hooks:
            return False
        return any(isinstance(h, RetainGrad) for h in hooks.get(self._output_nr, ()))

    @property
    def retains_grad(self) -> bool:
        """True for a non-leaf tensor on which ``retain_grad()`` was called."""
        return self._retains_grad()

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed.

        The hook may return a replacement gradient. Returns a handle with
        ``remove()``.
        """
        if not callable(hook):
            raise TypeError(errors.HOOK_NOT_CALLABLE.format(got=type(hook).__name__))
        if not self._requires_grad:
            raise RuntimeError(errors.HOOK_NO_GRAD)
        if self.grad_fn is None:
            if self._hooks is None:
                self._hooks = []
            hooks = self._hooks
            hooks.append(hook)
        else:
            self.grad_fn._add_pre_hook(self._output_nr, hook)
            hooks = self.grad_fn._pre_hooks[self._output_nr]
            # keep retain_grad last, as PyTorch does
            hooks.sort(key=lambda h: isinstance(h, RetainGrad))
        return _HookHandle(hooks, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(tensor)`` after backward has added into this leaf's ``.grad``.

        The hook sees the accumulated ``.grad`` and returns None (PyTorch's
        ``register_post_accumulate_grad_hook``; DistributedDataParallel starts its
        all-reduce from it). ``autograd.grad`` does not run it. Returns a handle with
        ``remove()``.
        """
        if not callable(hook):
            raise TypeError(errors.HOOK_NOT_CALLABLE.format(got=type(hook).__name__))
        if not self._requires_grad:
            raise RuntimeError(errors.HOOK_NO_GRAD)
        if self.grad_fn is not None:
            raise RuntimeError(errors.POST_ACCUMULATE_NON_LEAF)
        if self._post_accumulate_hooks is None:
            self._post_accumulate_hooks = []
        self._post_accumulate_hooks.append(hook)
        return _HookHandle(self._post_accumulate_hooks, hook)


def typename(obj) -> str:
    """``torch.typename``: the qualified type name used in error messages."""
    cls = type(obj)
    if cls is Tensor:
        return "minigrad.Tensor"
    if cls.__module__ in ("builtins", None):
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def _describe(t: Tensor) -> str:
    """Shape, dtype and (if not dense) layout, for error messages: ``[2, 3] float32``."""
    text = f"{list(t.shape)} {t.dtype.name}"
    return text if t.layout == "strided" else f"{text} {t.layout}"


def has_sparse_layout(x) -> bool:
    """True for a tensor stored in a sparse layout (COO, CSR, CSC); False for a dense tensor
    and for anything that is not a tensor."""
    return isinstance(x, Tensor) and x.layout != "strided"


def _init(t, data, requires_grad, grad_fn):
    """What every new tensor sets (``_make``, ``__init__``, unpickling, Parameter); the rest
    starts from the class defaults above."""
    t._data = data
    t.grad_fn = grad_fn
    t._requires_grad = requires_grad


def _rebuild(cls, data, requires_grad, grad, name):
    """Unpickle a leaf tensor (the graph is never pickled, as in PyTorch)."""
    t = Tensor._make(data, requires_grad, None)
    if cls is not Tensor:
        t = cls.__new__(cls)
        _init(t, data, requires_grad, None)
    t._grad = grad
    t.name = name
    return t


class RetainGrad:
    """What ``retain_grad()`` puts among the hooks of a non-leaf tensor's node: not a hook the
    engine calls, but a note that the gradient arriving there goes into the tensor's ``.grad``
    (``BackwardPass`` does that, through the one accumulation). Holds the tensor weakly."""

    def __init__(self, t: Tensor):
        self.tensor = weakref.ref(t)


class _HookHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, hooks, hook):
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)
