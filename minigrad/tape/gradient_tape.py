"""``GradientTape``: TensorFlow's explicit tape, as a view on minigrad's one graph.

minigrad records every op on one graph, PyTorch's way; a tape does not record a second one.
It remembers *when* it was recording: the creation numbers (``node.sequence_nr``) of the
nodes made between entering and leaving it, with gaps for ``stop_recording()``. Its
``gradient`` runs the engine's :class:`~minigrad.replaying.engine.BackwardPass` from the
target to the sources, through those nodes only (the pass's ``within``), and captures the
gradients at the sources as ``autograd.grad`` does, so ``.grad`` is never written. What
TensorFlow users expect follows from that:

* a tensor computed before the tape opened, or while it did not record, is a constant to it;
* a source is *watched* or its gradient is None: ``watch(t)`` watches ``t``; a leaf that
  requires grad (TensorFlow's trainable ``Variable``) is watched when an op that records uses
  it while the tape records (*accessed*, seen by the hook of ``recording.py``), unless
  ``watch_accessed_variables=False``; tensors computed while the tape recorded are
  differentiable without being watched (TensorFlow's intermediate tensors);
* ``watch(t)`` on a tensor that does not require grad gives it an *alias leaf* for the ops
  run while the tape records (``recording.py``): ``t`` itself keeps ``requires_grad=False``;
* a gradient computed while another tape (or this persistent one) records is itself
  recorded (``create_graph=True``): nested tapes give higher derivatives;
* the tape never frees the graph (``retain_graph=True``): the graph belongs to the tensors,
  and another tape or ``.backward()`` may still use it. A non-persistent tape refuses a
  second ``gradient``/``jacobian`` call, as TensorFlow's does, and forgets what it watched.

The jacobians are in ``jacobians.py``. Inside a tape grad mode is on, whatever it was outside (like ``torch.func.grad``, an outer
``no_grad`` does not stop a tape); a ``no_grad`` block inside it records nothing, like
``stop_recording()``.
"""

from __future__ import annotations

import reprlib
import warnings
from contextlib import contextmanager

from ..errors import tape as errors
from ..factory import zeros_like
from ..recording import grad_mode
from ..recording.node import AccumulateGrad, sequence_mark
from ..replaying.engine import BackwardPass
from ..tensor import Tensor
from . import nest, recording
from .arguments import (
    UnconnectedGradients,
    ones_like,
    output_gradients_for,
    sources_of,
    targets_of,
    unconnected,
)
from .jacobians import Jacobians

_grad = grad_mode.state


class GradientTape(Jacobians):
    """Record operations for differentiation, as ``tf.GradientTape`` (see the module notes).

    Args:
        persistent: allow more than one ``gradient``/``jacobian`` call.
        watch_accessed_variables: watch every leaf that requires grad (a "variable") used by
            an op while the tape records; with False, only what ``watch`` was given.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor(3.0)
        >>> with GradientTape() as g:
        ...     g.watch(x)
        ...     y = x * x
        >>> g.gradient(y, x)
        tensor(6.)
        >>> w = mg.tensor([1.0, 2.0], requires_grad=True)      # a "variable"
        >>> with GradientTape(persistent=True) as g:
        ...     loss = (w**2).sum()
        >>> g.gradient(loss, {"w": w}), g.gradient(loss, [x])
        ({'w': tensor([2., 4.])}, [None])
        >>> w.grad is None                                        # a tape never writes .grad
        True
    """

    _is_tape = True  # for recording.py: this recorder's gradients are recorded by others

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = bool(persistent)
        self._watch_accessed_variables = bool(watch_accessed_variables)
        self._recording = False
        self._grad_mode_outside = True
        self._clear()

    def _clear(self) -> None:
        """A fresh tape: nothing recorded, nothing watched."""
        self._used = False
        self._windows: list = []  # [start, stop) marks around the nodes recorded; stop None: open
        self._watched: dict = {}  # id -> (a tensor given to watch(), its alias leaf or None)
        self._variables: dict = {}  # id -> a variable watched or accessed, in order

    # --- what recording.py asks (the recorder's two questions) ---------------------------------------------------------
    def _watches(self, t: Tensor) -> bool:
        """True if ``watch`` was given ``t``."""
        entry = self._watched.get(id(t))
        return entry is not None and entry[0] is t

    def _accessed(self, t: Tensor) -> None:
        """An op is using the variable ``t`` while this tape records."""
        if self._watch_accessed_variables:
            self._variables.setdefault(id(t), t)

    # --- recording ---------------------------------------------------------------------------
    def __enter__(self) -> GradientTape:
        self._push()
        return self

    def __exit__(self, *exc) -> bool:
        if self._recording:
            self._pop()
        return False

    def _push(self) -> None:
        if self._recording:
            raise ValueError(errors.STILL_RECORDING)
        if self._used:  # a used non-persistent tape starts afresh, as TensorFlow's does
            self._clear()
        self._grad_mode_outside, _grad.enabled = _grad.enabled, True
        self._windows.append([sequence_mark(), None])
        recording.push(self)
        self._recording = True

    def _pop(self) -> None:
        if not self._recording:
            raise ValueError(errors.NOT_RECORDING)
        self._windows[-1][1] = sequence_mark()
        recording.pop(self)
        _grad.enabled = self._grad_mode_outside
        self._recording = False

    @contextmanager
    def stop_recording(self):
        """A block whose ops this tape does not record (other tapes still do).

        Example:
            >>> import minigrad as mg
            >>> x = mg.tensor(4.0)
            >>> with GradientTape() as tape:
            ...     tape.watch(x)
            ...     with tape.stop_recording():
            ...         y = x ** 2
            >>> print(tape.gradient(y, x))
            None
        """
        if not self._recording:
            raise RuntimeError(errors.STOP_NOT_RECORDING)
        self._pop()
        try:
            yield
        finally:
            self._push()

    def reset(self) -> None:
        """Forget everything recorded and watched, and go on recording (inside the context)."""
        self._pop()
        self._clear()
        self._push()

    def watch(self, tensor) -> None:
        """Watch a tensor, or a list, tuple or dict of them: they become sources of this tape.

        A tensor that does not require grad stays as it is; ops run on it while the tape
        records see its alias leaf instead (``recording.py``). A variable (a leaf that
        requires grad) is watched from now on, with ``watch_accessed_variables=False`` too.
        """
        for _, t in nest.flatten_with_paths(tensor):
            if not isinstance(t, Tensor):
                got = type(t).__name__
                raise ValueError(errors.WATCH_NOT_TENSOR.format(obj=reprlib.repr(t), got=got))
            if not t.dtype.is_floating_point:
                warnings.warn(errors.WATCH_NOT_FLOAT.format(dtype=t.dtype), stacklevel=2)
                continue
            if t.requires_grad:
                self._watched[id(t)] = (t, None)
                if t.grad_fn is None:
                    self._variables.setdefault(id(t), t)
            else:  # the tape holds the alias leaf, so every op sees the same one
                self._watched[id(t)] = (t, recording.alias_of(t))

    def watched_variables(self) -> tuple:
        """The variables (leaves that require grad) this tape watches, explicitly or because
        an op used them while it recorded, in the order it first saw them."""
        return tuple(self._variables.values())

    # --- gradients ---------------------------------------------------------------------------
    def gradient(
        self,
        target,
        sources,
        output_gradients=None,
        unconnected_gradients=UnconnectedGradients.NONE,
    ):
        """The gradient of ``target`` with respect to ``sources``, in the structure of ``sources``.

        Args:
            target: a Tensor, or a list, tuple or dict of them; a tensor with several
                elements counts as their sum, several targets as the sum of their gradients.
            sources: a Tensor, or a (nested) list, tuple or dict of them.
            output_gradients: one gradient per target (None for ones), to weight them.
            unconnected_gradients: ``"none"`` or ``"zero"`` (or ``UnconnectedGradients``):
                what a source that the target does not depend on gets.

        Returns:
            One gradient per source (None for a source that is unwatched or unconnected),
            in the structure of ``sources``.
        """
        self._check_usable()
        self._leave_context("gradient")
        if target is None:
            raise TypeError(errors.TARGET_NONE)
        targets = targets_of(target, "gradient")
        flat_sources = sources_of(sources, "gradient")
        grads = output_gradients_for(output_gradients, targets)
        flat = self._gradients(targets, grads, flat_sources, unconnected(unconnected_gradients))
        self._done()
        return nest.pack_sequence_as(sources, flat)

    # --- the work ---------------------------------------------------------------------------
    def _check_usable(self) -> None:
        if self._used:
            raise RuntimeError(errors.USED)

    def _leave_context(self, fn: str) -> None:
        """Inside its own context a non-persistent tape stops recording first (TensorFlow);
        a persistent one records its own gradient computation, and warns."""
        if not self._recording:
            return
        if not self._persistent:
            self._pop()
        else:
            warnings.warn(errors.INSIDE_PERSISTENT.format(fn=fn), stacklevel=3)

    def _done(self) -> None:
        """A non-persistent tape is used up: it forgets what it recorded and watched."""
        if not self._persistent:
            self._used = True
            self._windows, self._watched = [], {}

    def _gradients(self, targets, grads, sources, mode) -> list:
        """One gradient (or None) per source, for the targets weighted by ``grads``."""
        roots, root_grads = [], []
        for t, g in zip(targets, grads):
            r = self._differentiable(t)
            if r is not None:
                roots.append(r)
                root_grads.append(ones_like(t) if g is None else g)
        wanted = [self._source(s) for s in sources]
        found = iter(self._run(roots, root_grads, [w for w in wanted if w is not None]))
        out = []
        for s, w in zip(sources, wanted):
            g = None if w is None else next(found)
            if g is None and mode is UnconnectedGradients.ZERO:
                g = zeros_like(s)
            out.append(g)
        return out

    def _run(self, roots, root_grads, inputs) -> list:
        """One backward pass through the nodes this tape recorded; the gradients captured."""
        if not roots or not inputs:
            return [None] * len(inputs)
        create_graph = recording.someone_differentiates()
        bp = BackwardPass(
            roots,
            root_grads,
            retain_graph=True,
            create_graph=create_graph,
            inputs=inputs,
            within=self._within(),
        )
        bp.run()
        return [g if g is None or create_graph else g.detach() for g in bp.captured]

    def _within(self):
        """The predicate "this tape recorded that node": made while it recorded, or the node
        of a tensor it watches; a leaf's AccumulateGrad is where gradients end."""
        windows = [tuple(w) for w in self._windows]
        watched = {t.grad_fn for t, _ in self._watched.values() if t.grad_fn is not None}

        def within(node) -> bool:
            if isinstance(node, AccumulateGrad) or node in watched:
                return True
            n = node.sequence_nr
            return any(a < n and (b is None or n < b) for a, b in windows)

        return within

    def _differentiable(self, t: Tensor) -> Tensor | None:
        """The tensor whose gradient edge a target starts from (None: a constant)."""
        if t.requires_grad:
            return t
        return self._watched[id(t)][1] if self._watches(t) else None

    def _source(self, s: Tensor) -> Tensor | None:
        """The tensor whose gradient a source gets (None: the tape does not watch it)."""
        if s.requires_grad:
            is_unwatched_variable = s.grad_fn is None and id(s) not in self._variables
            return None if is_unwatched_variable else s
        return self._watched[id(s)][1] if self._watches(s) else None
