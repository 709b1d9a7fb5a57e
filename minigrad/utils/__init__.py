"""Utilities named as in ``torch.utils``: activation checkpointing (``utils.checkpoint``),
data loading (``utils.data``: Dataset, TensorDataset, DataLoader, random_split, ...) and
timing (``utils.benchmark``: Timer)."""

from __future__ import annotations

from . import benchmark, checkpoint, data

__all__ = ["benchmark", "checkpoint", "data"]
