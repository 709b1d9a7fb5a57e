"""PyTorch's ``torch.autograd.function``, kept as a path.

It names :mod:`minigrad.recording.function`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import function
from .once import once_differentiable

function.once_differentiable = once_differentiable  # torch.autograd.function's name for it
sys.modules[__name__] = function
