"""ReduceLROnPlateau: cut the lr when a watched metric stops improving."""

from __future__ import annotations

import math
import warnings

from ...errors import optim as _errors
from ..optimizer import Optimizer
from .base import LRScheduler, check_optimizer


class ReduceLROnPlateau(LRScheduler):
    """Multiply the lr by ``factor`` once a metric has not improved for ``patience`` epochs
    (``torch.optim.lr_scheduler.ReduceLROnPlateau``); ``step(metric)`` takes the metric.

    An epoch improves on the best value so far when (mode 'min') the metric is below
    ``best * (1 - threshold)`` ('rel') or ``best - threshold`` ('abs'); mode 'max' mirrors
    it. After more than ``patience`` epochs without improvement every group's lr becomes
    ``max(lr * factor, min_lr)`` (unless that changes it by less than ``eps``), and the
    count restarts after ``cooldown`` epochs in which bad epochs are not counted.

    Unlike the other schedulers it does not step at construction, and sets neither
    ``initial_lr`` nor ``base_lrs`` (as PyTorch).

    Args:
        optimizer: the optimizer to schedule.
        mode: 'min' (the metric should fall, e.g. a loss) or 'max' (e.g. an accuracy).
        factor: the factor of each cut, below 1.
        patience: the number of bad epochs tolerated before a cut.
        threshold: how much better a metric must be to count as an improvement.
        threshold_mode: 'rel' (relative to the best) or 'abs'.
        cooldown: epochs to wait after a cut before counting bad epochs again.
        min_lr: a lower bound of the lr, one for all groups or a list with one per group.
        eps: the smallest change of lr that is applied.

    Raises:
        ValueError: for ``factor >= 1``, an unknown mode or threshold_mode, or a min_lr
            list whose length is not the number of param groups.
        TypeError: if ``optimizer`` is not an Optimizer.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float | list[float] = 0,
        eps: float = 1e-8,
    ):
        if factor >= 1.0:
            raise ValueError(_errors.PLATEAU_FACTOR)
        self.factor = factor
        check_optimizer(optimizer)
        self.optimizer = optimizer
        groups = len(optimizer.param_groups)
        if isinstance(min_lr, (list, tuple)):
            if len(min_lr) != groups:
                raise ValueError(_errors.PLATEAU_MIN_LRS.format(want=groups, got=len(min_lr)))
            self.default_min_lr = None
            self.min_lrs = list(min_lr)
        else:
            self.default_min_lr = min_lr
            self.min_lrs = [min_lr] * groups
        self.patience = patience
        self.cooldown = cooldown
        self.eps = eps
        self.last_epoch = 0
        self._last_lr = self._current_lrs()
        self._init_is_better(mode, threshold, threshold_mode)
        self._reset()

    def _init_is_better(self, mode: str, threshold: float, threshold_mode: str) -> None:
        if mode not in ("min", "max"):
            raise ValueError(_errors.PLATEAU_MODE.format(got=mode))
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(_errors.PLATEAU_THRESHOLD_MODE.format(got=threshold_mode))
        self.mode_worse = math.inf if mode == "min" else -math.inf
        self.mode = mode
        self.threshold = threshold
        self.threshold_mode = threshold_mode

    def _reset(self) -> None:
        """Forget the best value and the bad-epoch and cooldown counters."""
        self.best = self.mode_worse
        self.cooldown_counter = 0
        self.num_bad_epochs = 0

    @property
    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0

    def _is_better(self, a: float, best: float) -> bool:
        """Whether metric ``a`` improves on ``best`` by more than the threshold."""
        if self.mode == "min" and self.threshold_mode == "rel":
            return a < best * (1.0 - self.threshold)
        if self.mode == "min":
            return a < best - self.threshold
        if self.threshold_mode == "rel":
            return a > best * (self.threshold + 1.0)
        return a > best + self.threshold

    def step(self, metrics, epoch: int | None = None) -> None:
        """Record one epoch's metric (a number or a one-element tensor); cut the lr if due."""
        current = float(metrics)
        if epoch is None:
            epoch = self.last_epoch + 1
        else:
            warnings.warn(_errors.EPOCH_DEPRECATED, UserWarning, stacklevel=2)
        self.last_epoch = epoch
        if self._is_better(current, self.best):
            self.best = current
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.in_cooldown:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0  # bad epochs in the cooldown do not count
        if self.num_bad_epochs > self.patience:
            self._reduce_lr()
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0
        self._last_lr = self._current_lrs()

    def _reduce_lr(self) -> None:
        groups = self.optimizer.param_groups
        if len(groups) != len(self.min_lrs):
            if self.default_min_lr is None:
                raise RuntimeError(
                    _errors.PLATEAU_GROUPS_CHANGED.format(now=len(groups), then=len(self.min_lrs))
                )
            self.min_lrs = [self.default_min_lr] * len(groups)
        for group, min_lr in zip(groups, self.min_lrs, strict=True):
            old_lr = float(group["lr"])
            new_lr = max(old_lr * self.factor, min_lr)
            if old_lr - new_lr > self.eps:
                group["lr"] = new_lr

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._init_is_better(self.mode, self.threshold, self.threshold_mode)
