"""Every error message of ``minigrad.func.make_jaxpr`` and ``minigrad.func.jit``, in one place.

``ConcretizationTypeError`` is JAX's name (``jax.errors.ConcretizationTypeError``, a
``TypeError``) for the one mistake tracing cannot forgive: Python code that needs the
*value* of a traced tensor, which has only a shape and a dtype.
"""


class ConcretizationTypeError(TypeError):
    """Python needed the value of a traced tensor (``if x > 0``, ``float(x)``, ``x.item()``,
    ``x.tolist()``, ``np.asarray(x)``) while ``make_jaxpr`` or ``jit`` traced a function.

    The message names the value (its shape and dtype, and the arguments it was computed
    from) and suggests ``static_argnums``.
    """


# --- values a trace does not have ------------------------------------------------------------
CONCRETE = (
    "{what} needs the value of a traced tensor: {value}. While make_jaxpr or jit traces a "
    "function, its tensors have a shape and a dtype but no values, so Python control flow "
    "(if/while on a tensor, bool()) and conversions (float(), int(), .item(), .tolist(), "
    ".numpy(), np.asarray) cannot depend on them. {hint}"
)
INPLACE = "{what} writes into a traced tensor ({value}), which a traced program cannot do. {hint}"
HINT_STATIC = (
    "If the value is known before the call, pass it as a Python value and mark its argument "
    "static: jit(f, static_argnums={nums}); otherwise compute with tensor ops "
    "(mg.where(c, a, b) instead of `a if c else b`)."
)
HINT_STATIC_NONE = (
    "If the value is known before the call, pass it as a Python value and mark its argument "
    "static with static_argnums; otherwise compute with tensor ops "
    "(mg.where(c, a, b) instead of `a if c else b`)."
)
HINT_INPLACE = (
    "An in-place op (y += 1, y[i] = v, y.add_(z)) may write into a tensor the traced function "
    "made itself (y = x * 1), which then takes the new value; not into one of its inputs, a "
    "view, or a tensor from outside (a closed-over one, an optimizer step): use the "
    "out-of-place op (x = x + 1) and return the new value."
)
HINT_BACKWARD = (
    "backward() writes .grad, which a traced program cannot do: use mg.func.grad (or "
    "mg.autograd.grad) inside the traced function and return the gradients."
)
HINT_LIBRARY = (
    "The value was read by minigrad code that computes with numpy outside an op ({op}); "
    "such code cannot be traced (the traceback shows where)."
)
BOOL_INDEX = (
    "indexing with a traced boolean tensor ({value}) gives a result whose shape depends on "
    "its values, which a traced program cannot have; use mg.where(mask, x, 0) instead of "
    "x[mask], or pass the mask as a static value"
)
NESTED = (
    "{what} got a tensor traced by another, enclosing make_jaxpr/jit ({value}); pass it in "
    "as an argument of the inner function instead of closing over it"
)
RANDOM = (
    "random numbers inside a traced function ({fn}) would be drawn once, while make_jaxpr or "
    "jit traces it, and then replayed as constants by every call; draw them outside and pass "
    "them in as an argument (e.g. a dropout mask), or call the function without jit"
)
SPARSE = (
    "{what}: make_jaxpr and jit trace dense tensors only; {where} is a {layout} tensor "
    "(use .to_dense(), or call the function without jit)"
)

# --- arguments of make_jaxpr / jit --------------------------------------------------------
NOT_CALLABLE = "{name}: expected a callable function, got {got}"
ARGNUMS_TYPE = "{name}: static_argnums must be an int or a tuple of ints, got {got!r}"
ARGNUMS_RANGE = (
    "{name}(f, static_argnums={nums!r}): f accepts {count} positional argument(s), so "
    "argument {n} does not exist"
)
ARGNUMS_CALL = (
    "{name}(f, static_argnums={nums!r}): called with {count} positional argument(s), so the "
    "static argument {n} is missing; pass it positionally"
)
UNHASHABLE = (
    "Non-hashable static arguments are not supported: static argument {i} of {fn} is a "
    "{got}, and static arguments are keys of the cache of traced programs; pass a hashable "
    "value (a number, string, tuple, frozenset) instead"
)
STATIC_TENSOR = (
    "static argument {i} of {fn} is a Tensor; static arguments are hashed by value into the "
    "cache key, which a tensor is not: leave it dynamic (traced), or pass a Python number or "
    "tuple instead"
)
ARG_TYPE = (
    "{fn}: argument {where} is a {got}; make_jaxpr and jit trace Tensors (and Python "
    "numbers, as 0-d tensors), in tuples, lists and dicts. {hint}"
)
ARG_TYPE_STATIC = "Mark it static with static_argnums=({i},) to pass it as it is"
ARG_TYPE_KEYWORD = "Pass it positionally and mark it static with static_argnums to pass it as it is"
OUT_TYPE = (
    "{fn}: output {where} is a {got}; a traced function must return Tensors (or tuples, "
    "lists and dicts of them)"
)
