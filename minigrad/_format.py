"""PyTorch-style printing of tensors: ``tensor([1., 2.], requires_grad=True)``."""

from __future__ import annotations

import numpy as np

from . import _dtype

_PREFIX = "tensor("


def _body(arr: np.ndarray) -> str:
    opts = dict(separator=", ", prefix=_PREFIX, threshold=1000, edgeitems=3, max_line_width=80)
    if arr.dtype.kind == "f" and arr.size:
        finite = arr[np.isfinite(arr)]
        integral = finite.size == 0 or bool(np.all(finite == np.round(finite)))
        big = finite.size and (
            np.abs(finite).max() >= 1e8 or 0 < np.abs(finite[finite != 0]).min(initial=1) < 1e-4
        )
        if integral and not big:
            return (
                np.array2string(arr, floatmode="unique", **opts)
                .replace(".0,", ".,")
                .replace(".0]", ".]")
            )
        if big:
            return np.array2string(arr, formatter={"float_kind": lambda v: f"{v:.4e}"}, **opts)
        return np.array2string(arr, precision=4, floatmode="fixed", suppress_small=True, **opts)
    return np.array2string(arr, **opts)


def tensor_repr(t) -> str:
    arr = t.data
    if arr.size == 0:
        body = "[]" if arr.ndim == 1 else f"[], size={tuple(arr.shape)}"
    else:
        body = _body(arr)
        if arr.ndim == 0 and body.endswith(".0"):
            body = body[:-1]
    extras = []
    d = t.dtype
    default = d is _dtype.defaults.float_dtype or d is _dtype.int64 or d is _dtype.bool_
    if not default:
        extras.append(f"dtype={d!r}")
    if t.grad_fn is not None:
        extras.append(f"grad_fn=<{t.grad_fn.name()}>")
    elif t.requires_grad:
        extras.append("requires_grad=True")
    return _PREFIX + body + "".join(", " + e for e in extras) + ")"
