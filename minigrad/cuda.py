"""``minigrad.cuda``: there is no GPU here (``torch.cuda`` on a machine without one).

Enough of ``torch.cuda`` for device-generic code to take its CPU branch::

    device = "cuda" if mg.cuda.is_available() else "cpu"

Example:
    >>> import minigrad as mg
    >>> mg.cuda.is_available(), mg.cuda.device_count()
    (False, 0)
"""

from __future__ import annotations


def is_available() -> bool:
    """False: minigrad computes on the CPU only."""
    return False


def device_count() -> int:
    """0 GPUs."""
    return 0


def manual_seed(seed: int) -> None:
    """Does nothing, as ``torch.cuda.manual_seed`` without a GPU (seed with ``mg.manual_seed``)."""


def manual_seed_all(seed: int) -> None:
    """Does nothing, as ``torch.cuda.manual_seed_all`` without a GPU."""
