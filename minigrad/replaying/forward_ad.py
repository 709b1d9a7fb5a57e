"""Dual tensors for forward-mode AD, named and shaped as ``torch.autograd.forward_ad``.

Inside a ``dual_level``, ``make_dual(x, v)`` gives a tensor equal to ``x`` that carries
the tangent ``v``; every op applied to it computes its output's tangent with its forward
rule (the same ``jvp`` staticmethods that ``minigrad.func.jvp`` uses, see
:mod:`.tangents`), and ``unpack_dual(y)`` returns ``(primal, tangent)``: the tangent is
the Jacobian-vector product J·v. Leaving the level drops every tangent.

Example:
    >>> import minigrad as mg
    >>> import minigrad.replaying.forward_ad as fwAD
    >>> x = mg.tensor([1.0, 2.0, 3.0])
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, mg.ones(3)) ** 2
    ...     fwAD.unpack_dual(y).tangent          # d(x**2) = 2x dx
    tensor([2., 4., 6.])
    >>> fwAD.unpack_dual(y).tangent is None     # the level is gone, and its tangents
    True

As in PyTorch, only one level exists at a time: a ``dual_level`` cannot be nested, nor
mixed with ``minigrad.func.jvp`` (use nested ``jvp`` calls for higher derivatives).
Dual tensors compose with reverse mode: ``make_dual`` and ``unpack_dual`` are views
recorded for backward, and the rules are made of ops, so both the primal and the tangent
can be differentiated.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from ..errors import forward_ad as errors
from ..errors import func as func_errors
from ..ops.shape import View
from ..recording import tangents
from ..tensor import Tensor, has_sparse_layout

_current: tangents.Level | None = None  # the open dual level (PyTorch numbers it 0)


def _current_index() -> int:
    return -1 if _current is None else 0


def enter_dual_level() -> int:
    """Open the forward AD level and return its number (0, the only one)."""
    global _current
    _current = tangents.open_level(dual=True)
    return 0


def exit_dual_level(*, level: int | None = None) -> None:
    """Close the forward AD level: every tangent made in it is dropped."""
    global _current
    if level is None and _current is None:
        raise RuntimeError(errors.EXIT_NONE)
    if level is not None and level != _current_index():
        raise RuntimeError(errors.EXIT_NOT_LAST.format(level=level, current=_current_index()))
    tangents.close_level(_current)
    _current = None


class dual_level:  # noqa: N801  (PyTorch's name)
    """Context manager (and decorator) for forward AD: enter the level, exit it after.

    ``with dual_level() as level:`` binds the level's number, 0.
    """

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> bool:
        exit_dual_level()
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)

        return wrapper


def _level_for(fn: str, level: int | None) -> tangents.Level | None:
    """The level a call names (None: the open one, or None when there is none)."""
    if level is not None and level != _current_index():
        raise RuntimeError(errors.BAD_LEVEL.format(fn=fn, level=level, current=_current_index()))
    return _current


def make_dual(tensor: Tensor, tangent: Tensor, *, level: int | None = None) -> Tensor:
    """A view of ``tensor`` that carries ``tangent`` (a "dual tensor").

    Args:
        tensor: the primal, a dense floating-point Tensor.
        tangent: its tangent, of the same shape and any floating dtype (kept as given, as
            PyTorch keeps it: a float32 tangent of a float64 primal stays float32, and the
            ops' tangents promote as their values do).
        level: the level to use; None means the open one.

    Returns:
        A new Tensor sharing ``tensor``'s memory (and version counter), differentiable
        by reverse mode back to ``tensor``, whose ops carry tangents.
    """
    if level is None and _current is None:
        raise RuntimeError(errors.NO_LEVEL)
    lvl = _level_for("make_dual", level)
    _check_pair(tensor, tangent)
    if lvl.get(tensor) is not None:
        raise RuntimeError(errors.ALREADY_DUAL.format(level=0))
    dual = View.apply(tensor, shape=tensor.shape)  # no tangent flows: tensor has none
    lvl.set(dual, tangent)
    return dual


def _check_pair(tensor, tangent) -> None:
    for arg, t in (("tensor", tensor), ("tangent", tangent)):
        if not isinstance(t, Tensor):
            raise TypeError(errors.NOT_TENSOR.format(fn="make_dual", arg=arg, got=type(t).__name__))
    for what, t in (("primal", tensor), ("tangent", tangent)):
        if has_sparse_layout(t):
            raise NotImplementedError(func_errors.JVP_SPARSE.format(op=f"make_dual() {what}"))
        if not t.dtype.is_floating_point:
            raise ValueError(errors.NOT_FLOAT.format(what=what, dtype=t.dtype))
    if tangent.shape != tensor.shape:
        raise RuntimeError(errors.SIZE.format(want=list(tensor.shape), got=list(tangent.shape)))


class UnpackedDualTensor(NamedTuple):
    """What :func:`unpack_dual` returns: the primal, and the tangent (None when none)."""

    primal: Tensor
    tangent: Tensor | None


def unpack_dual(tensor: Tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """Split a dual tensor into ``(primal, tangent)``.

    Inside the level, ``primal`` is a view of ``tensor`` without the tangent (ops on it
    carry none) and ``tangent`` is the tangent itself, or None. Outside any level the
    result is ``(tensor, None)``, as in PyTorch.
    """
    if level is None and _current is None:
        return UnpackedDualTensor(tensor, None)
    lvl = _level_for("unpack_dual", level)
    if not isinstance(tensor, Tensor):
        raise TypeError(
            errors.NOT_TENSOR.format(fn="unpack_dual", arg="tensor", got=type(tensor).__name__)
        )
    if has_sparse_layout(tensor):
        return UnpackedDualTensor(tensor, None)  # sparse tensors carry no tangents
    visible = tangents.innermost() is lvl  # not inside a custom forward, where none flows
    tangent = lvl.get(tensor) if visible else None
    with tangents.only([]):  # the primal's view gets no tangent
        primal = View.apply(tensor, shape=tensor.shape)
    return UnpackedDualTensor(primal, tangent)


__all__ = [
    "UnpackedDualTensor",
    "enter_dual_level",
    "exit_dual_level",
    "make_dual",
    "unpack_dual",
    "dual_level",
]
