"""``minigrad.autograd.tangents``, kept as a path.

It names :mod:`minigrad.recording.tangents`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import tangents

sys.modules[__name__] = tangents
