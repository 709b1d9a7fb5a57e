"""PyTorch's ``torch.autograd.gradcheck``: the code is in :mod:`minigrad.replaying.gradcheck`."""

from ..replaying.gradcheck import *  # noqa: F403
