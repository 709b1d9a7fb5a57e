"""PyTorch's ``torch.autograd.function``, kept as a path.

It names :mod:`minigrad.recording.function`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import function

sys.modules[__name__] = function
