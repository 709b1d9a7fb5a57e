"""PyTorch's ``torch.autograd.functional``: the code is in :mod:`minigrad.replaying.functional`."""

from ..replaying.functional import *  # noqa: F403
