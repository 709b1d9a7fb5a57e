"""Buckets of gradients and their reductions, started from backward (PyTorch's ``Reducer``).

Parameters are put into buckets in reverse order (backward produces the last layer's
gradients first), at most ``bucket_cap_mb`` each, one dtype per bucket; a parameter with a
sparse gradient (``Embedding(sparse=True)``) is a bucket of its own. Each parameter's
post-accumulate-grad hook marks it ready; when a bucket is full, its gradients are copied
into one flat buffer and a non-blocking all-reduce starts, while backward goes on with
the earlier layers. Buckets start in bucket order on every rank (MPI needs the same order
everywhere), so a bucket that fills early waits for the ones before it. When the last
bucket has started, the reducer waits for all of them and writes the averaged gradients
back into ``.grad``. A sparse bucket all-gathers the rows instead (see
``minigrad.distributed.all_reduce``).
"""

from __future__ import annotations

import numpy as np

from ... import distributed as dist
from ...accumulation.accumulate import apply_densify_policy, densify_gradient
from ...errors import distributed as errors
from ...formats import COO
from ...sparse.tensor import make_sparse
from ...tensor import Tensor


class Bucket:
    """Parameters reduced together, and the state of their reduction this iteration."""

    def __init__(self, names: list, params: list, sparse: bool):
        self.names, self.params, self.sparse = names, params, sparse
        self.ready: set = set()
        self.work = None
        self.flat = None  # the dense bucket's buffer while its all-reduce runs

    @property
    def nbytes(self) -> int:
        return sum(p.numel() * p.dtype.itemsize for p in self.params)


def build_buckets(named_params: list, sparse_names: set, cap_bytes: int) -> list:
    """Buckets over ``named_params`` in reverse order, each under ``cap_bytes`` (a parameter
    larger than the cap gets a bucket of its own)."""
    buckets: list = []
    for name, p in reversed(named_params):
        if name in sparse_names:
            buckets.append(Bucket([name], [p], sparse=True))
            continue
        last = buckets[-1] if buckets else None
        fits = (
            last is not None
            and not last.sparse
            and last.params[0].dtype is p.dtype
            and last.nbytes + p.numel() * p.dtype.itemsize <= cap_bytes
        )
        if fits:
            last.names.append(name)
            last.params.append(p)
        else:
            buckets.append(Bucket([name], [p], sparse=False))
    return buckets


class Reducer:
    """Averages the gradients of ``named_params`` over the ranks, from backward hooks."""

    def __init__(self, named_params: list, sparse_names: set, cap_bytes: int, group):
        self.group = group
        self.buckets = build_buckets(named_params, sparse_names, cap_bytes)
        self.bucket_of = {id(p): b for b in self.buckets for p in b.params}
        self.name_of = {id(p): n for n, p in named_params}
        self.sync = True
        self.events: list = []  # densification events of the current reduction
        self._next = 0  # the next bucket to start
        self._started = False  # has a hook fired since prepare()?
        self.handles = [p.register_post_accumulate_grad_hook(self._ready) for _, p in named_params]

    def prepare(self, sync: bool) -> None:
        """Before a forward pass: refuse an unfinished reduction, then start afresh."""
        if self._started:
            missing = [
                n for b in self.buckets for n, p in zip(b.names, b.params) if id(p) not in b.ready
            ]
            raise RuntimeError(errors.DDP_UNFINISHED.format(names=", ".join(missing)))
        self.sync = sync
        self.events = []

    def _ready(self, param) -> None:
        """A parameter's gradient is accumulated: mark it, start what can start."""
        if not self.sync:
            return
        self._started = True
        for bucket in self.buckets[: self._next]:  # let MPI move the running ones forward
            if bucket.work is not None:
                bucket.work.is_completed()
        bucket = self.bucket_of[id(param)]
        bucket.ready.add(id(param))
        while self._next < len(self.buckets) and self._full(self.buckets[self._next]):
            self._start(self.buckets[self._next])
            self._next += 1
        if self._next == len(self.buckets):
            self._finish()

    @staticmethod
    def _full(bucket: Bucket) -> bool:
        return len(bucket.ready) == len(bucket.params)

    def _start(self, bucket: Bucket) -> None:
        """Start the bucket's reduction: one all-reduce of the flat dense gradients, or the
        sparse all-gather of one parameter's rows."""
        if bucket.sparse:
            p = bucket.params[0]
            p.grad = _as_rows(p.grad)
            bucket.work = dist.all_reduce(p.grad, dist.ReduceOp.AVG, async_op=True)
            return
        for name, p in zip(bucket.names, bucket.params):
            if p.grad.layout != "strided":  # a sparse gradient in a dense bucket: the policy's
                where = f"parameter '{name}'"
                p.grad = densify_gradient(p.grad, "dense_bucket", where, self.events)
        bucket.flat = Tensor._make(flatten([p.grad for p in bucket.params]), False, None)
        bucket.work = dist.all_reduce(bucket.flat, dist.ReduceOp.AVG, async_op=True)

    def _finish(self) -> None:
        """Wait for every bucket; write the averages into ``.grad``; reset for next time."""
        for bucket in self.buckets:
            bucket.work.wait()
            if bucket.sparse:
                p = bucket.params[0]
                where = f"parameter '{bucket.names[0]}'"
                p.grad = apply_densify_policy(p.grad, where, self.events)
            else:
                self._unflatten(bucket)
            bucket.work, bucket.flat = None, None
            bucket.ready.clear()
        self._next, self._started = 0, False

    @staticmethod
    def _unflatten(bucket: Bucket) -> None:
        unflatten(bucket.flat._data, [p.grad for p in bucket.params])


# A weight's gradient is often the transpose of a matmul's result (Fortran order). Reading it
# in row-major order copies it through the cache the wrong way: 86 ms for a 1024 x 1024 float32
# gradient, against a plain copy in memory order (measured on the 2-core CI machine). So the
# buckets copy every gradient in its own memory order; every rank runs the same backward code,
# so every rank's gradients have the same layouts and the buffers line up.
def _memory_order(a: np.ndarray) -> str:
    return "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"


def flatten(grads: list) -> np.ndarray:
    """One flat buffer with the gradients' values, each in its memory order."""
    arrays = [g._data for g in grads]  # dense: _start densified a sparse one
    return np.concatenate([a.ravel(order=_memory_order(a)) for a in arrays])


def unflatten(flat: np.ndarray, grads: list) -> None:
    """Write ``flat`` (from :func:`flatten`) back into the dense gradients, in place."""
    start = 0
    for g in grads:
        a = g._data
        a[...] = flat[start : start + a.size].reshape(a.shape, order=_memory_order(a))
        g._bump_version()
        start += a.size


# Every rank must call the same collective for a bucket, whatever its local gradient
# looks like (the densify policy may have made one rank's sparse gradient dense): the
# bucket's kind decides, and a gradient of the other layout is converted.
def _as_rows(grad: Tensor) -> Tensor:
    """A sparse bucket's gradient as row-sparse COO (a dense one loses its zero rows)."""
    if grad.layout == "sparse_coo":
        return grad
    if grad.layout != "strided":
        return make_sparse(grad._data.to_coo())
    return make_sparse(COO.from_dense(grad._data, sparse_dim=1))
