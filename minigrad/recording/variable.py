"""``Variable`` (``torch.autograd.Variable``): the wrapper of PyTorch before 0.4, still in
older lectures. As in PyTorch today it makes no new kind of object: ``Variable(t,
requires_grad=True)`` is a new leaf sharing ``t``'s memory (``t.detach().requires_grad_()``),
and every tensor is an instance of ``Variable``. ``volatile`` is gone (use ``no_grad``)."""

from __future__ import annotations

import warnings

from ..tensor import Tensor

NOT_A_TENSOR = "Variable data has to be a tensor, but got {got}"
VOLATILE = "volatile was removed and now has no effect. Use `with minigrad.no_grad():` instead."


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor)


class Variable(metaclass=_VariableMeta):
    """``Variable(data, requires_grad=False, volatile=False)``: see the module's docstring."""

    def __new__(cls, data, requires_grad: bool = False, volatile: bool = False):
        if not isinstance(data, Tensor):
            raise TypeError(NOT_A_TENSOR.format(got=type(data).__name__))
        if volatile:
            warnings.warn(VOLATILE, UserWarning, stacklevel=2)
        return data.detach().requires_grad_(requires_grad)
