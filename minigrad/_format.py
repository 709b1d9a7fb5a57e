"""PyTorch-style printing of tensors: ``tensor([1., 2.], requires_grad=True)``.

A port of ``torch/_tensor_str.py`` with PyTorch's default print options (precision 4,
threshold 1000, edgeitems 3, linewidth 80). One :class:`_Formatter` looks at every value
(or, for a summarised tensor, at the values that will be shown) and picks one of three
modes for the whole tensor, as PyTorch does:

- int mode: every finite value is a whole number: ``tensor([1., 2.])``;
- scientific: the nonzero finite magnitudes span more than a factor 1000, or reach above
  1e8 or below 1e-4: ``tensor([1.0000e-05, 1.0000e+00])``;
- fixed: four decimals, ``tensor([1.5000, 2.2500])``.

Every element is right-aligned to the widest nonzero finite value, so ``nan``, ``inf``
and zeros never widen the columns. The suffixes (``dtype=...``, ``grad_fn=<...>``,
``requires_grad=True``) follow the values, each moved to a new line when it would push
the last line past 80 characters.
"""

from __future__ import annotations

import math

import numpy as np

from . import _dtype, _traced

_PREFIX = "tensor("
PRECISION = 4
THRESHOLD = 1000  # more elements than this: print only the edges, with "..."
EDGEITEMS = 3
LINEWIDTH = 80


class _Formatter:
    """Text of one element, padded to a common width (``torch._tensor_str._Formatter``)."""

    def __init__(self, arr: np.ndarray):
        self.floating = arr.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            self.width = max(len(f"{v}") for v in arr.ravel().tolist())
            return
        # float64 for the range checks: float16 overflows at 1e8 (as PyTorch converts too)
        vals = arr.astype(np.float64).ravel()
        vals = vals[np.isfinite(vals) & (vals != 0)]
        if vals.size == 0:
            return
        mag = np.abs(vals)
        lo, hi = float(mag.min()), float(mag.max())
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        self.width = max(len(self._text(v)) for v in vals.tolist())

    def _text(self, value) -> str:
        if not self.floating:
            return f"{value}"
        if self.sci_mode:
            return f"{value:.{PRECISION}e}"
        if self.int_mode:
            return f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        return f"{value:.{PRECISION}f}"

    def format(self, value) -> str:
        """``value`` (a Python number) as text, right-aligned to the common width."""
        return self._text(value).rjust(self.width)


def _summarized(arr: np.ndarray) -> np.ndarray:
    """Only the values a summarised print shows: the first and last EDGEITEMS of each dim."""
    for axis, n in enumerate(arr.shape):
        if n > 2 * EDGEITEMS:
            keep = np.r_[0:EDGEITEMS, n - EDGEITEMS : n]
            arr = np.take(arr, keep, axis=axis)
    return arr


def _vector_str(arr: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """A 1-D tensor, wrapped so no line passes LINEWIDTH."""
    per_line = max(1, (LINEWIDTH - indent) // (fmt.width + 2))
    if summarize and arr.shape[0] > 2 * EDGEITEMS:
        head, tail = arr[:EDGEITEMS].tolist(), arr[-EDGEITEMS:].tolist()
        items = [fmt.format(v) for v in head] + [" ..."] + [fmt.format(v) for v in tail]
    else:
        items = [fmt.format(v) for v in arr.tolist()]
    lines = [", ".join(items[i : i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested_str(arr: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """An n-D tensor: its rows, one blank line more between blocks per extra dim."""
    if arr.ndim == 0:
        return fmt.format(arr.item())
    if arr.ndim == 1:
        return _vector_str(arr, indent, summarize, fmt)
    n = arr.shape[0]
    if summarize and n > 2 * EDGEITEMS:
        rows = [*range(EDGEITEMS), None, *range(n - EDGEITEMS, n)]
    else:
        rows = range(n)
    parts = ["..." if i is None else _nested_str(arr[i], indent + 1, summarize, fmt) for i in rows]
    return "[" + ("," + "\n" * (arr.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _values_str(arr: np.ndarray, indent: int) -> str:
    """The values of a non-empty tensor (``torch._tensor_str._tensor_str``)."""
    summarize = arr.size > THRESHOLD
    fmt = _Formatter(_summarized(arr) if summarize else arr)
    return _nested_str(arr, indent, summarize, fmt)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` items, starting a new line where one would pass LINEWIDTH."""
    # PyTorch's count: the last line's length plus 2 (or plus 2 more with no newline at all)
    last_line_len = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    return "".join(parts) + ")"


def _suffixes(t, arr: np.ndarray) -> list[str]:
    """``size=``, ``dtype=`` and autograd suffixes, in PyTorch's order and on its rules."""
    out = []
    d = t.dtype
    if arr.size == 0:  # an empty tensor names every dtype but the default float one
        if arr.ndim != 1:
            out.append(f"size={tuple(arr.shape)}")
        if d is not _dtype.defaults.float_dtype:
            out.append(f"dtype={d!r}")
    elif d not in (_dtype.defaults.float_dtype, _dtype.int64, _dtype.bool_):
        out.append(f"dtype={d!r}")
    if t.grad_fn is not None:
        out.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        out.append("requires_grad=True")
    return out


def tensor_repr(t) -> str:
    """``repr`` of a dense tensor, as PyTorch prints it (with ``minigrad.`` dtypes).

    Example:
        >>> import minigrad as mg
        >>> mg.tensor([1e-5, 1.0])
        tensor([1.0000e-05, 1.0000e+00])
        >>> mg.tensor([[1.5, -2.0], [3.0, 4.0]], dtype=mg.float64, requires_grad=True)
        tensor([[ 1.5000, -2.0000],
                [ 3.0000,  4.0000]], dtype=minigrad.float64, requires_grad=True)
    """
    if _traced.is_traced(t._data):  # make_jaxpr / jit: a shape and a dtype only
        return f"Traced<{t._data.describe()}>"
    arr = np.asarray(t._data)
    indent = len(_PREFIX)
    body = "[]" if arr.size == 0 else _values_str(arr, indent)
    return _add_suffixes(_PREFIX + body, _suffixes(t, arr), indent)
