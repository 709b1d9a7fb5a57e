"""``minigrad.autograd.api``, kept as a path.

It names :mod:`minigrad.replaying.api`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..replaying import api

sys.modules[__name__] = api
