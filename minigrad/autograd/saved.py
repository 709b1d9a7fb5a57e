"""``minigrad.autograd.saved``, kept as a path.

It names :mod:`minigrad.recording.saved`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import saved

sys.modules[__name__] = saved
