"""PyTorch-style printing of tensors: ``tensor([1., 2.], requires_grad=True)``.

A port of ``torch/_tensor_str.py``'s rules, with its print options (precision 4, threshold
1000, edgeitems 3, linewidth 80 unless ``set_printoptions`` changes them). One :class:`_Formatter` looks at every value
(or, for a summarised tensor, at the values that will be shown) and picks one of three
modes for the whole tensor, as PyTorch does:

- int mode: every finite value is a whole number: ``tensor([1., 2.])``;
- scientific: the nonzero finite magnitudes span more than a factor 1000, or reach above
  1e8 or below 1e-4: ``tensor([1.0000e-05, 1.0000e+00])``;
- fixed: four decimals (``precision``), ``tensor([1.5000, 2.2500])``.

Every element is right-aligned to the widest nonzero finite value, so ``nan``, ``inf``
and zeros never widen the columns. The suffixes (``dtype=...``, ``grad_fn=<...>``,
``requires_grad=True``) follow the values, each moved to a new line when it would push
the last line past 80 characters.
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from . import _dtype, _traced
from .errors import tensor_ops as _errors

_PREFIX = "tensor("


class PrintOptions:
    """What ``set_printoptions`` changes (``torch._tensor_str.PRINT_OPTS``), PyTorch's defaults:

    - ``precision``: digits after the point (fixed) or in the mantissa (scientific);
    - ``threshold``: more elements than this: print only the edges, with ``...``;
    - ``edgeitems``: how many items each summarised dim shows at each end;
    - ``linewidth``: characters per line before a row wraps (and a suffix moves down);
    - ``sci_mode``: None lets each tensor choose (see :class:`_Formatter`), True or False forces.
    """

    def __init__(self):
        self.precision, self.threshold, self.edgeitems, self.linewidth = 4, 1000, 3, 80
        self.sci_mode = None


PRINT_OPTS = PrintOptions()
_PROFILES = {  # PyTorch's three: (precision, threshold, edgeitems, linewidth)
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def _checked(name: str, value, low: int):
    """An option's value, or a TypeError/ValueError naming it and what it accepts."""
    if name == "threshold":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        what = "a number (math.inf: never summarise)"
    else:
        ok = isinstance(value, int) and not isinstance(value, bool)
        what = f"an int >= {low}"
    if not ok:
        raise TypeError(_errors.PRINT_OPTION_TYPE.format(name=name, what=what, got=value))
    if value < low:
        raise ValueError(_errors.PRINT_OPTION_VALUE.format(name=name, what=what, got=value))
    return value


def set_printoptions(
    precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None
) -> None:
    """Options for printing tensors (``torch.set_printoptions``), with PyTorch's rules.

    ``profile`` (``"default"``, ``"short"`` or ``"full"``) sets the four numbers first; the
    options given override it. ``sci_mode`` is set on every call: leaving it out returns
    it to None (automatic), as in PyTorch. Unlike PyTorch, a bad value is refused here, not
    at the next print, and an unknown profile raises instead of doing nothing.

    Example:
        >>> import minigrad as mg
        >>> mg.set_printoptions(precision=2)
        >>> mg.tensor([1.12345])
        tensor([1.12])
        >>> mg.set_printoptions(threshold=5)
        >>> mg.arange(10)
        tensor([0, 1, 2,  ..., 7, 8, 9])
        >>> mg.set_printoptions(profile="default")
        >>> mg.tensor([1.12345])
        tensor([1.1235])
    """
    if profile is not None:
        if profile not in _PROFILES:
            raise ValueError(_errors.PRINT_PROFILE.format(got=profile, accepted=list(_PROFILES)))
        o = PRINT_OPTS
        o.precision, o.threshold, o.edgeitems, o.linewidth = _PROFILES[profile]
    for name, value, low in (
        ("precision", precision, 0),
        ("threshold", threshold, 0),
        ("edgeitems", edgeitems, 0),
        ("linewidth", linewidth, 1),
    ):
        if value is not None:
            setattr(PRINT_OPTS, name, _checked(name, value, low))
    if sci_mode is not None and not isinstance(sci_mode, bool):
        raise TypeError(_errors.PRINT_SCI_MODE.format(got=sci_mode))
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict:
    """The current print options as a dict ``set_printoptions(**d)`` takes back."""
    return dict(vars(PRINT_OPTS))


@contextlib.contextmanager
def printoptions(**kwargs):
    """Print options changed inside a ``with`` block only (``torch._tensor_str.printoptions``)."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Text of one element, padded to a common width (``torch._tensor_str._Formatter``)."""

    def __init__(self, arr: np.ndarray):
        self.floating = arr.dtype.kind == "f"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            self.width = max((len(f"{v}") for v in arr.ravel().tolist()), default=1)
            return
        # float64 for the range checks: float16 overflows at 1e8 (as PyTorch converts too)
        vals = arr.astype(np.float64).ravel()
        vals = vals[np.isfinite(vals) & (vals != 0)]
        if vals.size == 0:
            return
        mag = np.abs(vals)
        lo, hi = float(mag.min()), float(mag.max())
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        self.sci_mode = PRINT_OPTS.sci_mode
        if self.sci_mode is None:
            self.sci_mode = hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4
        self.width = max(len(self._text(v)) for v in vals.tolist())

    def _text(self, value) -> str:
        if not self.floating:
            return f"{value}"
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            return f"{value:.0f}" + ("" if math.isinf(value) or math.isnan(value) else ".")
        return f"{value:.{PRINT_OPTS.precision}f}"

    def format(self, value) -> str:
        """``value`` (a Python number) as text, right-aligned to the common width."""
        return self._text(value).rjust(self.width)


def _summarized(arr: np.ndarray) -> np.ndarray:
    """Only the values a summarised print shows: the first and last edgeitems of each dim."""
    edge = PRINT_OPTS.edgeitems
    for axis, n in enumerate(arr.shape):
        if n > 2 * edge:
            keep = np.r_[0:edge, n - edge : n]
            arr = np.take(arr, keep, axis=axis)
    return arr


def _vector_str(arr: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    """A 1-D tensor, wrapped so no line passes the linewidth."""
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / (fmt.width + 2)))
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:  # PyTorch: nothing but the dots
        items = ["..."]
    elif summarize and arr.shape[0] > 2 * edge:
        head, tail = arr[:edge].tolist(), arr[-edge:].tolist()
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
    n, edge = arr.shape[0], PRINT_OPTS.edgeitems
    if summarize and n > 2 * edge:
        rows = [*range(edge), None, *range(n - edge, n)]
    else:
        rows = range(n)
    parts = ["..." if i is None else _nested_str(arr[i], indent + 1, summarize, fmt) for i in rows]
    return "[" + ("," + "\n" * (arr.ndim - 1) + " " * (indent + 1)).join(parts) + "]"


def _values_str(arr: np.ndarray, indent: int) -> str:
    """The values of a non-empty tensor (``torch._tensor_str._tensor_str``)."""
    summarize = arr.size > PRINT_OPTS.threshold
    fmt = _Formatter(_summarized(arr) if summarize else arr)
    return _nested_str(arr, indent, summarize, fmt)


def _add_suffixes(text: str, suffixes: list[str], indent: int) -> str:
    """Append ``, suffix`` items, starting a new line where one would pass the linewidth."""
    # PyTorch's count: the last line's length plus 2 (or plus 2 more with no newline at all)
    last_line_len = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
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
    else:
        if not PRINT_OPTS.edgeitems:  # PyTorch: its values may all be dots, so the shape
            out.append(f"size={tuple(arr.shape)}")
        if d not in (_dtype.defaults.float_dtype, _dtype.int64, _dtype.bool_):
            out.append(f"dtype={d!r}")
    t.is_leaf  # noqa: B018  (reads grad_fn, as PyTorch's repr: see UNREAD_GRAD_FN)
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
