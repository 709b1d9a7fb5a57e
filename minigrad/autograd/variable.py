"""PyTorch's ``torch.autograd.variable``, kept as a path.

It names :mod:`minigrad.recording.variable`, where the code lives: the same module object."""

import sys

from ..recording import variable

sys.modules[__name__] = variable
