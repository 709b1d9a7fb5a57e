"""SequentialLR (one scheduler after another, switching at milestones) and ChainedScheduler
(several at once, their factors multiplied)."""

from __future__ import annotations

from bisect import bisect_right

from ...errors import optim as _errors
from ..optimizer import Optimizer
from .base import LRScheduler
from .plateau import ReduceLROnPlateau


class SequentialLR(LRScheduler):
    """Run ``schedulers[0]`` until ``milestones[0]``, then ``schedulers[1]``, ...
    (``torch.optim.lr_scheduler.SequentialLR``), e.g. a LinearLR warm-up before a decay.

    At a milestone the next scheduler starts from its own epoch 0 (its closed form,
    from ``base_lrs``); between milestones the active one steps as usual.

    Args:
        optimizer: the optimizer all the schedulers belong to.
        schedulers: the schedulers, in order (not ReduceLROnPlateau).
        milestones: the epochs at which the next scheduler takes over, one fewer
            than the schedulers.
        last_epoch: the index of the last epoch.

    Raises:
        ValueError: for no schedulers, a ReduceLROnPlateau, a scheduler of another
            optimizer, or a wrong number of milestones.
        TypeError: for an entry that is not a scheduler.
    """

    def __init__(
        self,
        optimizer: Optimizer,
        schedulers: list[LRScheduler],
        milestones: list[int],
        last_epoch: int = -1,
    ):
        _check_sequence(optimizer, schedulers, milestones)
        self._schedulers = schedulers
        self._milestones = milestones
        self.last_epoch = last_epoch + 1
        self.optimizer = optimizer
        for group in optimizer.param_groups:  # undo the steps the schedulers took when built
            group["lr"] = group["initial_lr"]
        self.recursive_undo()
        first = self._schedulers[bisect_right(self._milestones, 0)]
        first._initial_step()
        self._last_lr = first.get_last_lr()

    def recursive_undo(self, sched=None) -> None:
        """Take back the epoch each (nested) scheduler counted when it was built."""
        scheds = self if sched is None else sched
        if hasattr(scheds, "_schedulers"):
            for s in scheds._schedulers:
                self.recursive_undo(s)
        elif hasattr(scheds, "last_epoch"):
            scheds.last_epoch -= 1

    def step(self) -> None:
        """Advance one epoch: the scheduler whose turn it is steps (or starts)."""
        self.last_epoch += 1
        idx = bisect_right(self._milestones, self.last_epoch)
        scheduler = self._schedulers[idx]
        if idx > 0 and self._milestones[idx - 1] == self.last_epoch:
            scheduler._update_lr(0)
        else:
            scheduler.step()
        self._last_lr = scheduler.get_last_lr()

    def state_dict(self) -> dict:
        """The base's state, with each inner scheduler's ``state_dict()``."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "_schedulers")}
        state["_schedulers"] = [s.state_dict() for s in self._schedulers]
        return state

    def load_state_dict(self, state_dict: dict) -> None:
        state = dict(state_dict)
        inner = state.pop("_schedulers")
        self.__dict__.update(state)
        for scheduler, saved in zip(self._schedulers, inner, strict=True):
            scheduler.load_state_dict(saved)


class ChainedScheduler(LRScheduler):
    """Step several schedulers together (``torch.optim.lr_scheduler.ChainedScheduler``):
    each ``step()`` steps every one in order, so their chainable factors multiply.

    Args:
        schedulers: the schedulers (not ReduceLROnPlateau), all of one optimizer.
        optimizer: that optimizer (default: the first scheduler's).

    Raises:
        ValueError: for a ReduceLROnPlateau or a scheduler of another optimizer.
        TypeError: for an entry that is not a scheduler.
    """

    def __init__(self, schedulers: list[LRScheduler], optimizer: Optimizer | None = None):
        optimizer = optimizer or schedulers[0].optimizer
        _check_schedulers("ChainedScheduler", optimizer, schedulers)
        self._schedulers = schedulers
        self.optimizer = optimizer
        self._last_lr = self._current_lrs()

    def step(self) -> None:
        """Step every scheduler once, in order."""
        for scheduler in self._schedulers:
            scheduler.step()
        self._last_lr = self._current_lrs()

    state_dict = SequentialLR.state_dict
    load_state_dict = SequentialLR.load_state_dict


def _check_schedulers(cls: str, optimizer, schedulers) -> None:
    for i, scheduler in enumerate(schedulers):
        if not hasattr(scheduler, "optimizer"):
            raise TypeError(_errors.SEQUENTIAL_NOT_SCHEDULER.format(cls=cls, i=i))
        if isinstance(scheduler, ReduceLROnPlateau):
            raise ValueError(_errors.SEQUENTIAL_PLATEAU.format(cls=cls, i=i))
        if scheduler.optimizer is not optimizer:
            name = type(scheduler).__name__
            raise ValueError(_errors.SEQUENTIAL_OPTIMIZER.format(cls=cls, name=name, i=i))


def _check_sequence(optimizer, schedulers, milestones) -> None:
    if len(schedulers) < 1:
        raise ValueError(_errors.SEQUENTIAL_EMPTY)
    _check_schedulers("SequentialLR", optimizer, schedulers)
    if len(milestones) != len(schedulers) - 1:
        raise ValueError(_errors.SEQUENTIAL_MILESTONES.format(n=len(schedulers), m=len(milestones)))
