"""``Laplace(loc, scale)`` (``torch.distributions.laplace``): ``rsample`` draws ``u`` uniform in
``(eps - 1, 1)`` as PyTorch does and returns ``loc - scale * sign(u) * log1p(-|u|)``."""

from __future__ import annotations

from ..factory import empty
from .distribution import _finfo
from .normal import _LocScale


class Laplace(_LocScale):
    """The Laplace distribution, density ``exp(-|x - loc| / scale) / (2 scale)``."""

    @property
    def variance(self):
        return 2 * self.scale.pow(2)

    @property
    def stddev(self):
        return (2**0.5) * self.scale

    def rsample(self, sample_shape=()):
        shape = self._extended_shape(sample_shape)
        eps = float(_finfo(self.loc.dtype).eps)
        u = empty(*shape, dtype=self.loc.dtype).uniform_(eps - 1, 1)  # never exactly -1
        return self.loc - self.scale * u.sign() * (-u.abs()).log1p()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return -(2 * self.scale).log() - (value - self.loc).abs() / self.scale

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        d = value - self.loc
        return 0.5 - 0.5 * d.sign() * (-d.abs() / self.scale).expm1()

    def icdf(self, value):
        term = value - 0.5
        return self.loc - self.scale * term.sign() * (-2 * term.abs()).log1p()

    def entropy(self):
        return 1 + (2 * self.scale).log()
