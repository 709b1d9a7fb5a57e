"""The path ``minigrad.autograd.tangents``: the code is in :mod:`minigrad.recording.tangents`."""

from ..recording.tangents import *  # noqa: F403
