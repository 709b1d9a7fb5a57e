"""Linear algebra functions (``torch.linalg``): the vector norm, inv, det, slogdet, solve.

Example:
    >>> import minigrad as mg
    >>> mg.linalg.vector_norm(mg.tensor([3.0, 4.0]))
    tensor(5.)
    >>> mg.linalg.vector_norm(mg.tensor([[1.0, -2.0], [0.0, 3.0]]), ord=1, dim=-1)
    tensor([3., 3.])
"""

from .ops.linalg import LinAlgError, det, inv, slogdet, solve
from .ops.more_math import cross as _cross
from .ops.norm import vector_norm


def cross(input, other, *, dim=-1):  # noqa: A002  (PyTorch's names)
    """The cross product of 3-vectors along ``dim`` (default the last) (``torch.linalg.cross``)."""
    return _cross(input, other, dim)


__all__ = ["LinAlgError", "cross", "det", "inv", "slogdet", "solve", "vector_norm"]
