"""``minigrad.autograd.modes``, kept as a path.

It names :mod:`minigrad.recording.modes`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import modes

sys.modules[__name__] = modes
