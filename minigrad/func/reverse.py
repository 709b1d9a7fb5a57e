"""Reverse-mode transforms: ``grad``, ``grad_and_value``, ``vjp``, ``jacrev``, ``hessian``, ``hvp``.

Named and shaped as in ``torch.func`` (``hvp`` as ``torch.autograd.functional.hvp``).
Each transform is a thin wrapper around :func:`minigrad.autograd.grad`: it gives the
differentiated arguments fresh identities (a ``clone`` that requires grad, so ``x.grad``
is never touched and ``grad(f, argnums=(0, 1))(x, x)`` gets two partials), calls ``f``
and runs one backward pass (``jacrev``: one per output element).

Composition. A transform records its own backward pass (``create_graph=True``) when
something outside may differentiate the result: another transform is running
(``grad(grad(f))``, ``vmap(grad(f))`` inside ``grad``), an argument already requires
grad, or forward mode (``jacfwd``) is carrying tangents. Otherwise the result is
detached, as ``torch.func.grad(f)(x)`` is for a plain ``x``. NB: torch.func tracks this
with "levels" (each transform wraps tensors in its own level); a tape engine gets the
same answers from ``create_graph`` because every backward pass is itself recorded.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import contextmanager

import numpy as np

from .. import autograd
from ..errors import func as errors
from ..ops.select import stack
from ..recording import modes
from ..recording.grad_mode import enable_grad, is_grad_enabled
from ..tensor import Tensor, has_sparse_layout
from . import forward
from ._pytree import leaves, tree_map, unflatten

_depth = 0  # how many mg.func transforms are running (torch.func: the "level")


@contextmanager
def _level():
    global _depth
    _depth += 1
    try:
        with enable_grad():  # like torch.func.grad, an outer no_grad does not stop it
            yield
    finally:
        _depth -= 1


def _keep_graph(args) -> bool:
    """Record the backward pass when someone outside may differentiate the result."""
    if not is_grad_enabled():
        return False
    if _depth > 0 or "forward_ad" in modes.state.hooks:
        return True
    return any(isinstance(a, Tensor) and a.requires_grad for a in leaves(args))


def _argnums(name: str, argnums, count: int) -> tuple[tuple[int, ...], bool]:
    """Normalise argnums to a tuple of non-negative ints; also say if it was a tuple."""
    as_tuple = isinstance(argnums, (tuple, list))
    nums = tuple(argnums) if as_tuple else (argnums,)
    if as_tuple and not nums:
        raise RuntimeError(errors.ARGNUM_EMPTY.format(name=name))
    for n in nums:
        if not isinstance(n, int) or isinstance(n, bool):
            raise RuntimeError(errors.ARGNUM_TYPE.format(name=name, got=argnums))
        if not -count <= n < count:
            raise RuntimeError(errors.ARGNUM_RANGE.format(name=name, n=n, count=count))
    return tuple(n % count for n in nums), as_tuple


def _fresh(name: str, x, i: int) -> Tensor:
    """A new identity for ``x`` that requires grad and stays connected to x's graph."""
    if not isinstance(x, Tensor):
        raise ValueError(errors.ARG_NOT_TENSOR.format(name=name, i=i, got=type(x).__name__))
    if has_sparse_layout(x):
        raise ValueError(errors.ARG_SPARSE.format(name=name, i=i, layout=x.layout))
    if not x.dtype.is_floating_point:
        raise ValueError(errors.ARG_NOT_FLOAT.format(name=name, i=i, got=x.dtype.name))
    y = x.clone()  # a recorded op: outer transforms and forward-mode tangents see through it
    if not y.requires_grad:
        y.requires_grad_()
    return y


def _prepare(name: str, args, nums) -> tuple[list, list]:
    """Fresh identities for the differentiated arguments (each a Tensor, or a tuple, list or
    dict of Tensors, as in torch.func); returns the new args and all their tensors, in order."""
    args = list(args)
    for i in nums:
        args[i] = tree_map(lambda x, i=i: _fresh(name, x, i), args[i])
    return args, [leaf for i in nums for leaf in leaves(args[i])]


def _regroup(args, nums, flat) -> tuple:
    """One result per differentiated argument, shaped like it (a dict of params -> a dict)."""
    values = iter(flat)
    return tuple(unflatten(args[i], values) for i in nums)


def _split_aux(name: str, result, has_aux: bool):
    if not has_aux:
        return result, None
    if not (isinstance(result, (tuple, list)) and len(result) == 2):
        raise RuntimeError(errors.AUX_PAIR.format(name=name, got=type(result).__name__))
    return result[0], result[1]


def _detach(tree):
    """Detach every tensor in a (nested tuple/list/dict of) result(s)."""
    if isinstance(tree, Tensor):
        return tree.detach()
    if isinstance(tree, (tuple, list)):
        return type(tree)(_detach(t) for t in tree)
    if isinstance(tree, dict):
        return {k: _detach(v) for k, v in tree.items()}
    return tree


def _zeros(shape, like: Tensor) -> Tensor:
    return Tensor._make(np.zeros(shape, like._data.dtype), False, None)


def _grads(name, outputs, inputs, cotangents, keep: bool) -> tuple:
    """d(outputs)/d(inputs) contracted with cotangents; zeros where nothing flows."""
    pairs = [(o, c) for o, c in zip(outputs, cotangents) if o.requires_grad]
    if not pairs:
        return tuple(_zeros(x.shape, x) for x in inputs)
    outs, cots = zip(*pairs)
    grads = autograd.grad(
        outs,
        inputs,
        grad_outputs=cots,
        retain_graph=True,
        create_graph=keep,
        allow_unused=True,
        materialize_grads=True,
    )
    for i, g in enumerate(grads):
        if has_sparse_layout(g):
            op = outs[0].grad_fn.name() if outs[0].grad_fn is not None else "f"
            raise RuntimeError(errors.SPARSE_RESULT.format(name=name, i=i, op=op))
    return grads


def grad_and_value(f: Callable, argnums: int | tuple = 0, has_aux: bool = False) -> Callable:
    """``torch.func.grad_and_value``: a function returning ``(gradient, value)``.

    With ``has_aux=True`` ``f`` returns ``(value, aux)`` and the result is
    ``(gradient, (value, aux))``. A tuple ``argnums`` gives a tuple of gradients.

    Example:
        >>> import minigrad as mg
        >>> g, v = mg.func.grad_and_value(lambda x: (x**2).sum())(mg.tensor([1.0, 2.0]))
        >>> g, v
        (tensor([2., 4.]), tensor(5.))
    """
    return _gradient_transform(f, argnums, has_aux, "grad_and_value")


def _gradient_transform(f, argnums, has_aux, name):
    def wrapper(*args, **kwargs):
        nums, as_tuple = _argnums(name, argnums, len(args))
        keep = _keep_graph(args)
        with _level():
            args2, inputs = _prepare(name, args, nums)
            out, aux = _split_aux(name, f(*args2, **kwargs), has_aux)
            if not isinstance(out, Tensor):
                raise RuntimeError(errors.NOT_TENSOR_OUT.format(name=name, got=type(out).__name__))
            if out.ndim != 0:
                raise RuntimeError(errors.NOT_SCALAR.format(name="grad_and_value", ndim=out.ndim))
            grads = _grads(name, (out,), inputs, (_ones_like(out),), keep)
        grads = _regroup(args2, nums, grads)
        result = grads if as_tuple else grads[0]
        if not keep:
            out, aux = out.detach(), _detach(aux)
        return (result, (out, aux)) if has_aux else (result, out)

    wrapper.__name__ = f"{name}({getattr(f, '__name__', 'f')})"
    wrapper.__wrapped__ = f  # the same parameters as f (jit's messages name them)
    return wrapper


def _ones_like(t: Tensor) -> Tensor:
    return Tensor._make(np.ones(t.shape, t._data.dtype), False, None)


def grad(f: Callable, argnums: int | tuple = 0, has_aux: bool = False) -> Callable:
    """``torch.func.grad``: a function returning the gradient of scalar ``f``.

    Args:
        f: a function of Tensors returning a 0-d Tensor (with ``has_aux``: ``(value, aux)``).
        argnums: which positional argument(s) to differentiate; a tuple gives a tuple.
        has_aux: return ``(gradient, aux)``; aux is not differentiated.

    ``x.grad`` is never touched. Composes: ``grad(grad(f))`` is the second derivative.

    Example:
        >>> import minigrad as mg
        >>> d2 = mg.func.grad(mg.func.grad(lambda x: x**3))
        >>> d2(mg.tensor(2.0))
        tensor(12.)
    """
    inner = _gradient_transform(f, argnums, has_aux, "grad")

    def wrapper(*args, **kwargs):
        g, value = inner(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    wrapper.__name__ = f"grad({getattr(f, '__name__', 'f')})"
    wrapper.__wrapped__ = f  # the same parameters as f (jit's messages name them)
    return wrapper


def value_and_grad(f: Callable, argnums: int | tuple = 0, has_aux: bool = False) -> Callable:
    """JAX's ``value_and_grad``: ``(value, gradient)``, or ``((value, aux), gradient)``.

    The same as :func:`grad_and_value` (torch.func's name) with the pair swapped.
    """
    inner = _gradient_transform(f, argnums, has_aux, "value_and_grad")

    def wrapper(*args, **kwargs):
        g, value = inner(*args, **kwargs)
        return value, g

    return wrapper


def _as_outputs(out) -> tuple[tuple, bool]:
    """The outputs of f as a tuple of Tensors, and whether f returned a single Tensor."""
    if isinstance(out, Tensor):
        return (out,), True
    if isinstance(out, (tuple, list)) and out and all(isinstance(o, Tensor) for o in out):
        return tuple(out), False
    bad = (
        out
        if not isinstance(out, (tuple, list))
        else next((o for o in out if not isinstance(o, Tensor)), out)
    )
    raise RuntimeError(errors.VJP_OUT.format(got=type(bad)))


def vjp(f: Callable, *primals, has_aux: bool = False):
    """``torch.func.vjp``: run ``f(*primals)`` and return ``(output, vjp_fn)``.

    ``vjp_fn(cotangents)`` returns a tuple with one gradient per primal: the
    cotangent-weighted sum of the rows of the Jacobian (one backward pass). It may be
    called many times. With ``has_aux`` the result is ``(output, vjp_fn, aux)``.

    Example:
        >>> import minigrad as mg
        >>> out, vjp_fn = mg.func.vjp(lambda x: x**2, mg.tensor([1.0, 3.0]))
        >>> vjp_fn(mg.tensor([1.0, 1.0]))
        (tensor([2., 6.]),)
    """
    keep = _keep_graph(primals)
    with _level():
        args, inputs = _prepare("vjp", primals, range(len(primals)))
        out, aux = _split_aux("vjp", f(*args), has_aux)
        outs, single = _as_outputs(out)

    def vjp_fn(cotangents):
        cots = (cotangents,) if single and isinstance(cotangents, Tensor) else cotangents
        if not isinstance(cots, (tuple, list)) or len(cots) != len(outs):
            raise RuntimeError(errors.VJP_COTANGENTS.format(want=len(outs), got=type(cotangents)))
        for i, (o, c) in enumerate(zip(outs, cots)):
            if not isinstance(c, Tensor) or c.shape != o.shape:
                got = tuple(c.shape) if isinstance(c, Tensor) else type(c).__name__
                raise RuntimeError(errors.VJP_SHAPE.format(i=i, got=got, want=tuple(o.shape)))
        deeper = keep or any(c.requires_grad for c in cots)
        with _level():
            grads = _grads("vjp", outs, inputs, tuple(cots), deeper)
        return _regroup(args, range(len(args)), grads)

    if not keep:
        out, aux = _detach(out), _detach(aux)
    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def jacrev(f: Callable, argnums: int | tuple = 0, *, has_aux: bool = False) -> Callable:
    """``torch.func.jacrev``: the Jacobian by reverse mode, one backward pass per output element.

    For an output of shape ``O`` and an argument of shape ``I`` the Jacobian has shape
    ``O + I``. A tuple ``argnums`` gives a tuple of Jacobians; a tuple output gives a
    tuple per output (of Jacobians, or of tuples of them), as ``jacfwd`` does. Cheap
    when the output is small (``R^n -> R^2``); :func:`minigrad.func.forward.jacfwd`
    wins when the input is.

    Each row is one backward pass from a one-hot cotangent, so the rows are bit for bit
    ``vjp_fn(e_k)``, and ``vmap(jacrev(f))(xs)[i]`` is ``jacrev(f)(xs[i])`` bit for bit
    (see :mod:`minigrad.func.vmap` for why, and where PyTorch differs in the last bit).

    Example:
        >>> import minigrad as mg
        >>> mg.func.jacrev(lambda x: x * x)(mg.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """

    def wrapper(*args):
        nums, as_tuple = _argnums("jacrev", argnums, len(args))
        keep = _keep_graph(args)
        with _level():
            args2, inputs = _prepare("jacrev", args, nums)
            out, aux = _split_aux("jacrev", f(*args2), has_aux)
            outs = tuple(out) if isinstance(out, (tuple, list)) else (out,)
            if not outs or not all(isinstance(o, Tensor) for o in outs):
                got = type(out).__name__
                if isinstance(out, (tuple, list)):
                    parts = ", ".join(type(o).__name__ for o in outs)
                    got = f"a {got} of {parts}" if outs else f"an empty {got}"
                raise RuntimeError(errors.NOT_TENSORS_OUT.format(name="jacrev", got=got))
            per_output = [_regroup(args2, nums, _jacobian_rows(o, inputs, keep)) for o in outs]
        per_output = [jacs if as_tuple else jacs[0] for jacs in per_output]
        result = per_output[0] if isinstance(out, Tensor) else tuple(per_output)
        if has_aux:
            return result, (aux if keep else _detach(aux))
        return result

    return wrapper


def _jacobian_rows(out: Tensor, inputs, keep: bool) -> tuple:
    """One backward pass per element of ``out`` (a one-hot cotangent); rows stacked."""
    rows: list[list] = [[] for _ in inputs]
    for k in range(out.numel()):
        onehot = np.zeros(out.numel(), out._data.dtype)
        onehot[k] = 1
        cot = Tensor._make(onehot.reshape(out.shape), False, None)
        for row, g in zip(rows, _grads("jacrev", (out,), inputs, (cot,), keep)):
            row.append(g.reshape(-1))
    jacs = []
    for x, row in zip(inputs, rows):
        shape = (*out.shape, *x.shape)
        jacs.append(stack(row).reshape(*shape) if row else _zeros(shape, x))
    return tuple(jacs)


def _forward_module():
    """``minigrad.func.forward`` (jvp, jacfwd): forward-over-reverse for hessian and hvp.

    A function rather than the bare name so that a test can answer None and check the
    reverse-over-reverse fallback.
    """
    return forward


def hessian(f: Callable, argnums: int | tuple = 0) -> Callable:
    """``torch.func.hessian``: ``jacfwd(jacrev(f, argnums), argnums)`` (forward-over-reverse).

    Shape ``O + I + I`` for output ``O`` and input ``I`` (``I + I`` for a scalar ``f``).
    Falls back to ``jacrev(jacrev(f))`` (reverse-over-reverse, same values) when
    forward mode is not available.

    Example:
        >>> import minigrad as mg
        >>> mg.func.hessian(lambda x: (x**3).sum())(mg.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    fwd = _forward_module()
    outer = fwd.jacfwd if fwd is not None else jacrev
    return outer(jacrev(f, argnums), argnums)


def hvp(f: Callable, primals, tangents):
    """Hessian-vector product of scalar ``f``: returns ``(output, H @ tangents)``.

    As ``torch.autograd.functional.hvp(func, inputs, v)`` (torch.func has no ``hvp``;
    its docs build one as ``jvp(grad(f), primals, tangents)``, which is what this does).
    ``primals``/``tangents`` are a Tensor or a tuple of Tensors; the product has the
    same structure. Forward-over-reverse (one reverse pass inside one ``jvp``) when
    forward mode is available, else reverse-over-reverse (the double-vjp trick).

    Example:
        >>> import minigrad as mg
        >>> out, hv = mg.func.hvp(lambda x: (x**3).sum(), mg.tensor([1.0, 2.0]),
        ...                       mg.tensor([1.0, 1.0]))
        >>> hv
        tensor([ 6., 12.])
    """
    single = isinstance(primals, Tensor)
    ps = (primals,) if single else tuple(primals)
    ts = (tangents,) if isinstance(tangents, Tensor) else tuple(tangents)
    nums = 0 if single else tuple(range(len(ps)))
    keep = _keep_graph((*ps, *ts))
    fwd = _forward_module()
    if fwd is not None:
        g_and_v = grad_and_value(f, argnums=nums)
        _, hv, out = fwd.jvp(g_and_v, ps, ts, has_aux=True)
    else:
        out, hv = _hvp_reverse(f, ps, ts, nums)
    if not single and isinstance(hv, Tensor):
        hv = (hv,)
    return (out, hv) if keep else (_detach(out), _detach(hv))


def _hvp_reverse(f, ps, ts, nums):
    """Reverse-over-reverse: H v = d/dx (grad f(x) . v)."""

    def g_dot_v(*args):
        g, value = grad_and_value(f, argnums=nums)(*args)
        g = (g,) if isinstance(g, Tensor) else g
        total = sum(((gi * ti).sum() for gi, ti in zip(g, ts)), start=_zeros((), ps[0]))
        return total, value

    hv, out = grad(g_dot_v, argnums=nums, has_aux=True)(*ps)
    return out, hv
