"""``F.bilinear``: y = x1^T A x2 + b for every output feature, one ``einsum``.

PyTorch records a ``TrilinearBackward0`` between views (and an ``AddBackward0`` for the
bias); here it is one ``EinsumBackward0`` (and the ``AddBackward0``).
"""

from __future__ import annotations

from ..errors import vision as _errors
from ..ops._util import check_tensor
from ..ops.einsum import einsum
from ..tensor import Tensor


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Tensor | None = None) -> Tensor:
    """y[..., o] = sum_ij input1[..., i] weight[o, i, j] input2[..., j] + bias[o] (``F.bilinear``).

    Args:
        input1: (*, in1_features); input2: (*, in2_features), the same leading dims.
        weight: (out_features, in1_features, in2_features); bias: optional (out_features,).

    Example:
        >>> import minigrad as mg
        >>> import minigrad.nn.functional as F
        >>> F.bilinear(mg.tensor([[1.0, 2.0]]), mg.tensor([[3.0]]), mg.ones(1, 2, 1))
        tensor([[9.]])
    """
    for i, (name, t) in enumerate((("input1", input1), ("input2", input2), ("weight", weight))):
        check_tensor(t, "bilinear", name, i + 1)
    if weight.ndim != 3:
        raise RuntimeError(_errors.BILINEAR_WEIGHT.format(got=list(weight.shape)))
    if input1.ndim != input2.ndim:
        raise RuntimeError(_errors.BILINEAR_NDIM.format(a=input1.ndim, b=input2.ndim))
    for dim in range(input1.ndim - 1):
        if input1.shape[dim] != input2.shape[dim]:
            msg = _errors.BILINEAR_BATCH.format(dim=dim, a=input1.shape[dim], b=input2.shape[dim])
            raise RuntimeError(msg)
    for name, t, want in (("INPUT1", input1, weight.shape[1]), ("INPUT2", input2, weight.shape[2])):
        if t.ndim == 0 or t.shape[-1] != want:
            got = t.shape[-1] if t.ndim else 0
            raise RuntimeError(getattr(_errors, f"BILINEAR_{name}").format(got=got, want=want))
    out = einsum("...i,oij,...j->...o", input1, weight, input2)
    if bias is None:
        return out
    check_tensor(bias, "bilinear", "bias", 4)
    if bias.shape != (weight.shape[0],):
        raise RuntimeError(_errors.BILINEAR_BIAS.format(got=list(bias.shape), want=weight.shape[0]))
    return out + bias
