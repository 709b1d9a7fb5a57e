"""PyTorch's ``torch.autograd.graph``: the code is in :mod:`minigrad.recording.graph`."""

from ..recording.graph import *  # noqa: F403
