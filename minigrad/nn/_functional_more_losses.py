"""More losses of ``minigrad.nn.functional``, composed of differentiable ops as PyTorch composes
most of them: ``cosine_embedding_loss``, ``multi_margin_loss``, ``multilabel_margin_loss``,
``multilabel_soft_margin_loss``, ``poisson_nll_loss`` and ``gaussian_nll_loss``.

Each follows PyTorch's formula step by step (the same order of operations, so float32 results
agree to rounding), with PyTorch's argument checks and exception classes. Class-index targets
become constant masks and weights (numpy, no gradient); the gradient flows through the ops.
(PyTorch records one ``MultiMarginLossBackward0`` / ``MultilabelMarginLossBackward0`` node for
the two margin losses; here the graph shows their parts.)
"""

from __future__ import annotations

import math

import numpy as np

from ..ops._util import check_tensor
from ..ops.select import where
from ..recording.grad_mode import no_grad
from ..tensor import Tensor
from ._functional_activations import logsigmoid
from ._loss_checks import get_reduction
from ._loss_checks import reduce as _reduce


def _const(a) -> Tensor:
    return Tensor._make(np.asarray(a), False, None)


def cosine_embedding_loss(
    input1: Tensor,
    input2: Tensor,
    target: Tensor,
    margin: float = 0.0,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """1 - cos(x1, x2) where y = 1, max(0, cos(x1, x2) - margin) where y = -1
    (``F.cosine_embedding_loss``); cos along the last dim, with PyTorch's 1e-12 added to each
    squared norm."""
    for name, t, i in (("input1", input1, 1), ("input2", input2, 2), ("target", target, 3)):
        check_tensor(t, "cosine_embedding_loss", name, i)
    reduction = get_reduction(size_average, reduce, reduction)
    if target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    want = target.ndim + 1
    if input1.ndim != want or input2.ndim != want:
        raise RuntimeError(
            f"{target.ndim}D target tensor expects {want}D input tensors, but found inputs "
            f"with sizes {list(input1.shape)} and {list(input2.shape)}."
        )
    dim = want - 1
    eps = 1e-12
    prod_sum = (input1 * input2).sum(dim)
    mag_square1 = (input1 * input1).sum(dim) + eps
    mag_square2 = (input2 * input2).sum(dim) + eps
    cos = prod_sum / (mag_square1 * mag_square2).sqrt()
    pos = where(target == 1, 1 - cos, 0.0)
    neg = where(target == -1, (cos - margin).clamp_min(0), 0.0)
    return _reduce(pos + neg, reduction)


def _class_rows(input: Tensor, target: Tensor, op: str):  # noqa: A002
    """(N, C) scores and the target as numpy; a (C,) input is one row."""
    check_tensor(input, op)
    check_tensor(target, op, "target", 2)
    if input.ndim not in (1, 2) or input.numel() == 0 and input.ndim == 1:
        raise RuntimeError(
            "Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
            f"{list(input.shape)}"
        )
    if target._data.dtype.kind not in "iu":
        raise RuntimeError(f"{op}: expected an integer (int64) target, got {target.dtype}")
    return (input if input.ndim == 2 else input.unsqueeze(0)), target._data.astype(np.int64)


def multi_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    p: int = 1,
    margin: float = 1.0,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """Multi-class hinge loss: l_n = sum over j != y_n of w[y_n] max(0, margin - x[y_n] + x[j])^p,
    divided by the number of classes C (``F.multi_margin_loss``); p is 1 or 2."""
    reduction = get_reduction(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.ndim != 1:
        raise ValueError("weight must be one-dimensional")
    x, t = _class_rows(input, target, "multi_margin_loss")
    n, c = x.shape
    t = t.reshape(-1)
    if t.shape != (n,):
        raise RuntimeError(f"inconsistent target size, expected {n} but got {list(target.shape)}")
    if ((t < 0) | (t >= c)).any():
        raise RuntimeError(f"target out of range: the classes are 0 to {c - 1}, got {t.tolist()}")
    picked = x.gather(1, _const(t[:, None]))  # x[y_n], (N, 1)
    z = ((margin - picked) + x).clamp_min(0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * _const(weight._data[t][:, None].astype(x._data.dtype))
    z = where(_const(np.arange(c)[None, :] != t[:, None]), z, 0.0)
    losses = z.sum(1) / c
    if input.ndim == 1:
        losses = losses.reshape(())
    return _reduce(losses, reduction)


def multilabel_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """l_n = sum over target classes j and non-target classes k of max(0, 1 - (x[j] - x[k])),
    divided by C (``F.multilabel_margin_loss``). Each target row lists class indices and
    ends at the first -1 (a row of C classes needs no -1)."""
    reduction = get_reduction(size_average, reduce, reduction)
    x, t = _class_rows(input, target, "multilabel_margin_loss")
    n, c = x.shape
    if t.size != n * c or (input.ndim == 2 and t.shape != (n, c)):
        raise RuntimeError(
            f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}"
        )
    t = t.reshape(n, c)
    listed = np.zeros((n, c), x._data.dtype)  # how often row n lists class j before its -1
    for row in range(n):
        for j in t[row]:
            if j == -1:
                break
            if not 0 <= j < c:
                raise RuntimeError(f"target out of range: the classes are 0 to {c - 1}, got {j}")
            listed[row, j] += 1
    pairs = listed[:, :, None] * (listed == 0)[:, None, :]  # [n, j, k]: j listed, k not
    hinge = ((1 - x.unsqueeze(2)) + x.unsqueeze(1)).clamp_min(0)  # 1 - x[j] + x[k]
    losses = (hinge * _const(pairs)).sum((1, 2)) / c
    if input.ndim == 1:
        losses = losses.reshape(())
    return _reduce(losses, reduction)


def multilabel_soft_margin_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    weight: Tensor | None = None,
    size_average=None,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """-(y log sigmoid(x) + (1 - y) log sigmoid(-x)), weighted, averaged over the classes
    (the last dim) (``F.multilabel_soft_margin_loss``)."""
    check_tensor(input, "multilabel_soft_margin_loss")
    check_tensor(target, "multilabel_soft_margin_loss", "target", 2)
    reduction = get_reduction(size_average, reduce, reduction)
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.ndim - 1
    return _reduce(loss.sum(class_dim) / input.shape[class_dim], reduction)


def poisson_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    log_input: bool = True,
    full: bool = False,
    size_average=None,
    eps: float = 1e-8,
    reduce=None,  # noqa: A002
    reduction: str = "mean",
) -> Tensor:
    """Negative log likelihood of a Poisson target: exp(x) - y x for a log rate x
    (``log_input``, the default), else x - y log(x + eps); ``full`` adds Stirling's
    approximation of log(y!) where y > 1 (``F.poisson_nll_loss``)."""
    check_tensor(input, "poisson_nll_loss")
    check_tensor(target, "poisson_nll_loss", "target", 2)
    if size_average is not None or reduce is not None:
        reduction = get_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if log_input:
        loss = input.exp() - target * input
    else:
        loss = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        loss = loss + where(target <= 1, 0.0, stirling)
    return _reduce(loss, reduction)


def gaussian_nll_loss(
    input: Tensor,  # noqa: A002
    target: Tensor,
    var,
    full: bool = False,
    eps: float = 1e-6,
    reduction: str = "mean",
) -> Tensor:
    """Negative log likelihood of a Gaussian target: (log var + (x - y)^2 / var) / 2, var
    clamped below at ``eps`` (without a gradient through the clamp, as PyTorch); ``full`` adds
    log(2 pi) / 2 (``F.gaussian_nll_loss``). ``var`` is a tensor of the input's shape, or
    one dim short or of size 1 in one dim (one variance shared), or a float."""
    check_tensor(input, "gaussian_nll_loss")
    check_tensor(target, "gaussian_nll_loss", "target", 2)
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = _const(np.full(input.shape, var, dtype=input._data.dtype))
    elif (var._data < 0).any():
        raise ValueError("var has negative entry/entries")
    if var.shape != input.shape:
        if tuple(input.shape[:-1]) == tuple(var.shape):
            var = var.unsqueeze(-1)
        elif not (
            input.ndim == var.ndim and sum(b for a, b in zip(input.shape, var.shape) if a != b) == 1
        ):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not valid")
    var = var.clone()
    with no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)
