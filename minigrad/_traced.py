"""The data of a traced tensor: an array with a shape and a dtype whose values refuse to be read.

``make_jaxpr`` and ``jit`` (``minigrad/func/tracing.py``) run a function on tensors whose
``_data`` is a :class:`TracedArray`: zeros of the right shape and dtype (JAX would say: a
tracer whose abstract value is a ``ShapedArray``). While an op runs under the tracer
(``state.evaluating``), numpy computes on those zeros as usual: that is how the tracer learns
the shape and dtype of the op's output, by running the op's own ``forward`` (an op's output
shape never depends on its input values, except boolean-mask indexing, which the tracer
refuses). Anywhere else, any read of the values raises :class:`ConcretizationTypeError`:
Python control flow on a tensor (``bool``), conversions (``float``, ``item``, ``tolist``,
``numpy``), and numpy code in minigrad that computes outside an op. So a traced program is
either right, or an error that names the value; never a program silently built from zeros.
A tensor's conversions (``tensor.py``) call the array's own (``.numpy()`` and ``np.asarray``
its ``__array__``, ``float`` its ``__float__`` ...), so the refusals live here alone and name
the read; ``tensor.py`` knows nothing of tracing.

``program_var`` is the program variable the array stands for (set by the tracer); an array
numpy derives from one (a view, an ``astype`` copy, a ufunc's result inside a forward) has
``program_var = None`` and remembers ``origin``, the variable it came from, for the messages;
such an array reaching an op (minigrad code that computed with numpy outside an op) is
refused too.
"""

from __future__ import annotations

import numpy as np

from .errors import jit as errors


class _State:
    evaluating = False  # an op's forward runs under the tracer: numpy may compute on zeros


state = _State()


class TracedArray(np.ndarray):
    """Zeros standing for the values of a traced tensor; reading them raises outside an op."""

    program_var = None  # the program variable this array is (minigrad.func.jaxpr.Var), or None
    origin = None  # the variable it was derived from, for error messages

    def __array_finalize__(self, obj):
        self.program_var = None
        self.origin = getattr(obj, "program_var", None) or getattr(obj, "origin", None)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if not state.evaluating:
            refuse(self, f"numpy's {ufunc.__name__}()", library=True)
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = tuple(_plain(o) for o in out)
        result = getattr(ufunc, method)(*_plain(inputs), **kwargs)
        return out[0] if out is not None and len(out) == 1 else _derived(result, self)

    def __array_function__(self, func, types, args, kwargs):
        if func in _METADATA:  # shapes and dtypes only: allowed anywhere
            return func(*_plain(args), **_plain(kwargs))
        if not state.evaluating:
            refuse(self, f"numpy's {func.__name__}()", library=True)
        return _derived(func(*_plain(args), **_plain(kwargs)), self)

    def describe(self) -> str:
        """``f32[3] computed from argument 'x'`` (what the messages say about this value)."""
        source = self.program_var or self.origin
        text = source.describe() if source is not None else ""
        return text or f"{short_dtype(self.dtype)}{list(self.shape)}".replace(" ", "")

    def __repr__(self) -> str:
        return f"TracedArray({self.describe()})"

    __str__ = __repr__


_METADATA = {np.shape, np.ndim, np.size, np.result_type, np.may_share_memory, np.shares_memory}


def _reader(name: str, what: str):
    """A method of ndarray that reads values: refused outside an op's forward."""
    plain = getattr(np.ndarray, name)

    def method(self, *args, **kwargs):
        if not state.evaluating:
            refuse(self, what, library=name not in _USER_CONVERSIONS)
        return plain(self, *args, **kwargs)

    method.__name__ = name
    return method


_USER_CONVERSIONS = ("__bool__", "__float__", "__int__", "__index__", "__array__", "item", "tolist")
for _name, _what in (
    ("__bool__", "bool() (an if or while on a tensor)"),
    ("__float__", "float()"),
    ("__int__", "int()"),
    ("__index__", "using a tensor as a Python int (range(n), a list index)"),
    ("__array__", "np.asarray() or .numpy()"),
    ("__complex__", "complex()"),
    ("__iter__", "iterating over an array"),
    ("__getitem__", "reading array elements"),
    ("__setitem__", "writing array elements"),
    ("item", ".item()"),
    ("tolist", ".tolist()"),
    ("tobytes", ".tobytes()"),
    ("argmax", ".argmax()"),
    ("argmin", ".argmin()"),
    ("argsort", ".argsort()"),
    ("sort", ".sort()"),
    ("nonzero", ".nonzero()"),
    ("dot", ".dot()"),
    ("take", ".take()"),
):
    setattr(TracedArray, _name, _reader(_name, _what))


def refuse(data: TracedArray, what: str, library: bool = False, inplace: bool = False) -> None:
    """Raise :class:`ConcretizationTypeError`: ``what`` needed the values of ``data``."""
    if what == BACKWARD:
        hint = errors.HINT_BACKWARD
    elif inplace or what in ("numpy's copyto()", "writing array elements"):
        hint = errors.HINT_INPLACE
    elif library:
        hint = errors.HINT_LIBRARY.format(op=what) + " " + _static_hint(data)
    else:
        hint = _static_hint(data)
    template = errors.INPLACE if inplace else errors.CONCRETE
    raise errors.ConcretizationTypeError(
        template.format(what=what, value=data.describe(), hint=hint)
    )


BACKWARD = "backward()"  # what accumulating into .grad is called (replaying/leaf_grad.py)


def _static_hint(data: TracedArray) -> str:
    source = data.program_var or data.origin
    nums = source.static_argnums() if source is not None else ()
    if not nums:
        return errors.HINT_STATIC_NONE
    return errors.HINT_STATIC.format(nums=nums)


def check_concrete(data, what: str) -> None:
    """Raise if ``data`` (a tensor's ``_data``) is traced; ``what`` names the conversion."""
    if type(data) is TracedArray:
        refuse(data, what)


def is_traced(data) -> bool:
    return type(data) is TracedArray


def check_writable(t, op: str) -> None:
    """An in-place op on a traced tensor ``t``: allowed on a tensor the traced function made
    (``y = x * 2; y += 1``: ``y`` simply takes the new value, as a program has no memory to
    write into), refused on a view (its base would have to change too) and on an input (the
    caller's tensor would not change, as it does when the function runs eagerly)."""
    data = t._data
    if t._base is not None:
        refuse(data, f"{op}() on a view", inplace=True)
    if data.program_var is not None and data.program_var.is_input:
        refuse(data, f"{op}() on an input of the traced function", inplace=True)


def _plain(x):
    """``x`` with every TracedArray in it (also in tuples, lists, dicts) as a plain ndarray."""
    if type(x) is TracedArray:
        return x.view(np.ndarray)
    if isinstance(x, (tuple, list)):
        return type(x)(_plain(v) for v in x)
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def _derived(result, like: TracedArray):
    """numpy's result inside a forward, as TracedArrays derived from ``like`` (arrays only)."""
    if isinstance(result, np.generic):  # a 0-d result stays an array (numpy's out=...)
        result = np.asarray(result)
    if type(result) is np.ndarray:
        out = result.view(TracedArray)
        out.origin = like.program_var or like.origin
        return out
    if isinstance(result, tuple):
        return tuple(_derived(r, like) for r in result)
    return result


_SHORT = {"f": "f", "i": "i", "u": "u", "c": "c"}


def short_dtype(dtype) -> str:
    """JAX's short dtype names: ``f32``, ``i64``, ``u8``, ``bool``."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return "bool"
    return f"{_SHORT.get(dtype.kind, dtype.kind)}{dtype.itemsize * 8}"
