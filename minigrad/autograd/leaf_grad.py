"""The path ``minigrad.autograd.leaf_grad``: the code is in :mod:`minigrad.replaying.leaf_grad`."""

from ..replaying.leaf_grad import *  # noqa: F403
