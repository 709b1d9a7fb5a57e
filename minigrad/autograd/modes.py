"""Modes that change how every op runs: forward-mode AD and autocast.

The per-op hot path (``Op.apply``) checks one flag, ``state.active``; only when a mode is
on does it come here. Each mode registers a hook:

* ``before(cls, inputs, params) -> inputs`` runs before the op (autocast casts inputs);
* ``after(cls, inputs, out, params) -> None`` runs after it (forward mode attaches
  the output's tangent, computed by the op's ``jvp`` rule next to its ``backward``);
* ``function(cls, ctx, args, run) -> result`` runs around a custom ``autograd.Function``:
  ``run()`` applies it (forward mode calls the Function's own ``jvp`` afterwards);
* ``function_args(cls, args) -> args`` runs before a custom ``autograd.Function`` and may
  replace its arguments (``tape.GradientTape`` swaps a watched tensor for its alias leaf).
"""

from __future__ import annotations

import functools


class _State:
    def __init__(self):
        self.active = False
        self.hooks = {}  # name -> (before, after, function, function_args), functions or None


state = _State()


def enable(name: str, before=None, after=None, function=None, function_args=None) -> None:
    """Turn a mode on (nesting is the caller's business: keep a counter if needed)."""
    state.hooks[name] = (before, after, function, function_args)
    state.active = True


def disable(name: str) -> None:
    """Turn a mode off."""
    state.hooks.pop(name, None)
    state.active = bool(state.hooks)


def run(cls, inputs, params, apply_plain):
    """Run ``apply_plain(cls, inputs, params)`` with every active mode's hooks around it."""
    hooks = list(state.hooks.values())
    for before, *_ in hooks:
        if before is not None:
            inputs = before(cls, inputs, params)
    state.active = False  # ops run inside the hooks and the op itself stay plain
    try:
        out = apply_plain(cls, inputs, params)
        for _, after, *_ in hooks:
            if after is not None:
                after(cls, inputs, out, params)
    finally:
        state.active = bool(state.hooks)
    return out


def function_args(cls, args) -> tuple:
    """A custom ``Function``'s arguments, as every active mode's ``function_args`` hook leaves them."""
    for *_, replace in list(state.hooks.values()):
        if replace is not None:
            args = replace(cls, args)
    return args


def run_function(cls, ctx, args, run_plain):
    """Apply a custom ``Function`` (``run_plain()``) inside every active mode's ``function`` hook."""
    applied = run_plain
    for _, _, around, _ in list(state.hooks.values()):
        if around is not None:
            applied = functools.partial(around, cls, ctx, args, applied)
    return applied()
