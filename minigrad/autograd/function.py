"""PyTorch's ``torch.autograd.function``: the code is in :mod:`minigrad.recording.function`."""

from ..recording.function import *  # noqa: F403
