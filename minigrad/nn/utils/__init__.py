"""Utilities for training loops (``torch.nn.utils``): gradient clipping, a model's
parameters as one vector (``parameters_to_vector``, ``vector_to_parameters``), a batch norm
folded into its convolution (``fuse_conv_bn_eval``), variable-length sequences (:mod:`.rnn`),
parametrizations (:mod:`.parametrize`, :mod:`.parametrizations`; imported by ``minigrad.nn``
once the modules exist, since they subclass ``Module``)."""

from . import rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import fuse_conv_bn_eval, fuse_conv_bn_weights
from .weight_norm_hook import remove_weight_norm, weight_norm

__all__ = [
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "parameters_to_vector",
    "vector_to_parameters",
    "rnn",
    "parametrize",
    "parametrizations",
    "weight_norm",
    "remove_weight_norm",
]
