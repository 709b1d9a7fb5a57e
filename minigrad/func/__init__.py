"""Functional transforms (``torch.func``; JAX's ``jax.grad``, ``jax.vmap``...).

A transform takes a function and returns a new function::

    grad(f)(x)              the gradient of scalar f at x (``x.grad`` untouched)
    grad_and_value(f)(x)    (gradient, value); JAX order: value_and_grad
    vjp(f, x)               (f(x), vjp_fn): vjp_fn(v) = v^T J, one backward pass
    jvp(f, (x,), (v,))      (f(x), J v): genuine forward mode, one forward pass
    jacrev(f)(x)            the Jacobian, one backward pass per output element
    jacfwd(f)(x)            the Jacobian, one forward pass per input element
    hessian(f)(x)           jacfwd(jacrev(f))(x)
    hvp(f, x, v)            (f(x), H v)
    vmap(f)(xs)             f mapped over the leading dimension of xs (a loop)
    functional_call(m, p, x)  module m called with the parameters p (a dict) instead of its own
    stack_module_state(ms)  the parameters and buffers of models ms stacked (ensembles, vmap)
    make_jaxpr(f)(x)        the traced program of f: equations over shapes and dtypes (JAX)
    jit(f)(x)               f traced once per signature, then replayed as numpy calls (JAX)

They compose: ``grad(grad(f))``, ``jacrev(jacrev(f))``, ``vmap(grad(f))``. ``grad``,
``vjp``, ``jacrev`` and ``vmap`` take tuples, lists and dicts of tensors where PyTorch
does (``grad`` of a function of a dict of parameters gives a dict of gradients).
Reverse-mode transforms live in :mod:`.reverse`, forward mode in :mod:`.forward`,
``vmap`` in :mod:`.vmap`; JAX's traced programs (``make_jaxpr``, ``jit``) in :mod:`.jit`,
:mod:`.tracing`, :mod:`.jaxpr` and :mod:`.replay`.
"""

from __future__ import annotations

from ..errors.jit import ConcretizationTypeError
from .forward import jacfwd, jvp
from .functional_call import functional_call, stack_module_state
from .jaxpr import ClosedJaxpr, Jaxpr, JaxprEqn, Literal, Primitive, ShapedArray, Var
from .jit import jit, make_jaxpr
from .reverse import grad, grad_and_value, hessian, hvp, jacrev, value_and_grad, vjp
from .vmap import vmap

__all__ = [
    "grad",
    "grad_and_value",
    "value_and_grad",
    "vjp",
    "jvp",
    "jacrev",
    "jacfwd",
    "hessian",
    "hvp",
    "vmap",
    "functional_call",
    "stack_module_state",
    "make_jaxpr",
    "jit",
    "ConcretizationTypeError",
    "ClosedJaxpr",
    "Jaxpr",
    "JaxprEqn",
    "Literal",
    "Primitive",
    "ShapedArray",
    "Var",
]
