"""The path ``minigrad.autograd.modes``: the code is in :mod:`minigrad.recording.modes`."""

from ..recording.modes import *  # noqa: F403
