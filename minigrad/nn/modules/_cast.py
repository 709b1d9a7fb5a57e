"""Casting a Module's floating point parameters and buffers (``to``, ``double``, ``float``).

As in PyTorch the Parameter objects stay the same (their data is replaced), so
an optimizer built before the cast still holds them.
"""

from __future__ import annotations

from ... import _dtype
from ...autograd.grad_mode import no_grad
from ...errors import nn as _errors
from ...tensor import Tensor


class CastMixin:
    """The dtype methods of Module; they walk ``parameters()`` and ``buffers()``."""

    def to(self, *args, dtype=None, device=None) -> CastMixin:
        """Cast floating point parameters and buffers to ``dtype`` in place.

        A device may be given as in PyTorch, but only ``"cpu"`` exists here.
        """
        for a in args:
            if isinstance(a, str):
                device = a
            else:
                dtype = a
        if device is not None and str(device) != "cpu":
            raise ValueError(_errors.TO_DEVICE.format(got=device))
        if dtype is None:
            return self
        d = _dtype.as_dtype(dtype)
        if not d.is_floating_point:
            raise TypeError(_errors.TO_DTYPE.format(got=d))
        with no_grad():
            for t in list(self.parameters()) + list(self.buffers()):
                if t.is_floating_point() and t.dtype is not d:
                    t._data = t._data.astype(d.np)
                    if t.grad is not None:
                        t.grad = Tensor._make(t.grad._data.astype(d.np), False, None)
        return self

    def double(self) -> CastMixin:
        """Cast floating point parameters and buffers to float64."""
        return self.to(_dtype.float64)

    def float(self) -> CastMixin:
        """Cast floating point parameters and buffers to float32."""
        return self.to(_dtype.float32)

    def half(self) -> CastMixin:
        """Cast floating point parameters and buffers to float16."""
        return self.to(_dtype.float16)
