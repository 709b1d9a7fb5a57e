"""What a backward pass does to sparse gradients, counted while a memory report is taken.

Two things are counted, into every report in progress (usually none, and then it costs a
list check): the format conversions (COO <-> CSR/CSC, coalesce, to_dense), timed, and
the gradient sums of each kind, which :mod:`.accumulate` announces. :mod:`.report` starts
and reads the counters; the engine's side (accumulation) only calls :func:`count_accumulation`,
so the engine never imports the report, which itself runs a whole backward pass.
"""

from __future__ import annotations

import dataclasses
import functools
import time

from ..formats import COO, CSC, CSR


@dataclasses.dataclass
class Counters:
    """What one report has counted so far."""

    conversion_seconds: float = 0.0
    conversions: int = 0
    accumulations: dict = dataclasses.field(default_factory=dict)


active: list = []  # the counters of the reports being taken (usually none)


_depth = [0]  # conversions call each other (to_csr -> coalesce): time the outermost only


def _timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not active or _depth[0]:
            return fn(*args, **kwargs)
        start = time.perf_counter()
        _depth[0] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            _depth[0] -= 1
            spent = time.perf_counter() - start
            for c in active:
                c.conversion_seconds += spent
                c.conversions += 1

    wrapper._minigrad_timed = True
    return wrapper


for _cls in (COO, CSR, CSC):
    for _name in ("coalesce", "to_dense", "to_csr", "to_csc", "to_coo"):
        _fn = _cls.__dict__.get(_name)
        if _fn is not None and not getattr(_fn, "_minigrad_timed", False):
            setattr(_cls, _name, _timed(_fn))


def count_accumulation(kind: str) -> None:
    """Called by the accumulation module once per gradient sum (cheap when no report runs)."""
    for c in active:
        c.accumulations[kind] = c.accumulations.get(kind, 0) + 1
