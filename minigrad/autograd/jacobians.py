"""The path ``minigrad.autograd.jacobians``: the code is in :mod:`minigrad.replaying.jacobians`."""

from ..replaying.jacobians import *  # noqa: F403
