"""Learning-rate schedulers (``torch.optim.lr_scheduler``): change each param group's lr
as training goes on.

The usual loop, exactly as in PyTorch (step the scheduler after the optimizer, once
per epoch; OneCycleLR once per batch)::

    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    sched = mg.optim.lr_scheduler.StepLR(opt, step_size=30, gamma=0.1)
    for epoch in range(epochs):
        train_one_epoch(model, opt)      # opt.step() inside
        sched.step()                     # ReduceLROnPlateau: sched.step(val_loss)

Every scheduler applies to all the optimizer's param groups, each from its own lr.
Schedules and numbers follow PyTorch step for step (its chainable, recursive forms,
e.g. CosineAnnealingLR's), so the same script prints the same lrs under both.
"""

from .base import LRScheduler, _LRScheduler
from .cyclic import CyclicLR
from .factors import ConstantLR, MultiplicativeLR, PolynomialLR
from .one_cycle import OneCycleLR
from .plateau import ReduceLROnPlateau
from .schedules import (
    CosineAnnealingLR,
    ExponentialLR,
    LambdaLR,
    LinearLR,
    MultiStepLR,
    StepLR,
)
from .sequential import ChainedScheduler, SequentialLR
from .warm_restarts import CosineAnnealingWarmRestarts

__all__ = [
    "LRScheduler",
    "LambdaLR",
    "MultiplicativeLR",
    "StepLR",
    "MultiStepLR",
    "ExponentialLR",
    "ConstantLR",
    "LinearLR",
    "PolynomialLR",
    "CosineAnnealingLR",
    "CosineAnnealingWarmRestarts",
    "SequentialLR",
    "ChainedScheduler",
    "ReduceLROnPlateau",
    "OneCycleLR",
    "CyclicLR",
]
