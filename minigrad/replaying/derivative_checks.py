"""What ``gradcheck`` checks, one method per check, on one function at one point.

:class:`Checks` holds the function, its inputs, the positions of those that require grad
(``diff``) and the floating-point outputs (``outs``), and compares the Jacobians of
:mod:`.jacobians` (reverse mode, forward mode, central differences) entry by entry, or,
in fast mode, their projections ``u^T J v``. A failed check raises
:class:`GradcheckError` with a message from ``errors.gradcheck``.
"""

from __future__ import annotations

import numpy as np

from ..errors import gradcheck as errors
from ..recording.function import Op
from ..recording.grad_mode import enable_grad
from ..tensor import Tensor
from . import jacobians
from .api import grad as autograd_grad


class GradcheckError(RuntimeError):
    """Raised when analytical and numerical derivatives disagree."""


class UndefinedGrad(Op):
    """Identity whose backward sends no gradient: the nodes before it see what an output
    nobody differentiates gives them (PyTorch: ``torch._C._functions.UndefinedGrad``)."""

    node_name = "UndefinedGradBackward"  # a C++ node in PyTorch: no overload digit

    @staticmethod
    def forward(ctx, a):
        return np.array(a, copy=True)

    @staticmethod
    def backward(ctx, g):
        return None


class Checks:
    """The checks of one ``gradcheck`` call, on its floating-point outputs."""

    def __init__(self, func, inputs, diff, eps, atol, rtol, nondet_tol, check_grad_dtypes):
        self.func, self.inputs, self.diff = func, inputs, diff
        self.eps, self.atol, self.rtol, self.nondet_tol = eps, atol, rtol, nondet_tol
        self.check_grad_dtypes = check_grad_dtypes
        values = jacobians.outputs_of(func, inputs)
        self.outs = [
            o for o, v in enumerate(values) if isinstance(v, Tensor) and v.is_floating_point()
        ]
        self.sizes = [values[o]._data.size for o in self.outs]

    def _args(self):
        return self.func, self.inputs, self.diff, self.outs

    def slow(self, backward: bool, forward: bool) -> None:
        """Whole Jacobians: reverse mode (twice), then forward mode, against differences."""
        numeric = jacobians.numerical(*self._args(), self.sizes, self.eps)
        if backward:
            analytic = jacobians.reverse(*self._args(), on_grad=self._grad_dtype)
            self._compare(analytic, numeric, errors.BACKWARD)
            self._reentrant(analytic, jacobians.reverse(*self._args()))
        if forward:
            tangent_jac = jacobians.forward(*self._args(), self.sizes)
            self._compare(tangent_jac, numeric, errors.FORWARD)

    def _compare(self, analytic, numeric, what: str) -> None:
        for j, o in enumerate(self.outs):
            for k, d in enumerate(self.diff):
                a, n = analytic[j][k], numeric[j][k]
                bad = np.abs(a - n) > self.atol + self.rtol * np.abs(n)
                if bad.any():
                    raise GradcheckError(_mismatch(what, d, o, self.inputs[d].shape, a, n, bad))

    def _reentrant(self, first, second) -> None:
        for j, o in enumerate(self.outs):
            for k, d in enumerate(self.diff):
                diff = np.max(np.abs(first[j][k] - second[j][k]), initial=0.0)
                if diff > self.nondet_tol:
                    raise GradcheckError(
                        errors.NOT_REENTRANT.format(tol=self.nondet_tol, out=o, inp=d, diff=diff)
                    )

    def _grad_dtype(self, k: int, g: Tensor) -> None:
        x = self.inputs[self.diff[k]]
        if self.check_grad_dtypes and g.dtype is not x.dtype:
            raise GradcheckError(
                errors.GRAD_DTYPE.format(inp=self.diff[k], got=g.dtype, want=x.dtype)
            )

    def fast(self, backward: bool, forward: bool) -> None:
        """``u^T J v`` by differences, reverse mode (twice) and forward mode."""
        values = jacobians.outputs_of(self.func, self.inputs)
        us = jacobians.unit_vectors([values[o] for o in self.outs], seed=0)
        vs = jacobians.unit_vectors([self.inputs[d] for d in self.diff], seed=1)
        args = (*self._args(), us, vs, self.eps)
        numeric = jacobians.projections(*args, "numerical")
        # if every entry of J is within atol, u^T J v is within atol * |u|_1 * |v|_1
        scale = np.outer([np.abs(u).sum() for u in us], [np.abs(v).sum() for v in vs])
        if backward:
            analytic = jacobians.projections(*args, "reverse", on_grad=self._grad_dtype)
            self._compare_fast(analytic, numeric, scale, errors.BACKWARD)
            again = jacobians.projections(*args, "reverse")
            self._reentrant(analytic, again)
        if forward:
            tangent_uv = jacobians.projections(*args, "forward")
            self._compare_fast(tangent_uv, numeric, scale, errors.FORWARD)

    def _compare_fast(self, analytic, numeric, scale, what: str) -> None:
        bad = np.abs(analytic - numeric) > self.atol * scale + self.rtol * np.abs(numeric)
        if bad.any():
            j, k = (int(v) for v in np.argwhere(bad)[0])
            a, n = analytic[j, k], numeric[j, k]
            msg = errors.FAST_MISMATCH.format(
                what=what, out=self.outs[j], inp=self.diff[k], a=a, n=n
            )
            raise GradcheckError(msg)

    def undefined_backward(self) -> None:
        """Backward with no gradient for every output, then for each output alone."""
        n = len(self._differentiable_outputs())
        if n == 0:
            return
        cases = [("all", set(range(n)))]
        if n > 1:
            cases += [(f"output {i}", {i}) for i in range(n)]
        xs = [self.inputs[d] for d in self.diff]
        for which, undefined in cases:
            outs = self._differentiable_outputs()  # a fresh graph for each case
            roots = [UndefinedGrad.apply(o) if i in undefined else o for i, o in enumerate(outs)]
            zeros = [Tensor._make(np.zeros(o.shape, o._data.dtype), False, None) for o in outs]
            try:
                grads = autograd_grad(roots, xs, zeros, allow_unused=True)
            except RuntimeError as exc:
                raise GradcheckError(errors.UNDEFINED_RAISED.format(which=which)) from exc
            for d, g in zip(self.diff, grads):
                if g is not None and np.any(jacobians.as_array(g) != 0):
                    raise GradcheckError(errors.UNDEFINED_NONZERO.format(inp=d, which=which))

    def _differentiable_outputs(self) -> list:
        with enable_grad():
            values = jacobians.outputs_of(self.func, self.inputs)
        return [values[o] for o in self.outs if values[o].requires_grad]

    def undefined_forward(self) -> None:
        """For each input: no tangent at all must give what a zero tangent gives."""
        vs = jacobians.unit_vectors([self.inputs[d] for d in self.diff], seed=2)
        tangents = {d: jacobians.filled_like(self.inputs[d], v) for d, v in zip(self.diff, vs)}
        for d in self.diff:
            zero = dict(tangents)
            zero[d] = jacobians.filled_like(self.inputs[d], np.zeros(self.inputs[d]._data.size))
            absent = {k: t for k, t in tangents.items() if k != d}
            want = jacobians.jvp(self.func, self.inputs, zero, self.outs)
            got = jacobians.jvp(self.func, self.inputs, absent, self.outs)
            for o, g, w in zip(self.outs, got, want):
                if not np.allclose(g, w, rtol=self.rtol, atol=self.atol):
                    raise GradcheckError(
                        errors.UNDEFINED_TANGENT.format(out=o, inp=d, got=g, want=w)
                    )


def _mismatch(what, inp, out, shape, analytic, numeric, bad) -> str:
    k, j = (int(v) for v in np.argwhere(bad)[0])
    elem = tuple(int(v) for v in np.unravel_index(k, shape)) if shape else ()
    a, n, size = analytic[k, j], numeric[k, j], bad.size
    return errors.MISMATCH.format(
        what=what,
        out=out,
        inp=inp,
        elem=elem,
        j=j,
        a=a,
        n=n,
        size=size,
        bad=int(bad.sum()),
        numerical=numeric,
        analytical=analytic,
    )
