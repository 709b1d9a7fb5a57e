"""PyTorch's legacy constructors, still common in older lectures and books:
``torch.Tensor([...])``, ``torch.Tensor(2, 3)``, ``torch.FloatTensor([...])``,
``torch.LongTensor(...)``, ``x.type()`` (``'torch.FloatTensor'``) and
``x.type(torch.DoubleTensor)``.

As in PyTorch:
- ``Tensor(data)`` copies a list, tuple or numpy array into the default float dtype (not
  the dtype ``minigrad.tensor`` would infer: ``Tensor([1, 2])`` is float32);
- ``Tensor(2, 3)`` or ``Tensor(Size([2, 3]))`` makes a tensor of that shape (uninitialised
  memory in PyTorch; zeros here, as ``minigrad.empty``), ``Tensor()`` an empty one;
- ``Tensor(t)`` of a tensor returns a tensor sharing ``t``'s memory;
- ``FloatTensor``, ``DoubleTensor``, ``LongTensor``, ... do the same in their dtype, and
  ``isinstance(x, minigrad.FloatTensor)`` asks whether ``x`` is a float32 tensor.
Prefer ``minigrad.tensor(data)`` and ``minigrad.empty(2, 3)`` in new code.
"""

from __future__ import annotations

import numbers

import numpy as np

from . import _device, _dtype
from ._size import Size
from .factory import _as_array
from .tensor import Tensor

NAMES = {
    "float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor",
    "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor",
    "uint8": "ByteTensor", "bool": "BoolTensor",
}  # fmt: skip
DATA_TYPE = "{who}(): data must be a sequence (got {got})"
NEGATIVE = "Trying to create tensor with negative dimension {dim}: {sizes}"
OTHER_DTYPE = "{who}(): expected a tensor of dtype {want}, got {got} (cast it with .to({want}))"


def legacy_array(args: tuple, dtype: _dtype.dtype | None, device, who: str):
    """The array (or, for ``Tensor(t)``, the tensor to share) of a legacy constructor call.

    ``dtype`` None means ``Tensor(...)``: the default float dtype, and a tensor argument
    keeps its own dtype (as PyTorch's ``torch.Tensor(t)``)."""
    _device.check(device, f"{who}()")
    want = _dtype.get_default_dtype() if dtype is None else dtype
    if not args:
        return np.zeros(0, want.np)
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if dtype is not None and first.dtype is not dtype:
            raise TypeError(OTHER_DTYPE.format(who=who, want=dtype, got=first.dtype))
        return first
    if len(args) == 1 and isinstance(first, Size):
        args = tuple(first)
    if all(isinstance(a, numbers.Integral) and not isinstance(a, bool) for a in args):
        for a in args:
            if a < 0:
                raise RuntimeError(NEGATIVE.format(dim=a, sizes=list(args)))
        return np.zeros(tuple(int(a) for a in args), want.np)
    if len(args) == 1 and isinstance(first, (list, tuple, np.ndarray)):
        return _as_array(first, want)
    raise TypeError(DATA_TYPE.format(who=who, got=type(first).__name__))


class _LegacyTensorType(type):
    """The class of ``minigrad.FloatTensor`` and its siblings: calling one builds a Tensor of
    its dtype, ``isinstance`` checks a tensor's dtype."""

    dtype: _dtype.dtype

    def __call__(cls, *args, device=None):
        found = legacy_array(args, cls.dtype, device, cls.__name__)
        t = Tensor._make(found._data if isinstance(found, Tensor) else found, False, None)
        if isinstance(found, Tensor):
            t._share_version_with(found)
        return t

    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor) and obj.layout == "strided" and obj.dtype is cls.dtype

    def __repr__(cls) -> str:
        return f"<class 'minigrad.{cls.__name__}'>"


def _legacy_type(name: str, d: _dtype.dtype) -> type:
    doc = f"``minigrad.{name}(...)``: a legacy constructor of {d} tensors (see minigrad._legacy)."
    return _LegacyTensorType(name, (), {"dtype": d, "__doc__": doc, "__module__": "minigrad"})


TYPES = {name: _legacy_type(name, _dtype._by_name(d)) for d, name in NAMES.items()}


def type_name(d: _dtype.dtype) -> str:
    """``x.type()``: ``'minigrad.FloatTensor'`` for a float32 tensor."""
    return f"minigrad.{NAMES[d.name]}"


def as_type(spec) -> _dtype.dtype | None:
    """The dtype a legacy spec names (``minigrad.DoubleTensor``, ``'torch.LongTensor'``), or None."""
    if isinstance(spec, _LegacyTensorType):
        return spec.dtype
    if isinstance(spec, str):
        name = spec.removeprefix("minigrad.").removeprefix("torch.")
        found = TYPES.get(name)
        return None if found is None else found.dtype
    return None
