"""``minigrad.autograd.node``, kept as a path.

It names :mod:`minigrad.recording.node`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import node

sys.modules[__name__] = node
