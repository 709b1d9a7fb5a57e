"""Grad mode: whether operations record the graph (``torch.no_grad`` and friends).

The flag lives on one module-level object so the per-op check is one attribute
read. Each manager works as a context manager and as a decorator, nests, and
restores the previous state even when the body raises.
"""

from __future__ import annotations

import functools
import inspect


class _State:
    def __init__(self):
        self.enabled = True
        self.inference = False  # inside inference_mode


state = _State()


def is_grad_enabled() -> bool:
    """True when new operations are recorded for backward."""
    return state.enabled


class _GradModeManager:
    """Base for the grad-mode context managers; usable as a decorator too.

    ``@no_grad()`` and ``@no_grad`` both work; a decorated generator function
    runs each of its resumptions in the mode, as in PyTorch.
    """

    _mode: bool = True

    def __new__(cls, *args):
        if cls is not set_grad_enabled and len(args) == 1 and callable(args[0]):
            return cls()(args[0])  # used bare: @no_grad
        return super().__new__(cls)

    def __enter__(self):
        self._prev = state.enabled
        state.enabled = self._mode
        return self

    def __exit__(self, *exc):
        state.enabled = self._prev
        return False

    def _fresh(self):
        return self.__class__()

    def __call__(self, fn):
        if inspect.isgeneratorfunction(fn):
            return _wrap_generator(self, fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self._fresh():
                return fn(*args, **kwargs)

        return wrapper


def _wrap_generator(manager, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with manager._fresh():
            gen = fn(*args, **kwargs)
            value = next(gen)
        while True:
            try:
                sent = yield value
            except GeneratorExit:
                with manager._fresh():
                    gen.close()
                raise
            except BaseException as exc:  # forward throw() into the generator
                with manager._fresh():
                    value = gen.throw(exc)
                continue
            try:
                with manager._fresh():
                    value = gen.send(sent)
            except StopIteration as stop:
                return stop.value

    return wrapper


class no_grad(_GradModeManager):  # noqa: N801  (PyTorch name)
    """Disable graph recording, e.g. for evaluation or optimizer steps.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([1.0], requires_grad=True)
        >>> with mg.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    _mode = False


class enable_grad(_GradModeManager):  # noqa: N801
    """Re-enable graph recording inside a ``no_grad`` block."""

    _mode = True


class set_grad_enabled(_GradModeManager):  # noqa: N801
    """Set grad mode on or off: as a call, a context manager or a decorator."""

    def __init__(self, mode: bool):
        self._mode = bool(mode)
        self._prev = state.enabled
        state.enabled = self._mode  # like PyTorch, calling it sets the mode at once

    def __enter__(self):
        return self

    def _fresh(self):
        manager = _GradModeManager.__new__(_GradModeManager)
        manager._mode = self._mode
        return manager

    def __call__(self, fn):
        state.enabled = self._prev  # used as a decorator: undo the eager set
        return super().__call__(fn)


class inference_mode(_GradModeManager):  # noqa: N801
    """No graph recording, like :class:`no_grad`, for code that only evaluates
    (``torch.inference_mode``); ``is_inference_mode_enabled()`` is True inside.

    ``inference_mode(False)`` changes nothing. NB: PyTorch also marks the tensors made
    inside as *inference tensors*, which refuse to join a graph later ("Inference tensors
    cannot be saved for backward"); minigrad has no such tensors, so here inference mode
    is no_grad with a flag, and costs what no_grad costs.

    Example:
        >>> import minigrad as mg
        >>> w = mg.tensor([2.0], requires_grad=True)
        >>> with mg.inference_mode():
        ...     y = w * 3
        >>> y.requires_grad, mg.is_inference_mode_enabled()
        (False, False)
    """

    def __init__(self, mode: bool = True):
        self.mode = bool(mode)

    def __enter__(self):
        self._prev = (state.enabled, state.inference)
        if self.mode:
            state.enabled, state.inference = False, True
        return self

    def __exit__(self, *exc):
        state.enabled, state.inference = self._prev
        return False

    def _fresh(self):
        return inference_mode(self.mode)


def is_inference_mode_enabled() -> bool:
    """True inside ``inference_mode()`` (``torch.is_inference_mode_enabled``)."""
    return state.inference
