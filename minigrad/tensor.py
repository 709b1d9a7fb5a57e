"""The Tensor: a numpy array plus what autograd needs to differentiate through it.

Like ``torch.Tensor``: ``requires_grad`` marks tensors whose gradient we want,
``grad_fn`` is the node that made a computed tensor (None for leaves), and
``backward()`` fills ``.grad`` of the leaves. Unlike PyTorch, ``.data`` is the
numpy array itself, so students can always look inside.

The operator methods here are thin: each one calls an op class in
``minigrad.ops`` (one class per op, forward beside backward).
"""

from __future__ import annotations

import warnings
import weakref

import numpy as np

from . import _dtype, errors
from .autograd import function as _function
from .autograd import grad_mode
from .autograd.node import AccumulateGrad

_grad = grad_mode.state


class Tensor:
    """A multi-dimensional array that can record operations for autograd.

    Build tensors with :func:`minigrad.tensor` and friends rather than with
    this class directly.
    """

    __slots__ = (
        "data",
        "_grad",
        "grad_fn",
        "_requires_grad",
        "_ver",
        "_base",
        "_is_view",
        "_output_nr",
        "_acc",
        "_hooks",
        "name",
        "__weakref__",
    )
    __array_priority__ = 1000  # numpy scalars defer to our reflected operators
    _sparse = False  # SparseTensor says True; the engine routes sparse gradients by it

    def __init__(self, data, requires_grad: bool = False):
        from .factory import _as_array

        arr = _as_array(data, None)
        _init(self, arr, False, None)
        if requires_grad:
            self.requires_grad_(True)

    @classmethod
    def _make(cls, data: np.ndarray, requires_grad: bool, grad_fn) -> Tensor:
        """Fast internal constructor: ``data`` must already be a supported array.

        The slot assignments repeat :func:`_init` on purpose: this runs once per op,
        and a call costs as much as the rest. Keep the two in step.
        """
        t = cls.__new__(cls)
        t.data = data
        t._grad = None
        t.grad_fn = grad_fn
        t._requires_grad = requires_grad
        t._ver = 0
        t._base = None
        t._is_view = False
        t._output_nr = 0
        t._acc = None
        t._hooks = None
        t.name = None
        return t

    # --- properties ---------------------------------------------------------------
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
        return self.grad_fn is None

    @property
    def shape(self) -> tuple:
        """The tensor's shape, a tuple of ints."""
        return self.data.shape

    @property
    def dtype(self) -> _dtype.dtype:
        """The element type, e.g. ``minigrad.float32``."""
        return _dtype._FROM_NP[self.data.dtype]

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return self.data.ndim

    @property
    def T(self) -> Tensor:  # noqa: N802  (PyTorch name)
        """The tensor with its dimensions reversed."""
        return self.permute(*range(self.ndim - 1, -1, -1))

    @property
    def mT(self) -> Tensor:  # noqa: N802
        """The last two dimensions swapped."""
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
    def device(self) -> str:
        """Always ``"cpu"``."""
        return "cpu"

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

    def size(self, dim: int | None = None):
        """The shape, or the size of one dimension."""
        if dim is None:
            return self.data.shape
        from .ops._util import norm_dim

        return self.data.shape[norm_dim(dim, self.ndim)]

    def dim(self) -> int:
        """Number of dimensions."""
        return self.data.ndim

    def numel(self) -> int:
        """Number of elements."""
        return self.data.size

    def element_size(self) -> int:
        """Bytes per element."""
        return self.data.itemsize

    def is_floating_point(self) -> bool:
        """True for float16/32/64 tensors."""
        return self.data.dtype.kind == "f"

    # --- conversions ----------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The data as a numpy array (shares memory). Detach first if it requires grad."""
        if self._requires_grad:
            raise RuntimeError(errors.NUMPY_REQUIRES_GRAD)
        return self.data

    def item(self):
        """The value of a one-element tensor as a Python number."""
        if self.data.size != 1:
            raise RuntimeError(errors.ITEM_NUMEL.format(n=self.data.size))
        return self.data.reshape(()).item()

    def tolist(self):
        """The data as (nested) Python lists."""
        return self.data.tolist()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __index__(self) -> int:
        if self.data.dtype.kind not in "iub" or self.data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __bool__(self) -> bool:
        if self.data.size != 1:
            raise RuntimeError(
                f"Boolean value of Tensor with {self.data.size} elements is ambiguous"
            )
        return bool(self.item())

    def __len__(self) -> int:
        if self.data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.data.shape[0]

    def __iter__(self):
        if self.data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.data.shape[0]))

    def __hash__(self) -> int:
        return id(self)

    def __reduce_ex__(self, protocol):
        if self.grad_fn is not None and self._requires_grad:
            raise RuntimeError(errors.PICKLE_NON_LEAF)
        return (_rebuild, (type(self), self.data, self._requires_grad, self._grad, self.name))

    def __deepcopy__(self, memo):
        if self.grad_fn is not None and self._requires_grad:
            raise RuntimeError(errors.PICKLE_NON_LEAF)
        import copy

        t = _rebuild(type(self), self.data.copy(), self._requires_grad, None, self.name)
        if self._grad is not None:
            t._grad = copy.deepcopy(self._grad, memo)
        memo[id(self)] = t
        return t

    def __array__(self, dtype=None, copy=None):
        return self.data if dtype is None else self.data.astype(dtype)

    def __repr__(self) -> str:
        from ._format import tensor_repr

        return tensor_repr(self)

    # --- autograd ---------------------------------------------------------------------
    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        """Set ``requires_grad`` in place (leaves only); returns self."""
        if self.grad_fn is not None:
            if not requires_grad:
                raise RuntimeError(errors.NON_LEAF_REQUIRES_GRAD)
            return self
        if requires_grad and self.data.dtype.kind != "f":
            raise RuntimeError(errors.INT_REQUIRES_GRAD.format(dtype=self.dtype))
        self._requires_grad = bool(requires_grad)
        return self

    def detach(self) -> Tensor:
        """A new leaf sharing data (and version counter) with this tensor, without history."""
        t = Tensor._make(self.data, False, None)
        t._share_version_with(self)
        return t

    def detach_(self) -> Tensor:
        """Detach this tensor from the graph in place."""
        self.grad_fn = None
        self._requires_grad = False
        return self

    def retain_grad(self) -> None:
        """Populate ``.grad`` of this non-leaf tensor during backward."""
        if not self._requires_grad:
            raise RuntimeError(errors.RETAIN_GRAD_NO_GRAD)
        if self.grad_fn is None or self._retains_grad():
            return
        ref = weakref.ref(self)

        def retain(grad):
            t = ref()
            if t is not None:
                if t._grad is None:
                    t._grad = Tensor._make(np.array(grad.data, copy=True), False, None)
                else:
                    t._grad = Tensor._make(t._grad.data + grad.data, False, None)
            return None

        retain._minigrad_retain = True
        self.grad_fn._add_pre_hook(self._output_nr, retain)

    def _retains_grad(self) -> bool:
        hooks = self.grad_fn._pre_hooks if self.grad_fn is not None else None
        if not hooks:
            return False
        return any(getattr(h, "_minigrad_retain", False) for h in hooks.get(self._output_nr, ()))

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
            hooks.sort(key=lambda h: getattr(h, "_minigrad_retain", False))
        return _HookHandle(hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute gradients of this tensor w.r.t. graph leaves (``torch.Tensor.backward``).

        Args:
            gradient: d(something)/d(self); may be omitted for a one-element tensor.
            retain_graph: keep saved tensors for another backward (default: create_graph).
            create_graph: record the backward pass so gradients can be differentiated.
            inputs: accepted for PyTorch compatibility only when None.
        """
        from .autograd import backward

        backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def _edge(self):
        if self.grad_fn is not None:
            return self.grad_fn, self._output_nr
        if self._requires_grad:
            return self._accumulator(), 0
        return None, 0

    def _edge_for_capture(self):
        return self._edge()

    def _accumulator(self) -> AccumulateGrad:
        acc = self._acc() if self._acc is not None else None
        if acc is None:
            acc = AccumulateGrad(self)
            self._acc = weakref.ref(acc)
        return acc


def _init(t, data, requires_grad, grad_fn):
    """Set every slot of a new tensor (``__init__``, unpickling, ``nn.Parameter``)."""
    t.data = data
    t._grad = None
    t.grad_fn = grad_fn
    t._requires_grad = requires_grad
    t._ver = 0
    t._base = None
    t._is_view = False
    t._output_nr = 0
    t._acc = None
    t._hooks = None
    t.name = None


def _rebuild(cls, data, requires_grad, grad, name):
    """Unpickle a leaf tensor (the graph is never pickled, as in PyTorch)."""
    t = Tensor._make(data, requires_grad, None)
    if cls is not Tensor:
        t = cls.__new__(cls)
        _init(t, data, requires_grad, None)
    t._grad = grad
    t.name = name
    return t


class _HookHandle:
    """Returned by ``register_hook``; ``remove()`` unregisters the hook."""

    def __init__(self, hooks, hook):
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


_function._bind_tensor(Tensor)

# The op methods live in _tensor_ops (they need Tensor to exist first).
from ._tensor_ops import TensorOps  # noqa: E402

for _name, _value in vars(TensorOps).items():
    # __hash__ stays Tensor's (by identity): defining __eq__ set TensorOps.__hash__ to None
    if _name not in ("__module__", "__doc__", "__slots__", "__dict__", "__weakref__", "__hash__"):
        setattr(Tensor, _name, _value)
