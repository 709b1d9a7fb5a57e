"""Lazy modules (``torch.nn.LazyLinear``, ``LazyConv1d/2d``, ``LazyBatchNorm1d/2d``): layers that learn their input size from the first
batch they see, so a network is written with output sizes only
(``nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))``, as d2l.ai writes them).

Until that first ``forward`` the weights are :class:`UninitializedParameter` s. A forward
pre-hook reads the input's size, gives the parameters memory, draws their initial values
(``reset_parameters``, so with the generator's state at that moment, as PyTorch) and turns
the module into the class it stands for (``LazyLinear`` becomes ``Linear``, the same object).
"""

from __future__ import annotations

from ...errors import nn as _errors
from ...factory import tensor
from ...recording.grad_mode import no_grad
from ..parameter import UninitializedBuffer, UninitializedParameter
from .batchnorm import BatchNorm1d, BatchNorm2d
from .conv import Conv1d, Conv2d
from .linear import Linear


class LazyModuleMixin:
    """What every lazy module does: wait for the first input, then become ``cls_to_become``."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer still waits for the first input."""
        tensors = [*self._parameters.values(), *self._buffers.values()]
        return any(isinstance(t, (UninitializedParameter, UninitializedBuffer)) for t in tensors)

    def initialize_parameters(self, *args) -> None:
        """Give the parameters their shapes from the first input (each lazy module's own)."""
        raise NotImplementedError

    @staticmethod
    def _infer_parameters(module, args) -> None:
        module.initialize_parameters(*args)
        if not module.has_uninitialized_params():
            module._initialize_hook.remove()
            del module._initialize_hook
            if module.cls_to_become is not None:
                module.__class__ = module.cls_to_become


class LazyLinear(LazyModuleMixin, Linear):
    """A :class:`Linear` whose ``in_features`` is the last dimension of its first input.

    Args:
        out_features: size of each output sample.
        bias: learn an additive bias (default True).
        device, dtype: as :class:`Linear`'s.

    Example:
        >>> import minigrad as mg
        >>> layer = mg.nn.LazyLinear(3)
        >>> layer
        LazyLinear(in_features=0, out_features=3, bias=True)
        >>> layer(mg.ones(2, 5)).shape
        minigrad.Size([2, 3])
        >>> layer
        Linear(in_features=5, out_features=3, bias=True)
    """

    cls_to_become = Linear

    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None):
        super().__init__(0, 0, False, device=device, dtype=dtype)
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        """Linear's initial values, once the input size is known (nothing before)."""
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:  # noqa: A002  (PyTorch name)
        """in_features = the input's last dimension; then Linear's initial values."""
        if self.has_uninitialized_params():
            with no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _LazyConv(LazyModuleMixin):
    """A convolution whose ``in_channels`` is dim 1 of its first (batched) input, dim 0 of an
    unbatched one."""

    def __init__(
        self,
        out_channels: int,
        kernel_size,
        stride=1,
        padding=0,
        dilation=1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: str = "zeros",
        device=None,
        dtype=None,
    ):
        super().__init__(
            0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device, dtype
        )
        self.weight = UninitializedParameter(dtype=dtype)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(dtype=dtype)

    def reset_parameters(self) -> None:
        """The convolution's initial values, once the input's channels are known."""
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:  # noqa: A002  (PyTorch name)
        if self.has_uninitialized_params():
            with no_grad():
                batched = input.ndim == self._spatial + 2
                self.in_channels = input.shape[1 if batched else 0]
                if self.in_channels % self.groups:
                    raise ValueError(_errors.LAZY_GROUPS)
                shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
                self.weight.materialize(shape)
                if self.bias is not None:
                    self.bias.materialize((self.out_channels,))
                self.reset_parameters()


class LazyConv1d(_LazyConv, Conv1d):
    """A :class:`Conv1d` whose ``in_channels`` comes from its first input (``torch.nn.LazyConv1d``)."""

    cls_to_become = Conv1d


class LazyConv2d(_LazyConv, Conv2d):
    """A :class:`Conv2d` whose ``in_channels`` comes from its first input
    (``torch.nn.LazyConv2d``; the arguments are Conv2d's without ``in_channels``).

    Example:
        >>> import minigrad as mg
        >>> conv = mg.nn.LazyConv2d(4, kernel_size=3, padding=1)
        >>> conv(mg.ones(1, 3, 5, 5)).shape, conv
        (minigrad.Size([1, 4, 5, 5]), Conv2d(3, 4, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1)))
    """

    cls_to_become = Conv2d


class _LazyNorm(LazyModuleMixin):
    """A batch norm whose ``num_features`` is dim 1 of its first input."""

    def __init__(
        self,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ):
        super().__init__(0, eps, momentum, False, False, device, dtype)
        self.affine, self.track_running_stats = affine, track_running_stats
        if affine:
            self.weight = UninitializedParameter(dtype=dtype)
            if bias:
                self.bias = UninitializedParameter(dtype=dtype)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(dtype=dtype)
            self.running_var = UninitializedBuffer(dtype=dtype)
            self.num_batches_tracked = tensor(0)

    def reset_parameters(self) -> None:
        """Batch norm's initial values, once the number of features is known."""
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input) -> None:  # noqa: A002  (PyTorch name)
        if self.has_uninitialized_params():
            self.num_features = input.shape[1]
            for t in (self.weight, self.bias, self.running_mean, self.running_var):
                if isinstance(t, (UninitializedParameter, UninitializedBuffer)):
                    t.materialize((self.num_features,))
            self.reset_parameters()


class LazyBatchNorm1d(_LazyNorm, BatchNorm1d):
    """A :class:`BatchNorm1d` whose ``num_features`` comes from its first input
    (``torch.nn.LazyBatchNorm1d``)."""

    cls_to_become = BatchNorm1d


class LazyBatchNorm2d(_LazyNorm, BatchNorm2d):
    """A :class:`BatchNorm2d` whose ``num_features`` comes from its first input
    (``torch.nn.LazyBatchNorm2d``)."""

    cls_to_become = BatchNorm2d
