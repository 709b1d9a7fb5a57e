"""PyTorch's ``torch.autograd.function``, kept as a path.

It names :mod:`minigrad.recording.function`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import function
from ..recording.once_differentiable import once_differentiable

function.once_differentiable = once_differentiable  # torch's path to it is this module's
sys.modules[__name__] = function
