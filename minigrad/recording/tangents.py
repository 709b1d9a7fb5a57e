"""Tangents and levels: the machinery of forward-mode AD.

Two doors lead here, and both use the same per-op rules: dual tensors
(:mod:`minigrad.replaying.forward_ad`, PyTorch's ``torch.autograd.forward_ad``) and the
transforms ``minigrad.func.jvp`` / ``jacfwd``. A *level* is one forward-mode computation
(an open ``dual_level``, or one running ``jvp``): it maps tensors to their tangents.
While a level is open, the ``forward_ad`` mode (see :mod:`.modes`) is on and, after each
op, :func:`_after` asks the op class for its forward rule, a staticmethod next to its
``backward``::

    jvp(params, inputs, tangents, out) -> Tensor | None

``params`` are the keyword arguments the op was applied with, ``inputs`` its input
Tensors, ``tangents`` theirs (None where an input has none: it counts as zero) and
``out`` the op's output. Rules are written with Tensor ops, so reverse mode records them
too (forward-over-reverse and reverse-over-forward work). A custom ``autograd.Function``
gives its own rule, ``jvp(ctx, *tangents)`` (:func:`_around_function`).

NB: PyTorch keeps a tangent in the tensor's autograd metadata, per level; JAX tags the
perturbations of nested ``jvp`` calls. Here a level holds its tensors weakly (a tangent
lives as long as its primal, or until the level exits), keyed by identity.

Nesting, as in PyTorch: ``jvp`` inside ``jvp`` works (each call is a level, and a level's
rules run with the levels outside it on, so inner tangents carry outer tangents, which is
what ``jacfwd(jacfwd(f))`` differentiates); a ``dual_level`` admits no other level inside
or around it.
"""

from __future__ import annotations

import weakref
from contextlib import contextmanager

import numpy as np

from .. import errors as engine_errors
from ..errors import forward_ad as errors
from ..errors import func as func_errors
from ..tensor import Tensor, has_sparse_layout
from . import modes
from .function import Function

MODE = "forward_ad"


class Level:
    """The tangents of one forward-mode computation (a ``dual_level`` or a running ``jvp``)."""

    def __init__(self, dual: bool):
        self.dual = dual  # opened by forward_ad.dual_level (PyTorch: one, and alone)
        self._entries: dict = {}  # id(t) -> (weak reference to t, tangent, t's version then)

    def get(self, t: Tensor) -> Tensor | None:
        """The tangent of ``t`` at this level, None when it has none."""
        entry = self._entries.get(id(t))
        if entry is None or entry[0]() is not t:
            return None
        if t._version != entry[2]:  # an in-place write bypassed the per-op hook
            raise NotImplementedError(func_errors.IN_PLACE.format(old=entry[2], new=t._version))
        return entry[1]

    def set(self, t: Tensor, tangent: Tensor) -> None:
        """Give ``t`` a tangent at this level (dropped when ``t`` dies or the level closes)."""
        key, entries = id(t), self._entries
        entries[key] = (weakref.ref(t, lambda _: entries.pop(key, None)), tangent, t._version)

    def clear(self) -> None:
        """Drop every tangent. The weak references' callbacks tie the entries into a cycle,
        so without this a closed level's tangents would wait for the cyclic collector."""
        self._entries.clear()


_levels: list = []  # the levels ops see now, outermost first
_open = 0  # levels entered and not yet exited: the mode stays on while any is open


def open_level(dual: bool) -> Level:
    """Open a level (``dual=True`` for ``forward_ad.dual_level``) and switch the mode on."""
    global _open
    if _levels and (dual or _levels[-1].dual):
        raise RuntimeError(errors.NESTED)
    level = Level(dual)
    _levels.append(level)
    _open += 1
    modes.enable(MODE, after=_after, function=_around_function)
    return level


def close_level(level: Level) -> None:
    """Close ``level`` (the innermost): its tangents are gone. The mode goes off with the last."""
    global _open
    if level in _levels:
        _levels.remove(level)
    level.clear()
    _open -= 1
    if _open == 0:
        modes.disable(MODE)


def innermost() -> Level | None:
    """The level ops see last (None when no level is open, or inside a custom forward)."""
    return _levels[-1] if _levels else None


def copy_tangents(src: Tensor, dst: Tensor) -> None:
    """Give ``dst`` the tangent ``src`` has at every level ops see (``tape.GradientTape``'s
    alias leaf stands for the tensor it aliases)."""
    for level in _levels:
        tangent = level.get(src)
        if tangent is not None:
            level.set(dst, tangent)


@contextmanager
def only(levels: list):
    """Let ops see just ``levels`` for a while (``[]``: no tangent propagates)."""
    global _levels
    saved = _levels
    _levels = levels
    try:
        yield
    finally:
        _levels = saved


def _fix_tangent(tangent: Tensor, out: Tensor) -> Tensor:
    """A rule may return a broadcastable tangent or compute in another dtype."""
    if tangent.shape != out.shape:
        tangent = tangent.expand(*out.shape)
    if tangent.dtype is not out.dtype:
        tangent = tangent.to(out.dtype)
    return tangent


def _after(cls, inputs, out, params) -> None:
    """The mode hook after an op: give ``out`` its tangent at every level from the op's rule."""
    levels = _levels
    for k, level in enumerate(levels):
        tangents = [level.get(t) if isinstance(t, Tensor) else None for t in inputs]
        if all(t is None for t in tangents):
            continue
        op = getattr(cls, "node_name", None) or cls.__name__
        if any(has_sparse_layout(t) for t in (*inputs, out)):
            raise NotImplementedError(func_errors.JVP_SPARSE.format(op=op))
        if not cls.differentiable or not out.dtype.is_floating_point:
            return  # comparisons, integer results: no tangent (as in PyTorch)
        rule = getattr(cls, "jvp", None)
        if rule is None:
            raise NotImplementedError(func_errors.NO_RULE.format(op=cls.__name__))
        tangent = _run_rule(rule, levels[:k], params, inputs, tangents, out)
        if tangent is not None:
            level.set(out, _fix_tangent(tangent, out))
            if out.grad_fn is not None:  # backward must see this tensor, tangent and all
                out.grad_fn._keep_output_identity(out)


def _run_rule(rule, outer: list, params, inputs, tangents, out):
    """Run an op's rule with only the ``outer`` levels on: inside an op's hook ops run plain
    (``modes.run`` hides the modes), but a rule's own ops must carry the outer levels'
    tangents, so the modes are shown again when there are outer levels. (A plain
    try/finally, not ``only()``: a generator context manager takes 1.8 us to enter and
    leave, measured with timeit, against 0.08 us, on ops that cost ~15 us each in forward
    mode.)"""
    global _levels
    saved = _levels
    _levels = outer
    hidden = modes.hide(not outer)
    try:
        return rule(params, inputs, tangents, out)
    finally:
        _levels = saved
        modes.hide(hidden)


# --- custom Functions: their own jvp ---------------------------------------------------------
def _around_function(cls, ctx, args, run):
    """The mode hook around a custom ``Function``: run ``forward`` with no tangent flowing
    inside (as PyTorch does), then ``cls.jvp`` once per level a tangent came from.

    Nested levels (``jacfwd(jacfwd(f))``): the jvp for an inner level runs with the outer
    levels on, so it is exact when it computes from the inputs (saved or not); a tensor
    that ``forward`` computed and saved carries no outer tangent, and its contribution to
    the higher derivative is lost (not detected).
    """
    reached = [k for k, level in enumerate(_levels) if _any_tangent(level, args)]
    if not reached:
        return run()
    if cls.jvp is Function.jvp:
        raise NotImplementedError(engine_errors.NO_JVP.format(name=cls.__name__))
    levels = _levels
    with only([]):
        result = run()
    outputs = result if isinstance(result, tuple) else (result,)
    for k in reached:
        tangents = [_tangent_arg(levels[k], a) for a in args]
        with only(levels[:k]):
            returned = _call_jvp(cls, ctx, tangents)
        for i, (o, t) in enumerate(zip(outputs, _check_jvp(cls, returned, outputs))):
            if t is not None and o.dtype.is_floating_point:
                if any(o is a for a in args):
                    raise RuntimeError(errors.JVP_INPUT_AS_IS.format(name=cls.__name__, i=i))
                levels[k].set(o, t)
    return result


def _any_tangent(level: Level, args) -> bool:
    return any(isinstance(a, Tensor) and level.get(a) is not None for a in args)


def _tangent_arg(level: Level, a):
    """What ``jvp`` gets for a forward argument: its tangent, zeros for a floating Tensor
    without one, None for anything else (PyTorch's convention)."""
    if not isinstance(a, Tensor) or not a.dtype.is_floating_point:
        return None
    t = level.get(a)
    return Tensor._make(np.zeros(a.shape, a._data.dtype), False, None) if t is None else t


def _call_jvp(cls, ctx, tangents):
    ctx._in_jvp = True  # ctx.saved_tensors answers what forward gave save_for_forward
    try:
        return cls.jvp(ctx, *tangents)
    finally:
        ctx._in_jvp = False


def _check_jvp(cls, returned, outputs) -> tuple:
    """One tangent per output, each None or a Tensor of its output's shape and dtype."""
    tangents = returned if isinstance(returned, tuple) else (returned,)
    if len(tangents) != len(outputs):
        raise RuntimeError(
            errors.JVP_COUNT.format(want=len(outputs), got=len(tangents), name=cls.__name__)
        )
    for i, (o, t) in enumerate(zip(outputs, tangents)):
        if t is None:
            continue
        if not isinstance(t, Tensor):
            raise TypeError(errors.JVP_TYPE.format(name=cls.__name__, got=type(t).__name__, i=i))
        if t.shape != o.shape:
            raise RuntimeError(errors.SIZE.format(want=list(o.shape), got=list(t.shape)))
        if t.dtype is not o.dtype:
            raise RuntimeError(
                errors.JVP_DTYPE.format(name=cls.__name__, got=t.dtype, i=i, want=o.dtype)
            )
    return tangents
