"""``LRScheduler``: the base class of the learning-rate schedulers (``torch.optim.lr_scheduler``).

A scheduler owns a counter, ``last_epoch``, and rewrites ``group["lr"]`` in every
param group of its optimizer each time :meth:`LRScheduler.step` advances it. As in
PyTorch, building a scheduler already takes one step (to epoch 0), and it records
each group's starting lr as ``group["initial_lr"]``: those are ``base_lrs``.

Most schedules are *chainable*: each step multiplies the lr the group has now
(``get_lr``), so two schedulers on one optimizer compose. ``step(epoch)`` (deprecated
in PyTorch, kept for old code) jumps instead, using the closed form from
``base_lrs`` where the schedule has one (``_get_closed_form_lr``).
"""

from __future__ import annotations

import warnings

from ...errors import optim as _errors
from ..optimizer import Optimizer


class LRScheduler:
    """Base class of the schedulers: subclasses implement :meth:`get_lr`.

    Args:
        optimizer: the optimizer whose param groups' ``"lr"`` this scheduler sets.
        last_epoch: the index of the last epoch; -1 (the default) starts the schedule,
            another value resumes one (the groups must then hold ``"initial_lr"``).

    Raises:
        TypeError: if ``optimizer`` is not an :class:`~minigrad.optim.Optimizer`.
        KeyError: when resuming (``last_epoch >= 0``) a group without ``"initial_lr"``.
    """

    _get_lr_called_within_step = False
    _is_initial = False

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1):
        check_optimizer(optimizer)
        self.optimizer = optimizer
        if last_epoch == -1:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        else:
            for i, group in enumerate(optimizer.param_groups):
                if "initial_lr" not in group:
                    raise KeyError(_errors.NO_INITIAL_LR.format(i=i))
        self.base_lrs: list[float] = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        self._initial_step()

    def _initial_step(self) -> None:
        """The step a scheduler takes when it is built (to epoch 0, or resumed + 1)."""
        self._step_count = 0
        self._is_initial = True
        try:
            self.step()
        finally:
            self._is_initial = False

    def get_lr(self) -> list[float]:
        """The lr of each param group for the epoch ``step`` has just moved to."""
        raise NotImplementedError(f"{type(self).__name__} does not implement get_lr()")

    def get_last_lr(self) -> list[float]:
        """The lrs the last :meth:`step` set, one per param group (a new list)."""
        return list(self._last_lr)

    def step(self, epoch: int | None = None) -> None:
        """Advance the schedule one epoch (call it after ``optimizer.step()``).

        Args:
            epoch: deprecated, as in PyTorch: jump to this epoch (closed form) and warn.
        """
        if self._step_count == 1 and not getattr(self.optimizer, "_opt_called", False):
            warnings.warn(_errors.STEP_BEFORE_OPTIMIZER, UserWarning, stacklevel=2)
        self._step_count += 1
        if epoch is not None:
            warnings.warn(_errors.EPOCH_DEPRECATED, UserWarning, stacklevel=2)
        self._update_lr(epoch)

    def _update_lr(self, epoch: int | None = None) -> None:
        """Move to the next epoch (or to ``epoch``) and write the new lrs into the groups."""
        self._get_lr_called_within_step = True
        try:
            if epoch is None:
                self.last_epoch += 1
                values = self.get_lr()
            else:
                self.last_epoch = epoch
                closed_form = getattr(self, "_get_closed_form_lr", self.get_lr)
                values = closed_form()
        finally:
            self._get_lr_called_within_step = False
        for group, lr in zip(self.optimizer.param_groups, values, strict=True):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def _warn_outside_step(self) -> None:
        """PyTorch's hint when ``get_lr()`` is called by hand instead of ``get_last_lr()``."""
        if not self._get_lr_called_within_step:
            warnings.warn(_errors.GET_LR_OUTSIDE_STEP, UserWarning, stacklevel=3)

    def _current_lrs(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]

    # --- saving and loading ---------------------------------------------------------------
    def state_dict(self) -> dict:
        """Everything the scheduler holds (``last_epoch``, ``base_lrs``, ...) but the optimizer."""
        return {key: value for key, value in self.__dict__.items() if key != "optimizer"}

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore a state saved by :meth:`state_dict`."""
        self.__dict__.update(state_dict)


class _LRScheduler(LRScheduler):
    """The old name of :class:`LRScheduler`, which PyTorch keeps for old code to subclass."""


def check_optimizer(optimizer) -> None:
    """PyTorch's TypeError for a scheduler built on something that is not an Optimizer."""
    if not isinstance(optimizer, Optimizer):
        raise TypeError(_errors.NOT_AN_OPTIMIZER.format(got=type(optimizer).__name__))
