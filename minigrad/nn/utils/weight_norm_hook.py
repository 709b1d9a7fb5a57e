"""Weight normalisation as PyTorch first wrote it (``torch.nn.utils.weight_norm``, deprecated
there in favour of ``nn.utils.parametrizations.weight_norm``): the parameters ``<name>_g``
and ``<name>_v`` replace ``<name>``, and a forward pre-hook recomputes
``<name> = g * v / ||v||`` before every call. Also the norm helpers both versions share.

Example:
    >>> import warnings
    >>> import minigrad as mg
    >>> _ = mg.manual_seed(0)
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", FutureWarning)
    ...     layer = mg.nn.utils.weight_norm(mg.nn.Linear(3, 2))
    >>> [name for name, _ in layer.named_parameters()]
    ['bias', 'weight_g', 'weight_v']
"""

from __future__ import annotations

import warnings

from ...tensor import Tensor
from ..parameter import Parameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm", "norm_except_dim"]

DEPRECATED = (
    "`torch.nn.utils.weight_norm` is deprecated in favor of "
    "`torch.nn.utils.parametrizations.weight_norm`."
)


def norm_except_dim(v: Tensor, pow: float = 2, dim: int = 0) -> Tensor:  # noqa: A002
    """The ``pow``-norm of ``v`` over every dim but ``dim`` (kept, size 1 elsewhere), or of
    all of ``v`` when ``dim`` is -1 (``torch.norm_except_dim``)."""
    if dim == -1:
        return v.norm(pow)
    others = [d for d in range(v.ndim) if d != dim]
    return v.norm(pow, dim=others, keepdim=True) if others else v.abs()


def weight_norm_of(v: Tensor, g: Tensor, dim: int = 0) -> Tensor:
    """w = v * (g / ||v||), the norm over every dim but ``dim`` (``torch._weight_norm``)."""
    return v * (g / norm_except_dim(v, 2, dim))


class WeightNorm:
    """The forward pre-hook that sets ``module.<name>`` from ``<name>_g`` and ``<name>_v``."""

    def __init__(self, name: str, dim: int | None):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module) -> Tensor:
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return weight_norm_of(v, g, self.dim)

    @staticmethod
    def apply(module, name: str, dim: int | None) -> WeightNorm:
        warnings.warn(DEPRECATED, FutureWarning, stacklevel=3)
        for hook in _pre_hooks(module).values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(
                    f"Cannot register two weight_norm hooks on the same parameter {name}"
                )
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        del module._parameters[name]
        module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module) -> None:
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs) -> None:
        setattr(module, self.name, self.compute_weight(module))


def _pre_hooks(module) -> dict:
    return {} if module._hooks is None else module._hooks.forward_pre


def weight_norm(module, name: str = "weight", dim: int | None = 0):
    """Replace ``module.<name>`` by g * v / ||v|| with the parameters ``<name>_g`` (the norm
    over every dim but ``dim``; None: of the whole tensor) and ``<name>_v`` (FutureWarning:
    deprecated, as in PyTorch)."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name: str = "weight"):
    """Undo :func:`weight_norm`: ``<name>`` is one parameter again, holding g * v / ||v||."""
    hooks = _pre_hooks(module)
    for key, hook in list(hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
