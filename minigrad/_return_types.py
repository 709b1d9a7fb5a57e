"""PyTorch's named results (``torch.return_types``): ``x.max(1)``, ``x.sort()``,
``x.topk(k)``, ``torch.histogram(x)`` return a tuple readable by field name (``.values``,
``.indices``) that prints as PyTorch prints it::

    minigrad.return_types.max(
    values=tensor([3., 5.]),
    indices=tensor([0, 1]))
"""

from __future__ import annotations

import collections


def return_type(name: str, fields: tuple[str, ...]) -> type:
    """A namedtuple class called ``name`` printed as ``minigrad.return_types.<name>(...)``."""
    cls = collections.namedtuple(name, fields)
    cls.__module__ = "minigrad.return_types"

    def __repr__(self) -> str:
        body = ",\n".join(f"{field}={value!r}" for field, value in zip(self._fields, self))
        return f"minigrad.return_types.{name}(\n{body})"

    cls.__repr__ = __repr__
    return cls
