"""Lazy modules (``torch.nn.LazyLinear``): layers that learn their input size from the first
batch they see, so a network is written with output sizes only
(``nn.Sequential(nn.LazyLinear(256), nn.ReLU(), nn.LazyLinear(10))``, as d2l.ai writes them).

Until that first ``forward`` the weights are :class:`UninitializedParameter` s. A forward
pre-hook reads the input's size, gives the parameters memory, draws their initial values
(``reset_parameters``, so with the generator's state at that moment, as PyTorch) and turns
the module into the class it stands for (``LazyLinear`` becomes ``Linear``, the same object).
"""

from __future__ import annotations

from ...recording.grad_mode import no_grad
from ..parameter import UninitializedParameter
from .linear import Linear


class LazyModuleMixin:
    """What every lazy module does: wait for the first input, then become ``cls_to_become``."""

    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter still waits for the first input."""
        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

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
