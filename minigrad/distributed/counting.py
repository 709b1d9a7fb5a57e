"""How many bytes this rank sent, per collective, counted with the ring algorithms' formulas.

MPI picks its own algorithms and does not report wire bytes, so minigrad counts what the
textbook ring algorithms send from each rank (W ranks, a buffer of n bytes):

* all-reduce: reduce-scatter then all-gather, each W - 1 chunks of n / W:
  ``2 (W - 1) / W * n``;
* all-gather of blocks n_0 .. n_{W-1}: each rank sends every block but its successor's
  (its own first, then the ones it forwards): ``sum(n_i) - n_{rank + 1}``;
* broadcast of n bytes: ``n`` from each rank that passes it on (a pipeline), 0 from the last.

The benchmark and the notebook read these counters; PyTorch has no such counter.

Example:
    >>> ring_all_reduce_bytes(256, world_size=4)
    384
    >>> ring_all_gather_bytes([10, 20, 30], rank=0)
    40
"""

from __future__ import annotations

import collections

_sent: collections.Counter = collections.Counter()
_calls: collections.Counter = collections.Counter()


def ring_all_reduce_bytes(nbytes: int, world_size: int) -> int:
    """Bytes one rank sends in a ring all-reduce of ``nbytes``."""
    return 2 * (world_size - 1) * nbytes // world_size


def ring_all_gather_bytes(block_bytes, rank: int) -> int:
    """Bytes rank ``rank`` sends in a ring all-gather of blocks of these sizes."""
    blocks = list(block_bytes)
    return sum(blocks) - blocks[(rank + 1) % len(blocks)] if len(blocks) > 1 else 0


def record(op: str, nbytes: int, calls: int = 1) -> None:
    """Count ``calls`` collectives of ``op`` (0: a part of one) that sent ``nbytes``."""
    _calls[op] += calls
    _sent[op] += int(nbytes)


def traffic() -> dict:
    """``{op: {"calls": n, "bytes_sent": b}}`` since the last :func:`reset_traffic`."""
    return {op: {"calls": _calls[op], "bytes_sent": _sent[op]} for op in sorted(_calls)}


def reset_traffic() -> None:
    """Start counting from zero."""
    _sent.clear()
    _calls.clear()
