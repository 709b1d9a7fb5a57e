"""CosineAnnealingWarmRestarts: cosine annealing that restarts from base_lr (SGDR)."""

from __future__ import annotations

import math

from ...errors import optim as _errors
from ..optimizer import Optimizer
from .base import LRScheduler


class CosineAnnealingWarmRestarts(LRScheduler):
    """SGDR (``torch.optim.lr_scheduler.CosineAnnealingWarmRestarts``): the lr follows
    eta_min + (base_lr - eta_min) * (1 + cos(pi * T_cur / T_i)) / 2 and jumps back to base_lr
    every T_i epochs; T_i starts at ``T_0`` and is multiplied by ``T_mult`` at each restart.

    ``step()`` advances one epoch; ``step(epoch)`` takes a (fractional) epoch, so it can be
    called every batch with ``epoch + i / batches`` (no deprecation warning here, as PyTorch).

    Args:
        optimizer: the optimizer to schedule.
        T_0: the length of the first cycle, a positive int.
        T_mult: the growth of the cycle length at each restart, an int >= 1.
        eta_min: the lowest lr.
        last_epoch: the index of the last epoch (-1 starts the schedule).

    Raises:
        ValueError: for a bad T_0, T_mult or eta_min, or a negative epoch.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        T_0: int,
        T_mult: int = 1,
        eta_min: float = 0.0,
        last_epoch: int = -1,
    ):
        if T_0 <= 0 or not isinstance(T_0, int):
            raise ValueError(_errors.RESTARTS_T0.format(got=T_0))
        if T_mult < 1 or not isinstance(T_mult, int):
            raise ValueError(_errors.RESTARTS_T_MULT.format(got=T_mult))
        if not isinstance(eta_min, (float, int)):
            raise ValueError(_errors.RESTARTS_ETA_MIN.format(got=eta_min, kind=type(eta_min)))
        self.T_0 = T_0
        self.T_i = T_0
        self.T_mult = T_mult
        self.eta_min = eta_min
        self.T_cur = last_epoch
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        self._warn_outside_step()
        low, phase = self.eta_min, math.cos(math.pi * self.T_cur / self.T_i)
        return [low + (base_lr - low) * (1 + phase) / 2 for base_lr in self.base_lrs]

    def step(self, epoch: float | None = None) -> None:
        """Advance one epoch, or go to ``epoch`` (may be fractional)."""
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur = self.T_cur + 1
            if self.T_cur >= self.T_i:
                self.T_cur = self.T_cur % self.T_i
                self.T_i = self.T_i * self.T_mult
        else:
            self._go_to(epoch)
        self.last_epoch = math.floor(epoch)
        self._get_lr_called_within_step = True
        try:
            values = self.get_lr()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = self._current_lrs()

    def _go_to(self, epoch: float) -> None:
        """Set T_cur and T_i for an epoch given directly (which cycle it falls in)."""
        if epoch < 0:
            raise ValueError(_errors.RESTARTS_EPOCH.format(got=epoch))
        if epoch < self.T_0:
            self.T_i, self.T_cur = self.T_0, epoch
        elif self.T_mult == 1:
            self.T_cur = epoch % self.T_0
        else:
            n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
            self.T_cur = epoch - self.T_0 * (self.T_mult**n - 1) / (self.T_mult - 1)
            self.T_i = self.T_0 * self.T_mult**n
