"""``minigrad.backends``: the switches of ``torch.backends`` that device-generic code reads.

``mg.backends.mps.is_available()`` is False (no Apple GPU here either); ``cudnn`` has the
flags seeding helpers set (``mg.backends.cudnn.deterministic = True``), which change
nothing here: minigrad's numpy kernels are deterministic.

Example:
    >>> import minigrad as mg
    >>> mg.backends.mps.is_available(), mg.backends.cudnn.is_available()
    (False, False)
"""

from __future__ import annotations

from types import SimpleNamespace


def _false() -> bool:
    return False


mps = SimpleNamespace(is_available=_false, is_built=_false)
cudnn = SimpleNamespace(is_available=_false, enabled=True, deterministic=False, benchmark=False)
