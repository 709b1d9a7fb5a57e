"""Array kernels of the formats: lexicographic order, coalescing, (de)compressing.

The sort is the heart of ``coalesce``, ``to_csr`` and ``to_csc``. Each index column
becomes one int64 *linear key* (its row-major position, ``np.ravel_multi_index``);
the position of the entry is packed into the low bits of the key, so numpy's fast
unstable ``np.sort`` (SIMD quicksort) gives the order of a stable sort: duplicates stay
in input order and are summed in that order, so results are deterministic. When the
packed key would overflow int64 we fall back to a stable ``argsort`` of the key, and
when even the key would overflow (huge shapes), to ``np.lexsort`` on the indices.

NB: PyTorch's ``coalesce`` also sorts a linearised index (``flatten_indices``) and
reduces runs of equal keys; scipy's ``sum_duplicates`` uses ``np.lexsort``.
"""

from __future__ import annotations

import math

import numpy as np

_KEY_BITS = 63  # bits of a non-negative int64


def linear_keys(indices: np.ndarray, sizes: tuple) -> np.ndarray | None:
    """Row-major position of each index column, or None when it would overflow int64."""
    if math.prod(sizes) > np.iinfo(np.int64).max:  # np.ravel_multi_index's limit
        return None
    if len(sizes) == 0:
        return np.zeros(indices.shape[1], dtype=np.int64)
    if len(sizes) == 1:
        return indices[0]
    return np.ravel_multi_index(tuple(indices), sizes).astype(np.int64, copy=False)


def _starts_of_runs(sorted_keys: np.ndarray) -> np.ndarray:
    """Positions where a run of equal keys starts (the first position always does)."""
    new = np.empty(len(sorted_keys), dtype=bool)
    new[0] = True
    np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=new[1:])
    return np.flatnonzero(new)


def _stable_key_sort(keys: np.ndarray, sizes: tuple) -> tuple[np.ndarray, np.ndarray]:
    """``(order, keys[order])`` of a stable sort, by packing positions into the keys."""
    nnz = len(keys)
    pos_bits = (nnz - 1).bit_length()
    if (math.prod(sizes) - 1).bit_length() + pos_bits > _KEY_BITS:
        order = np.argsort(keys, kind="stable")
        return order, keys[order]
    packed = (keys << pos_bits) | np.arange(nnz, dtype=np.int64)
    packed.sort()  # unstable, fast; the packed positions break ties in input order
    return packed & ((1 << pos_bits) - 1), packed >> pos_bits


def sort_order(indices: np.ndarray, sizes: tuple) -> np.ndarray:
    """Stable permutation sorting the index columns lexicographically."""
    keys = linear_keys(indices, sizes)
    if keys is None:
        return np.lexsort(indices[::-1])
    return _stable_key_sort(keys, sizes)[0]


def lex_sort(indices: np.ndarray, sizes: tuple):
    """Stable lexicographic order of the index columns (``nnz`` >= 1).

    Returns ``(order, starts, new_indices)``: the permutation, the positions (in sorted
    order) where a run of equal index columns starts, and the sorted unique columns.
    """
    keys = linear_keys(indices, sizes)
    if keys is None:
        order = np.lexsort(indices[::-1])
        ordered = np.stack([row[order] for row in indices])
        new = np.ones(len(order), dtype=bool)
        new[1:] = np.any(ordered[:, 1:] != ordered[:, :-1], axis=0)
        starts = np.flatnonzero(new)
        return order, starts, np.ascontiguousarray(ordered[:, starts])
    order, sorted_keys = _stable_key_sort(keys, sizes)
    starts = _starts_of_runs(sorted_keys)
    unique = sorted_keys[starts]
    if len(sizes) == 0:
        return order, starts, np.empty((0, len(starts)), dtype=np.int64)
    if len(sizes) == 1:
        return order, starts, unique[None, :]
    columns = np.unravel_index(unique, sizes)
    return order, starts, np.stack(columns).astype(np.int64, copy=False)


def sum_runs(values: np.ndarray, order: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """``values`` reordered, each run (from one start to the next) summed into one row.

    Only the runs of two or more entries are summed, into their first entry:
    ``np.add.reduceat`` over every run costs ~0.15 us per run even when nothing repeats,
    and in the common case, an embedding's gradient, few rows repeat. Each run is summed in
    input order either way, so the values are the same bit for bit as summing every run
    (tests/sparse/test_coalesce.py).
    """
    if len(starts) == len(order):
        return np.take(values, order, axis=0)
    if values.dtype == np.float16:  # float16 sums accumulate in float32, then round once
        ordered = np.take(values, order, axis=0)
        summed = np.add.reduceat(ordered, starts, axis=0, dtype=np.float32)
        return summed.astype(values.dtype, copy=False)
    out = np.take(values, order[starts], axis=0)
    lengths = np.diff(np.append(starts, len(order)))
    repeated = np.flatnonzero(lengths > 1)
    members = np.take(values, order[np.repeat(lengths > 1, lengths)], axis=0)
    member_starts = np.zeros(len(repeated), dtype=np.int64)
    np.cumsum(lengths[repeated][:-1], out=member_starts[1:])
    out[repeated] = np.add.reduceat(members, member_starts, axis=0, dtype=values.dtype)
    return out


def coalesce(indices: np.ndarray, values: np.ndarray, sizes: tuple):
    """Sorted unique indices and the values with duplicates summed (zeros kept)."""
    if indices.shape[1] == 0:
        return indices, values
    order, starts, unique = lex_sort(indices, sizes)
    return unique, sum_runs(values, order, starts)


def is_lex_sorted_unique(indices: np.ndarray, sizes: tuple) -> bool:
    """Whether the index columns strictly increase lexicographically (the coalesced form)."""
    if indices.shape[1] <= 1:
        return True
    keys = linear_keys(indices, sizes)
    if keys is not None:
        return bool(np.all(keys[1:] > keys[:-1]))
    steps = np.diff(indices, axis=1)
    first_change = np.argmax(steps != 0, axis=0)  # the row that decides each comparison
    return bool(np.all(steps[first_change, np.arange(steps.shape[1])] > 0))


def compress(major: np.ndarray, n_major: int) -> np.ndarray:
    """Pointers (``crow_indices``) of sorted major indices (row indices for CSR)."""
    ptr = np.zeros(n_major + 1, dtype=np.int64)
    np.cumsum(np.bincount(major, minlength=n_major), out=ptr[1:])
    return ptr


def expand(ptr: np.ndarray) -> np.ndarray:
    """Major index of every stored entry: the inverse of :func:`compress`."""
    return np.repeat(np.arange(len(ptr) - 1, dtype=np.int64), np.diff(ptr))


def compressed_sorted_unique(ptr: np.ndarray, idx: np.ndarray) -> bool:
    """Whether minor indices strictly increase within every row (column for CSC)."""
    nnz = len(idx)
    if nnz <= 1:
        return True
    increasing = idx[1:] > idx[:-1]
    boundaries = ptr[1:-1]
    boundaries = boundaries[(boundaries > 0) & (boundaries < nnz)]
    increasing[boundaries - 1] = True  # a new row may start anywhere
    return bool(increasing.all())
