"""Adding a gradient into a leaf's ``.grad`` (PyTorch's AccumulateGrad), and the route
of every sum that involves a sparse gradient: ``minigrad.sparse`` decides, and records
why a gradient became dense (a *densification* event) on the step and on the leaf.
"""

from __future__ import annotations

import numpy as np

from . import function as _fn
from .steps import Accumulation

_LEAF = 1  # Node._kind of AccumulateGrad


def _accumulate(node, g, create_graph, store=None, step=None) -> Accumulation:
    """Add ``g`` into the leaf's ``.grad`` (PyTorch's AccumulateGrad), or into ``store``."""
    leaf = node.variable
    if g.shape != leaf.shape or g.dtype is not leaf.dtype:
        raise RuntimeError(
            f"internal error: gradient of shape {g.shape} and dtype {g.dtype} for a leaf of "
            f"shape {leaf.shape} and dtype {leaf.dtype}"
        )
    before = leaf._grad if store is None else store.get(leaf)
    if g._sparse or (before is not None and before._sparse):
        after = _sparse_sum(before, g, node, None, step, leaf=leaf)
    elif store is not None or create_graph:
        after = g if before is None else before + g
    elif before is None:
        after = _fn._Tensor._make(np.array(g.data, copy=True), False, None)
    else:  # in place for the user's tensor object, out of place for its array
        old = before.data
        before.data = old + g.data  # the old array stays valid as the step's "before"
        before._bump_version()
        return Accumulation(leaf, _fn._Tensor._make(old, False, None), g, before)
    if store is not None:
        store[leaf] = after
    else:
        leaf._grad = after
    return Accumulation(leaf, before, g, after)


def _describe_target(node) -> str:
    if node._kind == _LEAF:
        t = node.variable
        label = f"'{t.name}' " if t.name else ""
        return f"leaf {label}of shape {list(t.shape)}"
    return f"the gradient flowing into {node.name()}"


def _sparse_sum(old, g, target, sender, step, leaf=None):
    """Accumulate when a gradient is sparse: minigrad.sparse decides and records events."""
    from ..sparse.accumulate import accumulate

    events = [] if step is None else _events_of(step)
    before = len(events)
    result = accumulate(
        old,
        g,
        where=_describe_target(target),
        events=events,
        leaf=leaf,
        caused_by=None if sender is None else sender.name(),
    )
    new = [e for e in events[before:] if e.kind == "densified"]
    if target._kind == _LEAF and new:  # the leaf remembers why (for drawings)
        target.densified = target.densified + tuple(new)
    return result


def _events_of(step) -> list:
    if not step.events:
        step.events = []
    return step.events
