"""Numerical gradient checks (``torch.autograd.gradcheck`` / ``gradgradcheck``).

The derivatives autograd computes are compared with central differences,
(f(x + eps) - f(x - eps)) / (2 eps), entry by entry:
``|analytical - numerical| <= atol + rtol * |numerical|``. Use float64 inputs: in
float32 the rounding error of the differences swamps the check. What is compared, with
PyTorch's keywords and defaults (the Jacobians themselves are in :mod:`.jacobians`):

* reverse mode (``check_backward_ad=True``): the Jacobian built by one backward pass per
  output element, and the same again, which must agree within ``nondet_tol`` (backward
  is reentrant); with ``check_grad_dtypes`` each gradient's dtype is its input's;
* forward mode (``check_forward_ad=False``): the Jacobian built by one dual-tensor pass per
  input element, which checks every ``jvp`` rule on the way;
* ``check_undefined_grad=True``: backward copes with outputs that receive no gradient
  (all of them, then each one alone) and gives zero or no gradient then; in forward mode,
  an input without a tangent gives what a zero tangent gives;
* ``fast_mode=True``: one number per (output, input) pair, ``u^T J v`` for random unit
  vectors, instead of whole Jacobians.

``check_batched_grad`` and ``check_batched_forward_grad`` are refused (see
``errors.gradcheck.BATCHED``). The checks themselves are in :mod:`.derivative_checks`.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import gradcheck as errors
from ..recording.grad_mode import enable_grad
from ..sparse.gradcheck import densify_inputs
from ..tensor import Tensor, has_sparse_layout
from . import jacobians
from .api import grad as autograd_grad
from .derivative_checks import Checks, GradcheckError


def gradcheck(
    func,
    inputs,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """Check the derivatives of ``func`` at ``inputs`` against central differences.

    Args:
        func: takes the inputs, returns a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple; those with ``requires_grad=True`` are checked.
        eps, atol, rtol: step and tolerances (defaults as in PyTorch).
        raise_exception: raise :class:`GradcheckError` on failure (else return False).
        nondet_tol: how far two backward passes on the same input may differ.
        check_undefined_grad: check outputs that receive no gradient (or tangent).
        check_grad_dtypes: check that each gradient has its input's dtype.
        check_batched_grad, check_batched_forward_grad: not supported (must be False).
        check_forward_ad: check forward mode (``jvp`` rules) too.
        check_backward_ad: check reverse mode (False: forward mode only).
        fast_mode: compare ``u^T J v`` for random unit vectors instead of Jacobians.
        masked: for sparse inputs that require grad. True perturbs only their stored
            values (the gradient of the unstored zeros is ignored, ``torch.sparse``
            semantics); False (the default) checks the full gradient, as if the input
            were dense with every position stored.

    Returns:
        True when every check passes.

    Example:
        >>> import minigrad as mg
        >>> x = mg.randn(3, dtype=mg.float64, requires_grad=True)
        >>> mg.autograd.gradcheck(lambda t: (t * t).sin(), (x,), check_forward_ad=True)
        True
    """
    batched = {"check_batched_grad": check_batched_grad}
    batched["check_batched_forward_grad"] = check_batched_forward_grad
    for flag, value in batched.items():
        if value:
            raise NotImplementedError(errors.BATCHED.format(flag=flag))
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError(errors.NO_CHECK.format(a="check_forward_ad", b="check_backward_ad"))
    func, inputs, diff = _prepare(func, inputs, masked)
    check = Checks(func, inputs, diff, eps, atol, rtol, nondet_tol, check_grad_dtypes)
    try:
        run = check.fast if fast_mode else check.slow
        run(check_backward_ad, check_forward_ad)
        if check_undefined_grad and check_backward_ad:
            check.undefined_backward()
        if check_undefined_grad and check_forward_ad:
            check.undefined_forward()
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def _prepare(func, inputs, masked):
    """Inputs as a tuple (sparse ones that require grad made dense leaves), and the
    positions of those that require grad."""
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    if any(has_sparse_layout(t) and t.requires_grad for t in inputs):
        func, inputs = densify_inputs(func, inputs, bool(masked))
    elif masked is not None:
        raise ValueError(errors.MASKED_DENSE)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not diff:
        raise ValueError(errors.NO_DIFF_INPUT)
    for i in diff:
        if inputs[i].dtype.name != "float64":
            warnings.warn(
                f"Input #{i} requires gradient and is not a double precision floating point "
                "(float64). This check will likely fail if all the inputs are not of double "
                "precision floating point.",
                UserWarning,
                stacklevel=3,
            )
    return func, inputs, diff


def gradgradcheck(
    func,
    inputs,
    grad_outputs=None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
    seed: int = 0,
) -> bool:
    """Check second derivatives: gradcheck of ``v -> grad(func(x), x, v, create_graph=True)``.

    Random ``grad_outputs`` (float64, from ``seed``; non-contiguous arrays with
    ``gen_non_contig_grad_outputs``) are used when not given; they take part in the check
    too, as in PyTorch. ``check_rev_over_rev`` checks that function by reverse mode (its
    backward is the second backward of ``func``), ``check_fwd_over_rev`` by forward mode
    (dual tensors through the backward pass). The other keywords go to :func:`gradcheck`.

    Example:
        >>> import minigrad as mg
        >>> x = mg.randn(3, dtype=mg.float64, requires_grad=True)
        >>> mg.autograd.gradgradcheck(lambda t: t.tanh(), (x,), check_fwd_over_rev=True)
        True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(errors.NO_CHECK.format(a="check_fwd_over_rev", b="check_rev_over_rev"))
    inputs = tuple(inputs) if isinstance(inputs, (tuple, list)) else (inputs,)
    diff = [i for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if grad_outputs is None:
        outs = jacobians.outputs_of(func, inputs)
        float_outs = [o for o in outs if o.is_floating_point() and o.requires_grad]
        grad_outputs = _random_like(float_outs, seed, gen_non_contig_grad_outputs)
    grad_outputs = tuple(grad_outputs)
    return gradcheck(
        _first_derivative(func, len(inputs), diff),
        inputs + grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        check_batched_grad=check_batched_grad,
        check_forward_ad=check_fwd_over_rev,
        check_backward_ad=check_rev_over_rev,
        fast_mode=fast_mode,
        masked=masked or None,  # None: no sparse input needs saying how to perturb it
    )


def _first_derivative(func, n_in: int, diff: list):
    """The function gradgradcheck checks: ``(*xs, *vs) -> grad(func(xs), xs[diff], vs)``, with
    ``create_graph=True`` so that it can be differentiated once more."""

    @enable_grad()
    def first_derivative(*args):
        xs, vs = args[:n_in], args[n_in:]
        for i in diff:  # the forward-mode check passes detached dual tensors
            if not xs[i].requires_grad:
                xs[i].requires_grad_()
        outs = jacobians.outputs_of(func, xs)
        ys = [o for o in outs if o.is_floating_point() and o.requires_grad]
        grads = autograd_grad(ys, [xs[i] for i in diff], vs, create_graph=True, allow_unused=True)
        # a sparse first derivative (an embedding's, kept sparse through a product) is checked
        # by its values: its dense form (differentiable, and zero off its fixed pattern)
        return tuple(g if g.layout == "strided" else g.to_dense() for g in grads if g is not None)

    return first_derivative


def _random_like(outs, seed: int, non_contiguous: bool) -> tuple:
    """Random leaves shaped like ``outs`` that require grad; strided views of a twice
    wider array when ``non_contiguous`` (PyTorch: ``gen_non_contig_grad_outputs``)."""
    rng = np.random.default_rng(seed)
    result = []
    for o in outs:
        values = rng.standard_normal(o.shape).astype(o._data.dtype)
        if non_contiguous and values.ndim:
            wide = np.zeros((*values.shape[:-1], 2 * values.shape[-1]), values.dtype)
            wide[..., ::2] = values
            values = wide[..., ::2]
        result.append(Tensor._make(values, True, None))
    return tuple(result)


__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]
