"""Adding a gradient into a tensor's ``.grad`` (PyTorch's AccumulateGrad, and retain_grad).

The engine fills ``.grad`` of a leaf (through its AccumulateGrad node), of a non-leaf
tensor that called ``retain_grad()``, and of a non-leaf given to
``backward(inputs=...)``, all here. The first gradient is copied, so ``.grad`` never
aliases a tensor the graph still uses; later ones are added in place into a leaf's array,
as PyTorch does, unless the pass records a graph (``create_graph``) or writes into a
private ``store``; a non-leaf's ``.grad`` is replaced by the sum (PyTorch's retain_grad
does the same). Any sum that involves a sparse gradient goes to
``minigrad.accumulation.accumulate``, which decides the result's layout and records why a
gradient became dense.
"""

from __future__ import annotations

import numpy as np

from .. import _traced
from ..accumulation.accumulate import add_gradients
from ..recording.steps import Accumulation
from ..tensor import Tensor


def accumulate(t, node, g, create_graph, store=None, events=None) -> Accumulation:
    """Add ``g`` into ``t.grad`` (or into ``store[t]``); say what happened.

    ``node`` is what the gradient arrived at: the leaf's AccumulateGrad, or the grad_fn of
    a non-leaf ``t`` (named in densification events).
    """
    _traced.check_concrete(g._data, _traced.BACKWARD)  # jit: .grad cannot be traced
    if g.shape != t.shape or g.dtype is not t.dtype:
        raise RuntimeError(
            f"internal error: gradient of shape {g.shape} and dtype {g.dtype} for a tensor of "
            f"shape {t.shape} and dtype {t.dtype}"
        )
    before = t._grad if store is None else store.get(t)
    plain = store is None and not create_graph
    if (
        plain
        and before is not None
        and t.grad_fn is None
        and before.layout == g.layout == "strided"
    ):
        old = before._data  # the old array stays valid as the step's "before"
        before._data = np.asarray(old + g._data)  # 0-d + 0-d is a numpy scalar: keep an array
        before._bump_version()
        return Accumulation(t, Tensor._make(old, False, None), g, before)
    if plain and before is None and g.layout == "strided":
        after = Tensor._make(np.array(g._data, copy=True), False, None)
    else:
        after = add_gradients(before, g, node, None, events, leaf=t)
    if store is not None:
        store[t] = after
    else:
        t._grad = after
    return Accumulation(t, before, g, after)
