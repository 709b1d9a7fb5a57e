"""gradcheck for sparse inputs: turn each sparse input into a dense leaf to perturb.

* ``masked=True``: the variables are the stored values; ``func`` receives a sparse
  tensor with the original pattern built from them.
* ``masked=False``: the variables are all positions of the dense equivalent;
  ``func`` receives a sparse tensor of the same layout storing every position,
  so a perturbation anywhere shows in the output, as for a dense input.
"""

from __future__ import annotations

import numpy as np

from ..formats import COO
from ..tensor import Tensor, has_sparse_layout
from .ops_layout import SparseCooTensor, ToLayout


def densify_inputs(func, inputs, masked: bool):
    """Return ``(new_func, new_inputs)`` where sparse inputs became dense leaves."""
    rebuild = {}
    new_inputs = list(inputs)
    for i, t in enumerate(inputs):
        if not (has_sparse_layout(t) and t.requires_grad):
            continue
        coo = t._data if t.layout == "sparse_coo" else t._data.to_coo()
        if not masked:
            dense = coo.to_dense()
            coo = COO.from_dense(np.ones(dense.shape[: coo.sparse_dim], dtype=bool), None)
            coo = COO._new(coo.indices, dense[tuple(coo.indices)], dense.shape, True)
        leaf = Tensor._make(np.array(coo.values, copy=True), True, None)
        rebuild[i] = (coo.indices, coo.shape, t.layout)
        new_inputs[i] = leaf

    def wrapped(*args):
        args = list(args)
        for i, (indices, shape, layout) in rebuild.items():
            s = SparseCooTensor.apply(
                args[i], indices=indices, shape=shape, coalesced=False, check=False
            )
            args[i] = s if layout == "sparse_coo" else ToLayout.apply(s, layout=layout)
        return func(*args)

    return wrapped, tuple(new_inputs)
