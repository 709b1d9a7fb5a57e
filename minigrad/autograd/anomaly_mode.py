"""PyTorch's ``torch.autograd.anomaly_mode``: the code is in :mod:`minigrad.recording.anomaly`."""

from ..recording.anomaly import *  # noqa: F403
