"""Optimizers (``torch.optim``): SGD, Adam, AdamW over a model's parameters.

The usual loop, exactly as in PyTorch::

    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    for x, y in data:
        opt.zero_grad()
        loss_fn(model(x), y).backward()
        opt.step()
"""

from .adam import Adam
from .adamw import AdamW
from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW"]
