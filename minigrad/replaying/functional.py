"""The higher-level autograd API (``torch.autograd.functional``): ``vjp``, ``jvp``,
``jacobian``, ``hessian``, ``vhp`` and ``hvp`` of a function of tensors.

Each is a few calls of :func:`minigrad.autograd.grad`, the way PyTorch builds them:

* ``vjp(f, x, v)``: one backward pass, with ``v`` as the output's gradient: v^T J.
* ``jvp(f, x, v)``: the *double-backward trick*. ``u -> vjp(u) = u^T J`` is linear in
  ``u``; recording that backward pass (``create_graph=True``) and differentiating it
  with respect to ``u``, with ``v`` as the gradient, gives ``J v``. Two backward passes,
  no forward mode.
* ``jacobian(f, x)``: one backward pass per output element, rows stacked.
* ``hessian(f, x)``: the ``jacobian`` of the gradient (computed with ``create_graph=True``).
* ``vhp(f, x, v)``: v^T H, the gradient of ``grad f . v``; ``hvp`` is H v by the
  double-backward trick on the gradient (for a twice continuously differentiable f, H is
  symmetric and both agree).

Inputs are a Tensor or a tuple of Tensors; results follow the same structure (a tuple of
inputs gives a tuple, a tuple of outputs gives a tuple, both give a tuple of tuples).
``x.grad`` is never touched. With ``create_graph=False`` the results are detached; with
``strict=True`` an output that does not depend on an input raises instead of giving
zeros. ``vectorize=True`` is accepted and gives the same results (minigrad's loop is the
only strategy); the forward-mode strategies live in :mod:`minigrad.func` (``jacfwd``,
``jvp``, ``hessian``) instead.

NB: ``minigrad.func`` (``torch.func``) has the composable versions of the same ideas.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import autograd_functional as errors
from ..factory import ones_like, zeros, zeros_like
from ..ops.select import stack
from ..recording.grad_mode import enable_grad
from ..tensor import Tensor
from .api import grad as autograd_grad
from .functional_forward import check_forward_strict, jacobian_columns

# --- shared steps ----------------------------------------------------------------------------


def _as_tuple(x, what: str, fn: str) -> tuple[tuple, bool]:
    """``(tuple of Tensors, whether x was a tuple)``; PyTorch's TypeError otherwise."""
    is_tuple = isinstance(x, tuple)
    items = x if is_tuple else (x,)
    if not all(isinstance(t, Tensor) for t in items):
        raise TypeError(errors.NOT_TENSORS.format(what=what, fn=fn, got=type(x)))
    return items, is_tuple


def _preprocess(inputs: tuple, create_graph: bool) -> tuple:
    """New identities that require grad. With ``create_graph`` an input that requires grad
    stays connected to its graph (a view), so the results can be differentiated further."""
    return tuple(
        x.view_as(x) if create_graph and x.requires_grad else x.detach().requires_grad_(True)
        for x in inputs
    )


def _postprocess(tree, create_graph: bool):
    """Detach every tensor of a (nested tuple of) result(s) unless the graph is wanted."""
    if isinstance(tree, tuple):
        return tuple(_postprocess(t, create_graph) for t in tree)
    return tree if create_graph else tree.detach()


def _unpack(result: tuple, *is_tuple: bool):
    """Undo the tuple-wrapping of inputs (and outputs) that were single Tensors."""
    if len(is_tuple) == 2:
        outer, inner = is_tuple
        if not inner:
            result = tuple(r[0] for r in result)
        return result if outer else result[0]
    return result if is_tuple[0] else result[0]


def _grads(outputs: tuple, inputs: tuple, grad_outputs: tuple, create_graph: bool) -> tuple:
    """d(outputs)/d(inputs) contracted with grad_outputs; None where an input is unused."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    outs, gos = zip(*pairs)
    return autograd_grad(
        outs, inputs, gos, retain_graph=True, create_graph=create_graph, allow_unused=True
    )


def _check_outputs_differentiable(outputs: tuple, strict: bool) -> None:
    if strict:
        for i, out in enumerate(outputs):
            if not out.requires_grad:
                raise RuntimeError(errors.STRICT_NO_GRAD.format(i=i))


def _fill_zeros(grads: tuple, refs: tuple, strict: bool, message: str, **where) -> tuple:
    """Zeros (shaped like ``refs``) where nothing flowed; in strict mode, an error."""
    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise RuntimeError(message.format(i=i, **where))
            g = zeros_like(ref)
        out.append(g)
    return tuple(out)


def _check_v(v, refs: tuple, fn: str) -> tuple:
    """``v`` as a tuple matching ``refs`` in number and shapes; PyTorch's errors otherwise."""
    vs, _ = _as_tuple(v, "v", fn)
    if len(vs) != len(refs):
        raise RuntimeError(errors.V_LENGTH.format(want=len(refs), got=len(vs)))
    for vi, ref in zip(vs, refs):
        if vi.shape != ref.shape:
            raise RuntimeError(errors.V_SIZE.format(want=tuple(ref.shape), got=tuple(vi.shape)))
    return vs


def _default_v(refs: tuple, is_tuple: bool, message: str) -> tuple:
    """v = 1 when it may be left out: a single one-element Tensor."""
    if is_tuple or refs[0].numel() != 1:
        raise RuntimeError(message)
    return (ones_like(refs[0]),)


# --- vjp, jvp -------------------------------------------------------------------------------


def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T J)``: one backward pass (``torch.autograd.functional.vjp``).

    Args:
        func: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of Tensors.
        v: one tensor per output, shaped like it; may be omitted for a one-element output.
        create_graph: make the results differentiable (higher derivatives).
        strict: raise when an output does not depend on an input (instead of zeros).

    Example:
        >>> import minigrad as mg
        >>> out, vj = mg.autograd.functional.vjp(lambda x: x**2, mg.tensor([1.0, 3.0]),
        ...                                      mg.tensor([1.0, 1.0]))
        >>> vj
        tensor([2., 6.])
    """
    with enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "vjp")
        inputs_t = _preprocess(inputs_t, create_graph)
        outputs_t, is_outputs_tuple = _as_tuple(func(*inputs_t), _OUTPUTS, "vjp")
        _check_outputs_differentiable(outputs_t, strict)
        if v is None:
            vs = _default_v(outputs_t, is_outputs_tuple, errors.V_NONE_OUTPUT)
        else:
            vs = _check_v(v, outputs_t, "vjp")
        grads = _grads(outputs_t, inputs_t, vs, create_graph)
        vj = _fill_zeros(grads, inputs_t, strict, errors.STRICT_VJP)
    outputs = _postprocess(outputs_t, create_graph)
    vj = _postprocess(vj, create_graph)
    return _unpack(outputs, is_outputs_tuple), _unpack(vj, is_inputs_tuple)


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J v)`` by the double-backward trick (``torch.autograd.functional.jvp``).

    ``v`` has one tensor per input, shaped like it (may be omitted for a single
    one-element input). For genuine forward mode (one forward pass) use
    :func:`minigrad.func.jvp`.

    Example:
        >>> import minigrad as mg
        >>> out, jv = mg.autograd.functional.jvp(lambda x: x**2, mg.tensor([1.0, 3.0]),
        ...                                      mg.tensor([1.0, 0.5]))
        >>> jv
        tensor([2., 3.])
    """
    with enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "jvp")
        inputs_t = _preprocess(inputs_t, create_graph)
        if v is None:
            vs = _default_v(inputs_t, is_inputs_tuple, errors.V_NONE_INPUT)
        else:
            vs = _check_v(v, inputs_t, "jvp")
        outputs_t, is_outputs_tuple = _as_tuple(func(*inputs_t), _OUTPUTS, "jvp")
        _check_outputs_differentiable(outputs_t, strict)
        jv = _double_backward(outputs_t, inputs_t, vs, create_graph, strict)
    outputs = _postprocess(outputs_t, create_graph)
    return _unpack(outputs, is_outputs_tuple), _unpack(jv, is_outputs_tuple)


def _double_backward(outputs: tuple, inputs: tuple, vs: tuple, create_graph: bool, strict):
    """J v: differentiate ``u -> u^T J`` (linear in u, recorded) with respect to u, along v."""
    us = tuple(zeros_like(o).requires_grad_(True) for o in outputs)
    back = _grads(outputs, inputs, us, create_graph=True)
    back = _fill_zeros(back, inputs, strict, errors.STRICT_VJP)
    jv = _grads(back, us, vs, create_graph)
    return _postprocess(_fill_zeros(jv, outputs, strict, errors.STRICT_DOUBLE_BACK), create_graph)


# --- jacobian, hessian --------------------------------------------------------------------------


def jacobian(
    func: Callable,
    inputs,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
):
    """The Jacobian of ``func`` at ``inputs``: one backward pass per output element
    (``torch.autograd.functional.jacobian``).

    For an output of shape ``O`` and an input of shape ``I`` the block has shape ``O + I``.
    A tuple of inputs gives a tuple of blocks, a tuple of outputs a tuple per output.

    Example:
        >>> import minigrad as mg
        >>> def exp_adder(x, y):
        ...     return 2 * x.exp() + 3 * y
        >>> jx, jy = mg.autograd.functional.jacobian(exp_adder, (mg.zeros(2), mg.zeros(2)))
        >>> jx
        tensor([[2., 0.],
                [0., 2.]])
    """
    _check_strategy(strategy, vectorize, "jacobian")
    if strategy == "forward-mode":
        check_forward_strict(strict, "jacobian")
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "jacobian")
        is_outputs_tuple = [False]

        def as_outputs(result):
            outputs_t, is_outputs_tuple[0] = _as_tuple(result, _OUTPUTS, "jacobian")
            return outputs_t

        jac = jacobian_columns(func, tuple(x.detach() for x in inputs_t), as_outputs)
        if is_inputs_tuple:  # PyTorch's forward mode answers lists here (its _jacfwd)
            return [list(row) for row in jac] if is_outputs_tuple[0] else list(jac[0])
        return _unpack(jac, is_outputs_tuple[0], is_inputs_tuple)
    with enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "jacobian")
        inputs_t = _preprocess(inputs_t, create_graph)
        outputs_t, is_outputs_tuple = _as_tuple(func(*inputs_t), _OUTPUTS, "jacobian")
        _check_outputs_differentiable(outputs_t, strict)
        jac = tuple(
            _jacobian_blocks(i, out, inputs_t, create_graph, strict)
            for i, out in enumerate(outputs_t)
        )
    jac = _postprocess(jac, create_graph)
    return _unpack(jac, is_outputs_tuple, is_inputs_tuple)


def _jacobian_blocks(i: int, out: Tensor, inputs: tuple, create_graph: bool, strict) -> tuple:
    """d out / d input for every input: the gradient of each element of ``out``, stacked."""
    rows: list[list] = [[] for _ in inputs]
    flat = out.reshape(-1)
    for k in range(out.numel()):
        grads = _grads((flat[k],), inputs, (None,), create_graph)
        for row, g in zip(rows, _fill_zeros(grads, inputs, strict, errors.STRICT_JACOBIAN, out=i)):
            row.append(g)
    blocks = []
    for row, x in zip(rows, inputs):
        shape = (*out.shape, *x.shape)
        blocks.append(stack(row).reshape(*shape) if row else zeros(*shape, dtype=x.dtype))
    return tuple(blocks)


def hessian(
    func: Callable,
    inputs,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
):
    """The Hessian of a scalar ``func``: the Jacobian of its gradient
    (``torch.autograd.functional.hessian``).

    For inputs of shapes ``I1, I2, ...`` block ``[i][j]`` has shape ``Ii + Ij``.

    Example:
        >>> import minigrad as mg
        >>> mg.autograd.functional.hessian(lambda x: (x**3).sum(), mg.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    _check_strategy(outer_jacobian_strategy, vectorize, "hessian")
    if outer_jacobian_strategy == "forward-mode":
        check_forward_strict(strict, "hessian")
    inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", "hessian")

    def scalar_func(*xs):
        return _single_element(func(*xs), "hessian").reshape(())

    def gradient(*xs):
        if outer_jacobian_strategy == "forward-mode":  # dual inputs: make the reverse pass
            xs = tuple(x.requires_grad_(True) for x in xs)  # keep them (a view, no detach)
        g = jacobian(scalar_func, xs, create_graph=True, strict=strict)
        _check_depends_on_inputs(g, strict)
        return g

    hess = jacobian(
        gradient,
        inputs_t,
        create_graph=create_graph,
        strict=strict,
        vectorize=vectorize,
        strategy=outer_jacobian_strategy,  # forward-mode: forward over reverse
    )
    return _unpack(hess, is_inputs_tuple, is_inputs_tuple)


def _check_depends_on_inputs(gradient: tuple, strict: bool) -> None:
    """Strict mode: a gradient that is constant (f linear in an input) has no Hessian."""
    if strict:
        for i, g in enumerate(gradient):
            if not g.requires_grad:
                raise RuntimeError(errors.STRICT_HESSIAN.format(i=i))


def _single_element(out, fn: str) -> Tensor:
    outputs_t, is_tuple = _as_tuple(out, _OUTPUTS, fn)
    if is_tuple:
        raise RuntimeError(errors.SINGLE_TENSOR.format(fn=fn))
    if outputs_t[0].numel() != 1:
        raise RuntimeError(errors.SINGLE_ELEMENT.format(fn=fn))
    return outputs_t[0]


def _check_strategy(strategy: str, vectorize: bool, fn: str) -> None:
    if strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError(errors.STRATEGY)
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError(errors.FORWARD_NEEDS_VECTORIZE)


# --- vhp, hvp ---------------------------------------------------------------------------------


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), v^T H)`` for a scalar ``func``: the gradient of ``grad f . v``
    (``torch.autograd.functional.vhp``).

    Example:
        >>> import minigrad as mg
        >>> out, vh = mg.autograd.functional.vhp(lambda x: (x**3).sum(), mg.tensor([1.0, 2.0]),
        ...                                      mg.tensor([1.0, 1.0]))
        >>> vh
        tensor([ 6., 12.])
    """
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), H v)`` for a scalar ``func``, by the double-backward trick on the
    gradient (``torch.autograd.functional.hvp``). For a twice continuously
    differentiable ``func`` H is symmetric and :func:`vhp`, one pass cheaper, agrees.

    Example:
        >>> import minigrad as mg
        >>> out, hv = mg.autograd.functional.hvp(lambda x: (x**3).sum(), mg.tensor([1.0, 2.0]),
        ...                                      mg.tensor([1.0, 0.0]))
        >>> hv
        tensor([6., 0.])
    """
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")


def _hessian_product(func, inputs, v, create_graph: bool, strict: bool, fn: str):
    with enable_grad():
        inputs_t, is_inputs_tuple = _as_tuple(inputs, "inputs", fn)
        inputs_t = _preprocess(inputs_t, create_graph)
        if v is None:
            vs = _default_v(inputs_t, is_inputs_tuple, errors.V_NONE_INPUT)
        else:
            vs = _check_v(v, inputs_t, fn)
        out = _single_element(func(*inputs_t), fn)
        _check_outputs_differentiable((out,), strict)
        g = _grads((out,), inputs_t, (ones_like(out),), True)
        g = _fill_zeros(g, inputs_t, strict, errors.STRICT_VJP)
        _check_depends_on_inputs(g, strict)
        if fn == "vhp":
            product = _grads(g, inputs_t, vs, create_graph)
        else:
            product = _double_backward(g, inputs_t, vs, True, False)
        product = _fill_zeros(product, inputs_t, strict, errors.STRICT_HESSIAN)
    product = _postprocess(product, create_graph)
    return _postprocess(out, create_graph), _unpack(product, is_inputs_tuple)


_OUTPUTS = "outputs of the user-provided function"
