"""The two entry points of reverse mode: ``backward()`` and ``grad()`` (``torch.autograd``).

Both check the outputs and their gradients (:func:`_make_grads`), then run a
:class:`~minigrad.replaying.engine.BackwardPass` to the end: ``backward`` adds the
gradients into the leaves' ``.grad``, ``grad`` returns them. They live here rather than in
the package's ``__init__`` (which re-exports them), so that :mod:`.gradcheck` imports ``grad``
from this module and not from the package that imports gradcheck.
"""

from __future__ import annotations

import numpy as np

from .. import errors
from ..factory import zeros_like
from ..tensor import Tensor
from .batched_grad import grad_rows
from .engine import BackwardPass


def _as_tuple(x):
    if x is None:
        return None
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _make_grads(outputs, grad_outputs):
    """One gradient per output: ones for implicit scalar outputs, checked otherwise."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(errors.GRAD_OUTPUTS_LEN.format(got=len(grad_outputs), want=len(outputs)))
    grads = []
    for i, (out, g) in enumerate(zip(outputs, grad_outputs)):
        if not isinstance(out, Tensor):
            raise TypeError(
                errors.NOT_A_TENSOR.format(what=f"outputs[{i}]", got=type(out).__name__)
            )
        if g is None:
            if out._data.size != 1:
                raise RuntimeError(errors.IMPLICIT_GRAD.format(shape=tuple(out.shape)))
            g = Tensor._make(np.ones(out.shape, out._data.dtype), False, None)
        elif not isinstance(g, Tensor):
            raise TypeError(
                errors.NOT_A_TENSOR.format(what=f"grad_outputs[{i}]", got=type(g).__name__)
            )
        elif g.shape != out.shape:
            raise RuntimeError(
                errors.GRAD_SHAPE.format(i=i, got=list(g.shape), want=list(out.shape))
            )
        elif g.dtype is not out.dtype:
            raise RuntimeError(errors.GRAD_DTYPE.format(i=i, got=g.dtype, want=out.dtype))
        grads.append(g)
    return tuple(grads)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate d(tensors)/d(leaf) into every leaf's ``.grad`` (``torch.autograd.backward``).

    Args:
        tensors: a Tensor or a sequence of them.
        grad_tensors: the gradient w.r.t. each tensor (may be omitted for one-element tensors).
        retain_graph: keep saved tensors for another backward; defaults to ``create_graph``.
        create_graph: record the backward pass itself, for higher-order derivatives.
        inputs: if given, only these tensors accumulate gradient: leaves (their hooks and
            post-accumulate hooks run as in a full backward) and non-leaf tensors (their
            ``.grad`` is filled as by ``retain_grad``); only the graph leading to them runs.
    """
    outputs = _as_tuple(tensors)
    grads = _make_grads(outputs, _as_tuple(grad_tensors))
    if retain_graph is None:
        retain_graph = create_graph
    only = None if inputs is None else _accumulating(_as_tuple(inputs))
    BackwardPass(outputs, grads, retain_graph, create_graph, only=only).run()


def _accumulating(inputs) -> list:
    """``backward(inputs=...)``'s tensors, checked, each once."""
    if not inputs:
        raise RuntimeError(errors.BACKWARD_INPUTS_EMPTY)
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            raise TypeError(errors.NOT_A_TENSOR.format(what=f"inputs[{i}]", got=type(t).__name__))
        if not t.requires_grad:
            raise RuntimeError(errors.GRAD_INPUT_NOT_REQUIRING.format(i=i))
    return list({id(t): t for t in inputs}.values())


def grad(
    outputs,
    inputs,
    grad_outputs=None,
    retain_graph=None,
    create_graph=False,
    allow_unused=None,
    is_grads_batched=False,
    materialize_grads=False,
):
    """Return d(outputs)/d(inputs) without touching ``.grad`` (``torch.autograd.grad``);
    ``is_grads_batched``: one call per row of ``grad_outputs`` (``batched_grad.py``).

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor(2.0, requires_grad=True)
        >>> (dx,) = mg.autograd.grad(x ** 3, x, create_graph=True)
        >>> dx
        tensor(12., grad_fn=<MulBackward0>)
        >>> mg.autograd.grad(dx, x)
        (tensor(12.),)
    """
    if is_grads_batched:
        rest = {"allow_unused": allow_unused, "materialize_grads": materialize_grads}
        return grad_rows(grad, outputs, inputs, grad_outputs, retain_graph, create_graph, **rest)
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grads = _make_grads(outputs, _as_tuple(grad_outputs))
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            raise TypeError(errors.NOT_A_TENSOR.format(what=f"inputs[{i}]", got=type(t).__name__))
        if not t.requires_grad:
            raise RuntimeError(errors.GRAD_INPUT_NOT_REQUIRING.format(i=i))
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    bp = BackwardPass(outputs, grads, retain_graph, create_graph, inputs=inputs)
    bp.run()
    result = []
    for i, (t, g) in enumerate(zip(inputs, bp.captured)):
        if g is None:
            if not allow_unused:
                raise RuntimeError(errors.UNUSED_INPUT.format(i=i))
            if materialize_grads:
                g = zeros_like(t)
        elif not create_graph and g.grad_fn is not None:
            g = g.detach()
        result.append(g)
    return tuple(result)
