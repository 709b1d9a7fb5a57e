"""``vmap``: map a function over the leading (or ``in_dims``) dimension of its inputs.

NB: ``torch.func.vmap`` and ``jax.vmap`` rewrite every op with a *batching rule* so the
whole batch runs as one vectorised op. This one is a plain Python loop: it slices the
inputs, calls ``f`` once per slice and stacks the results with ``mg.stack``. Same
answers, same composition (``vmap(grad(f))``, ``grad`` of a ``vmap``: the slicing and
stacking are recorded ops), but the cost is ``batch_size`` calls of ``f``.

Bit for bit. ``vmap(g)(xs)[i]`` is ``g(xs[i])`` to the last bit, for any deterministic ``g``
(``jacrev(f)``, ``grad(f)``, ``jacfwd(f)``...): the loop calls ``g`` on the very view a
user would take (``xs[i]``, or ``xs[:, i]`` for ``in_dims=1``), and ``mg.stack`` copies
the results exactly. So ``vmap(jacrev(f))(xs)[i] == jacrev(f)(xs[i])`` bitwise, and so
do the diagonal blocks of ``jacrev(vmap(f))(xs)`` (the other samples add exact zeros).
A contiguous copy ``xs[:, i].contiguous()`` agrees too in every case the tests try, but
numpy does not promise the same summation order for strided and contiguous data, so
that one is only guaranteed to rounding. PyTorch's batching rules run one batched
kernel for all samples instead, whose rounding may differ from the per-sample path:
measured with torch 2.13 (CPU, float64), ``vmap(jacrev(f))(xs)[0]`` and
``jacrev(f)(xs[0])`` differ in the last bits for ``f = tanh(linear(x)) * x.sum()``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import func as errors
from ..ops.select import stack
from ..tensor import Tensor, has_sparse_layout
from ._pytree import is_container, leaves, same_structure, tree_map, unflatten


def vmap(f: Callable, in_dims: int | tuple | None = 0, out_dims: int | tuple = 0) -> Callable:
    """``torch.func.vmap`` for the batch-of-inputs case (a loop, not batching rules).

    Args:
        f: a function of Tensors (or of tuples, lists and dicts of Tensors, e.g. a dict
            of parameters) returning a Tensor, or a tuple, list or dict of them.
        in_dims: per positional argument, the dimension to map over (for a container
            argument: in every tensor of it), or None to pass the argument whole to
            every call (an int applies to all arguments). Keyword arguments are passed
            whole, as in PyTorch.
        out_dims: where the batch dimension goes in each output (an int, or one per
            element of a tuple output).

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> mg.func.vmap(lambda r, w: (r * w).sum(), in_dims=(0, None))(x, mg.tensor([1.0, 10.0]))
        tensor([21., 43.])
        >>> mg.func.vmap(lambda r: {"sum": r.sum(), "max": r.max()})(x)["max"]
        tensor([2., 4.])
    """

    def wrapper(*args, **kwargs):
        dims = _in_dims(in_dims, args)
        size = _batch_size(args, dims, in_dims)
        results = [f(*_slice(args, dims, b), **kwargs) for b in range(size)]
        return _stack_outputs(results, out_dims)

    wrapper.__name__ = f"vmap({getattr(f, '__name__', 'f')})"
    return wrapper


def _in_dims(in_dims, args) -> tuple:
    """One dim (or None) per argument, checked against every tensor of that argument."""
    dims = tuple(in_dims) if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
    if len(dims) != len(args):
        raise ValueError(errors.IN_DIMS_LEN.format(in_dims=in_dims, want=len(dims), got=len(args)))
    for i, (arg, d) in enumerate(zip(args, dims)):
        if d is None:
            continue
        for a in leaves(arg):
            ndim = a.ndim if isinstance(a, Tensor) else 0
            if not isinstance(a, Tensor) or not isinstance(d, int) or not -ndim <= d < ndim:
                what = f"a Tensor of {ndim} dims" if isinstance(a, Tensor) else type(a).__name__
                raise ValueError(errors.IN_DIM_BAD.format(i=i, d=d, what=what, ndim=ndim))
            if has_sparse_layout(a):
                raise ValueError(errors.VMAP_SPARSE.format(i=i, layout=a.layout))
    return dims


def _batch_size(args, dims, in_dims) -> int:
    sizes = [
        a.shape[d % a.ndim] for arg, d in zip(args, dims) if d is not None for a in leaves(arg)
    ]
    if not sizes:
        raise ValueError(errors.NO_MAPPED.format(in_dims=in_dims))
    if len(set(sizes)) != 1:
        raise ValueError(errors.SIZES.format(sizes=sizes))
    if sizes[0] == 0:
        raise ValueError(errors.EMPTY_BATCH)
    return sizes[0]


def _slice(args, dims, b: int) -> list:
    """The b-th slice of every mapped argument (the same view a user would take)."""

    def take(a, d):
        return a[(slice(None),) * (d % a.ndim) + (b,)]

    return [
        arg if d is None else tree_map(lambda a, d=d: take(a, d), arg) for arg, d in zip(args, dims)
    ]


def _stack_outputs(results, out_dims):
    """Stack the per-slice results leaf by leaf into the structure of the first one."""
    first = results[0] if results else None
    if not (isinstance(first, Tensor) or (is_container(first) and first)):
        raise TypeError(errors.OUT_TYPE.format(got=type(first).__name__))
    as_parts = isinstance(first, (tuple, list))  # one out_dim per element of a tuple output
    parts = list(zip(*results)) if as_parts else [results]
    od = tuple(out_dims) if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(parts)
    if len(od) != len(parts) or not all(same_structure(first, r) for r in results):
        raise ValueError(errors.OUT_STRUCTURE.format(out_dims=out_dims))
    stacked = [_stack_part(list(part), d, out_dims) for part, d in zip(parts, od)]
    if not as_parts:
        return stacked[0]
    return type(first)(*stacked) if hasattr(first, "_fields") else type(first)(stacked)


def _stack_part(trees: list, d, out_dims):
    columns = list(zip(*(leaves(t) for t in trees)))  # one column per leaf position
    outs = []
    for col in columns:
        for o in col:
            if not isinstance(o, Tensor):
                raise TypeError(errors.OUT_TYPE.format(got=type(o).__name__))
        ndim = col[0].ndim + 1
        if not isinstance(d, int) or not -ndim <= d < ndim:
            raise ValueError(errors.OUT_DIMS.format(out_dims=out_dims, ndim=col[0].ndim))
        outs.append(stack(list(col), dim=d))
    return unflatten(trees[0], iter(outs))
