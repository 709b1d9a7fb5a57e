"""The path ``minigrad.autograd.derivative_checks``: the code is in :mod:`minigrad.replaying.derivative_checks`."""

from ..replaying.derivative_checks import *  # noqa: F403
