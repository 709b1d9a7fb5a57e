"""Messages of ``minigrad.autograd.functional`` (PyTorch's wording: a student who meets one
here recognises it in ``torch.autograd.functional``)."""

NOT_TENSORS = (
    "The {what} given to {fn} must be either a Tensor or a tuple of Tensors but the given "
    "{what} has type {got}."
)
V_LENGTH = "v is a tuple of invalid length: should be {want} but got {got}."
V_SIZE = "v has invalid size: should be {want} but got {got}."
V_NONE_OUTPUT = (
    "The vector v can only be None if the user-provided function returns a single Tensor "
    "with a single element."
)
V_NONE_INPUT = (
    "The vector v can only be None if the input to the user-provided function is a single "
    "Tensor with a single element."
)
STRICT_NO_GRAD = (
    "Output {i} of the user-provided function does not require gradients. The outputs must "
    "be computed in a differentiable manner from the input when running in strict mode."
)
STRICT_VJP = (
    "The output of the user-provided function is independent of input {i}. This is not "
    "allowed in strict mode."
)
STRICT_JACOBIAN = (
    "Output {out} of the user-provided function is independent of input {i}. This is not "
    "allowed in strict mode."
)
STRICT_DOUBLE_BACK = (
    "The gradient with respect to the input is independent of entry {i} in the grad_outputs "
    "when using the double backward trick to compute forward mode gradients. This is not "
    "allowed in strict mode."
)
STRICT_HESSIAN = (
    "While computing the hessian, found that the jacobian of the user-provided function with "
    "respect to input {i} is independent of the input. This is not allowed in strict mode. "
    "You should ensure that your function is twice differentiable and that the jacobian "
    "depends on the inputs."
)
SINGLE_TENSOR = "The function given to {fn} should return a single Tensor"
SINGLE_ELEMENT = "The Tensor returned by the function given to {fn} should contain a single element"
STRATEGY = (
    'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your function '
    'has more outputs than inputs, "forward-mode" tends to be more performant. Otherwise, '
    'prefer to use "reverse-mode".'
)
FORWARD_NEEDS_VECTORIZE = (
    "Computing Jacobian using forward-AD or forward-over-reverse Hessian isonly implemented for "
    "`vectorize=True`."
)
FORWARD_STRICT = (
    'minigrad.autograd.functional.{fn}: `strict=True` and `strategy="forward-mode"` are not '
    'supported together (yet). Please either set `strict=False` or `strategy="reverse-mode"`.'
)
BATCHED_GRAD_OUTPUTS = (
    "autograd.grad(is_grads_batched=True) takes grad_outputs with a leading batch dimension "
    "(one Tensor per output, row b a gradient of that output)"
)
BATCHED_SIZES = (
    "autograd.grad(is_grads_batched=True): every grad_outputs tensor needs the same batch size "
    "(its first dimension); got {sizes}"
)
