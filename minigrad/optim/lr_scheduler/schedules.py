"""The closed-form schedules: LambdaLR, StepLR, MultiStepLR, ExponentialLR, LinearLR,
CosineAnnealingLR (each PyTorch's chainable update, step by step, and its closed form)."""

from __future__ import annotations

import math
import types
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable

from ...errors import optim as _errors
from ..optimizer import Optimizer
from .base import LRScheduler, check_optimizer


class LambdaLR(LRScheduler):
    """lr = base_lr * lr_lambda(epoch) (``torch.optim.lr_scheduler.LambdaLR``).

    Args:
        optimizer: the optimizer to schedule.
        lr_lambda: a function of the epoch (an int) giving a factor, or a list of
            such functions, one per param group.
        last_epoch: the index of the last epoch (-1 starts the schedule).

    Raises:
        ValueError: for a list whose length is not the number of param groups.
    """

    def __init__(self, optimizer: Optimizer, lr_lambda, last_epoch: int = -1):
        check_optimizer(optimizer)
        groups = len(optimizer.param_groups)
        if isinstance(lr_lambda, (list, tuple)):
            if len(lr_lambda) != groups:
                raise ValueError(_errors.LR_LAMBDA_COUNT.format(want=groups, got=len(lr_lambda)))
            self.lr_lambdas: list[Callable[[int], float]] = list(lr_lambda)
        else:
            self.lr_lambdas = [lr_lambda] * groups
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        return [
            base_lr * fn(self.last_epoch)
            for fn, base_lr in zip(self.lr_lambdas, self.base_lrs, strict=True)
        ]

    def state_dict(self) -> dict:
        """As the base's, but the lambdas are saved only when they are callable objects
        (their ``__dict__``); plain functions and lambdas are saved as None (PyTorch's rule)."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "lr_lambdas")}
        state["lr_lambdas"] = [
            None if isinstance(fn, types.FunctionType) else fn.__dict__.copy()
            for fn in self.lr_lambdas
        ]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        state = dict(state_dict)
        saved_lambdas = state.pop("lr_lambdas")
        self.__dict__.update(state)
        for fn, saved in zip(self.lr_lambdas, saved_lambdas):
            if saved is not None:
                fn.__dict__.update(saved)


class StepLR(LRScheduler):
    """Multiply the lr by ``gamma`` every ``step_size`` epochs (``torch.optim.lr_scheduler.StepLR``).

    lr = base_lr * gamma ** (epoch // step_size), applied step by step to each
    param group's current lr (so it chains with other schedulers).

    Args:
        optimizer: the optimizer to schedule.
        step_size: the number of epochs between two decays.
        gamma: the factor of each decay.
        last_epoch: the index of the last epoch (-1 starts the schedule).

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.zeros(2))
        >>> opt = mg.optim.SGD([w], lr=1.0)
        >>> sched = mg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        >>> lrs = []
        >>> for epoch in range(6):
        ...     lrs.append(sched.get_last_lr()[0])
        ...     opt.step()
        ...     sched.step()
        >>> lrs
        [1.0, 1.0, 0.5, 0.5, 0.25, 0.25]
    """

    def __init__(
        self, optimizer: Optimizer, step_size: int, gamma: float = 0.1, last_epoch: int = -1
    ):
        self.step_size = step_size
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _get_closed_form_lr(self) -> list[float]:
        return [b * self.gamma ** (self.last_epoch // self.step_size) for b in self.base_lrs]


class MultiStepLR(LRScheduler):
    """Multiply the lr by ``gamma`` at each milestone epoch (``torch.optim.lr_scheduler.MultiStepLR``).

    A milestone listed twice decays twice (``gamma ** 2``) at that epoch.

    Args:
        optimizer: the optimizer to schedule.
        milestones: epoch indices, increasing.
        gamma: the factor of each decay.
        last_epoch: the index of the last epoch (-1 starts the schedule).
    """

    def __init__(
        self,
        optimizer: Optimizer,
        milestones: Iterable[int],
        gamma: float = 0.1,
        last_epoch: int = -1,
    ):
        self.milestones = Counter(milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self.last_epoch not in self.milestones:
            return self._current_lrs()
        factor = self.gamma ** self.milestones[self.last_epoch]
        return [lr * factor for lr in self._current_lrs()]

    def _get_closed_form_lr(self) -> list[float]:
        passed = bisect_right(sorted(self.milestones.elements()), self.last_epoch)
        return [base_lr * self.gamma**passed for base_lr in self.base_lrs]


class ExponentialLR(LRScheduler):
    """Multiply the lr by ``gamma`` every epoch (``torch.optim.lr_scheduler.ExponentialLR``).

    Args:
        optimizer: the optimizer to schedule.
        gamma: the factor of each epoch's decay.
        last_epoch: the index of the last epoch (-1 starts the schedule).
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1):
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self._is_initial:  # building (or resuming) must not decay one epoch ahead
            return self._current_lrs()
        return [lr * self.gamma for lr in self._current_lrs()]

    def _get_closed_form_lr(self) -> list[float]:
        return [base_lr * self.gamma**self.last_epoch for base_lr in self.base_lrs]


class LinearLR(LRScheduler):
    """Scale the lr by a factor that moves linearly from ``start_factor`` to ``end_factor``
    over ``total_iters`` epochs, then stays (``torch.optim.lr_scheduler.LinearLR``): a warm-up.

    lr = base_lr * (start + (end - start) * min(epoch, total_iters) / total_iters); each
    step multiplies the current lr by the ratio of two consecutive factors, as PyTorch.

    Args:
        optimizer: the optimizer to schedule.
        start_factor: the factor at epoch 0, in (0, 1].
        end_factor: the factor from epoch ``total_iters`` on, in [0, 1].
        total_iters: the number of epochs the factor takes to reach ``end_factor``.
        last_epoch: the index of the last epoch (-1 starts the schedule).

    Raises:
        ValueError: for a factor outside its range.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        start_factor: float = 1.0 / 3,
        end_factor: float = 1.0,
        total_iters: int = 5,
        last_epoch: int = -1,
    ):
        if start_factor > 1.0 or start_factor <= 0:
            raise ValueError(_errors.LINEAR_START)
        if end_factor > 1.0 or end_factor < 0:
            raise ValueError(_errors.LINEAR_END)
        self.start_factor = start_factor
        self.end_factor = end_factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [lr * self.start_factor for lr in self._current_lrs()]
        if self._is_initial or self.last_epoch > self.total_iters:
            return self._current_lrs()
        slope = self.end_factor - self.start_factor
        previous = self.total_iters * self.start_factor + (self.last_epoch - 1) * slope
        return [lr * (1.0 + slope / previous) for lr in self._current_lrs()]

    def _get_closed_form_lr(self) -> list[float]:
        slope = self.end_factor - self.start_factor
        done = min(self.total_iters, self.last_epoch)
        return [b * (self.start_factor + slope * done / self.total_iters) for b in self.base_lrs]


class CosineAnnealingLR(LRScheduler):
    """Anneal the lr from base_lr to ``eta_min`` along half a cosine over ``T_max`` epochs
    (``torch.optim.lr_scheduler.CosineAnnealingLR``, SGDR without restarts).

    Target: lr_t = eta_min + (base_lr - eta_min) * (1 + cos(pi * t / T_max)) / 2. As in
    PyTorch the lr is updated *recursively* from the current one,
    lr_t = eta_min + (lr_{t-1} - eta_min) * (1 + cos(pi t / T_max)) / (1 + cos(pi (t-1) / T_max)),
    which chains with other schedulers and differs from the closed form by rounding.
    Past ``T_max`` the cosine goes on: the lr climbs back up over the next ``T_max`` epochs.

    Args:
        optimizer: the optimizer to schedule.
        T_max: the number of epochs of the half cosine.
        eta_min: the lowest lr.
        last_epoch: the index of the last epoch (-1 starts the schedule).
    """

    def __init__(
        self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0, last_epoch: int = -1
    ):
        self.T_max = T_max
        self.eta_min = eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        t, T, low = self.last_epoch, self.T_max, self.eta_min
        if self._is_initial:
            return self._current_lrs()
        if self._step_count == 1 and t > 0:
            return self._get_closed_form_lr()
        if (t - 1 - T) % (2 * T) == 0:  # at the bottom the ratio would be 0/0: add the step
            return [
                lr + (b - low) * (1 - math.cos(math.pi / T)) / 2
                for b, lr in zip(self.base_lrs, self._current_lrs(), strict=True)
            ]
        ratio = (1 + math.cos(math.pi * t / T)) / (1 + math.cos(math.pi * (t - 1) / T))
        return [ratio * (lr - low) + low for lr in self._current_lrs()]

    def _get_closed_form_lr(self) -> list[float]:
        t, T, low = self.last_epoch, self.T_max, self.eta_min
        return [low + (b - low) * (1 + math.cos(math.pi * t / T)) / 2 for b in self.base_lrs]
