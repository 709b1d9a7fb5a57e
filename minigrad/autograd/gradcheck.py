"""Numerical gradient checks (``torch.autograd.gradcheck`` / ``gradgradcheck``).

The analytic Jacobian (one backward pass per output element) is compared
with central differences, (f(x + eps) - f(x - eps)) / (2 eps), entry by entry:
``|analytic - numeric| <= atol + rtol * |numeric|``. Use float64 inputs:
in float32 the rounding error of the differences swamps the check.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..sparse.gradcheck import densify_inputs
from ..tensor import Tensor, has_sparse_layout
from .api import grad as autograd_grad
from .grad_mode import enable_grad, no_grad


class GradcheckError(RuntimeError):
    """Raised when analytic and numerical gradients disagree."""


def _outputs(func, inputs):
    out = func(*inputs)
    return out if isinstance(out, tuple) else (out,)


def _diff_inputs(inputs):
    return [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]


def _numeric_jacobian(func, inputs, pos, out_index, eps):
    """Jacobian of output ``out_index`` w.r.t. ``inputs[pos]`` by central differences."""
    x = inputs[pos]._data
    with no_grad():
        n_out = _outputs(func, inputs)[out_index]._data.size
    jac = np.zeros((x.size, n_out))
    if x.size == 0:
        return jac
    flat = x.reshape(-1)  # a view: x is contiguous for leaves built by minigrad
    if not np.shares_memory(flat, x):
        raise ValueError("gradcheck needs contiguous inputs; pass x.contiguous()")
    for k in range(x.size):
        orig = flat[k]
        with no_grad():
            flat[k] = orig + eps
            plus = np.array(_outputs(func, inputs)[out_index]._data, dtype=np.float64).ravel()
            flat[k] = orig - eps
            minus = np.array(_outputs(func, inputs)[out_index]._data, dtype=np.float64).ravel()
            flat[k] = orig
        jac[k] = (plus - minus) / (2 * eps)
    return jac


def _analytic_jacobian(func, inputs, diff, out_index):
    """Rows by one backward pass per output element (``autograd.grad`` with a one-hot)."""
    out = _outputs(func, inputs)[out_index]
    jacs = [np.zeros((inputs[i]._data.size, out._data.size)) for i in diff]
    if not out.requires_grad:
        return jacs
    for j in range(out._data.size):
        onehot = np.zeros(out._data.size, dtype=out._data.dtype)
        onehot[j] = 1
        g = Tensor._make(onehot.reshape(out.shape), False, None)
        grads = autograd_grad(
            out, [inputs[i] for i in diff], g, retain_graph=True, allow_unused=True
        )
        for jac, gr in zip(jacs, grads):
            if gr is not None:
                data = gr.to_dense()._data if has_sparse_layout(gr) else gr._data
                jac[:, j] = np.asarray(data, dtype=np.float64).ravel()
    return jacs


def gradcheck(
    func,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    masked=None,
) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against central differences.

    Args:
        func: takes the inputs, returns a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple; those with ``requires_grad=True`` are checked.
        eps, atol, rtol: step and tolerances (defaults as in PyTorch).
        raise_exception: raise :class:`GradcheckError` on failure (else return False).
        masked: for sparse inputs that require grad. True perturbs only their stored
            values (the gradient of the unstored zeros is ignored, ``torch.sparse``
            semantics); False (the default) checks the full gradient, as if the input
            were dense with every position stored.

    Returns:
        True when every entry of every Jacobian agrees.

    Example:
        >>> import minigrad as mg
        >>> x = mg.randn(3, dtype=mg.float64, requires_grad=True)
        >>> mg.autograd.gradcheck(lambda t: (t * t).sin(), (x,))
        True
    """
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    if any(has_sparse_layout(t) and t.requires_grad for t in inputs):
        func, inputs = densify_inputs(func, inputs, bool(masked))
    elif masked is not None:
        raise ValueError("gradcheck: masked= only applies to sparse inputs that require grad")
    diff = _diff_inputs(inputs)
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor with requires_grad=True")
    for i in diff:
        if inputs[i].dtype.name != "float64":
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point "
                "(float64). This check will likely fail if all the inputs are not of double "
                "precision floating point.",
                UserWarning,
                stacklevel=2,
            )
    outs = _outputs(func, inputs)
    for o_idx, out in enumerate(outs):
        if not isinstance(out, Tensor) or not out.is_floating_point():
            continue
        analytic = _analytic_jacobian(func, inputs, diff, o_idx)
        for d, a in zip(diff, analytic):
            numeric = _numeric_jacobian(func, inputs, d, o_idx, eps)
            bad = np.abs(a - numeric) > atol + rtol * np.abs(numeric)
            if bad.any():
                if not raise_exception:
                    return False
                k, j = (int(v) for v in np.argwhere(bad)[0])
                raise GradcheckError(_mismatch(d, o_idx, inputs[d].shape, k, j, a, numeric, bad))
    return True


def _mismatch(inp, out, shape, k, j, analytic, numeric, bad) -> str:
    elem = tuple(int(v) for v in np.unravel_index(k, shape)) if shape else ()
    return (
        f"Jacobian mismatch for output {out} with respect to input {inp}: at input element "
        f"{elem} and output element {j}, analytic {analytic[k, j]:.8g} but numeric "
        f"{numeric[k, j]:.8g} ({int(bad.sum())} of {bad.size} entries differ).\n"
        f"numerical:\n{numeric}\nanalytical:\n{analytic}"
    )


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    seed: int = 0,
) -> bool:
    """Check second derivatives: gradcheck of ``v -> grad(func(x), x, v, create_graph=True)``.

    Random ``grad_outputs`` (float64, from ``seed``) are used when not given;
    they take part in the check too, as in PyTorch.
    """
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    diff = _diff_inputs(inputs)
    outs = _outputs(func, inputs)
    float_outs = [o for o in outs if o.is_floating_point() and o.requires_grad]
    if grad_outputs is None:
        rng = np.random.default_rng(seed)
        grad_outputs = tuple(
            Tensor._make(rng.standard_normal(o.shape).astype(o._data.dtype), True, None)
            for o in float_outs
        )
    grad_outputs = tuple(grad_outputs)
    n_in = len(inputs)

    @enable_grad()
    def first_derivative(*args):
        xs, vs = args[:n_in], args[n_in:]
        ys = [o for o in _outputs(func, xs) if o.is_floating_point() and o.requires_grad]
        grads = autograd_grad(ys, [xs[i] for i in diff], vs, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(
        first_derivative,
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
    )
