"""Reverse-mode automatic differentiation (``torch.autograd``).

``backward`` accumulates gradients into the leaves' ``.grad``; ``grad`` returns
them instead and leaves ``.grad`` alone. Both run the step generator of
:mod:`minigrad.replaying.engine` to the end. Forward mode's dual tensors are in
:mod:`.forward_ad` (``torch.autograd.forward_ad``).
"""

from __future__ import annotations

from ..recording import graph
from ..recording.anomaly import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from ..recording.function import Function
from ..recording.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from ..replaying import forward_ad, functional
from ..replaying.api import backward, grad
from ..replaying.engine import BackwardPass
from ..replaying.gradcheck import gradcheck, gradgradcheck

__all__ = [
    "Function",
    "backward",
    "grad",
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "is_grad_enabled",
    "detect_anomaly",
    "is_anomaly_enabled",
    "set_detect_anomaly",
    "inference_mode",
    "is_inference_mode_enabled",
    "gradcheck",
    "gradgradcheck",
    "BackwardPass",
    "graph",
    "forward_ad",
    "functional",
]
