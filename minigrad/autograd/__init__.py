"""Reverse-mode automatic differentiation (``torch.autograd``).

``backward`` accumulates gradients into the leaves' ``.grad``; ``grad`` returns
them instead and leaves ``.grad`` alone. Both run the step generator of
:mod:`minigrad.replaying.engine` to the end. Forward mode's dual tensors are in
:mod:`.forward_ad` (``torch.autograd.forward_ad``).

The code lives in :mod:`minigrad.recording` (what a forward pass records) and
:mod:`minigrad.replaying` (backward); the modules of this folder keep PyTorch's paths
(``minigrad.autograd.function``, ``.graph``, ``.grad_mode`` ...) naming those same modules.
"""

from __future__ import annotations

# every module of this folder, so that ``mg.autograd.node`` (say) works as an attribute too
from . import (
    anomaly_mode,
    derivative_checks,
    forward_ad,
    functional,
    graph,
    jacobians,
    leaf_grad,
    modes,
    node,
    node_checks,
    saved,
    steps,
    tangents,
)
from .anomaly import detect_anomaly, is_anomaly_enabled, set_detect_anomaly
from .api import backward, grad
from .engine import BackwardPass
from .function import Function
from .grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .gradcheck import gradcheck, gradgradcheck
from .variable import Variable

__all__ = [
    "Function",
    "Variable",
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
