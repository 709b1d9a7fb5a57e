"""``InstanceNorm1d``, ``InstanceNorm2d``, ``InstanceNorm3d`` (each channel of each sample over its positions)
and ``LocalResponseNorm`` (each position over neighbouring channels)."""

from __future__ import annotations

import warnings

from ...errors import vision as _errors
from ...tensor import Tensor
from .. import functional as F
from .batchnorm import _BatchNorm
from .module import Module


class _InstanceNorm(_BatchNorm):
    """What InstanceNorm1d/2d share: :class:`_BatchNorm`'s parameters and buffers with
    PyTorch's other defaults (``affine=False``, ``track_running_stats=False``), unbatched
    input, and :func:`F.instance_norm`."""

    _dims = 0  # the input's dims with a batch (3 for 1d, 4 for 2d)

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device=None,
        dtype=None,
    ):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def _check_input_dim(self, input: Tensor) -> None:  # noqa: A002
        if input.ndim not in (self._dims - 1, self._dims):
            want = f"{self._dims - 1}D or {self._dims}D"
            raise ValueError(_errors.INSTANCE_NORM_DIMS.format(want=want, got=input.ndim))

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        self._check_input_dim(input)
        unbatched = input.ndim == self._dims - 1
        channels = input.shape[0 if unbatched else 1]
        if channels != self.num_features:
            if self.affine:
                raise ValueError(
                    _errors.INSTANCE_NORM_FEATURES.format(
                        dim=0 if unbatched else 1, n=self.num_features, got=channels
                    )
                )
            warnings.warn(
                _errors.INSTANCE_NORM_FEATURES_WARN.format(n=self.num_features, got=channels),
                UserWarning,
                stacklevel=2,
            )
        x = input.unsqueeze(0) if unbatched else input
        y = F.instance_norm(
            x,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum if self.momentum is not None else 0.0,
            self.eps,
        )
        return y.squeeze(0) if unbatched else y


class InstanceNorm1d(_InstanceNorm):
    """Instance normalization of (N, C, L) or (C, L) input (``torch.nn.InstanceNorm1d``).

    Args:
        num_features: C. eps, momentum: as :class:`BatchNorm1d`'s.
        affine: learn a per-channel ``weight`` and ``bias`` (default False).
        track_running_stats: keep running statistics and use them in ``eval()`` (default
            False: the sample's own statistics in both modes).
    """

    _dims = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance normalization of (N, C, H, W) or (C, H, W) input (``torch.nn.InstanceNorm2d``,
    style transfer's); the arguments are :class:`InstanceNorm1d`'s.

    Example:
        >>> import minigrad as mg
        >>> mg.nn.InstanceNorm2d(3)
        InstanceNorm2d(3, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=False)
    """

    _dims = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance normalization of (N, C, D, H, W) or (C, D, H, W) input
    (``torch.nn.InstanceNorm3d``); the arguments are :class:`InstanceNorm1d`'s."""

    _dims = 5


class LocalResponseNorm(Module):
    """x / (k + alpha * mean of x^2 over ``size`` neighbouring channels)^beta
    (``torch.nn.LocalResponseNorm``; see :func:`F.local_response_norm`)."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
