"""``GradScaler``: dynamic loss scaling for float16 training (``torch.amp.GradScaler``).

float16 gradients underflow: values below ~6e-8 become 0. Multiplying the loss by a
large scale S multiplies every gradient by S, lifting them into float16's range; the
optimizer then divides the (float32) parameter gradients by S before stepping. If
S is too large, some gradient overflows to inf or nan: that step is skipped and S
is multiplied by ``backoff_factor``. After ``growth_interval`` steps in a row with
finite gradients, S is multiplied by ``growth_factor``.

The scale is kept as a float32 number and updated with PyTorch's arithmetic, so the
scale trajectory matches ``torch.amp.GradScaler("cpu")`` step for step.
"""

from __future__ import annotations

import numpy as np

from .. import _device
from ..errors import amp as errors
from ..recording.grad_mode import no_grad
from ..tensor import Tensor, has_sparse_layout
from .autocast import autocast

READY, UNSCALED, STEPPED = "ready", "unscaled", "stepped"


class GradScaler:
    """Scale the loss, unscale the gradients, skip overflowing steps, adapt the scale.

    Args:
        device: accepted for PyTorch compatibility; must be the CPU (``"cpu"``).
        init_scale: the first scale.
        growth_factor: the scale is multiplied by it after ``growth_interval`` good steps.
        backoff_factor: the scale is multiplied by it after a step with inf/nan gradients.
        growth_interval: how many consecutive good steps before growing.
        enabled: False makes every method a pass-through (``step`` just steps).

    Example:
        >>> import minigrad as mg
        >>> w = mg.tensor([1.0], requires_grad=True)
        >>> opt = mg.optim.SGD([w], lr=0.1)
        >>> scaler = mg.amp.GradScaler(init_scale=1024.0)
        >>> scaler.scale((w * 2).sum()).backward()
        >>> w.grad                               # scaled gradient
        tensor([2048.])
        >>> scaler.step(opt); scaler.update()     # unscaled to 2, then w -= 0.1 * 2
        >>> w, scaler.get_scale()
        (tensor([0.8000], requires_grad=True), 1024.0)
    """

    def __init__(
        self,
        device: str = "cpu",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
        enabled: bool = True,
    ):
        _device.check(device, "GradScaler()")
        if growth_factor <= 1.0:
            raise ValueError(errors.GROWTH_FACTOR.format(got=growth_factor))
        if not 0.0 < backoff_factor < 1.0:
            raise ValueError(errors.BACKOFF_FACTOR.format(got=backoff_factor))
        self._enabled = bool(enabled)
        self._scale = np.float32(init_scale)
        self._growth_factor = float(growth_factor)
        self._backoff_factor = float(backoff_factor)
        self._growth_interval = int(growth_interval)
        self._growth_tracker = 0
        self._per_optimizer: dict = {}

    # --- the four steps of a training iteration -------------------------------------------
    def scale(self, outputs):
        """``outputs * scale`` (a Tensor, or a list/tuple of them); unchanged if disabled."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            with autocast(enabled=False):  # the product stays in the loss's own dtype
                return outputs * float(self._scale)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        raise TypeError(errors.BAD_OUTPUTS.format(got=type(outputs).__name__))

    def unscale_(self, optimizer) -> None:
        """Divide the optimizer's gradients by the scale, in place, and look for inf/nan."""
        if not self._enabled:
            return
        state = self._state(optimizer)
        if state["stage"] == UNSCALED:
            raise RuntimeError(errors.UNSCALE_TWICE)
        if state["stage"] == STEPPED:
            raise RuntimeError(errors.UNSCALE_AFTER_STEP)
        inv_scale = np.float32(np.float64(1.0) / np.float64(self._scale))
        checked, found_inf = 0, False
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if p.grad.dtype.itemsize < 4 and p.grad.dtype.is_floating_point:
                        raise ValueError(errors.FP16_GRADS)
                    found_inf |= _unscale_grad(p.grad, inv_scale)
                    checked += 1
        state["found_inf"] = found_inf if checked else None
        state["stage"] = UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """Unscale (if not done yet), then ``optimizer.step()`` unless a gradient is inf/nan.

        Returns what ``optimizer.step`` returned, or None when the step was skipped.
        """
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        state = self._state(optimizer)
        if state["stage"] == STEPPED:
            raise RuntimeError(errors.STEP_TWICE)
        if state["stage"] == READY:
            self.unscale_(optimizer)
        if state["found_inf"] is None:
            raise AssertionError(errors.NO_INF_CHECKS)
        result = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = STEPPED
        return result

    def update(self, new_scale=None) -> None:
        """Adapt the scale after the iteration's steps (or set it to ``new_scale``)."""
        if not self._enabled:
            return
        if new_scale is not None:
            self._scale = np.float32(float(new_scale))
        else:
            found = [
                s["found_inf"] for s in self._per_optimizer.values() if s["found_inf"] is not None
            ]
            if not found:
                raise AssertionError(errors.NO_INF_CHECKS_UPDATE)
            self._update_scale(any(found))
        self._per_optimizer = {}

    def _update_scale(self, found_inf: bool) -> None:
        """PyTorch's ``_amp_update_scale_``: back off on inf, grow after a run of good steps."""
        if found_inf:
            self._scale = np.float32(self._scale * np.float32(self._backoff_factor))
            self._growth_tracker = 0
            return
        successful = self._growth_tracker + 1
        if successful == self._growth_interval:
            grown = np.float32(self._scale * np.float32(self._growth_factor))
            if np.isfinite(grown):
                self._scale = grown
            successful = 0
        self._growth_tracker = successful

    def _state(self, optimizer) -> dict:
        return self._per_optimizer.setdefault(id(optimizer), {"stage": READY, "found_inf": None})

    # --- getters, setters, checkpoints ---------------------------------------------------
    def get_scale(self) -> float:
        """The current scale (1.0 when disabled)."""
        return float(self._scale) if self._enabled else 1.0

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        self._growth_factor = float(new_factor)

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        self._backoff_factor = float(new_factor)

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        self._growth_interval = int(new_interval)

    def is_enabled(self) -> bool:
        return self._enabled

    def state_dict(self) -> dict:
        """Scale, factors, interval and the count of good steps (empty when disabled)."""
        if not self._enabled:
            return {}
        return {
            "scale": float(self._scale),
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._growth_tracker,
        }

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore what :meth:`state_dict` returned."""
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError(errors.EMPTY_STATE)
        self._scale = np.float32(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._growth_tracker = int(state_dict["_growth_tracker"])


def _unscale_grad(g: Tensor, inv_scale) -> bool:
    """Multiply a gradient by ``inv_scale`` in place; True if it holds an inf or a nan."""
    if has_sparse_layout(g):
        values = g._data.values  # duplicates need no coalescing: inf/nan survive the sum
        bad = not np.isfinite(values).all()
        g._data = g._data.with_values(values * values.dtype.type(inv_scale))
    else:
        bad = not np.isfinite(g._data).all()
        g._data *= g._data.dtype.type(inv_scale)
    g._bump_version()
    return bool(bad)
