"""Casting a Module's floating point parameters and buffers (``to``, ``double``, ``float``).

As in PyTorch the Parameter objects stay the same (their data is replaced), so
an optimizer built before the cast still holds them.
"""

from __future__ import annotations

from ... import _device, _dtype
from ...errors import nn as _errors
from ...ops.convert import parse_to
from ...recording.grad_mode import no_grad
from ...tensor import Tensor


class CastMixin:
    """The dtype methods of Module; they walk ``parameters()`` and ``buffers()``."""

    def to(self, *args, **kwargs) -> CastMixin:
        """Cast floating point parameters and buffers to a dtype in place; returns self.

        PyTorch's call forms: ``to(device)``, ``to(dtype)``, ``to(device, dtype)``,
        ``to(tensor)`` (its dtype), keywords ``device=``, ``dtype=``, ``non_blocking=``.
        The device must be the CPU (minigrad computes on the CPU only).
        """
        d, _ = parse_to(args, kwargs)
        if d is None:
            return self
        if not d.is_floating_point:
            raise TypeError(_errors.TO_DTYPE.format(got=d))
        with no_grad():
            for t in list(self.parameters()) + list(self.buffers()):
                if t.is_floating_point() and t.dtype is not d:
                    t._data = t._data.astype(d.np)
                    if t.grad is not None:
                        t.grad = Tensor._make(t.grad._data.astype(d.np), False, None)
        return self

    def cpu(self) -> CastMixin:
        """Self: parameters and buffers already live on the CPU."""
        return self

    def cuda(self, device=None) -> CastMixin:  # noqa: A002
        """Raises: minigrad computes on the CPU only."""
        raise _device.cuda_error(device)

    def double(self) -> CastMixin:
        """Cast floating point parameters and buffers to float64."""
        return self.to(_dtype.float64)

    def float(self) -> CastMixin:
        """Cast floating point parameters and buffers to float32."""
        return self.to(_dtype.float32)

    def half(self) -> CastMixin:
        """Cast floating point parameters and buffers to float16."""
        return self.to(_dtype.float16)
