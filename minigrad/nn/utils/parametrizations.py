"""Ready-made parametrizations (``torch.nn.utils.parametrizations``): ``weight_norm`` and
``spectral_norm``, each registered with :mod:`.parametrize`. (PyTorch's ``orthogonal`` is not
here yet.)

Example:
    >>> import minigrad as mg
    >>> from minigrad.nn.utils.parametrizations import weight_norm
    >>> _ = mg.manual_seed(0)
    >>> layer = weight_norm(mg.nn.Linear(3, 2))
    >>> [name for name, _ in layer.named_parameters()]
    ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
"""

from __future__ import annotations

from ...recording.grad_mode import no_grad
from ...tensor import Tensor
from .. import functional as F
from ..modules.module import Module
from . import parametrize
from .weight_norm_hook import norm_except_dim, weight_norm_of

__all__ = ["weight_norm", "spectral_norm"]


class _WeightNorm(Module):
    """weight = g * v / ||v||: the direction ``original1`` (v) and the size ``original0`` (g)."""

    def __init__(self, dim: int | None = 0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return weight_norm_of(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: Tensor):
        return norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Weight normalisation (Salimans and Kingma, 2016): ``module.<name>`` = g * v / ||v||,
    with g (``parametrizations.<name>.original0``) and v (``original1``) trained instead.
    ``dim`` is the dim kept by the norm (None: one norm of the whole tensor).

    NB: PyTorch also loads old ``<name>_g`` / ``<name>_v`` state-dict keys into the new
    names (a load pre-hook); minigrad has no such hook: rename those keys yourself.
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    """weight / sigma, sigma the largest singular value of the weight as a matrix (its
    ``dim`` as rows), estimated by power iteration on the buffers ``_u`` and ``_v``."""

    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(
                f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] "
                f"but got {dim})"
            )
        if n_power_iterations <= 0:
            raise ValueError(
                "Expected n_power_iterations to be positive, but got "
                f"n_power_iterations={n_power_iterations}"
            )
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.shape
            with no_grad():
                u = weight_mat.new_empty(h).normal_(0, 1)
                v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.ndim) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        """u <- W v / |W v|, v <- W^T u / |W^T u|, ``n_power_iterations`` times (no graph)."""
        with no_grad():
            for _ in range(n_power_iterations):
                self._u.data = F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps)
                self._v.data = F.normalize(weight_mat.T.mv(self._u), dim=0, eps=self.eps)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(
    module: Module,
    name: str = "weight",
    n_power_iterations: int = 1,
    eps: float = 1e-12,
    dim: int | None = None,
) -> Module:
    """Spectral normalisation (Miyato et al., 2018): ``module.<name>`` divided by its largest
    singular value, estimated by ``n_power_iterations`` steps of power iteration at each
    access in training (15 at registration), kept in the buffers
    ``parametrizations.<name>.0._u`` and ``._v``. ``dim`` (the rows) defaults to 1 for
    ``ConvTranspose*d``, else 0. The starting u and v are PyTorch's draws under the same seed.
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if type(module).__name__.startswith("ConvTranspose") else 0
    parametrization = _SpectralNorm(weight, n_power_iterations, dim, eps)
    parametrize.register_parametrization(module, name, parametrization)
    return module
