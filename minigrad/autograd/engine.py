"""``minigrad.autograd.engine``, kept as a path.

It names :mod:`minigrad.replaying.engine`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..replaying import engine

sys.modules[__name__] = engine
