"""The path ``minigrad.autograd.engine``: the code is in :mod:`minigrad.replaying.engine`."""

from ..replaying.engine import *  # noqa: F403
