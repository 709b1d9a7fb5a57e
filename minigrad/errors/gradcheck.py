"""Every message of ``gradcheck`` / ``gradgradcheck``, in one place.

A failed check raises ``GradcheckError`` (a ``RuntimeError``, as in PyTorch) with one of
the ``MISMATCH``-style messages; a keyword minigrad cannot honour raises
``NotImplementedError`` naming it and why, never silently ignored.
"""

MISMATCH = (
    "{what} for output {out} with respect to input {inp}: at input element {elem} and "
    "output element {j}, analytical {a:.8g} but numerical {n:.8g} ({bad} of {size} entries "
    "differ).\nnumerical:\n{numerical}\nanalytical:\n{analytical}"
)
BACKWARD = "Jacobian mismatch"
FORWARD = "Jacobian computed with forward mode mismatch"
FAST_MISMATCH = (
    "{what} for output {out} with respect to input {inp} (fast mode: u^T J v for random unit "
    "vectors u and v): analytical {a:.8g} but numerical {n:.8g}. Run with fast_mode=False to "
    "see the whole Jacobians."
)
NOT_REENTRANT = (
    "Backward is not reentrant, i.e., running backward with same input and grad_output "
    "multiple times gives different values, although analytical gradient matches numerical "
    "gradient. The tolerance for nondeterminism was {tol}. (Output {out}, input {inp}: "
    "the two runs differ by up to {diff:.3g}; pass a larger nondet_tol= if that is expected.)"
)
GRAD_DTYPE = (
    "Gradient has dtype mismatch: the gradient of input {inp} has dtype {got} but the input "
    "has dtype {want}"
)
UNDEFINED_RAISED = (
    "Expected backward function to handle undefined output grads: backward raised when "
    "{which} of the outputs received no gradient (see the exception above; an output nobody "
    "differentiates must count as a zero gradient). check_undefined_grad=False skips this."
)
UNDEFINED_NONZERO = (
    "Expected all input grads to be undefined or zero when all output grads are undefined or "
    "zero (input {inp} got a nonzero gradient when {which} of the outputs received none)."
)
UNDEFINED_TANGENT = (
    "Mismatch in tangent values for output {out} when input {inp} has an undefined tangent: "
    "with no tangent (input {inp} not a dual tensor) {got}, with a zero tangent {want}; the "
    "two must agree (the other inputs carry the same random tangents in both runs)"
)
NO_CHECK = "Expected at least one of {a} or {b} to be True"
NO_DIFF_INPUT = "gradcheck expects at least one input tensor with requires_grad=True"
MASKED_DENSE = "gradcheck: masked= only applies to sparse inputs that require grad"
BATCHED = (
    "gradcheck({flag}=True) is not supported: minigrad.func.vmap is a loop over the batch "
    "with no batching rules, so a batched gradient is the looped one and there is nothing "
    "else to check; leave {flag}=False"
)
