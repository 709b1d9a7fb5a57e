"""Utilities for training loops (``torch.nn.utils``): gradient clipping, and a model's
parameters as one vector (``parameters_to_vector``, ``vector_to_parameters``), and a batch
norm folded into its convolution (``fuse_conv_bn_eval``)."""

from .clip_grad import clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import fuse_conv_bn_eval, fuse_conv_bn_weights

__all__ = [
    "clip_grad_norm_",
    "clip_grad_value_",
    "clip_grads_with_norm_",
    "get_total_norm",
    "fuse_conv_bn_eval",
    "fuse_conv_bn_weights",
    "parameters_to_vector",
    "vector_to_parameters",
]
