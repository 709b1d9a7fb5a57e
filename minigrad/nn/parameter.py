"""``Parameter``: a leaf Tensor that a Module registers as one of its learnable weights."""

from __future__ import annotations

import numpy as np

from .. import _dtype
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
