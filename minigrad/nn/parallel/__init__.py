"""Parallel training wrappers (``torch.nn.parallel``)."""

from .distributed import DistributedDataParallel

__all__ = ["DistributedDataParallel"]
