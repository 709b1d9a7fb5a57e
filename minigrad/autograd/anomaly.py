"""The path ``minigrad.autograd.anomaly``: the code is in :mod:`minigrad.recording.anomaly`."""

from ..recording.anomaly import *  # noqa: F403
