"""Adding a gradient into a leaf's ``.grad`` (PyTorch's AccumulateGrad).

The first gradient is copied, so ``.grad`` never aliases a tensor the graph still uses;
later ones are added in place into the array, as PyTorch does, unless the pass records a
graph (``create_graph``) or writes into a private ``store``. Any sum that involves a sparse
gradient goes to ``minigrad.sparse.accumulate``, which decides the result's layout and
records why a gradient became dense.
"""

from __future__ import annotations

import numpy as np

from .. import _abstract
from ..sparse.accumulate import add_gradients
from ..tensor import Tensor
from .steps import Accumulation


def accumulate(node, g, create_graph, store=None, events=None) -> Accumulation:
    """Add ``g`` into the leaf's ``.grad`` (or into ``store[leaf]``); say what happened."""
    leaf = node.variable
    _abstract.check_concrete(g._data, _abstract.BACKWARD)  # jit: .grad cannot be traced
    if g.shape != leaf.shape or g.dtype is not leaf.dtype:
        raise RuntimeError(
            f"internal error: gradient of shape {g.shape} and dtype {g.dtype} for a leaf of "
            f"shape {leaf.shape} and dtype {leaf.dtype}"
        )
    before = leaf._grad if store is None else store.get(leaf)
    in_place = store is None and not create_graph
    if in_place and before is not None and before.layout == g.layout == "strided":
        old = before._data  # the old array stays valid as the step's "before"
        before._data = np.asarray(old + g._data)  # 0-d + 0-d is a numpy scalar: keep an array
        before._bump_version()
        return Accumulation(leaf, Tensor._make(old, False, None), g, before)
    if in_place and before is None and g.layout == "strided":
        after = Tensor._make(np.array(g._data, copy=True), False, None)
    else:
        after = add_gradients(before, g, node, None, events, leaf=leaf)
    if store is not None:
        store[leaf] = after
    else:
        leaf._grad = after
    return Accumulation(leaf, before, g, after)
