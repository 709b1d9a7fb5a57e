"""PyTorch's ``torch.autograd.graph``, kept as a path.

It names :mod:`minigrad.recording.graph`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import graph

sys.modules[__name__] = graph
