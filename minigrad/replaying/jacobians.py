"""The Jacobians that ``gradcheck`` compares, each computed a different way.

For a function's output ``o`` and differentiable input ``x`` every Jacobian here is an
array of shape ``(x.numel, o.numel)`` (row = input element, column = output element, as
PyTorch prints them), returned as ``jac[o][k]`` for output ``o`` and the ``k``-th
differentiable input:

* :func:`numerical`: central differences, ``(f(x + eps) - f(x - eps)) / (2 eps)``, two
  evaluations per input element;
* :func:`reverse`: one backward pass (``autograd.grad``) per output element, a row of
  ``J`` each;
* :func:`forward`: one forward-mode pass (a dual tensor, :mod:`.forward_ad`) per input
  element, a column of ``J`` each.

Fast mode (``gradcheck(fast_mode=True)``) compares one number per (output, input) pair
instead, ``u^T J v`` for random unit vectors ``u`` and ``v``: :func:`projections`.
"""

from __future__ import annotations

import numpy as np

from ..recording.grad_mode import no_grad
from ..tensor import Tensor, has_sparse_layout
from . import forward_ad
from .api import grad as autograd_grad


def outputs_of(func, inputs) -> tuple:
    out = func(*inputs)
    return out if isinstance(out, tuple) else (out,)


def as_array(t: Tensor) -> np.ndarray:
    """A gradient or tangent as a flat float64 array (sparse ones densified)."""
    data = t.to_dense()._data if has_sparse_layout(t) else t._data
    return np.asarray(data, dtype=np.float64).ravel()


def filled_like(x: Tensor, values: np.ndarray) -> Tensor:
    return Tensor._make(values.reshape(x.shape).astype(x._data.dtype), False, None)


# --- numerical ---------------------------------------------------------------------------------
def _shifted(func, inputs, pos, index, step, outs) -> list:
    """The outputs ``outs`` with element ``index`` of ``inputs[pos]`` moved by ``step``
    (written into the input's array in place, then put back)."""
    x = inputs[pos]._data
    orig = x[index]
    try:
        with no_grad():
            x[index] = orig + step
            values = outputs_of(func, inputs)
            return [np.array(values[o]._data, dtype=np.float64).ravel() for o in outs]
    finally:
        x[index] = orig


def numerical(func, inputs, diff, outs, sizes, eps) -> list:
    """Central differences, one pair of evaluations per element of each input."""
    jac = [[np.zeros((inputs[d]._data.size, n)) for d in diff] for n in sizes]
    for k, d in enumerate(diff):
        shape = inputs[d].shape
        for e in range(inputs[d]._data.size):
            index = np.unravel_index(e, shape) if shape else ()
            plus = _shifted(func, inputs, d, index, eps, outs)
            minus = _shifted(func, inputs, d, index, -eps, outs)
            for j, (p, m) in enumerate(zip(plus, minus)):
                jac[j][k][e] = (p - m) / (2 * eps)
    return jac


# --- reverse mode ------------------------------------------------------------------------------
def vjp(out: Tensor, inputs, cotangent: Tensor) -> list:
    """``cotangent^T J`` for each input (None where the gradient does not reach it)."""
    if not out.requires_grad:
        return [None] * len(inputs)
    return list(autograd_grad(out, inputs, cotangent, retain_graph=True, allow_unused=True))


def reverse(func, inputs, diff, outs, on_grad=None) -> list:
    """Rows of J by one backward pass per output element. ``on_grad(k, g)`` sees each
    gradient of the ``k``-th differentiable input (gradcheck's dtype check)."""
    values = outputs_of(func, inputs)
    xs = [inputs[d] for d in diff]
    jac = []
    for o in outs:
        out = values[o]
        rows = [np.zeros((x._data.size, out._data.size)) for x in xs]
        for j in range(out._data.size):
            onehot = np.zeros(out._data.size)
            onehot[j] = 1
            for k, g in enumerate(vjp(out, xs, filled_like(out, onehot))):
                if g is not None:
                    if on_grad is not None:
                        on_grad(k, g)
                    rows[k][:, j] = as_array(g)
        jac.append(rows)
    return jac


# --- forward mode ------------------------------------------------------------------------------
def jvp(func, inputs, tangents: dict, outs) -> list:
    """``J v`` for each output in ``outs``, as flat arrays: one pass with the inputs in
    ``tangents`` (position -> tangent) made dual, the others passed as they are."""
    with forward_ad.dual_level():
        args = list(inputs)
        for d, t in tangents.items():
            args[d] = forward_ad.make_dual(inputs[d].detach(), t)
        values = outputs_of(func, args)
        result = []
        for o in outs:
            t = forward_ad.unpack_dual(values[o]).tangent
            result.append(np.zeros(values[o]._data.size) if t is None else as_array(t))
    return result


def forward(func, inputs, diff, outs, sizes) -> list:
    """Columns of J by one forward-mode pass per input element (a one-hot tangent)."""
    jac = [[np.zeros((inputs[d]._data.size, n)) for d in diff] for n in sizes]
    for k, d in enumerate(diff):
        x = inputs[d]
        for e in range(x._data.size):
            onehot = np.zeros(x._data.size)
            onehot[e] = 1
            for j, col in enumerate(jvp(func, inputs, {d: filled_like(x, onehot)}, outs)):
                jac[j][k][e] = col
    return jac


# --- fast mode: u^T J v ---------------------------------------------------------------------
def unit_vectors(tensors, seed: int) -> list:
    """One random unit vector per tensor, shaped like it (``torch``: ``_vec_from_tensor``)."""
    rng = np.random.default_rng(seed)
    vectors = []
    for t in tensors:
        v = rng.standard_normal(t._data.size)
        norm = np.linalg.norm(v)
        vectors.append(v / norm if norm > 0 else v)
    return vectors


def projections(func, inputs, diff, outs, us, vs, eps, mode: str, on_grad=None) -> np.ndarray:
    """``u_o^T J v_k`` for every output ``o`` and differentiable input ``k``, by ``mode``:
    ``"numerical"`` (one directional central difference per input), ``"reverse"`` (one
    backward pass per output; ``on_grad`` as in :func:`reverse`) or ``"forward"`` (one
    forward-mode pass per input)."""
    result = np.zeros((len(outs), len(diff)))
    if mode == "reverse":
        values = outputs_of(func, inputs)
        xs = [inputs[d] for d in diff]
        for j, o in enumerate(outs):
            for k, g in enumerate(vjp(values[o], xs, filled_like(values[o], us[j]))):
                if g is not None and on_grad is not None:
                    on_grad(k, g)
                result[j, k] = 0.0 if g is None else as_array(g) @ vs[k]
        return result
    for k, d in enumerate(diff):
        x = inputs[d]
        if mode == "forward":
            columns = jvp(func, inputs, {d: filled_like(x, vs[k])}, outs)
        else:
            columns = _directional(func, inputs, d, vs[k], eps, outs)
        for j, col in enumerate(columns):
            result[j, k] = us[j] @ col
    return result


def _directional(func, inputs, pos, v, eps, outs) -> list:
    """``(f(x + eps v) - f(x - eps v)) / (2 eps)`` for each output: J v by differences."""
    x = inputs[pos]._data
    orig = x.copy()
    step = (eps * v).reshape(x.shape).astype(x.dtype)
    try:
        with no_grad():
            x[...] = orig + step
            plus = [np.array(t._data, np.float64).ravel() for t in _pick(func, inputs, outs)]
            x[...] = orig - step
            minus = [np.array(t._data, np.float64).ravel() for t in _pick(func, inputs, outs)]
    finally:
        x[...] = orig
    return [(p - m) / (2 * eps) for p, m in zip(plus, minus)]


def _pick(func, inputs, outs) -> list:
    values = outputs_of(func, inputs)
    return [values[o] for o in outs]
