"""PyTorch's ``torch.autograd.grad_mode``: the code is in :mod:`minigrad.recording.grad_mode`."""

from ..recording.grad_mode import *  # noqa: F403
