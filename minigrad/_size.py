"""``minigrad.Size``: a tensor's shape, a tuple of ints printed as PyTorch prints ``torch.Size``.

``x.shape`` and ``x.size()`` return one. It is a tuple in every way (it compares equal to
``(5, 27)``, unpacks, indexes, hashes as the tuple does) and adds what ``torch.Size`` adds:
its repr ``minigrad.Size([5, 27])`` (``torch.Size([5, 27])`` with this library's name, as a
dtype prints ``minigrad.float32``), ``numel()``, and slices, ``+`` and ``*`` that stay Sizes.

Example:
    >>> import minigrad as mg
    >>> s = mg.zeros(5, 27).shape
    >>> s
    minigrad.Size([5, 27])
    >>> s == (5, 27), s.numel(), s[1:], s + (1,)
    (True, 135, minigrad.Size([27]), minigrad.Size([5, 27, 1]))
    >>> mg.tensor(3.0).shape
    minigrad.Size([])
"""

from __future__ import annotations

import math
import operator


class Size(tuple):
    """A shape: a tuple of ints (``torch.Size``)."""

    __slots__ = ()

    def __new__(cls, sizes=()):
        sizes = tuple(sizes)
        for i, n in enumerate(sizes):
            if isinstance(n, bool) or not hasattr(n, "__index__"):
                raise TypeError(
                    f"minigrad.Size() takes an iterable of 'int' (item {i} is '{type(n).__name__}')"
                )
        return super().__new__(cls, (operator.index(n) for n in sizes))

    @classmethod
    def _of(cls, shape: tuple) -> Size:
        """A Size of a shape already known to hold ints (an array's), without the checks."""
        return tuple.__new__(cls, shape)

    def numel(self) -> int:
        """The number of elements of a tensor of this shape (1 for ``Size([])``)."""
        return math.prod(self)

    def __repr__(self) -> str:
        return f"minigrad.Size({list(self)})"

    __str__ = __repr__

    def __getitem__(self, key):
        item = super().__getitem__(key)
        return Size(item) if isinstance(key, slice) else item

    def __add__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple(self) * n)

    __rmul__ = __mul__

    def __reduce__(self):
        return (Size, (tuple(self),))
