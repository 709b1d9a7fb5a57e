"""``make_jaxpr`` and ``jit``: trace a function once per input signature, then replay the program.

``make_jaxpr(f)(*args)`` traces ``f`` (:mod:`.tracing`) and returns the program, a
:class:`~minigrad.func.jaxpr.ClosedJaxpr`. ``jit(f)`` keeps one program per *signature*
(the arguments' pytree structure, every tensor's shape, dtype and ``requires_grad``, the
values of the static arguments, grad mode and the default dtype) and replays it:

* as plain numpy calls (:meth:`.replay.Program.run_numpy`): each equation calls its op's
  ``forward`` on arrays, no Tensor, no autograd node, no mode check. This is where the
  speed comes from: eager minigrad pays for ``Op.apply``, its node and backward's
  scheduling on every op; the replay pays one Python call per equation;
* through the ops (:meth:`.replay.Program.run_ops`), when autograd or a mode must see them: an
  input (or a closed-over tensor) requires grad, as in ``grad(jit(f))``, or a mode is on
  (``jvp``/``jacfwd`` carry tangents, ``autocast``). Each equation is applied with its op's
  ``apply``, so the replay records, differentiates and carries tangents as eager code
  does. (JAX differentiates the program itself; replaying it through the ops is the
  simplest answer that is exactly right: minigrad's ops already know their gradients.) A
  custom ``Function`` is one equation, applied as a whole, so its own backward is used.

Called inside another trace (``jit`` of a function that calls a jitted one, or
``make_jaxpr(jit(f))``), a jitted function just runs ``f``: its ops join the outer program
(JAX would show a nested ``pjit`` equation).
"""

from __future__ import annotations

import functools
import inspect
import numbers
from collections.abc import Callable

from .. import _dtype
from ..errors import jit as errors
from ..recording import grad_mode, modes
from ..tensor import Tensor
from ._pytree import tree_map
from .jaxpr import ClosedJaxpr
from .replay import OUT, Program
from .tracing import Trace, tracing


def make_jaxpr(fun: Callable, static_argnums: int | tuple = ()) -> Callable:
    """A function that traces ``fun`` on example arguments and returns its program.

    Args:
        fun: a function of Tensors (or tuples, lists and dicts of them, or Python numbers,
            traced as 0-d tensors) returning Tensors (or containers of them).
        static_argnums: positional arguments passed as they are (Python values the
            program is specialised on: a flag, a size, a number of steps).

    Returns:
        ``make(*args, **kwargs) -> ClosedJaxpr``: only the shapes and dtypes of ``args``
        matter, and ``fun`` sees tensors without values (see :class:`ConcretizationTypeError`).

    Example:
        >>> import minigrad as mg
        >>> def f(x, y):
        ...     return (x * y).sum()
        >>> print(mg.func.make_jaxpr(f)(mg.ones(3), mg.ones(3)))
        { lambda ; a:f32[3] b:f32[3]. let
            c:f32[3] = mul a b
            d:f32[] = reduce_sum[dims=None keepdim=False] c
          in (d,) }
        >>> w = mg.ones(3)  # closed over: a constant of the program, before the ";"
        >>> print(mg.func.make_jaxpr(lambda x: (x * w).sin())(mg.ones(3)))
        { lambda a:f32[3]; b:f32[3]. let c:f32[3] = mul b a; d:f32[3] = sin c in (d,) }

        Its equations: ``closed.eqns``, each with ``.primitive``, ``.invars``, ``.outvars``
        and ``.params``; ``closed.consts`` are the closed-over tensors, and
        ``viz.draw_graph(closed)`` draws it.
    """
    _check_callable("make_jaxpr", fun)
    nums = _argnums("make_jaxpr", static_argnums, fun)

    @functools.wraps(fun)
    def make(*args, **kwargs) -> ClosedJaxpr:
        static = _static_positions("make_jaxpr", nums, len(args))
        _signature(fun, args, kwargs, static)  # the same checks of the arguments as jit's
        return trace(fun, args, kwargs, static)[0]

    return make


def jit(fun: Callable, static_argnums: int | tuple = ()) -> Callable:
    """``fun`` traced once per input signature and replayed as plain numpy calls.

    Args:
        fun: as for :func:`make_jaxpr`. It should be a pure function of its arguments
            (side effects, such as printing, happen only while it is traced).
        static_argnums: positional arguments that are part of the signature by value
            (hashable Python values); the others are traced.

    Returns:
        The jitted function. ``jitted._cache_size()`` is the number of programs traced so
        far, ``jitted.clear_cache()`` forgets them.

    Example:
        >>> import minigrad as mg
        >>> def loss(w, x):
        ...     return ((x @ w).tanh() ** 2).mean()
        >>> step = mg.func.jit(mg.func.grad(loss))
        >>> w, x = mg.ones(3, 2), mg.ones(4, 3)
        >>> bool(mg.allclose(step(w, x), mg.func.grad(loss)(w, x)))
        True
        >>> step(w, x * 2.0).shape, step._cache_size()  # same shapes: the same program
        (minigrad.Size([3, 2]), 1)
        >>> step(mg.ones(3, 5), x).shape, step._cache_size()  # a new shape: traced again
        (minigrad.Size([3, 5]), 2)

    It composes with the other transforms in both orders: ``jit(grad(f))`` traces the
    backward pass too (backward formulas are ops), ``grad(jit(f))``, ``jacrev(jit(f))`` and
    ``jacfwd(jit(f))`` replay the program through the ops, ``vmap(jit(f))`` replays it per
    sample, ``jit(vmap(f))`` traces the loop. Python control flow on a traced value raises
    :class:`ConcretizationTypeError`, naming the value and suggesting ``static_argnums``.
    """
    _check_callable("jit", fun)
    nums = _argnums("jit", static_argnums, fun)
    cache: dict = {}

    @functools.wraps(fun)
    def jitted(*args, **kwargs):
        if modes.state.tracer is not None:  # inside another trace: that trace records
            return fun(*args, **kwargs)
        static = _static_positions("jit", nums, len(args))
        key, leaves = _signature(fun, args, kwargs, static)
        program = cache.get(key)
        if program is None:
            program = cache[key] = Program(*trace(fun, args, kwargs, static))
        if modes.state.active or (grad_mode.state.enabled and program.wants_grad(leaves)):
            return program.run_ops(leaves)
        return program.run_numpy(leaves)

    jitted._cache_size = lambda: len(cache)
    jitted.clear_cache = cache.clear
    return jitted


# --- tracing a call -------------------------------------------------------------------------
def trace(fun, args, kwargs, static) -> tuple[ClosedJaxpr, object]:
    """Trace ``fun(*args, **kwargs)``: its program, and its output's structure."""
    name = getattr(fun, "__name__", type(fun).__name__)
    recorder = Trace(name)
    names = _arg_names(fun, len(args))
    traced = [a if i in static else _inputs(recorder, a, names[i], i) for i, a in enumerate(args)]
    traced_kw = {k: _inputs(recorder, v, k, None) for k, v in kwargs.items()}
    with tracing(recorder):
        out = fun(*traced, **traced_kw)
    outputs = []
    structure = tree_map(lambda leaf: _output(name, leaf, outputs), out)
    return recorder.finish(outputs), structure


def _inputs(recorder: Trace, arg, name: str, argnum):
    """``arg`` with every tensor (and number) leaf replaced by a traced tensor."""
    paths = iter(_leaf_paths(arg))
    return tree_map(
        lambda leaf: leaf if leaf is None else recorder.new_input(leaf, name + next(paths), argnum),
        arg,
    )


def _output(name: str, leaf, outputs: list):
    if leaf is None:
        return None
    if not isinstance(leaf, Tensor):
        raise TypeError(
            errors.OUT_TYPE.format(fn=name, where=len(outputs), got=type(leaf).__name__)
        )
    outputs.append(leaf)
    return OUT


def _leaf_paths(tree, path: str = "") -> list:
    """``['', ...]`` for a leaf, ``["['w']", "['b']"]`` for a dict: each non-None leaf's path."""
    if isinstance(tree, dict):
        return [p for k, v in tree.items() for p in _leaf_paths(v, f"{path}[{k!r}]")]
    if isinstance(tree, (tuple, list)):
        return [p for i, v in enumerate(tree) for p in _leaf_paths(v, f"{path}[{i}]")]
    return [] if tree is None else [path]


# --- the signature: the cache key, and the checks of the arguments ---------------------------
def _signature(fun, args, kwargs, static) -> tuple[tuple, list]:
    """(cache key, input leaves in order) of a call; bad arguments raise here."""
    name = getattr(fun, "__name__", type(fun).__name__)
    leaves: list = []
    parts = []
    for i, a in enumerate(args):
        parts.append(
            _static_key(name, i, a) if i in static else _tree_key(name, a, str(i), i, leaves)
        )
    kw = tuple((k, _tree_key(name, v, repr(k), None, leaves)) for k, v in kwargs.items())
    key = (tuple(parts), kw, grad_mode.state.enabled, _dtype.get_default_dtype())
    return key, leaves


def _static_key(name: str, i: int, value):
    if isinstance(value, Tensor):
        raise ValueError(errors.STATIC_TENSOR.format(i=i, fn=name))
    try:
        hash(value)
    except TypeError:
        raise ValueError(errors.UNHASHABLE.format(i=i, fn=name, got=type(value).__name__)) from None
    return ("static", type(value), value)


def _tree_key(name: str, x, where: str, argnum, leaves: list):
    """The part of the key for one traced argument; its leaves are appended to ``leaves``."""
    if isinstance(x, Tensor):
        if x.layout != "strided":
            raise NotImplementedError(
                errors.SPARSE.format(what=name, where=f"argument {where}", layout=x.layout)
            )
        leaves.append(x)
        return (x.shape, x.dtype, x.requires_grad)
    if isinstance(x, dict):
        return (dict, tuple((k, _tree_key(name, v, where, argnum, leaves)) for k, v in x.items()))
    if isinstance(x, (tuple, list)):
        return (type(x), tuple(_tree_key(name, v, where, argnum, leaves) for v in x))
    if x is None:
        return None
    if isinstance(x, numbers.Real):  # bool, int, float, numpy scalars: traced as 0-d tensors
        leaves.append(x)
        return (type(x),)
    if argnum is None:
        at, hint = f"{where} of {name}", errors.ARG_TYPE_KEYWORD
    else:
        at, hint = f"{argnum} of {name}", errors.ARG_TYPE_STATIC.format(i=argnum)
    raise TypeError(errors.ARG_TYPE.format(fn=name, where=at, got=type(x).__name__, hint=hint))


# --- checks of make_jaxpr's and jit's own arguments ----------------------------------------
def _check_callable(who: str, fun) -> None:
    if not callable(fun):
        raise TypeError(errors.NOT_CALLABLE.format(name=who, got=type(fun).__name__))


def _argnums(who: str, static_argnums, fun) -> tuple:
    """static_argnums as a tuple of ints, checked against ``fun``'s signature when it has
    a fixed number of positional parameters (negative ones counted from its end)."""
    as_tuple = isinstance(static_argnums, (tuple, list))
    nums = tuple(static_argnums) if as_tuple else (static_argnums,)
    for n in nums:
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(errors.ARGNUMS_TYPE.format(name=who, got=static_argnums))
    count = _positional_count(fun)
    if count is None:
        return nums
    for n in nums:
        if not -count <= n < count:
            raise ValueError(
                errors.ARGNUMS_RANGE.format(name=who, nums=static_argnums, count=count, n=n)
            )
    return tuple(n % count for n in nums)


def _static_positions(who: str, nums: tuple, count: int) -> frozenset:
    """The static positions of a call with ``count`` positional arguments."""
    out = set()
    for n in nums:
        k = n + count if n < 0 else n
        if not 0 <= k < count:
            raise ValueError(errors.ARGNUMS_CALL.format(name=who, nums=nums, count=count, n=n))
        out.add(k)
    return frozenset(out)


def _parameters(fun) -> list | None:
    try:
        return list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return None


def _positional_count(fun) -> int | None:
    """How many positional parameters ``fun`` takes; None with ``*args`` or no signature."""
    params = _parameters(fun)
    if params is None or any(p.kind is p.VAR_POSITIONAL for p in params):
        return None
    return sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)


def _arg_names(fun, count: int) -> list:
    """The name of each positional argument: its parameter's (``x``), ``args[1]`` for one
    that ``*args`` takes, ``2`` when the function has no signature."""
    names = []
    for p in _parameters(fun) or []:
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind is p.VAR_POSITIONAL:
            names += [f"{p.name}[{k}]" for k in range(count - len(names))]
    names = names[:count]
    return names + [str(i) for i in range(len(names), count)]
