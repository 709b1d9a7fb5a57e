"""PyTorch's ``torch.autograd.gradcheck``, kept as a path.

It names :mod:`minigrad.replaying.gradcheck`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..replaying import gradcheck

sys.modules[__name__] = gradcheck
