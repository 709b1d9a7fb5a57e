"""Module hooks: functions a module calls around its ``forward`` and its backward
(``torch.nn.Module``'s ``register_forward_pre_hook``, ``register_forward_hook``,
``register_full_backward_pre_hook``, ``register_full_backward_hook``), and the global
``register_module_forward_pre_hook`` / ``register_module_forward_hook`` that every module
runs. Each registration returns a :class:`RemovableHandle`.

What a call ``module(*args, **kwargs)`` does when hooks are registered (PyTorch's order):

1. forward pre-hooks, global ones first: ``hook(module, args)`` may return new args (a
   single value counts as a one-element tuple); ``with_kwargs=True``:
   ``hook(module, args, kwargs)`` returns None or ``(new_args, new_kwargs)``;
2. with backward hooks: the tensor arguments pass through an identity
   :class:`BackwardHookFunction` whose backward runs the full backward hooks;
3. ``forward``;
4. forward hooks, global ones first: ``hook(module, args, output)`` (``with_kwargs``:
   ``hook(module, args, kwargs, output)``) may return a new output. A hook registered with
   ``always_call=True`` runs even when ``forward`` raises (with output None), and the error
   is raised after it;
5. with backward hooks: the output tensors pass through a second identity node, whose
   backward runs the backward pre-hooks ``hook(module, grad_output)`` (may return new
   ``grad_output``) and keeps ``grad_output`` for the full backward hooks,
   ``hook(module, grad_input, grad_output)``, which may return new ``grad_input``: one
   entry per positional argument of the call (None for one that is not a tensor or needs
   no gradient).

A module with no hooks (and no global ones) calls ``forward`` directly: hooks cost nothing
until one is registered.
"""

from __future__ import annotations

import itertools
import warnings

from ... import errors as _tensor_errors
from ...autograd.function import Function
from ...autograd.grad_mode import is_grad_enabled
from ...errors import nn as _errors
from ...tensor import Tensor

_ids = itertools.count()

# register_module_forward_pre_hook / register_module_forward_hook: run by every module
_global_forward_pre_hooks: dict = {}
_global_forward_hooks: dict = {}
_global_always_called: set = set()
any_global = False  # whether either holds a hook: Module.__call__ reads this one flag


def _note_global_hooks() -> None:
    global any_global
    any_global = bool(_global_forward_pre_hooks or _global_forward_hooks)


class RemovableHandle:
    """What a hook registration returns (``torch.utils.hooks.RemovableHandle``): ``remove()``
    unregisters the hook; ``with handle:`` removes it at the end of the block."""

    def __init__(self, hooks: dict, *flags):
        self.id = next(_ids)
        self._hooks, self._flags = hooks, flags  # flags: sets that may name this hook too

    def remove(self) -> None:
        self._hooks.pop(self.id, None)
        for flag in self._flags:
            flag.discard(self.id)
        _note_global_hooks()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


class ModuleHooks:
    """One module's hooks, by handle id in registration order (``prepend`` puts one first)."""

    def __init__(self):
        self.forward_pre, self.forward, self.backward_pre, self.backward = {}, {}, {}, {}
        self.with_kwargs: set = set()  # ids of forward (pre-)hooks that take kwargs
        self.always_called: set = set()


def _add(hooks: dict, hook, prepend: bool, *flags) -> RemovableHandle:
    if not callable(hook):
        raise TypeError(_tensor_errors.HOOK_NOT_CALLABLE.format(got=type(hook).__name__))
    handle = RemovableHandle(hooks, *flags)
    hooks[handle.id] = hook
    if prepend:
        for key in [k for k in hooks if k != handle.id]:
            hooks[key] = hooks.pop(key)  # move every other hook behind the new one
    return handle


def register_module_forward_pre_hook(hook) -> RemovableHandle:
    """A forward pre-hook every module runs, before its own ones (``hook(module, args)``)."""
    handle = _add(_global_forward_pre_hooks, hook, False)
    _note_global_hooks()
    return handle


def register_module_forward_hook(hook, *, always_call: bool = False) -> RemovableHandle:
    """A forward hook every module runs, before its own ones (``hook(module, args, output)``)."""
    handle = _add(_global_forward_hooks, hook, False, _global_always_called)
    if always_call:
        _global_always_called.add(handle.id)
    _note_global_hooks()
    return handle


class HooksMixin:
    """The registration methods of :class:`~minigrad.nn.Module`."""

    def _module_hooks(self) -> ModuleHooks:
        if self._hooks is None:
            object.__setattr__(self, "_hooks", ModuleHooks())
        return self._hooks

    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Call ``hook(module, args)`` before ``forward``; it may return new args."""
        h = self._module_hooks()
        handle = _add(h.forward_pre, hook, prepend, h.with_kwargs)
        if with_kwargs:
            h.with_kwargs.add(handle.id)
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """Call ``hook(module, args, output)`` after ``forward``; it may return a new output."""
        h = self._module_hooks()
        handle = _add(h.forward, hook, prepend, h.with_kwargs, h.always_called)
        if with_kwargs:
            h.with_kwargs.add(handle.id)
        if always_call:
            h.always_called.add(handle.id)
        return handle

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """Call ``hook(module, grad_output)`` when the gradients of the outputs are known;
        it may return new ones, which backward carries on with."""
        return _add(self._module_hooks().backward_pre, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """Call ``hook(module, grad_input, grad_output)`` when the gradients of the inputs are
        known; it may return new ``grad_input`` (one entry per positional argument)."""
        return _add(self._module_hooks().backward, hook, prepend)


def call_with_hooks(module, args: tuple, kwargs: dict):
    """``module(*args, **kwargs)`` with its hooks (and the global ones), in PyTorch's order."""
    h = module._hooks or ModuleHooks()
    for hook_id, hook in (*_global_forward_pre_hooks.items(), *h.forward_pre.items()):
        if hook_id in h.with_kwargs:
            result = hook(module, args, kwargs)
            if result is not None:
                if not (isinstance(result, tuple) and len(result) == 2):
                    raise RuntimeError(_errors.PRE_HOOK_KWARGS_RESULT.format(got=result))
                args, kwargs = result
        else:
            result = hook(module, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
    state = None
    if (h.backward or h.backward_pre) and is_grad_enabled():
        state = _BackwardState(module, h, len(args))
        args = state.hook_inputs(args)
    forward_hooks = (*_global_forward_hooks.items(), *h.forward.items())
    called, output = set(), None
    try:
        output = module.forward(*args, **kwargs)
        for hook_id, hook in forward_hooks:
            called.add(hook_id)
            output = _run_forward_hook(hook, hook_id in h.with_kwargs, module, args, kwargs, output)
    except Exception:
        always = h.always_called | _global_always_called
        for hook_id, hook in forward_hooks:
            if hook_id in always and hook_id not in called:
                try:
                    output = _run_forward_hook(
                        hook, hook_id in h.with_kwargs, module, args, kwargs, output
                    )
                except Exception as e:  # the error of forward is the one to see
                    warnings.warn(_errors.ALWAYS_CALL_SILENCED.format(error=e), stacklevel=2)
        raise
    return output if state is None else state.hook_outputs(output)


def _run_forward_hook(hook, with_kwargs, module, args, kwargs, output):
    result = hook(module, args, kwargs, output) if with_kwargs else hook(module, args, output)
    return output if result is None else result


class BackwardHookFunction(Function):
    """Identity on its tensors; its backward hands the gradients to ``state`` (PyTorch records
    the same node, ``BackwardHookFunctionBackward``, before and after a hooked module)."""

    @staticmethod
    def forward(ctx, state, side, *tensors):
        ctx.state, ctx.side = state, side
        ctx.mark_non_differentiable(*[t for t in tensors if not t.requires_grad])
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        if ctx.side == "outputs":
            grads = ctx.state.outputs_backward(grads)
        else:
            grads = ctx.state.inputs_backward(grads)
        return (None, None, *grads)


class _BackwardState:
    """What the two identity nodes of one call share: the hooks and ``grad_output``."""

    def __init__(self, module, hooks: ModuleHooks, n_args: int):
        self.module, self.hooks, self.n_args = module, hooks, n_args
        self.input_positions = None  # positions of the hooked tensor arguments
        self.grad_output = None

    def hook_inputs(self, args: tuple) -> tuple:
        positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        if not any(args[i].requires_grad for i in positions):
            return args  # nothing flows back to the inputs: the hooks run at the outputs
        self.input_positions = positions
        new = BackwardHookFunction.apply(self, "inputs", *[args[i] for i in positions])
        args = list(args)
        for i, t in zip(positions, new):
            args[i] = t
        return tuple(args)

    def hook_outputs(self, output):
        single = isinstance(output, Tensor)
        outs = (output,) if single else output
        if not isinstance(outs, (tuple, list)) or not any(
            isinstance(o, Tensor) and o.requires_grad for o in outs
        ):
            return output
        positions = [i for i, o in enumerate(outs) if isinstance(o, Tensor)]
        new = BackwardHookFunction.apply(self, "outputs", *[outs[i] for i in positions])
        outs = list(outs)
        for i, t in zip(positions, new):
            outs[i] = t
        return outs[0] if single else type(output)(outs)

    def outputs_backward(self, grads: tuple) -> tuple:
        for hook in list(self.hooks.backward_pre.values()):
            result = hook(self.module, grads)
            if result is not None:
                result = result if isinstance(result, tuple) else (result,)
                if len(result) != len(grads):
                    raise RuntimeError(
                        _errors.BACKWARD_HOOK_COUNT.format(
                            kind="pre hook", what="grad_output", got=len(result), want=len(grads)
                        )
                    )
                grads = result
        self.grad_output = grads
        if self.input_positions is None:  # no input needs a gradient: grad_input is all None
            for hook in list(self.hooks.backward.values()):
                result = hook(self.module, (None,) * self.n_args, grads)
                if result is not None and any(r is not None for r in result):
                    raise RuntimeError(_errors.BACKWARD_HOOK_NO_INPUTS)
        return grads

    def inputs_backward(self, grads: tuple) -> tuple:
        grad_input = [None] * self.n_args
        for i, g in zip(self.input_positions, grads):
            grad_input[i] = g
        grad_input = tuple(grad_input)
        for hook in list(self.hooks.backward.values()):
            result = hook(self.module, grad_input, self.grad_output)
            if result is not None:
                result = result if isinstance(result, tuple) else (result,)
                if len(result) != len(grad_input):
                    raise RuntimeError(
                        _errors.BACKWARD_HOOK_COUNT.format(
                            kind="hook", what="grad_input", got=len(result), want=len(grad_input)
                        )
                    )
                grad_input = result
        return tuple(grad_input[i] for i in self.input_positions)
