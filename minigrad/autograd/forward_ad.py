"""PyTorch's ``torch.autograd.forward_ad``: the code is in :mod:`minigrad.replaying.forward_ad`."""

from ..replaying.forward_ad import *  # noqa: F403
