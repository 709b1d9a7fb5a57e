"""CyclicLR: the lr goes up and down between two bounds, cycle after cycle (Smith 2017)."""

from __future__ import annotations

import math
import types

from ...errors import optim as _errors
from ..optimizer import Optimizer
from .base import LRScheduler, check_optimizer
from .one_cycle import _per_group


class CyclicLR(LRScheduler):
    """Cyclical learning rates (``torch.optim.lr_scheduler.CyclicLR``); step it after every batch.

    Each cycle takes ``step_size_up`` steps from ``base_lr`` up to the peak and
    ``step_size_down`` (default: as many) back down. The peak is ``max_lr`` scaled by the
    policy (``mode``):

    * ``'triangular'``: the same peak every cycle;
    * ``'triangular2'``: the height halves each cycle, ``1 / 2**(cycle - 1)``;
    * ``'exp_range'``: the height shrinks with every step, ``gamma**step``;
    * or your own ``scale_fn(x)``, with x the cycle number (``scale_mode='cycle'``) or the
      step (``scale_mode='iterations'``).

    With ``cycle_momentum`` (the default) the momentum, or Adam's beta1, goes the opposite
    way, between ``max_momentum`` (at base_lr) and ``base_momentum`` (at the peak); building
    the scheduler sets it to ``max_momentum``. Every group's lr starts at its ``base_lr``.
    Not chainable; ``state_dict()`` keeps a custom ``scale_fn`` only if it is a callable
    object (its ``__dict__``), not a function or lambda, as PyTorch.

    Args:
        optimizer: the optimizer to schedule.
        base_lr, max_lr: the bounds of the lr (a number, or a list with one per group).
        step_size_up, step_size_down: steps in the rising and falling halves of a cycle.
        mode: 'triangular', 'triangular2' or 'exp_range' (ignored with ``scale_fn``).
        gamma: the base of 'exp_range'.
        scale_fn: a custom policy, a function of one number returning a factor.
        scale_mode: 'cycle' or 'iterations': what ``scale_fn`` receives.
        cycle_momentum: move the momentum / beta1 inversely to the lr.
        base_momentum, max_momentum: its bounds (numbers or per-group lists).
        last_epoch: the index of the last *batch* (-1 starts the schedule).

    Raises:
        ValueError: for an unknown mode without scale_fn, a per-group list of the wrong length,
            or momentum cycling on an optimizer without momentum or betas.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        base_lr: float | list[float],
        max_lr: float | list[float],
        step_size_up: int = 2000,
        step_size_down: int | None = None,
        mode: str = "triangular",
        gamma: float = 1.0,
        scale_fn=None,
        scale_mode: str = "cycle",
        cycle_momentum: bool = True,
        base_momentum: float = 0.8,
        max_momentum: float = 0.9,
        last_epoch: int = -1,
    ):
        check_optimizer(optimizer)
        self.optimizer = optimizer
        base_lrs = _per_group("base_lr", optimizer, base_lr)
        if last_epoch == -1:
            for lr, group in zip(base_lrs, optimizer.param_groups, strict=True):
                group["lr"] = lr
        self.max_lrs = _per_group("max_lr", optimizer, max_lr)
        step_size_up = float(step_size_up)
        step_size_down = float(step_size_down) if step_size_down is not None else step_size_up
        self.total_size = step_size_up + step_size_down
        self.step_ratio = step_size_up / self.total_size
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError(_errors.CYCLIC_MODE)
        self.mode = mode
        self.gamma = gamma
        self._scale_fn_custom = scale_fn
        self.scale_mode = scale_mode
        self._init_scale_fn()
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self._init_momentum(base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)
        self.base_lrs = base_lrs

    def _init_momentum(self, base_momentum, max_momentum, last_epoch: int) -> None:
        defaults = self.optimizer.defaults
        if "momentum" not in defaults and "betas" not in defaults:
            raise ValueError(_errors.ONE_CYCLE_MOMENTUM)
        self.use_beta1 = "betas" in defaults
        self.base_momentums = _per_group("base_momentum", self.optimizer, base_momentum)
        self.max_momentums = _per_group("max_momentum", self.optimizer, max_momentum)
        if last_epoch == -1:
            groups = self.optimizer.param_groups
            for top, bottom, group in zip(
                self.max_momentums, self.base_momentums, groups, strict=True
            ):
                self._set_momentum(group, top)
                group["max_momentum"] = top
                group["base_momentum"] = bottom

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def _init_scale_fn(self) -> None:
        """The built-in policy of ``mode`` (and its scale_mode), unless scale_fn is custom."""
        if self._scale_fn_custom is not None:
            return
        if self.mode in ("triangular", "triangular2"):
            self.scale_mode = "cycle"
        elif self.mode == "exp_range":
            self.scale_mode = "iterations"

    def scale_fn(self, x) -> float:
        """The height factor of the policy at x (a cycle number or a step)."""
        if self._scale_fn_custom is not None:
            return self._scale_fn_custom(x)
        if self.mode == "triangular":
            return 1.0
        if self.mode == "triangular2":
            return 1 / (2.0 ** (x - 1))
        return self.gamma**x

    def get_lr(self) -> list[float]:
        """The lr of each group at step ``last_epoch``; sets its momentum too (if cycled)."""
        self._warn_outside_step()
        cycle = math.floor(1 + self.last_epoch / self.total_size)
        x = 1.0 + self.last_epoch / self.total_size - cycle  # where in the cycle, 0 to 1
        if x <= self.step_ratio:
            scale_factor = x / self.step_ratio
        else:
            scale_factor = (x - 1) / (self.step_ratio - 1)
        at = cycle if self.scale_mode == "cycle" else self.last_epoch
        lrs = [
            base_lr + (max_lr - base_lr) * scale_factor * self.scale_fn(at)
            for base_lr, max_lr in zip(self.base_lrs, self.max_lrs, strict=True)
        ]
        if self.cycle_momentum:
            bounds = zip(self.base_momentums, self.max_momentums, strict=True)
            momentums = [
                top - (top - bottom) * scale_factor * self.scale_fn(at) for bottom, top in bounds
            ]
            for group, momentum in zip(self.optimizer.param_groups, momentums, strict=True):
                self._set_momentum(group, momentum)
        return lrs

    def state_dict(self) -> dict:
        """As the base class's, with a custom ``scale_fn`` kept only as a callable object's
        ``__dict__`` (a function or lambda is saved as None)."""
        state = super().state_dict()
        fn = state.pop("_scale_fn_custom")
        state["_scale_fn_custom"] = None
        if fn is not None and not isinstance(fn, types.FunctionType):
            state["_scale_fn_custom"] = fn.__dict__.copy()
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore a state saved by :meth:`state_dict` (into this scheduler's own scale_fn)."""
        state_dict = dict(state_dict)
        fn = state_dict.pop("_scale_fn_custom")
        super().load_state_dict(state_dict)
        if fn is not None:
            self._scale_fn_custom.__dict__.update(fn)
        self._init_scale_fn()
