"""The path ``minigrad.autograd.api``: the code is in :mod:`minigrad.replaying.api`."""

from ..replaying.api import *  # noqa: F403
