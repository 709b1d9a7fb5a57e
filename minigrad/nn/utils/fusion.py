"""Folding an evaluation-mode batch norm into the convolution before it
(``torch.nn.utils.fuse_conv_bn_eval``): one layer that computes the same outputs.

bn(conv(x)) = (W x + b - mean) / sqrt(var + eps) * gamma + beta, so with
s = gamma / sqrt(var + eps) per output channel the fused layer has
W' = W * s (each output channel scaled) and b' = (b - mean) * s + beta.
"""

from __future__ import annotations

import copy

from ...errors import vision as _errors
from ...factory import ones_like, zeros_like
from ..parameter import Parameter


def fuse_conv_bn_eval(conv, bn, transpose: bool = False):
    """A copy of ``conv`` whose weight and bias include ``bn``'s evaluation-mode normalization.

    Args:
        conv: a ``Conv1d/2d/3d`` (or with ``transpose=True`` a ``ConvTranspose*d``) in eval mode.
        bn: the ``BatchNorm`` after it, in eval mode (its running statistics are used).
        transpose: whether ``conv`` is a transposed convolution (its output channels are
            the weight's dim 1).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> conv, bn = mg.nn.Conv2d(2, 3, 3).eval(), mg.nn.BatchNorm2d(3).eval()
        >>> fused = mg.nn.utils.fuse_conv_bn_eval(conv, bn)
        >>> x = mg.randn(1, 2, 5, 5)
        >>> bool((fused(x) - bn(conv(x))).abs().max() < 1e-5)
        True
    """
    if conv.training or bn.training:
        raise AssertionError(_errors.FUSE_EVAL)
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(
        fused.weight,
        fused.bias,
        bn.running_mean,
        bn.running_var,
        bn.eps,
        bn.weight,
        bn.bias,
        transpose,
    )
    return fused


def fuse_conv_bn_weights(
    conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose: bool = False
) -> tuple:
    """The fused (weight, bias) as new Parameters (``torch.nn.utils.fuse_conv_bn_weights``):
    W' = W * s, b' = (b - mean) * s + beta, s = gamma / sqrt(var + eps)."""
    w_dtype = conv_w.dtype
    b_dtype = conv_b.dtype if conv_b is not None else w_dtype
    conv_b = zeros_like(bn_rm) if conv_b is None else conv_b
    bn_w = ones_like(bn_rm) if bn_w is None else bn_w
    bn_b = zeros_like(bn_rm) if bn_b is None else bn_b
    rsqrt = (bn_rv + bn_eps).rsqrt()
    shape = [1, -1] if transpose else [-1, 1]
    shape += [1] * (conv_w.ndim - 2)
    fused_w = (conv_w * (bn_w * rsqrt).reshape(shape)).to(w_dtype)
    fused_b = ((conv_b - bn_rm) * rsqrt * bn_w + bn_b).to(b_dtype)
    return (
        Parameter(fused_w.detach(), conv_w.requires_grad),
        Parameter(fused_b.detach(), conv_b.requires_grad),
    )
