"""PyTorch's ``torch.autograd.forward_ad``, kept as a path.

It names :mod:`minigrad.replaying.forward_ad`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..replaying import forward_ad

sys.modules[__name__] = forward_ad
