"""Traced programs: JAX's jaxpr, with minigrad's ops as its primitives.

:func:`minigrad.func.make_jaxpr` turns a function into a :class:`ClosedJaxpr`: a typed,
first-order program in which every value is a variable with a shape and a dtype, and every
step is an equation ``c:f32[3] = mul a b`` applying one primitive (one minigrad op class)
to variables and literals::

    { lambda a:f32[3]; b:f32[3]. let c:f32[3] = mul b a; d:f32[] = reduce_sum[...] c in (d,) }

Before the ``;`` are the constants (tensors the function closed over, ``ClosedJaxpr.consts``),
after it the inputs; ``let`` lists the equations in the order they ran, ``in`` the outputs.
0-d constants are printed inline as literals (``2.0:f32[]``). The names follow JAX's
scheme (a, b, ..., z, ba, bb, ...) in order of definition, so a listing is deterministic.

Names match JAX's where minigrad's op is the same operation (``reduce_sum``,
``convert_element_type``, ``transpose``, ``logistic``...); other ops are their class name in
snake case (``tanh_grad`` is PyTorch's ``tanh_backward``). A custom ``autograd.Function`` is
one equation, ``custom_function[fn=Name]`` (JAX: ``custom_vjp_call``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from .. import _dtype
from .._traced import short_dtype
from ..recording.function import Function

WIDTH = 100  # a program that fits on one line of this width is printed on one line


@dataclass(frozen=True)
class ShapedArray:
    """An abstract value: a shape and a dtype, no data (JAX's ``core.ShapedArray``)."""

    shape: tuple
    dtype: _dtype.dtype

    def str_short(self) -> str:
        """``f32[3,4]``, as the listing prints a variable's type."""
        return f"{short_dtype(self.dtype.np)}[{','.join(str(n) for n in self.shape)}]"

    def __repr__(self) -> str:
        return f"ShapedArray({self.dtype.name}[{','.join(str(n) for n in self.shape)}])"


class Var:
    """A variable of the program: a value with a shape and a dtype (``aval``), and no data.

    ``name`` is given when the program is complete (a, b, c, ... in order of definition).
    """

    def __init__(self, aval: ShapedArray, deps: frozenset, trace):
        self.aval = aval
        self.name = None
        self.is_input = False  # an input of the program (in-place writes into it are refused)
        self._deps = deps  # positions of the input leaves this value was computed from
        self._trace = trace  # what the messages need: the names of the inputs

    def describe(self) -> str:
        """For messages: ``f32[] computed from argument 'x'``."""
        return self._trace.describe(self)

    def static_argnums(self) -> tuple:
        """The positional arguments this value was computed from (for the hint)."""
        return self._trace.argnums(self._deps)

    def __repr__(self) -> str:
        return self.name or f"?:{self.aval.str_short()}"


class Literal:
    """A 0-d constant written into an equation (``2.0:f32[]``); ``val`` is its 0-d array."""

    def __init__(self, val: np.ndarray):
        self.val = val
        self.aval = ShapedArray((), _dtype._FROM_NP[val.dtype])

    def __repr__(self) -> str:
        return f"{format_scalar(self.val)}:{self.aval.str_short()}"


@dataclass(frozen=True)
class Primitive:
    """What an equation applies: ``name`` as printed, ``op`` the minigrad op class (or the
    custom ``Function``) that computes it."""

    name: str
    op: type

    def __str__(self) -> str:
        return self.name


@dataclass
class JaxprEqn:
    """One equation: ``outvars = primitive[params] invars``.

    ``invars`` are the values it reads: its tensor inputs, then the variables its params
    refer to (``where``'s condition is a param of the op; the listing shows it there).
    """

    primitive: Primitive
    invars: list
    outvars: list
    params: dict
    n_inputs: int = 0  # how many of invars are the op's tensor inputs (the rest: in params)

    def head(self) -> str:
        """The primitive and its params, as the listing prints them: ``reduce_sum[dims=None
        keepdim=False]``."""
        return f"{self.primitive}{_params(self)}"

    def __str__(self) -> str:
        lhs = " ".join(f"{v}:{v.aval.str_short()}" for v in self.outvars)
        return f"{lhs} = {self.head()} " + " ".join(map(repr, self.invars[: self.n_inputs]))


@dataclass(frozen=True)
class DebugInfo:
    """Where a program came from (JAX's ``jaxpr.debug_info``): the function's name and,
    per input, the argument it stands for (``x``, ``params['w']``, ``args[1]``)."""

    func_name: str
    arg_names: tuple


@dataclass
class Jaxpr:
    """A program: ``constvars`` (closed-over tensors), ``invars`` (the inputs, one per tensor
    leaf of the arguments), ``eqns`` and ``outvars`` (one per tensor leaf of the result)."""

    constvars: list
    invars: list
    outvars: list
    eqns: list = field(default_factory=list)
    debug_info: DebugInfo | None = None

    def __str__(self) -> str:
        head = "{ lambda " + _binders(self.constvars) + "; " + _binders(self.invars) + ". let"
        tail = "in (" + ", ".join(map(repr, self.outvars)) + ("," if len(self.outvars) == 1 else "")
        tail += ") }"
        eqns = [str(e) for e in self.eqns]
        one_line = f"{head} {'; '.join(eqns)} {tail}"
        if len(one_line) <= WIDTH:
            return one_line
        return "\n".join([head, *("    " + e for e in eqns), "  " + tail])


class ClosedJaxpr:
    """A :class:`Jaxpr` with the values of its constants (JAX's ``core.ClosedJaxpr``).

    ``consts`` are the tensors the function closed over, one per ``jaxpr.constvars`` entry
    (read when the program runs, so in-place updates of a closed-over parameter are seen).
    """

    def __init__(self, jaxpr: Jaxpr, consts: list):
        self.jaxpr = jaxpr
        self.consts = consts

    @property
    def eqns(self) -> list:
        """The equations, in the order they run."""
        return self.jaxpr.eqns

    @property
    def in_avals(self) -> list:
        return [v.aval for v in self.jaxpr.invars]

    @property
    def out_avals(self) -> list:
        return [v.aval for v in self.jaxpr.outvars]

    def __str__(self) -> str:
        return str(self.jaxpr)

    __repr__ = __str__

    def pretty_print(self) -> str:
        """The listing (JAX's name for ``str``)."""
        return str(self)


# --- building a finished program -------------------------------------------------------------
def close(constvars, consts, invars, outvars, eqns, debug_info=None) -> ClosedJaxpr:
    """The program of a finished trace: dead equations and unused constants dropped, every
    variable named."""
    eqns = _live(eqns, outvars)
    used = {id(v) for e in eqns for v in e.invars} | {id(v) for v in outvars}
    kept = [(v, c) for v, c in zip(constvars, consts) if id(v) in used]
    jaxpr = Jaxpr([v for v, _ in kept], list(invars), list(outvars), eqns, debug_info)
    _name_vars(jaxpr)
    return ClosedJaxpr(jaxpr, [c for _, c in kept])


def _live(eqns: list, outvars: list) -> list:
    """The equations the outputs depend on (a backward walk: dead code elimination)."""
    needed = {id(v) for v in outvars if isinstance(v, Var)}
    kept = []
    for eqn in reversed(eqns):
        if any(id(v) in needed for v in eqn.outvars):
            kept.append(eqn)
            needed.update(id(v) for v in eqn.invars if isinstance(v, Var))
    return kept[::-1]


def _name_vars(jaxpr: Jaxpr) -> None:
    """a, b, ..., z, ba, bb, ...: constants, then inputs, then equations in order."""
    count = 0
    for v in [*jaxpr.constvars, *jaxpr.invars, *(o for e in jaxpr.eqns for o in e.outvars)]:
        if v.name is None:
            v.name = var_name(count)
            count += 1


def var_name(i: int) -> str:
    """The i-th name: 0 -> a, 25 -> z, 26 -> ba (JAX's scheme)."""
    letters = ""
    while True:
        letters = chr(ord("a") + i % 26) + letters
        i //= 26
        if i == 0:
            return letters


# --- primitive names --------------------------------------------------------------------------
_JAX_NAMES = {  # minigrad op -> JAX's name for the same primitive
    "Sum": "reduce_sum",
    "AMax": "reduce_max",
    "AMin": "reduce_min",
    "MaxAll": "reduce_max",
    "MinAll": "reduce_min",
    "Permute": "transpose",
    "To": "convert_element_type",
    "Clone": "copy",
    "Cat": "concatenate",
    "Sigmoid": "logistic",
    "LogSumExp": "logsumexp",
    "MatMul": "matmul",
}
_COMPARE = {
    "less": "lt",
    "less_equal": "le",
    "greater": "gt",
    "greater_equal": "ge",
    "equal": "eq",
    "not_equal": "ne",
    "logical_and": "and",
    "logical_or": "or",
}
_HIDDEN_PARAMS = {
    "Compare": ("fn",),
    "ArgReduce": ("fn",),
}  # params the primitive's name already says


def primitive(op: type, params: dict) -> Primitive:
    """The primitive of an op applied with ``params``."""
    name = op.__name__
    if isinstance(op, type) and issubclass(op, Function):
        return Primitive("custom_function", op)
    if name in ("Compare", "ArgReduce"):  # one op class, several primitives: by its fn
        fn = getattr(params.get("fn"), "__name__", "compare")
        return Primitive(_COMPARE.get(fn, fn), op)
    return Primitive(_JAX_NAMES.get(name) or _snake(name), op)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


# --- printing ---------------------------------------------------------------------------------
def _binders(vs: list) -> str:
    return " ".join(f"{v}:{v.aval.str_short()}" for v in vs)


def _params(eqn: JaxprEqn) -> str:
    hidden = _HIDDEN_PARAMS.get(eqn.primitive.op.__name__, ())
    items = [(k, v) for k, v in eqn.params.items() if k not in hidden]
    if eqn.primitive.name == "custom_function":
        items = [("fn", eqn.params["fn"])]
        if any(a is not TENSOR_ARG for a in eqn.params["args"]):
            items.append(("args", eqn.params["args"]))
    if not items:
        return ""
    return "[" + " ".join(f"{k}={format_param(v)}" for k, v in items) + "]"


class _TensorArg:
    """Where a tensor goes in the arguments of a custom Function (printed ``_``)."""

    def __repr__(self) -> str:
        return "_"


TENSOR_ARG = _TensorArg()


def format_param(v) -> str:
    """One param as the listing prints it (deterministic: no ids, no addresses)."""
    if isinstance(v, (Var, Literal, _TensorArg)):
        return repr(v)
    if isinstance(v, tuple):
        inner = ", ".join(format_param(x) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, list):
        return "[" + ", ".join(format_param(x) for x in v) + "]"
    if isinstance(v, slice):
        parts = ["" if p is None else str(p) for p in (v.start, v.stop, v.step)]
        return ":".join(parts[:2] if v.step is None else parts)
    if v is Ellipsis:
        return "..."
    if isinstance(v, _dtype.dtype):
        return v.name
    if isinstance(v, np.ndarray):
        return _format_array(v)
    if isinstance(v, np.generic):
        return format_scalar(np.asarray(v))
    if isinstance(v, type) or callable(v):
        return getattr(v, "__name__", type(v).__name__)
    return repr(v)


def _format_array(a: np.ndarray) -> str:
    """A constant array in a param: its values when small, else its type (``i64[100]``)."""
    kind = f"{short_dtype(a.dtype)}[{','.join(str(n) for n in a.shape)}]"
    if a.size > 6:
        return kind
    return "[" + ", ".join(format_scalar(np.asarray(x)) for x in a.ravel()) + "]:" + kind


def format_scalar(val: np.ndarray) -> str:
    """A 0-d array as a literal: ``2.0``, ``1.0001``, ``-3``, ``True``, ``1e-08``."""
    x = val[()]
    if val.dtype.kind == "b":
        return str(bool(x))
    if val.dtype.kind in "iu":
        return str(int(x))
    if val.dtype.kind == "f":
        if x == 0 or (np.isfinite(x) and 1e-4 <= abs(x) < 1e16):
            return np.format_float_positional(x, trim="0")
        return np.format_float_scientific(x, trim="-") if np.isfinite(x) else str(float(x))
    return repr(x)
