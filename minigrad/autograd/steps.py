"""The path ``minigrad.autograd.steps``: the code is in :mod:`minigrad.recording.steps`."""

from ..recording.steps import *  # noqa: F403
