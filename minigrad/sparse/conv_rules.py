"""The rule book of a submanifold convolution: which active sites meet under each kernel offset.

A submanifold convolution (Graham & van der Maaten, 2017) keeps the active sites: the
output has exactly the input's sites, and site ``p`` receives ``W[:, :, r + o] @ x[p + o]``
from each kernel offset ``o`` (``-r <= o <= r`` per axis, ``r = k // 2``) whose site
``p + o`` is active too. Which pairs (input row, output row) take part depends only on the
pattern, never on the values, so it is worked out once and kept: the *rule book*, one list
of pairs per offset.

It is built by hashing coordinates, vectorised per offset: every site becomes one int64
key, its row-major position (``np.ravel_multi_index``, as ``coalesce`` sorts by). The sites
of a coalesced COO are sorted, so their keys are too, and ``np.searchsorted`` finds the
neighbour at offset ``o`` of every site at once: one lookup per offset, ``k * k`` in 2-D.

For a given offset each output row has at most one input row and each input row at most
one output row, so the per-offset gathers and scatters of the convolution never meet a
repeated row (plain ``out[rows] += ...`` is exact; no ``np.add.at`` needed). And the pairs
of offset ``-o`` are those of ``o`` swapped: the rule book read backwards is the rule book
of the flipped kernel, which is why the gradient of the input is a convolution too.

**Cache.** :func:`rulebook_for` keeps each rule book with the pattern it belongs to: keyed
by the identity of the indices array (held through a weak reference, so the entry goes
when the array does) and by the grid and window. A convolution's output shares its input's
indices array, so a stack of ``SubMConv2d`` layers over one pattern builds the rule book
once per window (spconv shares it between layers through ``indice_key``; here it is
automatic). minigrad never writes into an indices array once a tensor holds it.

NB: spconv calls the rule book "indice pairs" (``indice_pairs``, built with a GPU hash
table), MinkowskiEngine a "kernel map", SparseConvNet a "rule book", as here.
"""

from __future__ import annotations

import itertools
import math
import weakref
from dataclasses import dataclass

import numpy as np

from ..errors import sparse_conv as errors
from ..formats import _kernels


@dataclass(frozen=True, eq=False)
class RuleBook:
    """Pairs of active sites per kernel offset (see the module docstring).

    Attributes:
        window: kernel extent per sparse dim (1 along a batch dim: images never mix).
        sizes: the grid (the sparse sizes of the COO).
        offsets: ``(K, ndim)`` int array, the offsets in row-major (C) order, the order
            of ``weight.reshape(out, in, K)``.
        inputs, outputs: ``K`` int64 arrays each: at offset ``k``, input row
            ``inputs[k][e]`` feeds output row ``outputs[k][e]``.
        sites: number of active sites (rows of the COO).
    """

    window: tuple
    sizes: tuple
    offsets: np.ndarray
    inputs: tuple
    outputs: tuple
    sites: int

    @property
    def n_pairs(self) -> int:
        """Number of (input, output) pairs over all offsets: the matrix products' rows."""
        return sum(len(rows) for rows in self.inputs)

    @property
    def nbytes(self) -> int:
        """Bytes of the pair lists."""
        return sum(a.nbytes + b.nbytes for a, b in zip(self.inputs, self.outputs))

    def __repr__(self) -> str:
        return (
            f"RuleBook(window={self.window}, sites={self.sites}, offsets={len(self.inputs)}, "
            f"pairs={self.n_pairs}, {self.nbytes} bytes)"
        )


def window_offsets(window: tuple) -> np.ndarray:
    """The ``(K, ndim)`` offsets of a centred window, row-major: ``(-1, -1), (-1, 0), ...``."""
    ranges = [range(-(w // 2), w // 2 + 1) for w in window]
    return np.array(list(itertools.product(*ranges)), dtype=np.int64).reshape(-1, len(window))


def build(indices: np.ndarray, sizes: tuple, window: tuple, op: str = "subm_conv") -> RuleBook:
    """The rule book of the sites ``indices`` (``(ndim, nnz)``, coalesced) on grid ``sizes``."""
    if math.prod(sizes) > np.iinfo(np.int64).max:
        raise ValueError(errors.GRID_TOO_LARGE.format(op=op, sizes=tuple(sizes)))
    offsets = window_offsets(window)
    keys = _kernels.linear_keys(indices, sizes)  # sorted: the COO is coalesced
    pairs = [_pairs_at(indices, keys, sizes, o) for o in offsets]
    return RuleBook(
        tuple(window),
        tuple(sizes),
        offsets,
        tuple(p[0] for p in pairs),
        tuple(p[1] for p in pairs),
        indices.shape[1],
    )


def _pairs_at(indices, keys, sizes, offset) -> tuple[np.ndarray, np.ndarray]:
    """(input rows, output rows) at one offset: output site p reads input site p + offset."""
    empty = np.empty(0, dtype=np.int64)
    if len(keys) == 0:
        return empty, empty
    wanted = indices + offset[:, None]  # where each output site looks
    upper = np.asarray(sizes, dtype=np.int64)[:, None]
    inside = np.all((wanted >= 0) & (wanted < upper), axis=0)
    out_rows = np.flatnonzero(inside)
    if len(out_rows) == 0:
        return empty, empty
    wanted_keys = _kernels.linear_keys(wanted[:, out_rows], sizes)
    pos = np.minimum(np.searchsorted(keys, wanted_keys), len(keys) - 1)
    hit = keys[pos] == wanted_keys  # that site is active
    return pos[hit].astype(np.int64, copy=False), out_rows[hit].astype(np.int64, copy=False)


# --- the cache: one entry per indices array, while it lives -------------------------------
_CACHE: dict[int, tuple[weakref.ref, dict]] = {}


def rulebook_for(indices: np.ndarray, sizes: tuple, window: tuple, op: str = "subm_conv"):
    """The rule book of a coalesced pattern, built on first use and kept with the pattern.

    Calls with the same indices array (the very object: a convolution's output shares its
    input's), grid and window get the same :class:`RuleBook` object back.
    """
    key = id(indices)
    entry = _CACHE.get(key)
    if entry is None or entry[0]() is not indices:
        entry = (weakref.ref(indices, lambda _, key=key: _CACHE.pop(key, None)), {})
        _CACHE[key] = entry
    books = entry[1]
    spec = (tuple(sizes), tuple(window))
    if spec not in books:
        books[spec] = build(indices, sizes, window, op)
    return books[spec]
