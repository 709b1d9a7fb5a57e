"""What tapes see while they record: the inputs of every op, through one mode hook.

While a :class:`~minigrad.tape.GradientTape` records (or a ``custom_gradient`` function
runs), the ``"tape"`` mode of :mod:`minigrad.recording.modes` is on, and :func:`swap` sees the
inputs of every op and the arguments of every custom ``autograd.Function`` just before they
run. It does two things, when grad mode is on:

* **accessed variables.** An input that is a leaf requiring grad (TensorFlow's trainable
  ``Variable``) is *accessed*: each recorder is told (``GradientTape.watched_variables``, and
  the variables a ``custom_gradient`` function uses);
* **watched constants.** An input that does not require grad, but that a recording tape
  watches, is replaced for this op by its *alias leaf*: a tensor sharing its memory and its
  version counter that requires grad. The op records an edge to the alias, and the tape reads
  the gradient there. The user's tensor keeps ``requires_grad=False``, no ``.grad`` and no
  history, so code outside the tape sees no change. One alias per tensor, shared by all
  tapes, so nested tapes that watch the same tensor see the same graph.

The hook costs about 1.3 us per op while a tape records (3.1 us -> 4.4 us per op on a chain
of 8x8 matmuls and tanh, timeit); outside tapes the mode is off and ops pay nothing.

NB: TensorFlow's tape (C++ ``GradientTape`` in ``tensorflow/c/eager/tape.h``) keeps the ids
of the tensors it watches and records an op when one of its inputs is watched. minigrad
already records every op on its one graph; a tape only has to make watched constants
differentiable and to remember when it was recording (``gradient_tape.py``).
"""

from __future__ import annotations

import weakref

from ..func import reverse as func_reverse  # its _depth: how many transforms are running
from ..recording import grad_mode, modes, tangents
from ..tensor import Tensor

MODE = "tape"

_recorders: list = []  # recording tapes and variable watchers, outermost first
_aliases: dict = {}  # id(tensor) -> (weak references to the tensor and to its alias leaf)
_grad = grad_mode.state


def push(recorder) -> None:
    """Start showing ops to ``recorder``: it answers ``_watches(t)`` (swap t for its alias?)
    and hears ``_accessed(t)`` (an op uses the variable t)."""
    _recorders.append(recorder)
    if len(_recorders) == 1:
        modes.enable(MODE, before=_before, function_args=_function_args)


def pop(recorder) -> None:
    """Stop showing ops to ``recorder``; the mode goes off with the last one."""
    _recorders.remove(recorder)
    if not _recorders:
        modes.disable(MODE)


def tape_recording() -> bool:
    """True while some GradientTape records (its gradient computations are recorded too)."""
    return any(r._is_tape for r in _recorders)


def someone_differentiates() -> bool:
    """Should a tape's gradient be recorded? Yes when grad mode is on and something may
    differentiate it: a tape that records, a ``minigrad.func`` transform that runs (its
    ``grad``/``jacrev`` differentiate what the function returns) or forward mode."""
    if not _grad.enabled:
        return False
    return tape_recording() or func_reverse._depth > 0 or tangents.MODE in modes.state.hooks


def alias_of(t: Tensor) -> Tensor:
    """The alias leaf of ``t``: same memory and version counter, requires grad, no history.

    The registry holds aliases weakly: a tape that watches ``t`` holds its alias, and the
    graph holds it once an op used it, so it lives as long as something needs it.
    """
    entry = _aliases.get(id(t))
    alias = None if entry is None else entry[1]()
    if alias is not None and entry[0]() is t:
        return alias
    alias = t._alias()  # a new tensor object over t's array, sharing its version counter
    alias._requires_grad = True
    alias._is_tape_alias = True
    alias.name = t.name
    key, registry = id(t), _aliases  # the callback may run at interpreter exit: no globals

    def forget(ref):
        if registry.get(key, (None, None))[1] is ref:
            del registry[key]

    _aliases[key] = (weakref.ref(t), weakref.ref(alias, forget))
    return alias


def is_alias(t: Tensor) -> bool:
    """True for an alias leaf made by :func:`alias_of`."""
    return getattr(t, "_is_tape_alias", False)


def swap(inputs: tuple) -> tuple:
    """``inputs`` with each watched constant replaced by its alias; accessed variables noted."""
    if not _grad.enabled:  # nothing records: nothing to see
        return inputs
    swapped = None
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            continue
        if t._requires_grad:
            if t.grad_fn is None and not is_alias(t):
                for r in _recorders:
                    r._accessed(t)
        elif _watched(t):
            if swapped is None:
                swapped = list(inputs)
            swapped[i] = alias = alias_of(t)
            if tangents.MODE in modes.state.hooks:  # forward mode: the alias carries t's tangent
                tangents.copy_tangents(t, alias)
    return inputs if swapped is None else tuple(swapped)


def _watched(t: Tensor) -> bool:
    for r in _recorders:
        if r._watches(t):
            return True
    return False


def _before(cls, inputs, params):
    """The mode's hook before an op (see :mod:`minigrad.recording.modes`)."""
    return swap(inputs)


def _function_args(cls, args):
    """The mode's hook before a custom ``autograd.Function``."""
    return swap(args)


class VariableWatcher:
    """Collects the variables (leaves that require grad) ops use while it is on, in order
    of first use; a context manager (TensorFlow: ``tape.VariableWatcher``)."""

    _is_tape = False

    def __init__(self):
        self._seen: dict = {}

    def _watches(self, t) -> bool:
        return False

    def _accessed(self, t) -> None:
        self._seen.setdefault(id(t), t)

    def variables(self) -> list:
        """The variables seen, in order of first use."""
        return list(self._seen.values())

    def __enter__(self):
        push(self)
        return self

    def __exit__(self, *exc):
        pop(self)
        return False
