"""``BatchNorm1d``, ``BatchNorm2d``: per-channel normalization with running statistics (``torch.nn.BatchNorm1d/2d``)."""

from __future__ import annotations

from ... import _device, _dtype
from ...errors import nn as _errors
from ...factory import ones, tensor, zeros
from ...recording.grad_mode import no_grad
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .module import Module


class _BatchNorm(Module):
    """Normalize each of ``num_features`` channels (dim 1) over the batch (see :func:`F.batch_norm`).

    In training the batch's own mean and biased variance normalize it, and the
    buffers ``running_mean`` / ``running_var`` move towards the batch's
    (unbiased) statistics by ``momentum``; ``num_batches_tracked`` counts the
    batches. In ``eval()`` the running statistics normalize instead. With
    ``momentum=None`` the running statistics are the cumulative average over
    all batches; with ``track_running_stats=False`` there are no buffers and the
    batch statistics are used in both modes.

    Args:
        num_features: C, the size of dim 1 of the input.
        eps: added to the variance for stability.
        momentum: weight of the newest batch in the running statistics (or None).
        affine: learn ``weight`` (ones) and ``bias`` (zeros) of shape (C,).
        track_running_stats: keep ``running_mean``, ``running_var``, ``num_batches_tracked``.
        device: accepted as in PyTorch; must be the CPU.
        dtype: dtype of the parameters and running statistics.
        bias: with ``affine``, whether to learn the bias too (keyword only).
    """

    _optional_state = ("num_batches_tracked",)  # older checkpoints lack it (PyTorch: kept)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ):
        _device.check(device, f"{type(self).__name__}()")
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        self.register_parameter(
            "weight", Parameter(ones(num_features, dtype=d)) if affine else None
        )
        has_bias = affine and bias
        self.register_parameter(
            "bias", Parameter(zeros(num_features, dtype=d)) if has_bias else None
        )
        if track_running_stats:
            self.register_buffer("running_mean", zeros(num_features, dtype=d))
            self.register_buffer("running_var", ones(num_features, dtype=d))
            self.register_buffer("num_batches_tracked", tensor(0))
        else:
            for name in ("running_mean", "running_var", "num_batches_tracked"):
                self.register_buffer(name, None)

    def reset_running_stats(self) -> None:
        """Running mean to zeros, running variance to ones, the batch count to 0."""
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1.0)
                self.num_batches_tracked.zero_()

    def reset_parameters(self) -> None:
        """Reset the running statistics, weight to ones and bias to zeros."""
        self.reset_running_stats()
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        self._check_input_dim(input)
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            with no_grad():
                self.num_batches_tracked.add_(1)
            if self.momentum is None:  # cumulative moving average
                momentum = 1.0 / self.num_batches_tracked.item()
        # batch statistics in training, and in eval too when no running statistics are kept
        use_batch = self.training or self.running_mean is None
        track = not self.training or self.track_running_stats
        return F.batch_norm(
            input,
            self.running_mean if track else None,
            self.running_var if track else None,
            self.weight,
            self.bias,
            use_batch,
            momentum,
            self.eps,
        )

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, bias={self.bias is not None}, "
            f"track_running_stats={self.track_running_stats}"
        )

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002  (PyTorch name)
        raise NotImplementedError  # pragma: no cover - each subclass checks its dims


class BatchNorm1d(_BatchNorm):
    """Batch normalization of an (N, C) or (N, C, L) input (``torch.nn.BatchNorm1d``); the
    arguments and statistics are :class:`_BatchNorm`'s."""

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim not in (2, 3):
            raise ValueError(_errors.BATCHNORM_DIMS.format(got=input.ndim))


class BatchNorm2d(_BatchNorm):
    """Batch normalization of an (N, C, H, W) input, per channel over the batch and the
    image (``torch.nn.BatchNorm2d``); the arguments are :class:`BatchNorm1d`'s.

    Example:
        >>> import minigrad as mg
        >>> bn = mg.nn.BatchNorm2d(3)
        >>> bn
        BatchNorm2d(3, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)
        >>> _ = bn(mg.arange(24.0).reshape(2, 3, 2, 2))
        >>> bn.running_mean
        tensor([0.7500, 1.1500, 1.5500])
    """

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim != 4:
            raise ValueError(_errors.BATCHNORM_4D.format(got=input.ndim))
