"""``CosineSimilarity`` and ``PairwiseDistance`` (``torch.nn.CosineSimilarity`` /
``PairwiseDistance``): modules around :func:`F.cosine_similarity` and :func:`F.pairwise_distance`."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from .module import Module


class CosineSimilarity(Module):
    """x1 . x2 / (max(|x1|, eps) max(|x2|, eps)) along ``dim`` (default 1).

    Example:
        >>> import minigrad as mg
        >>> mg.nn.CosineSimilarity(dim=0)(mg.tensor([1.0, 0.0]), mg.tensor([0.0, 2.0]))
        tensor(0.)
    """

    def __init__(self, dim: int = 1, eps: float = 1e-8):
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.cosine_similarity(x1, x2, self.dim, self.eps)


class PairwiseDistance(Module):
    """|x1 - x2 + eps|_p along the last dim (``torch.nn.PairwiseDistance``)."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False):
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
