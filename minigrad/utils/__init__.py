"""Utilities named as in ``torch.utils``: activation checkpointing (``utils.checkpoint``)."""

from __future__ import annotations

from . import checkpoint

__all__ = ["checkpoint"]
