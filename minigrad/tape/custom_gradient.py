"""``custom_gradient``: TensorFlow's decorator for a function with its own gradient, as one node.

``@custom_gradient`` on ``f(*x) -> (y, grad_fn)`` gives a function with ``f``'s value whose
gradient is ``grad_fn(*dy)``: one gradient per output in, one per positional argument out.
Each call

1. runs ``f`` as it is, ops recorded as usual, so what ``grad_fn`` closes over (``e`` below)
   keeps its history: differentiating ``grad_fn``'s result (a second derivative) works when
   ``grad_fn`` is written with differentiable ops. A ``recording.VariableWatcher`` notes the
   variables (leaves that require grad) ``f`` uses without taking them as arguments;
2. records **one node**, an ``autograd.Function`` named after ``f`` (``log1pexpBackward``),
   with edges to the arguments and to those variables, and fresh output tensors holding
   ``y``'s values. The ops recorded inside ``f`` are not on the outputs' path, so every
   gradient through the outputs is ``grad_fn``'s: the tape's, ``.backward()``'s and
   ``autograd.grad``'s alike.

A function that uses variables gets them as ``grad_fn(*dy, variables=[...])``, and
``grad_fn`` returns the pair ``(input gradients, variable gradients)``, as in TensorFlow.

Example (TensorFlow's own: ``log(1 + exp(x))``, whose naive gradient is NaN at x = 100 in
float32, since ``exp(100)`` overflows and ``inf / inf`` is NaN):

    >>> import minigrad as mg
    >>> @custom_gradient
    ... def log1pexp(x):
    ...     e = mg.exp(x)
    ...     def grad(dy):
    ...         return dy * (1 - 1 / (1 + e))
    ...     return mg.log(1 + e), grad
    >>> x = mg.tensor(100.0, requires_grad=True)
    >>> log1pexp(x).backward()
    >>> x.grad
    tensor(1.)
    >>> log1pexp(mg.tensor(1.0, requires_grad=True)).grad_fn
    <log1pexpBackward>
"""

from __future__ import annotations

import functools
import inspect

from ..errors import tape as errors
from ..recording.function import Function
from ..tensor import Tensor
from . import nest, recording
from .arguments import describe


def custom_gradient(f=None):
    """Decorate ``f(*x) -> (y, grad_fn)`` so that its gradient is ``grad_fn`` (see the module).

    Works on functions and methods (a method's ``self`` gets no gradient), with or without
    parentheses: ``@custom_gradient`` and ``@custom_gradient()``.
    """
    if f is None:
        return custom_gradient
    if not callable(f):
        raise TypeError(errors.CG_NOT_CALLABLE.format(got=describe(f)))
    return _CustomGradient(f)


class _CustomGradient:
    """The decorated function: calls run :func:`_call`; one node class per function."""

    def __init__(self, f):
        functools.update_wrapper(self, f)
        self._f = f
        name = getattr(f, "__name__", "")
        self._name = name if name.isidentifier() else "custom_gradient"
        self._node = type(self._name, (CustomGradientFunction,), {"__module__": f.__module__})

    def __call__(self, *args, **kwargs):
        return _call(self._f, self._name, self._node, args, kwargs)

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        bound = functools.partial(self._f, instance)
        return functools.partial(_call_bound, bound, self._name, self._node)


def _call_bound(f, name, node, *args, **kwargs):
    return _call(f, name, node, args, kwargs)


def _call(f, name: str, node, args: tuple, kwargs: dict):
    """One call: run ``f``, then record its node (see the module docstring)."""
    with recording.VariableWatcher() as watcher:
        returned = f(*args, **kwargs)
    if not (isinstance(returned, tuple) and len(returned) == 2 and callable(returned[1])):
        raise TypeError(errors.CG_RETURN.format(name=name, got=describe(returned)))
    result, grad_fn = returned
    outputs = nest.flatten_with_paths(result, "y")
    for path, y in outputs:
        if not isinstance(y, Tensor):
            raise TypeError(errors.CG_OUTPUT.format(name=name, path=path, got=describe(y)))
    given = {id(a) for a in (*args, *kwargs.values())}
    variables = [v for v in watcher.variables() if id(v) not in given]
    if variables and not _takes_variables(grad_fn):
        shapes = ", ".join(f"{v.dtype.name} {list(v.shape)}" for v in variables)
        raise TypeError(errors.CG_VARIABLES_KW.format(name=name, n=len(variables), shapes=shapes))
    if not outputs:
        return result
    call = _Call(name, [y for _, y in outputs], grad_fn, args, variables)
    # the call goes last, so that the engine's messages number the arguments as f does
    return nest.pack_sequence_as(result, list(node.apply(*args, *variables, call)))


def _takes_variables(grad_fn) -> bool:
    """Does ``grad_fn`` take a ``variables`` keyword (or ``**kwargs``)?"""
    try:
        params = inspect.signature(grad_fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature
        return False
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in params)


class _Call:
    """One call of a custom_gradient function: what its node hands out and calls back."""

    def __init__(self, name, outputs, grad_fn, args, variables):
        self.name, self.outputs, self.grad_fn = name, outputs, grad_fn
        self.arg_is_tensor = [isinstance(a, Tensor) for a in args]
        self.variables = variables

    def gradients(self, dys) -> tuple:
        """``grad_fn``'s gradients, checked: one per argument (None for a non-Tensor), then
        one per variable."""
        if self.variables:
            pair = self.grad_fn(*dys, variables=self.variables)
            if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
                raise TypeError(errors.CG_VARIABLES_PAIR.format(name=self.name, got=describe(pair)))
            grads, variable_grads = pair[0], list(pair[1])
            if len(variable_grads) != len(self.variables):
                want, got = len(self.variables), len(variable_grads)
                raise ValueError(
                    errors.CG_VARIABLE_GRADS.format(name=self.name, got=got, want=want)
                )
        else:
            grads, variable_grads = self.grad_fn(*dys), []
        flat = nest.flatten(grads)
        if len(flat) != len(self.arg_is_tensor):
            want = len(self.arg_is_tensor)
            raise ValueError(errors.CG_GRAD_COUNT.format(name=self.name, want=want, got=len(flat)))
        flat = [g if is_tensor else None for g, is_tensor in zip(flat, self.arg_is_tensor)]
        return (*flat, *variable_grads)


class CustomGradientFunction(Function):
    """The node of a custom_gradient function (one subclass per function, named after it):
    ``forward`` hands out what ``f`` computed, ``backward`` asks ``grad_fn``."""

    @staticmethod
    def forward(ctx, *inputs_then_call):
        ctx.call = call = inputs_then_call[-1]
        return tuple(y.detach() for y in call.outputs)

    @staticmethod
    def backward(ctx, *dys):
        return (*ctx.call.gradients(dys), None)
