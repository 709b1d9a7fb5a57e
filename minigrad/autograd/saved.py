"""The path ``minigrad.autograd.saved``: the code is in :mod:`minigrad.recording.saved`."""

from ..recording.saved import *  # noqa: F403
