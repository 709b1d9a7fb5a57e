"""A model's parameters as one flat vector and back (``torch.nn.utils.parameters_to_vector``,
``vector_to_parameters``): what second-order methods and hand-written line searches work on."""

from __future__ import annotations

from collections.abc import Iterable

from ...errors import nn as _errors
from ...ops.select import cat
from ...tensor import Tensor, typename


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """One 1-D tensor of all the parameters' values, each flattened in order.

    As in PyTorch the vector is built with ``view(-1)`` and ``cat``, so it is part of the
    graph (gradients flow back to the parameters) and a copy (writing to it changes nothing).

    Raises:
        ValueError: for no parameters at all (``cat`` of an empty list), as PyTorch.

    Example:
        >>> import minigrad as mg
        >>> lin = mg.nn.Linear(2, 1)
        >>> tuple(mg.nn.utils.parameters_to_vector(lin.parameters()).shape)
        (3,)
    """
    return cat([p.view(-1) for p in parameters])


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Make each parameter take its slice of ``vec`` (the inverse of :func:`parameters_to_vector`).

    As in PyTorch, each parameter's ``.data`` becomes a view of ``vec``: the parameters share
    ``vec``'s memory afterwards (a later change to ``vec`` shows in them).

    Raises:
        TypeError: if ``vec`` is not a Tensor.
        RuntimeError: if ``vec`` is too short for the parameters (from ``view_as``).
    """
    if not isinstance(vec, Tensor):
        raise TypeError(_errors.VECTOR_NOT_TENSOR.format(got=typename(vec)))
    pointer = 0
    for param in parameters:
        n = param.numel()
        param.data = vec[pointer : pointer + n].view_as(param).data
        pointer += n
