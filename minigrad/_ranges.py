"""The values of ``arange`` and ``linspace`` as PyTorch's CPU kernels compute them, bit for bit,
so that a lecture's ``torch.arange(-8.0, 8.0, 0.1)`` prints the same digits (numpy's
``arange`` adds multiples of ``(start + step) - start``, which is not ``step``: its middle
element there is -2.8e-14 where PyTorch's is 4.4e-16).

Both kernels compute in float64 (PyTorch's accumulation type for float32 and float64) with
fused multiply-adds, rounded once to the dtype at the end; :func:`fma` is that operation
in numpy (``random`` scales float64 uniforms and normals with it too, as PyTorch's
samplers do).
"""

from __future__ import annotations

import numpy as np

_VECTOR_BYTES = 32  # one AVX2 register: the width PyTorch's arange kernel fills at a time


def arange_values(start, end, step, dt: np.dtype) -> np.ndarray:
    """``torch.arange(start, end, step)``'s values in dtype ``dt``.

    The length is numpy's (and PyTorch's): ``ceil((end - start) / step)``. Integers and
    float16 are numpy's values. For float32 and float64, PyTorch's vectorised loop fills
    registers of ``w`` elements (8 float32, 4 float64) two at a time: each register starts
    at ``first = start + step * i0`` rounded to the dtype and holds ``first + step * j``;
    the last ``n % 2w`` elements are ``start + step * i``, one by one. (With several
    threads, arange's of more than 32768 elements start new registers at each thread's
    chunk: minigrad's values are one thread's.)
    """
    values = np.arange(start, end, step)
    if dt not in (np.float32, np.float64):
        return values.astype(dt)
    n = len(values)
    width = _VECTOR_BYTES // np.dtype(dt).itemsize
    i = np.arange(n, dtype=np.float64)
    in_registers = i < n - n % (2 * width)
    i0 = np.where(in_registers, i - i % width, i)
    step64 = np.float64(step)
    first = fma(step64, i0, np.float64(start)).astype(dt).astype(np.float64)
    return fma(step64, i - i0, first).astype(dt)


def linspace_values(start, end, steps: int, dt: np.dtype) -> np.ndarray:
    """PyTorch's CPU values, bit for bit (a lecture's ``linspace`` prints the same digits):
    ``step = (end - start) / (steps - 1)`` in the dtype; the first half counts up from start,
    ``start + step * i``, the second down from end, ``end - step * (steps - 1 - i)``, each a
    fused multiply-add rounded once, as PyTorch's compiled kernel does. For float32 the exact
    value fits in float64; for float64 :func:`fma` makes it exact. float16 rounds after each
    operation (PyTorch's ``Half`` computes each in float32), the count ``i`` too."""
    if steps <= 1 or dt.kind != "f":
        return np.linspace(start, end, steps).astype(dt)
    first, last = dt.type(start), dt.type(end)
    step = (last - first) / dt.type(steps - 1)
    i = np.arange(steps)
    lower = i < steps // 2
    if dt == np.float16:
        moved = step * np.where(lower, i, steps - 1 - i).astype(dt)
        return np.where(lower, first + moved, last - moved)
    k = np.where(lower, i, i - (steps - 1)).astype(np.float64)  # end + step * (i - (steps - 1))
    base = np.where(lower, np.float64(first), np.float64(last))
    if dt == np.float32:
        return (base + np.float64(step) * k).astype(dt)
    return fma(np.float64(step), k, base)


def fma(a, b, c) -> np.ndarray:
    """``a * b + c`` in float64 rounded once: Dekker's exact product (p + e == a * b, each
    factor split in halves of 26 bits) and Knuth's exact sum (s + err == p + c)."""
    p = a * b
    ah, al = _halves(a)
    bh, bl = _halves(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    v = s - p
    err = (p - (s - v)) + (c - v)
    return s + (e + err)


def _halves(x):
    t = 134217729.0 * x  # 2**27 + 1
    hi = t - (t - x)
    return hi, x - hi
