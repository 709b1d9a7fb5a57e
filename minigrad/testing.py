"""``minigrad.testing.assert_close``: PyTorch's ``torch.testing.assert_close``, with its
default tolerances per dtype and its failure messages, so a test written for one library
reads the same on the other.

Example:
    >>> import minigrad as mg
    >>> mg.testing.assert_close(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.0 + 1e-7]))
    >>> mg.testing.assert_close(mg.tensor([1.0, 2.0]), mg.tensor([1.0, 2.5]))
    Traceback (most recent call last):
        ...
    AssertionError: Tensor-likes are not close!
    <BLANKLINE>
    Mismatched elements: 1 / 2 (50.0%)
    Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)
    Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)
"""

from __future__ import annotations

import collections.abc
import numbers

import numpy as np

from . import _dtype, errors
from .tensor import Tensor

#: (rtol, atol) when neither is given, by dtype (PyTorch's table); other dtypes: exact
DEFAULT_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


class _Mismatch(Exception):
    """A failed comparison: its message, and the path of items it happened at."""

    def __init__(self, message: str, kind=AssertionError):
        super().__init__(message)
        self.message, self.kind, self.path = message, kind, []


def assert_close(
    actual,
    expected,
    *,
    allow_subclasses: bool = True,
    rtol: float | None = None,
    atol: float | None = None,
    equal_nan: bool = False,
    check_device: bool = True,
    check_dtype: bool = True,
    check_layout: bool = True,
    check_stride: bool = False,
    msg=None,
) -> None:
    """Raise AssertionError unless ``actual`` and ``expected`` are close: tensors (or numpy
    arrays) of the same shape, dtype and layout whose elements satisfy
    ``|actual - expected| <= atol + rtol * |expected|``, or numbers, or sequences and
    mappings of them, compared item by item (``torch.testing.assert_close``). Without
    ``rtol``/``atol`` the dtype's defaults apply (float32: 1.3e-6 and 1e-5); integers and
    bools must be equal. ``msg`` replaces the message (a callable receives it)."""
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise ValueError(errors.ASSERT_CLOSE_TOLERANCES.format(missing=missing))
    options = {"rtol": rtol, "atol": atol, "equal_nan": equal_nan, "check_dtype": check_dtype,
               "check_layout": check_layout, "check_stride": check_stride}  # fmt: skip
    try:
        _compare(actual, expected, options)
    except _Mismatch as failure:
        text = failure.message
        if msg is not None:
            text = msg(text) if callable(msg) else msg
        if failure.path:
            text += "\n\nThe failure occurred for item " + "".join(f"[{k!r}]" for k in failure.path)
        raise failure.kind(text) from None


def _compare(actual, expected, options) -> None:
    tensors = (Tensor, np.ndarray)
    if isinstance(actual, tensors) and type(actual) is type(expected):
        return _compare_tensors(_as_tensor(actual), _as_tensor(expected), options)
    if isinstance(actual, (bool, np.bool_)) and isinstance(expected, (bool, np.bool_)):
        if bool(actual) != bool(expected):
            raise _Mismatch(f"Booleans mismatch: {actual} is not {expected}")
        return None
    if _is_number(actual) and _is_number(expected):
        return _compare_numbers(actual, expected, options)
    if _is_sequence(actual) and _is_sequence(expected):
        if len(actual) != len(expected):
            raise _Mismatch(
                f"The length of the sequences mismatch: {len(actual)} != {len(expected)}"
            )
        for i, (a, e) in enumerate(zip(actual, expected)):
            _at(i, a, e, options)
        return None
    if isinstance(actual, collections.abc.Mapping) and isinstance(
        expected, collections.abc.Mapping
    ):
        if set(actual) != set(expected):
            missing = sorted(set(expected) - set(actual), key=str)
            extra = sorted(set(actual) - set(expected), key=str)
            raise _Mismatch(
                "The keys of the mappings do not match:\n"
                f"Missing keys in the actual mapping: {missing}\n"
                f"Additional keys in the actual mapping: {extra}"
            )
        for key in actual:
            _at(key, actual[key], expected[key], options)
        return None
    raise _Mismatch(
        errors.ASSERT_CLOSE_TYPES.format(a=type(actual), e=type(expected)), kind=TypeError
    )


def _at(key, actual, expected, options) -> None:
    try:
        _compare(actual, expected, options)
    except _Mismatch as failure:
        failure.path.insert(0, key)
        raise


def _is_number(x) -> bool:
    return isinstance(x, numbers.Number) and not isinstance(x, (bool, np.bool_))


def _is_sequence(x) -> bool:
    return isinstance(x, collections.abc.Sequence) and not isinstance(x, str)


def _as_tensor(x) -> Tensor:
    return x if isinstance(x, Tensor) else Tensor._make(x, False, None)


def _tolerances(options, *dtypes) -> tuple[float, float]:
    if options["rtol"] is not None:
        return options["rtol"], options["atol"]
    pairs = [DEFAULT_TOLERANCES.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _compare_numbers(actual, expected, options) -> None:
    if options["check_dtype"] and type(actual) is not type(expected):
        raise _Mismatch(f"The (d)types do not match: {type(actual)} != {type(expected)}.")
    kinds = ["float64" if isinstance(x, float) else "int64" for x in (actual, expected)]
    rtol, atol = _tolerances(options, *kinds)
    a, e = np.asarray(actual), np.asarray(expected)
    if bool(_close(a, e, rtol, atol, options["equal_nan"])):
        return
    raise _Mismatch(_scalar_message(actual, expected, rtol, atol))


def _attribute(name: str, a, e) -> _Mismatch:
    return _Mismatch(f"The values for attribute '{name}' do not match: {a} != {e}.")


def _compare_tensors(actual: Tensor, expected: Tensor, options) -> None:
    if actual.shape != expected.shape:
        raise _attribute("shape", actual.shape, expected.shape)
    if options["check_dtype"] and actual.dtype is not expected.dtype:
        raise _attribute("dtype", actual.dtype, expected.dtype)
    if options["check_layout"] and actual.layout != expected.layout:
        raise _attribute("layout", actual.layout, expected.layout)
    if options["check_stride"] and actual.stride() != expected.stride():
        raise _attribute("stride()", actual.stride(), expected.stride())
    rtol, atol = _tolerances(options, actual.dtype.name, expected.dtype.name)
    common = _dtype.promote(actual.dtype, expected.dtype)
    a, e = (_dense(t).astype(common.np, copy=False) for t in (actual, expected))
    matches = _close(a, e, rtol, atol, options["equal_nan"])
    if matches.all():
        return
    if a.ndim == 0:
        raise _Mismatch(_scalar_message(a.item(), e.item(), rtol, atol))
    raise _Mismatch(_tensor_message(a, e, matches, rtol, atol))


def _dense(t: Tensor) -> np.ndarray:
    return np.asarray((t.to_dense() if t.layout != "strided" else t).detach()._data)


def _close(a: np.ndarray, e: np.ndarray, rtol: float, atol: float, equal_nan: bool):
    """PyTorch's isclose: equal, or |a - e| <= atol + rtol |e| (finite); NaNs as asked."""
    if a.dtype == np.bool_ or (rtol == 0 and atol == 0):
        same = a == e
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            gap = np.abs(a.astype(np.float64) - e.astype(np.float64))
            same = (a == e) | (
                np.isfinite(gap) & (gap <= atol + rtol * np.abs(e.astype(np.float64)))
            )
    if equal_nan and a.dtype.kind == "f":
        same = same | (np.isnan(a) & np.isnan(e))
    return np.asarray(same)


def _scalar_message(actual, expected, rtol, atol) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _message("Scalars", f"Expected {expected} but got {actual}.", abs_diff, None, rel_diff,
                    None, rtol, atol)  # fmt: skip


def _tensor_message(a, e, matches, rtol, atol) -> str:
    shape, n, bad = matches.shape, matches.size, int(matches.size - matches.sum())
    extra = f"Mismatched elements: {bad} / {n} ({bad / n:.1%})"
    a, e, matches = a.ravel(), e.ravel(), matches.ravel()
    if a.dtype.kind not in "f":
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        abs_diff = np.abs(a - e)
        abs_diff[matches] = 0
        denominator = np.abs(e)
        if denominator.dtype.kind != "f":  # PyTorch divides integers in the default dtype
            float_np = _dtype.get_default_dtype().np
            abs_float, denominator = abs_diff.astype(float_np), denominator.astype(float_np)
        else:
            abs_float = abs_diff
        rel_diff = abs_float / denominator
    rel_diff[matches] = 0
    i, j = _argmax(abs_diff), _argmax(rel_diff)
    return _message("Tensor-likes", extra, abs_diff[i].item(), _index(i, shape),
                    rel_diff[j].item(), _index(j, shape), rtol, atol)  # fmt: skip


def _argmax(x: np.ndarray) -> int:
    """The first NaN, else the first largest (torch.max's index)."""
    if x.dtype.kind == "f" and np.isnan(x).any():
        return int(np.argmax(np.isnan(x)))
    return int(np.argmax(x))


def _index(flat: int, shape: tuple) -> tuple:
    return tuple(int(k) for k in np.unravel_index(flat, shape))


def _message(kind, extra, abs_diff, abs_idx, rel_diff, rel_idx, rtol, atol) -> str:
    equality = rtol == 0 and atol == 0
    lines = [f"{kind} are not {'equal' if equality else 'close'}!", "", extra]
    for name, diff, idx, tol in (
        ("absolute", abs_diff, abs_idx, atol),
        ("relative", rel_diff, rel_idx, rtol),
    ):
        line = (
            f"{name.title()} difference: {diff}"
            if idx is None
            else f"Greatest {name} difference: {diff} at index {idx}"
        )
        lines.append(line if equality else f"{line} (up to {tol} allowed)")
    return "\n".join(lines)
