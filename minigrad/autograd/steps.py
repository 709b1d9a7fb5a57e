"""``minigrad.autograd.steps``, kept as a path.

It names :mod:`minigrad.recording.steps`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import steps

sys.modules[__name__] = steps
