"""More factor schedules: ConstantLR, MultiplicativeLR, PolynomialLR (PyTorch's step-by-step
updates and closed forms)."""

from __future__ import annotations

from ...errors import optim as _errors
from ..optimizer import Optimizer
from .base import LRScheduler
from .schedules import LambdaLR


class ConstantLR(LRScheduler):
    """Scale the lr by ``factor`` for the first ``total_iters`` epochs, then restore it
    (``torch.optim.lr_scheduler.ConstantLR``): a constant warm-up.

    Args:
        optimizer: the optimizer to schedule.
        factor: the scale during the warm-up, in [0, 1].
        total_iters: the epoch at which the lr goes back to base_lr.
        last_epoch: the index of the last epoch (-1 starts the schedule).

    Raises:
        ValueError: for a factor outside [0, 1].
    """

    def __init__(
        self,
        optimizer: Optimizer,
        factor: float = 1.0 / 3,
        total_iters: int = 5,
        last_epoch: int = -1,
    ):
        if factor > 1.0 or factor < 0:
            raise ValueError(_errors.CONSTANT_FACTOR)
        self.factor = factor
        self.total_iters = total_iters
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self.last_epoch == 0:
            return [lr * self.factor for lr in self._current_lrs()]
        if self.last_epoch != self.total_iters:
            return self._current_lrs()
        return [lr * (1.0 / self.factor) for lr in self._current_lrs()]

    def _get_closed_form_lr(self) -> list[float]:
        done = self.last_epoch >= self.total_iters
        return [b * (self.factor + done * (1 - self.factor)) for b in self.base_lrs]


class MultiplicativeLR(LambdaLR):
    """Multiply the current lr by ``lr_lambda(epoch)`` at every step
    (``torch.optim.lr_scheduler.MultiplicativeLR``); LambdaLR scales base_lr instead.

    Args:
        optimizer: the optimizer to schedule.
        lr_lambda: a function of the epoch giving the factor, or one per param group.
        last_epoch: the index of the last epoch (-1 starts the schedule).

    Raises:
        ValueError: for a list whose length is not the number of param groups.
        TypeError: for an lr_lambda that is not callable.
    """

    def __init__(self, optimizer: Optimizer, lr_lambda, last_epoch: int = -1):
        fns = lr_lambda if isinstance(lr_lambda, (list, tuple)) else [lr_lambda]
        for fn in fns:
            if not callable(fn):
                raise TypeError(_errors.LR_LAMBDA_NOT_CALLABLE.format(got=type(fn).__name__))
        super().__init__(optimizer, lr_lambda, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        if self._is_initial:
            return self._current_lrs()
        return [
            lr * fn(self.last_epoch)
            for fn, lr in zip(self.lr_lambdas, self._current_lrs(), strict=True)
        ]


class PolynomialLR(LRScheduler):
    """lr = base_lr * (1 - min(epoch, total_iters) / total_iters) ** power
    (``torch.optim.lr_scheduler.PolynomialLR``): reaches 0 at ``total_iters``.

    Args:
        optimizer: the optimizer to schedule.
        total_iters: the number of epochs of the decay.
        power: the power of the polynomial (1 is linear).
        last_epoch: the index of the last epoch (-1 starts the schedule).
    """

    def __init__(
        self, optimizer: Optimizer, total_iters: int = 5, power: float = 1.0, last_epoch: int = -1
    ):
        self.total_iters = total_iters
        self.power = power
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        t, n = self.last_epoch, self.total_iters
        if self._is_initial or t > n:
            return self._current_lrs()
        factor = ((1.0 - t / n) / (1.0 - (t - 1) / n)) ** self.power
        return [lr * factor for lr in self._current_lrs()]

    def _get_closed_form_lr(self) -> list[float]:
        left = 1.0 - min(self.total_iters, self.last_epoch) / self.total_iters
        return [base_lr * left**self.power for base_lr in self.base_lrs]
