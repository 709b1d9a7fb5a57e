"""The path ``minigrad.autograd.node``: the code is in :mod:`minigrad.recording.node`."""

from ..recording.node import *  # noqa: F403
