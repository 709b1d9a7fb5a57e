"""PyTorch's ``torch.autograd.grad_mode``, kept as a path.

It names :mod:`minigrad.recording.grad_mode`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import grad_mode

sys.modules[__name__] = grad_mode
