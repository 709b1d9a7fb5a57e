"""``Parameter``: a leaf Tensor that a Module registers as one of its learnable weights."""

from __future__ import annotations

import numpy as np

from .. import _device, _dtype
from ..errors import nn as _errors
from ..tensor import Tensor, _init


class Parameter(Tensor):
    """A leaf tensor that requires grad and is registered by :class:`Module` (``torch.nn.Parameter``).

    ``Parameter(t)`` shares ``t``'s numpy array (and version counter), as
    PyTorch does, but starts a fresh history: it is always a leaf. Results of
    operations on a Parameter (including its ``.grad``) are plain Tensors.

    Args:
        data: the initial value (a Tensor); None gives an empty float tensor.
        requires_grad: whether the parameter is trained (default True).

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, 2.0]))
        >>> w
        Parameter containing:
        tensor([1., 2.], requires_grad=True)
        >>> type(w * 2).__name__
        'Tensor'
    """

    def __init__(self, data: Tensor | None = None, requires_grad: bool = True):
        if data is None:
            data = Tensor._make(np.empty(0, _dtype.defaults.float_dtype.np), False, None)
        elif not isinstance(data, Tensor):
            raise TypeError(_errors.PARAMETER_DATA.format(got=type(data).__name__))
        _init(self, data._data, False, None)
        self._share_version_with(data)  # shared storage, shared version counter (as detach())
        if requires_grad:
            self.requires_grad_(True)

    # NB: PyTorch gets the same effect by disabling __torch_function__ on Parameter:
    # ops on a Parameter, and the gradients accumulated into it, are plain Tensors.
    @classmethod
    def _make(cls, data: np.ndarray, requires_grad: bool, grad_fn) -> Tensor:
        return Tensor._make(data, requires_grad, grad_fn)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        copied = Tensor._make(self._data.copy(), False, None)
        result = type(self)(copied, self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol):
        # Pickle the value and the flag only (no graph, no gradient), as torch does.
        return (type(self), (Tensor._make(self._data, False, None), self.requires_grad))


class _Uninitialized:
    """What an uninitialized parameter and buffer share: a dtype, no values (reading the
    shape raises ``RuntimeError``, computing with it ``ValueError``, as in PyTorch) until
    :meth:`materialize` gives it memory and turns it into ``cls_to_become`` (the same object,
    so references to it stay valid)."""

    cls_to_become: type = Tensor

    def _start(self, dtype, requires_grad: bool) -> None:
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        _init(self, np.empty(0, d.np), False, None)
        self._requires_grad = requires_grad  # (requires_grad_ would read the values)

    # its values live under another name, so that every op reading ``_data`` refuses it
    @property
    def _data(self):
        raise ValueError(_errors.UNINITIALIZED_USE)

    @_data.setter
    def _data(self, value: np.ndarray) -> None:
        self.__dict__["_placeholder"] = value

    @property
    def shape(self):
        raise RuntimeError(_errors.UNINITIALIZED_SHAPE)

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype._FROM_NP[self.__dict__["_placeholder"].dtype]

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Give it memory of ``shape`` (values not set, as ``torch.empty``) and make it a
        plain ``cls_to_become``."""
        _device.check(device, "materialize()")
        d = self.dtype if dtype is None else _dtype.as_dtype(dtype)
        requires_grad = self.requires_grad
        self.__dict__.pop("_placeholder")
        self.__class__ = self.cls_to_become
        _init(self, np.empty(tuple(shape), d.np), False, None)
        if requires_grad:
            self.requires_grad_(True)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class UninitializedParameter(_Uninitialized, Parameter):
    """A parameter whose shape is not known yet (``torch.nn.UninitializedParameter``): what a
    lazy module (``nn.LazyLinear``) holds until its first ``forward`` tells it the input's
    size and :meth:`materialize` gives it memory, turning it into a plain :class:`Parameter`.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.UninitializedParameter()
        >>> w
        <UninitializedParameter>
        >>> w.materialize((2, 3))
        >>> type(w).__name__, w.shape
        ('Parameter', minigrad.Size([2, 3]))
    """

    cls_to_become = Parameter

    def __init__(self, requires_grad: bool = True, device=None, dtype=None):
        _device.check(device, "UninitializedParameter()")
        self._start(dtype, requires_grad)


class UninitializedBuffer(_Uninitialized, Tensor):
    """A buffer whose shape is not known yet (``torch.nn.UninitializedBuffer``; a lazy batch
    norm's running statistics): it becomes a plain Tensor when materialized."""

    cls_to_become = Tensor

    def __init__(self, requires_grad: bool = False, device=None, dtype=None):
        _device.check(device, "UninitializedBuffer()")
        self._start(dtype, requires_grad)
