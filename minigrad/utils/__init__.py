"""Utilities named as in ``torch.utils``: activation checkpointing (``utils.checkpoint``) and
data loading (``utils.data``: Dataset, TensorDataset, DataLoader, random_split, ...)."""

from __future__ import annotations

from . import checkpoint, data

__all__ = ["checkpoint", "data"]
