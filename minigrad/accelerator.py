"""``minigrad.accelerator``: there is no accelerator here (``torch.accelerator``).

PyTorch's tutorials pick their device with::

    device = mg.accelerator.current_accelerator().type if mg.accelerator.is_available() else "cpu"

which gives ``"cpu"`` in minigrad.

Example:
    >>> import minigrad as mg
    >>> mg.accelerator.is_available(), mg.accelerator.current_accelerator()
    (False, None)
"""

from __future__ import annotations


def is_available() -> bool:
    """False: minigrad computes on the CPU only."""
    return False


def current_accelerator(check_available: bool = False) -> None:
    """None: there is no accelerator (``torch.accelerator.current_accelerator``)."""
    return None


def device_count() -> int:
    """0 accelerators."""
    return 0
