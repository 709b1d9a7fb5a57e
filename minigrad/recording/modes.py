"""Modes that change how every op runs: forward-mode AD, autocast, and tracing.

The per-op hot path (``Op.apply``) checks one flag, ``state.active``; only when a mode is
on does it come here (:func:`run`). That one check stays in ``Op.apply``: putting another
``apply`` in its place while a mode is on would miss the ``Sin.apply`` a caller took before
the mode began (``gradcheck(Sin.apply, ...)``). Each mode registers a hook:

* ``before(cls, inputs, params) -> inputs`` runs before the op (autocast casts inputs);
* ``after(cls, inputs, out, params) -> None`` runs after it (forward mode attaches
  the output's tangent, computed by the op's ``jvp`` rule next to its ``backward``);
* ``function(cls, ctx, args, run) -> result`` runs around a custom ``autograd.Function``:
  ``run()`` applies it (forward mode calls the Function's own ``jvp`` afterwards);
* ``function_args(cls, args) -> args`` runs before a custom ``autograd.Function`` and may
  replace its arguments (``tape.GradientTape`` swaps a watched tensor for its alias leaf).

The ops a hook runs itself (a tangent rule, an autocast cast) run with the modes hidden
(``state.hidden``), so a hook never sees its own work.

Tracing (``make_jaxpr``, ``jit``: :mod:`minigrad.func.tracing`) is the one mode that sees
every op, those the other hooks run included, since they are part of the traced program
(``jit(jacfwd(f))`` records the tangent rules). It is ``state.tracer``, an object with
``op(cls, inputs, params, apply_plain) -> out`` and ``function(cls, ctx, args, run)``, and
it is the outermost: a trace starts with the other modes put aside (:func:`set_tracer`).
NB: JAX calls this the dynamic trace at the bottom of its interpreter stack.
"""

from __future__ import annotations

import functools


class _State:
    def __init__(self):
        self.active = False  # Op.apply's one check: some mode must see this op
        self.hooks = {}  # name -> (before, after, function, function_args), functions or None
        self.tracer = None  # make_jaxpr / jit, while they trace a function
        self.hidden = False  # a hook runs its own ops: only the tracer sees them


state = _State()


def _refresh() -> None:
    state.active = state.tracer is not None or (bool(state.hooks) and not state.hidden)


def enable(name: str, before=None, after=None, function=None, function_args=None) -> None:
    """Turn a mode on (nesting is the caller's business: keep a counter if needed)."""
    state.hooks[name] = (before, after, function, function_args)
    _refresh()


def disable(name: str) -> None:
    """Turn a mode off."""
    state.hooks.pop(name, None)
    _refresh()


def hide(hidden: bool) -> bool:
    """Hide the modes from the ops that run next (or show them again); returns the old
    setting, to hand back. The tracer sees those ops either way."""
    old, state.hidden = state.hidden, hidden
    _refresh()
    return old


def set_tracer(tracer):
    """Start (or, with None, end) a trace; returns what to hand back when it ends.

    A trace records the function itself, so the modes on when it starts (a caller's
    autocast, an outer jvp's hook) are put aside until it ends, and start empty inside.
    """
    old = (state.tracer, state.hooks, state.hidden)
    state.tracer, state.hooks, state.hidden = tracer, {}, False
    _refresh()
    return old


def restore_tracer(old) -> None:
    """Hand back what :func:`set_tracer` returned."""
    state.tracer, state.hooks, state.hidden = old
    _refresh()


def _apply_plain(cls, inputs, params):
    """The op as ``cls.apply`` runs it with no mode seeing it (``state.active`` is off then)."""
    return cls.apply.__func__(cls, *inputs, **params)


def run(cls, inputs, params):
    """Run the op ``cls`` on ``inputs`` with every active mode's hooks around it (``Op.apply``
    comes here while ``state.active`` is on: that flag is its one check of the modes)."""
    tracer = state.tracer
    if state.hidden or not state.hooks:  # only the tracer is on
        return tracer.op(cls, inputs, params, _apply_plain)
    hooks = list(state.hooks.values())
    for before, *_ in hooks:
        if before is not None:
            inputs = before(cls, inputs, params)
    hidden = hide(True)  # ops run inside the hooks and the op itself stay plain
    try:
        if tracer is None:
            out = _apply_plain(cls, inputs, params)
        else:
            out = tracer.op(cls, inputs, params, _apply_plain)
        for _, after, *_ in hooks:
            if after is not None:
                after(cls, inputs, out, params)
    finally:
        hide(hidden)
    return out


def function_args(cls, args) -> tuple:
    """A custom ``Function``'s arguments, as every active mode's ``function_args`` hook leaves them."""
    if state.hidden:
        return args
    for *_, replace in list(state.hooks.values()):
        if replace is not None:
            args = replace(cls, args)
    return args


def run_function(cls, ctx, args, run_plain):
    """Apply a custom ``Function`` (``run_plain()``) inside every active mode's ``function`` hook."""
    applied = run_plain
    if not state.hidden:
        for _, _, around, _ in list(state.hooks.values()):
            if around is not None:
                applied = functools.partial(around, cls, ctx, args, applied)
    if state.tracer is not None:  # outermost: it sees the whole application
        applied = functools.partial(state.tracer.function, cls, ctx, args, applied)
    return applied()
