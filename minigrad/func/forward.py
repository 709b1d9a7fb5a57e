"""Forward-mode AD: ``jvp`` and ``jacfwd``, named and shaped as in ``torch.func``.

Genuine forward mode: a tangent rides along with every value while ``func`` runs.
``jvp`` opens a level (:mod:`minigrad.recording.tangents`, the machinery it shares with
the dual tensors of :mod:`minigrad.replaying.forward_ad`), gives fresh copies of the
primals their tangents, and after each op the level's hook asks the op class for its
forward rule, a staticmethod next to its ``backward``::

    jvp(params, inputs, tangents, out) -> Tensor | None

Rules are written with Tensor ops, so they are themselves recorded by reverse mode:
``jacfwd(jacrev(f))`` (the Hessian) and ``jacrev`` of a ``jvp`` work. A custom
``autograd.Function`` takes part through its own ``jvp(ctx, *tangents)`` staticmethod.
NB: PyTorch's analogue is the ``jvp``/``forward_ad`` formula of ``derivatives.yaml``;
JAX calls it a JVP rule.

Limits (documented, tested where they raise):
    * Nesting works (``jvp`` inside ``jvp``, ``jacfwd(jacfwd(f))``): each running ``jvp``
      is a level with its own tangents (JAX's perturbation tags); a level's rules run with
      the outer levels on, so inner tangents carry outer tangents. As in PyTorch, ``jvp``
      cannot run inside a ``forward_ad.dual_level`` (nor one inside ``jvp``).
    * Ops without a rule (in-place writes ``CopySlices``, the sparse and embedding ops)
      raise ``NotImplementedError`` naming the op when a tangent reaches them, and so does
      a custom ``autograd.Function`` without a ``jvp``.
    * In-place methods (``add_``, ``x[k] = v``) bypass the per-op hook. Reading the tangent
      of a tensor changed in place raises (its version counter moved); an in-place write
      into a tensor that carried no tangent is not detected, so do not use in-place ops
      inside ``func``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import func as errors
from ..ops.select import stack
from ..recording import tangents as fwd
from ..tensor import Tensor
from ._pytree import leaves, same_structure, tree_map


def _check_tuple(x, what):
    """``x`` as a tuple of arguments: a Tensor alone, or a tuple or list of Tensors or of
    pytrees of Tensors (dicts, tuples, lists: ``torch.func.jvp`` takes parameter dicts)."""
    if isinstance(x, Tensor):
        return (x,)
    if not isinstance(x, (tuple, list)) or not all(isinstance(t, Tensor) for t in leaves(x)):
        raise RuntimeError(errors.NOT_TUPLE.format(what=what, got=type(x).__name__))
    return tuple(x)


def _check_pairs(primals, tangents):
    if len(primals) != len(tangents):
        raise RuntimeError(errors.COUNT.format(tangents=len(tangents), primals=len(primals)))
    if not same_structure(primals, tangents):  # a dict of parameters and its dict of tangents
        raise RuntimeError(errors.STRUCTURE)
    for i, (p, t) in enumerate(zip(leaves(primals), leaves(tangents))):
        if p.layout != "strided" or t.layout != "strided":
            raise NotImplementedError(errors.JVP_SPARSE.format(op=f"jvp() argument {i}"))
        if not p.dtype.is_floating_point:
            raise ValueError(errors.NOT_FLOAT.format(i=i, got=p.dtype.name))
        if p.shape != t.shape or p.dtype is not t.dtype:  # a shape: PyTorch's RuntimeError too
            raise (RuntimeError if p.shape != t.shape else ValueError)(
                errors.MISMATCH.format(
                    i=i, ps=tuple(p.shape), pd=p.dtype.name, ts=tuple(t.shape), td=t.dtype.name
                )
            )


def _zeros_like(t: Tensor) -> Tensor:
    return Tensor._make(np.zeros(t.shape, t._data.dtype), False, None)


def jvp(
    func: Callable, primals, tangents, *, has_aux: bool = False
) -> tuple[object, object] | tuple[object, object, object]:
    """Run ``func(*primals)`` and its Jacobian-vector product J·tangents in one forward pass.

    Args:
        func: a function of Tensors returning a Tensor or a tuple of Tensors (with
            ``has_aux``, a pair ``(output, aux)``).
        primals: tuple of floating-point Tensors, the point to evaluate at.
        tangents: tuple of Tensors, one per primal, same shape and dtype.
        has_aux: ``func`` returns ``(output, aux)``; aux is returned as a third value.

    Returns:
        ``(output, jvp_out)`` (``torch.func.jvp``), or ``(output, jvp_out, aux)``.
        Outputs that do not depend on the primals get zero tangents.

    Example:
        >>> import minigrad as mg
        >>> from minigrad.func.forward import jvp
        >>> x = mg.tensor([1.0, 2.0])
        >>> out, tan = jvp(lambda x: x * x, (x,), (mg.tensor([1.0, 0.0]),))
        >>> tan
        tensor([2., 0.])
    """
    primals, tangents = _check_tuple(primals, "primals"), _check_tuple(tangents, "tangents")
    _check_pairs(primals, tangents)
    fresh = tree_map(Tensor.clone, primals)  # recorded: reverse mode and outer jvps see it
    level = fwd.open_level(dual=False)
    try:
        for p, t in zip(leaves(fresh), leaves(tangents)):
            level.set(p, t)
        result = func(*fresh)
        aux = None
        if has_aux:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise TypeError(errors.JVP_AUX_PAIR)
            result, aux = result
        _check_output(result)
        tans = tree_map(lambda o: _out_tangent(level, o), result)
    finally:
        fwd.close_level(level)
    if fwd.innermost() is None and not any(
        p.requires_grad for p in leaves(primals)
    ):  # nothing outside needs it
        result, tans = tree_map(Tensor.detach, result), tree_map(Tensor.detach, tans)
    return (result, tans, aux) if has_aux else (result, tans)


def _check_output(result) -> None:
    """A Tensor, or a tuple, list or dict (nested) of Tensors."""
    if not all(isinstance(o, Tensor) for o in leaves(result)):
        raise RuntimeError(errors.BAD_OUTPUT.format(got=type(result).__name__))


def _out_tangent(level, o: Tensor) -> Tensor:
    t = level.get(o)
    return _zeros_like(o) if t is None else t


def jacfwd(func: Callable, argnums: int | tuple = 0, *, has_aux: bool = False) -> Callable:
    """The Jacobian of ``func`` by forward mode: one ``jvp`` per input element.

    ``torch.func.jacfwd``: for an output of shape ``O`` and input ``argnums`` of shape
    ``I`` the Jacobian has shape ``O + I``. A tuple ``argnums`` gives a tuple of
    Jacobians (one per argument); a tuple output gives a tuple per output.

    Example:
        >>> import minigrad as mg
        >>> from minigrad.func.forward import jacfwd
        >>> jac = jacfwd(lambda x: x.sin())(mg.tensor([0.0, 0.0]))
        >>> jac
        tensor([[1., 0.],
                [0., 1.]])
    """

    def jac_fn(*args):
        nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        for n in nums:
            if not isinstance(n, int) or not -len(args) <= n < len(args):
                raise ValueError(errors.JACFWD_ARGNUMS.format(argnums=argnums, count=len(args)))
        nums = tuple(n % len(args) for n in nums)
        for n in nums:
            if not isinstance(args[n], Tensor):
                raise ValueError(errors.JACFWD_ARG.format(i=n, got=type(args[n]).__name__))
        per_arg = [_jac_one(func, args, n, has_aux) for n in nums]
        jacs = [j for j, _ in per_arg]
        aux = per_arg[0][1] if per_arg else None
        if isinstance(argnums, int):
            result = jacs[0]
        elif isinstance(jacs[0], tuple):  # tuple output: per output, a tuple per argnum
            result = tuple(tuple(j[k] for j in jacs) for k in range(len(jacs[0])))
        else:
            result = tuple(jacs)
        return (result, aux) if has_aux else result

    return jac_fn


def _jac_one(func, args, n, has_aux):
    """Columns of d func / d args[n], one jvp per element of args[n], stacked last."""
    x = args[n]
    primals = tuple(args)
    columns, aux, out = [], None, None
    size = int(np.prod(x.shape))
    for k in range(size):
        onehot = np.zeros(size, x._data.dtype)
        onehot[k] = 1
        tangents = tuple(
            Tensor._make(onehot.reshape(x.shape), False, None) if i == n else _zeros_like(a)
            for i, a in enumerate(args)
        )
        res = jvp(func, primals, tangents, has_aux=has_aux)
        out, tan = res[0], res[1]
        aux = res[2] if has_aux else None
        columns.append(tan)
    if size == 0:  # no element to push: run once for the output shapes
        res = jvp(func, primals, tuple(_zeros_like(a) for a in args), has_aux=has_aux)
        out, aux = res[0], (res[2] if has_aux else None)
    if isinstance(out, Tensor):
        return _assemble(columns, out, x), aux
    return tuple(_assemble([c[j] for c in columns], o, x) for j, o in enumerate(out)), aux


def _assemble(columns, out, x):
    """Stack jvp columns into shape out.shape + x.shape (differentiably)."""
    if not columns:
        return _zeros_like_shape(tuple(out.shape) + tuple(x.shape), out)
    jac = stack([c.reshape(-1) for c in columns], dim=1)  # (out.numel, x.numel)
    return jac.reshape(*out.shape, *x.shape)


def _zeros_like_shape(shape, like):
    return Tensor._make(np.zeros(shape, like._data.dtype), False, None)


__all__ = ["jvp", "jacfwd"]
