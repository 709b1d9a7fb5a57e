"""Tracing: run a function on tensors that have a shape and a dtype but no values, and record
every op it applies as an equation of a program (:mod:`.jaxpr`).

A :class:`Trace` is the tracing mode of :mod:`minigrad.recording.modes`: while it runs,
every ``Op.apply`` comes to :meth:`Trace.op`, and every custom ``Function.apply`` to
:meth:`Trace.function`. The inputs' data are :class:`~minigrad._traced.TracedArray`
zeros; :meth:`Trace.op` runs the op itself on them (its ``forward``, and its autograd
recording, as usual), which gives the output's shape and dtype, then marks the output as a
new variable and records ``(op, params, input vars, output var)``. Because the op really
runs, autograd records its node as it always does, and when ``grad`` runs inside the
trace its backward formulas, being ops, are traced too: ``make_jaxpr(grad(f))`` is the
forward and the backward program. A tensor that was not made by the trace (a closed-over
parameter, a constant the engine creates) is a constant of the program.

NB: JAX's ``DynamicJaxprTrace`` does the same with tracer objects and abstract evaluation
rules; here the op's own numpy ``forward`` on zeros is the abstract evaluation rule.
"""

from __future__ import annotations

import numpy as np

from .. import _dtype, _traced, random
from .._traced import TracedArray
from ..errors import jit as errors
from ..recording import modes, tangents
from ..tensor import Tensor
from .jaxpr import TENSOR_ARG, DebugInfo, JaxprEqn, Literal, ShapedArray, Var, close, primitive


class Trace:
    """The recorder of one traced call: its inputs, constants and equations so far."""

    def __init__(self, fn_name: str):
        self.fn_name = fn_name
        self.invars: list = []
        self.leaf_names: list = []  # "argument 'x'", "argument 'params['w']'", per input
        self.arg_names: list = []  # "x", "params['w']", per input (DebugInfo.arg_names)
        self.leaf_argnums: list = []  # the positional argument of each input (None: keyword)
        self.eqns: list = []
        self.consts: dict = {}  # id(tensor) -> (tensor, its constvar)

    # --- inputs and outputs -----------------------------------------------------------------
    def new_input(self, leaf, name: str, argnum) -> Tensor:
        """A traced tensor standing for one input leaf (a Tensor, or a Python number);
        ``name`` is the argument's (``x``, ``params['w']``), ``argnum`` its position."""
        if isinstance(leaf, Tensor):
            shape, dtype, requires_grad = leaf.shape, leaf.dtype, leaf.requires_grad
        else:  # a Python number: a 0-d tensor, as JAX traces it (a weakly typed scalar)
            shape, dtype, requires_grad = (), scalar_dtype(leaf), False
        var = Var(ShapedArray(tuple(shape), dtype), frozenset([len(self.invars)]), self)
        var.is_input = True
        self.invars.append(var)
        self.arg_names.append(name)
        self.leaf_names.append(f"argument '{name}'")
        self.leaf_argnums.append(argnum)
        data = np.zeros(shape, dtype.np).view(TracedArray)
        data.program_var = var
        return Tensor._make(data, requires_grad, None)

    def finish(self, outputs: list):
        """The program, once the function returned ``outputs`` (its tensor leaves)."""
        outvars = [self.atom(t, "the traced function's output") for t in outputs]
        constvars = [var for _, var in self.consts.values()]
        consts = [t for t, _ in self.consts.values()]
        info = DebugInfo(self.fn_name, tuple(self.arg_names))
        closed = close(constvars, consts, self.invars, outvars, self.eqns, info)
        self.eqns, self.consts = [], {}  # the variables keep the trace (for the messages) only
        return closed

    # --- the mode hooks ---------------------------------------------------------------------
    def op(self, cls, inputs, params, apply_plain):
        """``Op.apply`` under the trace: run the op on zeros, record its equation."""
        atoms = [self.atom(t, cls.__name__) for t in inputs]
        found: list = []
        lifted = {k: self._lift(k, v, cls.__name__, found) for k, v in params.items()}
        out = _evaluate(apply_plain, cls, inputs, params)
        var = self._mark(out, [*atoms, *found], cls.__name__)
        eqn = JaxprEqn(primitive(cls, params), [*atoms, *found], [var], lifted, len(atoms))
        self.eqns.append(eqn)
        return out

    def function(self, cls, ctx, args, run):
        """A custom ``Function.apply`` under the trace: one equation (its body's ops are
        recorded too, for the values its backward may read; unused, they are dropped)."""
        atoms = [self.atom(a, cls.__name__) for a in args if isinstance(a, Tensor)]
        result = run()
        outs = list(result) if isinstance(result, tuple) else [result]
        outvars = []
        for k, o in enumerate(outs):
            if any(o is a for a in args):  # an input returned as it is: a new tensor for it
                o = outs[k] = Tensor._make(o._data, o.requires_grad, o.grad_fn)
            o._data = o._data.view(TracedArray)  # a new value, not the body's last one
            outvars.append(self._mark(o, atoms, cls.__name__))
        template = tuple(TENSOR_ARG if isinstance(a, Tensor) else a for a in args)
        params = {"fn": cls, "args": template}
        self.eqns.append(JaxprEqn(primitive(cls, params), atoms, outvars, params, len(atoms)))
        return tuple(outs) if isinstance(result, tuple) else outs[0]

    # --- values -----------------------------------------------------------------------------
    def atom(self, t: Tensor, consumer: str):
        """What an op reads: the variable of a traced tensor, or a constant."""
        data = t._data
        if type(data) is TracedArray:
            return self._var_of(data, consumer)
        if not isinstance(data, np.ndarray):
            raise NotImplementedError(
                errors.SPARSE.format(
                    what=self.fn_name, where=f"an input of {consumer}", layout=t.layout
                )
            )
        if data.ndim == 0 and not t.requires_grad:
            return Literal(data)
        entry = self.consts.get(id(t))
        if entry is None:
            var = Var(ShapedArray(data.shape, t.dtype), frozenset(), self)
            entry = self.consts[id(t)] = (t, var)
        return entry[1]

    def _var_of(self, data: TracedArray, consumer: str) -> Var:
        var = data.program_var
        if var is None:  # numpy made it outside an op, from a traced value
            _traced.refuse(data, f"{consumer} (given an array computed outside an op)", True)
        if var._trace is not self:
            raise errors.ConcretizationTypeError(
                errors.NESTED.format(what=self.fn_name, value=data.describe())
            )
        return var

    def _lift(self, name: str, v, consumer: str, found: list):
        """A param with the traced arrays in it replaced by their variables."""
        if type(v) is TracedArray:
            if name == "key" and v.dtype == np.bool_:
                raise errors.ConcretizationTypeError(errors.BOOL_INDEX.format(value=v.describe()))
            var = self._var_of(v, consumer)
            found.append(var)
            return var
        if isinstance(v, (tuple, list)):
            return type(v)(self._lift(name, x, consumer, found) for x in v)
        return v

    def _mark(self, out: Tensor, reads: list, consumer: str) -> Var:
        """Make ``out`` (an op's result) a new variable of the program."""
        data = out._data
        if not isinstance(data, np.ndarray):
            raise NotImplementedError(
                errors.SPARSE.format(
                    what=self.fn_name, where=f"the result of {consumer}", layout=out.layout
                )
            )
        deps = frozenset().union(*(v._deps for v in reads if isinstance(v, Var)))
        var = Var(ShapedArray(data.shape, out.dtype), deps, self)
        if type(data) is not TracedArray or data.program_var is not None:
            traced = data.view(TracedArray)
            out._data = traced
            node = out.grad_fn
            if node is not None and getattr(node, "_out_data", None) is data:
                node._out_data = traced  # the node saved its output's array (_save_output)
            data = traced
        data.program_var = var
        return var

    # --- messages -----------------------------------------------------------------------
    def describe(self, var: Var) -> str:
        """``f32[] computed from argument 'x'`` (or ``f32[3], argument 'x'`` for an input)."""
        kind = var.aval.str_short()
        names = [self.leaf_names[i] for i in sorted(var._deps)]
        if any(var is v for v in self.invars):
            return f"{kind}, {names[0]} of {self.fn_name}"
        if not names:
            return kind
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        return f"{kind} computed from {shown} of {self.fn_name}"

    def argnums(self, deps: frozenset) -> tuple:
        nums = {self.leaf_argnums[i] for i in deps}
        return tuple(sorted(n for n in nums if n is not None))


def _evaluate(apply_plain, cls, inputs, params) -> Tensor:
    """Run the op itself, plain, with numpy allowed to compute on the traced zeros."""
    active = modes.state.active
    modes.state.active = False
    _traced.state.evaluating = True
    try:
        with np.errstate(all="ignore"):  # zeros divide by zero, take log(0): not our values
            return apply_plain(cls, inputs, params)
    finally:
        _traced.state.evaluating = False
        modes.state.active = active


class tracing:  # noqa: N801  (a context manager, used as ``with tracing(trace):``)
    """Run the block under ``trace``: every op goes to it. The modes on outside (autocast,
    an open forward-mode level) are set aside, since the trace records the function itself."""

    def __init__(self, trace: Trace):
        self.trace = trace

    def __enter__(self) -> Trace:
        self._modes = modes.set_tracer(self.trace)
        self._levels = tangents.only([])
        self._levels.__enter__()
        self._generator = random._Default.current
        random._Default.current = _NoRandomNumbers(self.trace.fn_name)
        return self.trace

    def __exit__(self, *exc) -> bool:
        random._Default.current = self._generator
        self._levels.__exit__(*exc)
        modes.restore_tracer(self._modes)
        return False


class _NoRandomNumbers:
    """minigrad's generator while a function is traced: drawing from it raises, since the
    numbers would be drawn once, at trace time, and replayed as constants by every call
    (JAX makes randomness an explicit key argument for this reason). The global generator's
    state can still be read and set (``utils.checkpoint`` saves it)."""

    def __init__(self, fn_name: str):
        self._fn_name = fn_name

    def __getattr__(self, name):
        raise RuntimeError(errors.RANDOM.format(fn=self._fn_name))


def scalar_dtype(x) -> _dtype.dtype:
    """The dtype a Python number is traced with: bool, int64, or the default float dtype."""
    if isinstance(x, bool):
        return _dtype.bool_
    if isinstance(x, (int, np.integer)):
        return _dtype.int64
    return _dtype.get_default_dtype()
