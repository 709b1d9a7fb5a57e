"""``torch.nn.grad``: a convolution's two gradients as functions of their own.

``conv2d_input(input_size, weight, grad_output)`` is what backward sends to a convolution's
input (a transposed convolution of ``grad_output`` with ``weight``), ``conv2d_weight(input,
weight_size, grad_output)`` what it sends to the weight (``input`` correlated with
``grad_output``); custom Functions call them to write a convolution's backward by hand
(PyTorch's "fusing convolution and batch norm" tutorial). They are the ops
``Convolution``'s backward records (``ConvolutionBackwardBackward0``, as PyTorch's), so they
are differentiable again.

Example:
    >>> import minigrad as mg
    >>> x, w = mg.ones(1, 1, 3, 3), mg.ones(1, 1, 2, 2)
    >>> mg.nn.grad.conv2d_weight(x, w.shape, mg.ones(1, 1, 2, 2))
    tensor([[[[4., 4.],
              [4., 4.]]]])
"""

from __future__ import annotations

import operator

from ..errors import conv as _errors
from ..ops._util import check_sizes, check_tensor
from ..ops.conv import ConvInputGrad, ConvWeightGrad
from ..tensor import Tensor
from ._functional_conv import _tuple


def _params(op, d, input_size, weight_size, grad_output, stride, padding, dilation, groups):
    """The checked arguments as the conv ops take them (PyTorch raises RuntimeError for all)."""
    check_tensor(grad_output, op, "grad_output", 3)
    stride = _tuple(stride, d, "stride", op)
    pad = _tuple(padding, d, "padding", op)
    dilation = _tuple(dilation, d, "dilation", op)
    groups = operator.index(groups)
    if any(s <= 0 for s in stride):
        raise RuntimeError(_errors.STRIDE_POSITIVE.format(got=list(stride)))
    if any(dl <= 0 for dl in dilation):
        raise RuntimeError(_errors.DILATION_POSITIVE.format(got=list(dilation)))
    if any(p < 0 for p in pad):
        raise RuntimeError(_errors.PADDING_NEGATIVE.format(got=list(pad)))
    if len(input_size) != d + 2:
        raise RuntimeError(
            _errors.GRAD_INPUT_NDIM.format(
                want=d + 2, weight=list(weight_size), got=len(input_size), shape=list(input_size)
            )
        )
    _check_channels(input_size, weight_size, groups)
    out = [
        (n + 2 * p - dl * (k - 1) - 1) // s + 1
        for n, p, dl, k, s in zip(input_size[2:], pad, dilation, weight_size[2:], stride)
    ]
    want = [input_size[0], weight_size[0], *out]
    if list(grad_output.shape) != want:
        raise RuntimeError(
            _errors.GRAD_OUTPUT_SHAPE.format(
                op=op,
                want=want,
                input=list(input_size),
                weight=list(weight_size),
                got=list(grad_output.shape),
            )
        )
    return {
        "stride": stride,
        "padding": tuple((p, p) for p in pad),
        "dilation": dilation,
        "groups": groups,
    }


def _check_channels(input_size, weight_size, groups) -> None:
    """conv2d's channel checks, on sizes."""
    if groups <= 0:
        raise RuntimeError(_errors.GROUPS_POSITIVE.format(groups=groups))
    if weight_size[0] % groups:
        raise RuntimeError(_errors.GROUPS_OUT.format(groups=groups, weight=list(weight_size)))
    if input_size[1] != weight_size[1] * groups:
        raise RuntimeError(
            _errors.CHANNELS.format(
                groups=groups,
                weight=list(weight_size),
                input=list(input_size),
                want=weight_size[1] * groups,
                got=input_size[1],
            )
        )


def _input(op, d, input_size, weight, grad_output, stride, padding, dilation, groups):
    check_tensor(weight, op, "weight", 2)
    input_size = check_sizes(input_size, op)
    p = _params(op, d, input_size, weight.shape, grad_output, stride, padding, dilation, groups)
    return ConvInputGrad.apply(grad_output, weight, input_size=input_size[2:], **p)


def _weight(op, d, input, weight_size, grad_output, stride, padding, dilation, groups):  # noqa: A002
    check_tensor(input, op, "input", 1)
    weight_size = check_sizes(weight_size, op)
    if len(weight_size) != d + 2:
        raise RuntimeError(_errors.WEIGHT_NDIM.format(op=op, want=d + 2, shape=list(weight_size)))
    p = _params(op, d, input.shape, weight_size, grad_output, stride, padding, dilation, groups)
    return ConvWeightGrad.apply(input, grad_output, kernel_size=weight_size[2:], **p)


def conv1d_input(
    input_size, weight: Tensor, grad_output: Tensor, stride=1, padding=0, dilation=1, groups=1
) -> Tensor:
    """The gradient of ``conv1d(input, weight, ...)`` for an input of size ``input_size``
    (N, C_in, L), given ``grad_output`` (N, C_out, L_out)."""
    args = (input_size, weight, grad_output, stride, padding, dilation, groups)
    return _input("conv1d_input", 1, *args)


def conv1d_weight(
    input: Tensor,  # noqa: A002
    weight_size,
    grad_output: Tensor,
    stride=1,
    padding=0,
    dilation=1,
    groups=1,
) -> Tensor:
    """The gradient of ``conv1d(input, weight, ...)`` for a weight of size ``weight_size``."""
    args = (input, weight_size, grad_output, stride, padding, dilation, groups)
    return _weight("conv1d_weight", 1, *args)


def conv2d_input(
    input_size, weight: Tensor, grad_output: Tensor, stride=1, padding=0, dilation=1, groups=1
) -> Tensor:
    """The gradient of ``conv2d(input, weight, ...)`` for an input of size ``input_size``
    (N, C_in, H, W), given ``grad_output`` (N, C_out, H_out, W_out): a transposed
    convolution, as ``F.conv_transpose2d(grad_output, weight, ...)`` padded to
    ``input_size``.

    Args:
        input_size: the convolution's input's full size (a ``torch.Size`` or a sequence).
        weight: (C_out, C_in // groups, kH, kW).
        grad_output: the gradient of the convolution's output.
        stride, padding, dilation, groups: the convolution's (ints or pairs).
    """
    args = (input_size, weight, grad_output, stride, padding, dilation, groups)
    return _input("conv2d_input", 2, *args)


def conv2d_weight(
    input: Tensor,  # noqa: A002
    weight_size,
    grad_output: Tensor,
    stride=1,
    padding=0,
    dilation=1,
    groups=1,
) -> Tensor:
    """The gradient of ``conv2d(input, weight, ...)`` for a weight of size ``weight_size``
    (C_out, C_in // groups, kH, kW): ``input``'s windows correlated with ``grad_output``."""
    args = (input, weight_size, grad_output, stride, padding, dilation, groups)
    return _weight("conv2d_weight", 2, *args)


def conv3d_input(
    input_size, weight: Tensor, grad_output: Tensor, stride=1, padding=0, dilation=1, groups=1
) -> Tensor:
    """The gradient of a 3-D convolution for an input of size ``input_size`` (N, C, D, H, W)."""
    args = (input_size, weight, grad_output, stride, padding, dilation, groups)
    return _input("conv3d_input", 3, *args)


def conv3d_weight(
    input: Tensor,  # noqa: A002
    weight_size,
    grad_output: Tensor,
    stride=1,
    padding=0,
    dilation=1,
    groups=1,
) -> Tensor:
    """The gradient of a 3-D convolution for a weight of size ``weight_size``."""
    args = (input, weight_size, grad_output, stride, padding, dilation, groups)
    return _weight("conv3d_weight", 3, *args)


__all__ = [
    "conv1d_input",
    "conv1d_weight",
    "conv2d_input",
    "conv2d_weight",
    "conv3d_input",
    "conv3d_weight",
]
