"""The path ``minigrad.autograd.node_checks``: the code is in :mod:`minigrad.recording.node_checks`."""

from ..recording.node_checks import *  # noqa: F403
