"""``vmap``: map a function over the leading (or ``in_dims``) dimension of its inputs.

NB: ``torch.func.vmap`` and ``jax.vmap`` rewrite every op with a *batching rule* so the
whole batch runs as one vectorised op. This one is a plain Python loop: it slices the
inputs, calls ``f`` once per slice and stacks the results with ``mg.stack``. Same
answers, same composition (``vmap(grad(f))``, ``grad`` of a ``vmap``: the slicing and
stacking are recorded ops), but the cost is ``batch_size`` calls of ``f``.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import func as errors
from ..ops.select import stack
from ..tensor import Tensor, has_sparse_layout


def vmap(f: Callable, in_dims: int | tuple | None = 0, out_dims: int | tuple = 0) -> Callable:
    """``torch.func.vmap`` for the batch-of-inputs case (a loop, not batching rules).

    Args:
        f: a function of Tensors returning a Tensor or a tuple of Tensors.
        in_dims: per positional argument, the dimension to map over, or None to pass
            the argument whole to every call (an int applies to all arguments).
        out_dims: where the batch dimension goes in each output (an int or a tuple).

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> mg.func.vmap(lambda r, w: (r * w).sum(), in_dims=(0, None))(x, mg.tensor([1.0, 10.0]))
        tensor([21., 43.])
    """

    def wrapper(*args):
        dims = _in_dims(in_dims, args)
        size = _batch_size(args, dims, in_dims)
        results = [f(*_slice(args, dims, b)) for b in range(size)]
        return _stack_outputs(results, out_dims)

    wrapper.__name__ = f"vmap({getattr(f, '__name__', 'f')})"
    return wrapper


def _in_dims(in_dims, args) -> tuple:
    dims = tuple(in_dims) if isinstance(in_dims, (tuple, list)) else (in_dims,) * len(args)
    if len(dims) != len(args):
        raise ValueError(errors.IN_DIMS_LEN.format(in_dims=in_dims, want=len(dims), got=len(args)))
    normal = []
    for i, (a, d) in enumerate(zip(args, dims)):
        if d is None:
            normal.append(None)
            continue
        ndim = a.ndim if isinstance(a, Tensor) else 0
        if not isinstance(a, Tensor) or not isinstance(d, int) or not -ndim <= d < ndim:
            what = f"a Tensor of {ndim} dims" if isinstance(a, Tensor) else type(a).__name__
            raise ValueError(errors.IN_DIM_BAD.format(i=i, d=d, what=what, ndim=ndim))
        if has_sparse_layout(a):
            raise ValueError(errors.VMAP_SPARSE.format(i=i, layout=a.layout))
        normal.append(d % ndim)
    return tuple(normal)


def _batch_size(args, dims, in_dims) -> int:
    sizes = [a.shape[d] for a, d in zip(args, dims) if d is not None]
    if not sizes:
        raise ValueError(errors.NO_MAPPED.format(in_dims=in_dims))
    if len(set(sizes)) != 1:
        raise ValueError(errors.SIZES.format(sizes=sizes))
    return sizes[0]


def _slice(args, dims, b: int) -> list:
    return [a if d is None else a[(slice(None),) * d + (b,)] for a, d in zip(args, dims)]


def _stack_outputs(results, out_dims):
    first = results[0] if results else None
    single = isinstance(first, Tensor)
    if not single and not (isinstance(first, (tuple, list)) and first):
        raise TypeError(errors.OUT_TYPE.format(got=type(first).__name__))
    columns = [results] if single else list(zip(*results))  # one column per output
    od = tuple(out_dims) if isinstance(out_dims, (tuple, list)) else (out_dims,) * len(columns)
    outs = []
    for col, d in zip(columns, od):
        for o in col:
            if not isinstance(o, Tensor):
                raise TypeError(errors.OUT_TYPE.format(got=type(o).__name__))
        ndim = col[0].ndim + 1
        if not isinstance(d, int) or not -ndim <= d < ndim:
            raise ValueError(errors.OUT_DIMS.format(out_dims=out_dims, ndim=col[0].ndim))
        outs.append(stack(list(col), dim=d))
    return outs[0] if single else tuple(outs)
