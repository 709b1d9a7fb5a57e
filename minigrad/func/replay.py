"""Replaying a traced program (``jit``'s second half): as plain numpy calls, or through the ops.

:class:`Program` holds one traced program of a jitted function (see :mod:`.jit`):

* :meth:`Program.run_numpy` calls each equation's op ``forward`` on arrays, no Tensor, no
  autograd node, no mode check: where jit's speed comes from;
* :meth:`Program.run_ops` applies each equation's op with its ``apply``, so autograd records
  the replay and modes (tangents, autocast) see it, exactly as eager code.
"""

from __future__ import annotations

import numpy as np

from ..recording import grad_mode
from ..tensor import Tensor
from ._pytree import tree_map
from .jaxpr import TENSOR_ARG, ClosedJaxpr, Literal, Var


class _Out:
    """Where an output tensor goes in the structure of a result (see :func:`rebuild`)."""


OUT = _Out()


class _Scratch:
    """The ctx a forward gets in a replay: what it stores is thrown away (as ``Op.apply``'s
    scratch ctx when it does not record)."""

    def save_for_backward(self, *tensors):
        pass


_SCRATCH = _Scratch()


class Program:
    """One traced program of a jitted function, ready to replay (see the module docstring).

    For the numpy replay the equations are compiled into *steps* over a list of slots
    (constants, inputs, literals, then one per equation output): ``(arity, forward, first
    input slot, second input slot, all input slots, params, output slot)``. Two
    simplifications, both exact, are made on the way: an equation of literals only is
    computed once, here (``1.0 / 8`` of a mean's backward), and a ``copy`` (``grad``
    copies its arguments) reuses its input's array, since no forward writes into its inputs.
    """

    def __init__(self, closed: ClosedJaxpr, structure):
        self.closed = closed
        self.structure = structure
        jaxpr = closed.jaxpr
        slots = {id(v): k for k, v in enumerate([*jaxpr.constvars, *jaxpr.invars])}
        self.n_consts = len(jaxpr.constvars)
        self.template: list = [None] * len(slots)  # the slots: consts, inputs, literals, eqns
        outputs = {id(v) for v in jaxpr.outvars}
        steps = [self._step(eqn, slots, outputs) for eqn in jaxpr.eqns]
        self.steps = [step for step in steps if step is not None]
        self.outs = [self._slot(v, slots) for v in jaxpr.outvars]
        n_in = self.n_consts + len(jaxpr.invars)
        self.from_input = [
            k - self.n_consts if self.n_consts <= k < n_in else None for k in self.outs
        ]

    def _slot(self, atom, slots: dict) -> int:
        if isinstance(atom, Literal):
            self.template.append(atom.val)
            return len(self.template) - 1
        return slots[id(atom)]

    def _step(self, eqn, slots: dict, outputs: set) -> tuple | None:
        """The step of one equation (None when it needs none at run time)."""
        ins = tuple(self._slot(a, slots) for a in eqn.invars)
        op, params = eqn.primitive.op, eqn.params
        if eqn.primitive.name == "copy" and id(eqn.outvars[0]) not in outputs:
            slots[id(eqn.outvars[0])] = ins[0]  # the same array: nothing writes into it
            return None
        outs = []
        for v in eqn.outvars:
            slots[id(v)] = len(self.template)
            self.template.append(None)
            outs.append(slots[id(v)])
        if eqn.primitive.name == "custom_function":
            return (-1, op, None, None, ins, params["args"], tuple(outs))
        if len(eqn.invars) > eqn.n_inputs:  # params that refer to variables
            refs = {id(v): slots[id(v)] for v in eqn.invars[eqn.n_inputs :]}
            return (-2, op.forward, None, None, ins[: eqn.n_inputs], (params, refs), outs[0])
        if all(self.template[i] is not None for i in ins):  # literals only: compute it now
            self.template[outs[0]] = _array(
                op.forward(_SCRATCH, *[self.template[i] for i in ins], **params)
            )
            return None
        first, second = (ins + (None, None))[:2]
        return (len(ins), op.forward, first, second, ins, params, outs[0])

    def wants_grad(self, leaves: list) -> bool:
        """An input or a closed-over tensor requires grad: autograd must see the ops."""
        if any(isinstance(x, Tensor) and x._requires_grad for x in leaves):
            return True
        return any(t._requires_grad for t in self.closed.consts)

    def run_numpy(self, leaves: list):
        """The program as plain numpy calls: each equation's ``forward`` on arrays."""
        env = self.template.copy()
        env[: self.n_consts] = [t._data for t in self.closed.consts]
        n = self.n_consts
        for v, x in zip(self.closed.jaxpr.invars, leaves):
            env[n] = x._data if isinstance(x, Tensor) else np.asarray(x, v.aval.dtype.np)
            n += 1
        for arity, fn, first, second, ins, params, out in self.steps:
            if arity == 1:
                r = fn(_SCRATCH, env[first], **params)
            elif arity == 2:
                r = fn(_SCRATCH, env[first], env[second], **params)
            elif arity >= 0:
                r = fn(_SCRATCH, *[env[i] for i in ins], **params)
            elif arity == -2:  # params that refer to variables (where's condition)
                r = fn(_SCRATCH, *[env[i] for i in ins], **_resolve(*params, env))
            else:
                _run_custom(fn, ins, params, out, env)
                continue
            env[out] = r if type(r) is np.ndarray else np.asarray(r)
        results = []
        for slot, k in zip(self.outs, self.from_input):
            if k is not None and isinstance(leaves[k], Tensor):
                results.append(leaves[k])  # an input returned as it is, as eager code does
            elif self.template[slot] is not None:  # computed once: each call gets its own
                results.append(Tensor._make(self.template[slot].copy(), False, None))
            else:
                results.append(Tensor._make(env[slot], False, None))
        return rebuild(self.structure, results)

    def run_ops(self, leaves: list):
        """The program through the ops: autograd records it, modes see it."""
        jaxpr = self.closed.jaxpr
        env = {id(v): t for v, t in zip(jaxpr.constvars, self.closed.consts)}
        for v, x in zip(jaxpr.invars, leaves):
            env[id(v)] = x if isinstance(x, Tensor) else _scalar_tensor(x, v)
        for eqn in jaxpr.eqns:
            vals = [_value(env, a) for a in eqn.invars[: eqn.n_inputs]]
            op = eqn.primitive.op
            if eqn.primitive.name == "custom_function":
                it = iter(vals)
                args = [next(it) if a is TENSOR_ARG else a for a in eqn.params["args"]]
                result = op.apply(*args)
                outs = result if isinstance(result, tuple) else (result,)
            else:
                params = _substitute(eqn.params, lambda v: env[id(v)]._data)
                outs = (op.apply(*vals, **params),)
            for v, o in zip(eqn.outvars, outs):
                env[id(v)] = o
        return rebuild(self.structure, [_value(env, v) for v in jaxpr.outvars])


def _run_custom(fn, ins, template, outs, env) -> None:
    """A custom Function in the numpy replay: applied to tensors, without recording."""
    it = iter(Tensor._make(env[i], False, None) for i in ins)
    args = [next(it) if a is TENSOR_ARG else a for a in template]
    with grad_mode.no_grad():
        result = fn.apply(*args)
    for slot, o in zip(outs, result if isinstance(result, tuple) else (result,)):
        env[slot] = o._data


def _resolve(params: dict, refs: dict, env: list) -> dict:
    return _substitute(params, lambda v: env[refs[id(v)]])


def _substitute(params: dict, value) -> dict:
    """``params`` with each variable in them (also inside tuples) replaced by ``value(var)``."""

    def sub(x):
        if isinstance(x, Var):
            return value(x)
        if isinstance(x, (tuple, list)):
            return type(x)(sub(y) for y in x)
        return x

    return {k: sub(v) for k, v in params.items()}


def _array(r) -> np.ndarray:
    return r if type(r) is np.ndarray else np.asarray(r)


def _value(env: dict, atom) -> Tensor:
    if isinstance(atom, Literal):
        return Tensor._make(atom.val, False, None)
    return env[id(atom)]


def _scalar_tensor(x, var: Var) -> Tensor:
    return Tensor._make(np.asarray(x, var.aval.dtype.np), False, None)


def rebuild(structure, results: list):
    """``structure`` (a result with :data:`OUT` where its tensors were) with the results."""
    values = iter(results)
    return tree_map(lambda leaf: next(values) if leaf is OUT else leaf, structure)
