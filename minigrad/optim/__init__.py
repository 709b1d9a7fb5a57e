"""Optimizers (``torch.optim``): SGD, Adam, AdamW, Adamax, NAdam, RAdam, Adagrad, Adadelta,
RMSprop, Rprop, ASGD, LBFGS, SparseAdam over a model's parameters.

The usual loop, exactly as in PyTorch::

    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    for x, y in data:
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()

SGD, Adagrad and SparseAdam also take sparse gradients (``nn.Embedding(sparse=True)``)
and update only the rows present; each documents its sparse semantics.

``optim.lr_scheduler`` holds the learning-rate schedulers (StepLR, CosineAnnealingLR,
ReduceLROnPlateau, ...), as in PyTorch.
"""

from . import lr_scheduler
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

__all__ = [
    "Optimizer",
    "SGD",
    "Adam",
    "AdamW",
    "Adamax",
    "NAdam",
    "RAdam",
    "Adagrad",
    "Adadelta",
    "RMSprop",
    "Rprop",
    "ASGD",
    "LBFGS",
    "SparseAdam",
    "lr_scheduler",
]
