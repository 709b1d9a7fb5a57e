"""PyTorch's ``torch.autograd.anomaly_mode``, kept as a path.

It names :mod:`minigrad.recording.anomaly`, where the code lives: the same module object
(``inspect.getsource``, private names and all)."""

import sys

from ..recording import anomaly

sys.modules[__name__] = anomaly
