"""OneCycleLR: the 1cycle policy (warm up to max_lr, then anneal far below the start)."""

from __future__ import annotations

import math

from ...errors import optim as _errors
from ..optimizer import Optimizer
from .base import LRScheduler, check_optimizer


def _anneal_cos(start: float, end: float, pct: float) -> float:
    """From ``start`` (pct 0) to ``end`` (pct 1) along half a cosine."""
    return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)


def _anneal_linear(start: float, end: float, pct: float) -> float:
    """From ``start`` (pct 0) to ``end`` (pct 1) along a straight line."""
    return (end - start) * pct + start


class OneCycleLR(LRScheduler):
    """The 1cycle policy (``torch.optim.lr_scheduler.OneCycleLR``); step it after every batch.

    Phases (each param group's values are kept in the group, as PyTorch):
    ``initial_lr = max_lr / div_factor`` rises to ``max_lr`` over the first
    ``pct_start`` of ``total_steps``, then falls to ``min_lr = initial_lr /
    final_div_factor``; ``three_phase=True`` comes back to ``initial_lr`` first
    (symmetric) and spends the last phase going down to ``min_lr``. With
    ``cycle_momentum`` the momentum (or Adam's beta1) moves the opposite way, between
    ``max_momentum`` and ``base_momentum``. Not chainable.

    Args:
        optimizer: the optimizer to schedule.
        max_lr: the peak lr, one for all groups or a list with one per group.
        total_steps: the length of the cycle; or give ``epochs`` and ``steps_per_epoch``.
        epochs, steps_per_epoch: their product is the length when total_steps is None.
        pct_start: the fraction of the cycle spent rising (a float in [0, 1]).
        anneal_strategy: 'cos' or 'linear'.
        cycle_momentum: move momentum / beta1 inversely to the lr.
        base_momentum, max_momentum: the momentum bounds (numbers or per-group lists).
        div_factor: initial_lr = max_lr / div_factor.
        final_div_factor: min_lr = initial_lr / final_div_factor.
        three_phase: use the three-phase schedule of the original paper.
        last_epoch: the index of the last *batch* (-1 starts the schedule).

    Raises:
        ValueError: for a missing or non-positive length, pct_start outside [0, 1], an
            unknown anneal_strategy, a per-group list of the wrong length, momentum cycling
            on an optimizer without momentum or betas, or stepping past ``total_steps``.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        max_lr: float | list[float],
        total_steps: int | None = None,
        epochs: int | None = None,
        steps_per_epoch: int | None = None,
        pct_start: float = 0.3,
        anneal_strategy: str = "cos",
        cycle_momentum: bool = True,
        base_momentum: float | list[float] = 0.85,
        max_momentum: float | list[float] = 0.95,
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
        last_epoch: int = -1,
    ):
        check_optimizer(optimizer)
        self.optimizer = optimizer
        self.total_steps = _total_steps(total_steps, epochs, steps_per_epoch)
        self._schedule_phases = _phases(self.total_steps, pct_start, three_phase)
        if pct_start < 0 or pct_start > 1 or not isinstance(pct_start, float):
            raise ValueError(_errors.ONE_CYCLE_PCT.format(got=pct_start))
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(_errors.ONE_CYCLE_ANNEAL.format(got=anneal_strategy))
        self._anneal_func_type = anneal_strategy
        max_lrs = _per_group("max_lr", optimizer, max_lr)
        if last_epoch == -1:
            for group, top in zip(optimizer.param_groups, max_lrs, strict=True):
                group["initial_lr"] = top / div_factor
                group["max_lr"] = top
                group["min_lr"] = group["initial_lr"] / final_div_factor
        self.cycle_momentum = cycle_momentum
        if cycle_momentum:
            self._init_momentum(base_momentum, max_momentum, last_epoch)
        super().__init__(optimizer, last_epoch)

    def _init_momentum(self, base_momentum, max_momentum, last_epoch: int) -> None:
        defaults = self.optimizer.defaults
        if "momentum" not in defaults and "betas" not in defaults:
            raise ValueError(_errors.ONE_CYCLE_MOMENTUM)
        self.use_beta1 = "betas" in defaults
        tops = _per_group("max_momentum", self.optimizer, max_momentum)
        bottoms = _per_group("base_momentum", self.optimizer, base_momentum)
        if last_epoch == -1:
            for top, bottom, group in zip(tops, bottoms, self.optimizer.param_groups, strict=True):
                self._set_momentum(group, top)
                group["max_momentum"] = top
                group["base_momentum"] = bottom

    def _set_momentum(self, group: dict, value: float) -> None:
        if self.use_beta1:
            group["betas"] = (value, *group["betas"][1:])
        else:
            group["momentum"] = value

    def get_lr(self) -> list[float]:
        """The lr of each group at step ``last_epoch``; sets its momentum too (if cycled)."""
        self._warn_outside_step()
        step = self.last_epoch
        if step > self.total_steps:
            raise ValueError(_errors.ONE_CYCLE_PAST_END.format(step=step, total=self.total_steps))
        anneal = _anneal_cos if self._anneal_func_type == "cos" else _anneal_linear
        lrs = []
        for group in self.optimizer.param_groups:
            start_step = 0.0
            for i, phase in enumerate(self._schedule_phases):
                end_step = phase["end_step"]
                if step <= end_step or i == len(self._schedule_phases) - 1:
                    pct = (step - start_step) / (end_step - start_step)
                    break
                start_step = end_step
            lrs.append(anneal(group[phase["start_lr"]], group[phase["end_lr"]], pct))
            if self.cycle_momentum:
                start, end = group[phase["start_momentum"]], group[phase["end_momentum"]]
                self._set_momentum(group, anneal(start, end, pct))
        return lrs


def _total_steps(total_steps, epochs, steps_per_epoch) -> int:
    if total_steps is not None:
        if not isinstance(total_steps, int) or total_steps <= 0:
            raise ValueError(_errors.ONE_CYCLE_TOTAL_STEPS.format(got=total_steps))
        return total_steps
    if epochs is None or steps_per_epoch is None:
        raise ValueError(_errors.ONE_CYCLE_NO_LENGTH)
    for name, value in (("epochs", epochs), ("steps_per_epoch", steps_per_epoch)):
        if not isinstance(value, int) or value <= 0:
            raise ValueError(_errors.ONE_CYCLE_POSITIVE.format(name=name, got=value))
    return epochs * steps_per_epoch


def _phase(end_step, start_lr, end_lr, start_momentum, end_momentum) -> dict:
    return dict(
        end_step=end_step,
        start_lr=start_lr,
        end_lr=end_lr,
        start_momentum=start_momentum,
        end_momentum=end_momentum,
    )


def _phases(total: int, pct_start: float, three_phase: bool) -> list[dict]:
    """Where each phase ends and which group keys it anneals between (PyTorch's table)."""
    rise = _phase(
        float(pct_start * total) - 1, "initial_lr", "max_lr", "max_momentum", "base_momentum"
    )
    if not three_phase:
        return [rise, _phase(total - 1, "max_lr", "min_lr", "base_momentum", "max_momentum")]
    return [
        rise,
        _phase(
            float(2 * pct_start * total) - 2,
            "max_lr",
            "initial_lr",
            "base_momentum",
            "max_momentum",
        ),
        _phase(total - 1, "initial_lr", "min_lr", "max_momentum", "max_momentum"),
    ]


def _per_group(name: str, optimizer: Optimizer, value) -> list:
    """One value per param group: a number repeated, or a list of the right length."""
    groups = len(optimizer.param_groups)
    if isinstance(value, (list, tuple)):
        if len(value) != groups:
            raise ValueError(
                _errors.PER_GROUP_LENGTH.format(name=name, got=len(value), want=groups)
            )
        return list(value)
    return [value] * groups
