"""PyTorch's ``torch.autograd.functional``, kept as a path.

It names :mod:`minigrad.replaying.functional`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..replaying import functional

sys.modules[__name__] = functional
