"""Shared helpers for the sparse tests: a Function that produces row-sparse gradients."""

import numpy as np

import minigrad as mg
from minigrad.sparse.tensor import make_sparse


def row_sparse(rows, values, shape):
    """A COO tensor with one sparse dim (rows) and dense rows of values."""
    values = np.asarray(values, np.float32).reshape(len(rows), *shape[1:])
    return make_sparse(mg.sparse.COO(np.array([rows], np.int64), values, shape))


class RowPick(mg.autograd.Function):
    """x[rows] with a row-sparse gradient for x (what Embedding(sparse=True) does)."""

    @staticmethod
    def forward(ctx, x, rows):
        ctx.rows, ctx.shape = rows, x.shape
        return x[mg.tensor(rows)]

    @staticmethod
    def backward(ctx, g):
        return row_sparse(ctx.rows, g.detach().numpy(), ctx.shape), None
