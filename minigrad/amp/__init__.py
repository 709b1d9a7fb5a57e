"""Mixed precision (``torch.amp``): :class:`autocast` and :class:`GradScaler`.

A mixed-precision training step, as in PyTorch::

    scaler = mg.amp.GradScaler()
    with mg.autocast(dtype=mg.float16):
        loss = loss_fn(model(x), y)        # float16 activations, float32 loss
    scaler.scale(loss).backward()          # float32 gradients on the float32 weights
    scaler.step(optimizer)                 # unscale; skip the step on inf/nan
    scaler.update()                        # lower the scale on overflow, raise it later
"""

from __future__ import annotations

from .autocast import OP_POLICY, autocast, get_autocast_dtype, is_autocast_enabled
from .grad_scaler import GradScaler

__all__ = ["OP_POLICY", "GradScaler", "autocast", "get_autocast_dtype", "is_autocast_enabled"]
