"""The collectives, with PyTorch's names and signatures, on MPI's non-blocking calls.

Each collective checks its arguments, then builds a generator of MPI requests (see
:mod:`.work`): with ``async_op=True`` the caller gets the :class:`Work`, otherwise it is
waited for here. Tensors are changed in place, as in PyTorch.

Sparse COO tensors never become dense on the wire: ``all_reduce`` of a sparse tensor
all-gathers every rank's (coalesced) indices and values, concatenates them and coalesces
the result, which is the sparse sum (PyTorch's Gloo backend does the same). Its cost grows
with the number of stored rows, not with the table: see docs/distributed.md for the break-even.
"""

from __future__ import annotations

import enum

import numpy as np

from ..errors import distributed as errors
from ..formats import COO
from ..tensor import Tensor
from . import counting
from .process_group import ProcessGroup, default_group
from .work import Work, poll_until


class ReduceOp(enum.Enum):
    """How ``all_reduce`` combines the ranks' tensors (``torch.distributed.ReduceOp``).

    ``AVG`` is the mean over ranks (PyTorch has no ``MEAN``: its name is ``AVG``).
    """

    SUM = "sum"
    AVG = "avg"
    PRODUCT = "product"
    MIN = "min"
    MAX = "max"


_MPI_OP = {"sum": "SUM", "avg": "SUM", "product": "PROD", "min": "MIN", "max": "MAX"}


def _run(work: Work, async_op: bool) -> Work | None:
    if async_op:
        return work
    work.wait()
    return None


def _check_tensor(tensor, name: str = "tensor") -> None:
    if not isinstance(tensor, Tensor):
        raise TypeError(errors.NOT_A_TENSOR.format(name=name, got=type(tensor)))
    if tensor.layout not in ("strided", "sparse_coo"):
        raise TypeError(errors.SPARSE_LAYOUT.format(layout=tensor.layout))


def all_reduce(tensor: Tensor, op: ReduceOp = ReduceOp.SUM, group=None, async_op: bool = False):
    """Combine ``tensor`` over all ranks, in place (``torch.distributed.all_reduce``).

    A dense tensor goes through ``MPI_Iallreduce``. A sparse COO tensor (SUM or AVG) is
    all-gathered and coalesced: it stays sparse, holding the union of the ranks' rows.

    Returns:
        a :class:`Work` with ``async_op=True``, else None.
    """
    g = default_group(group)
    _check_tensor(tensor)
    if not isinstance(op, ReduceOp):
        raise TypeError(errors.REDUCE_OP.format(got=op))
    if op is ReduceOp.AVG and not tensor.dtype.is_floating_point:
        raise TypeError(errors.AVG_INTEGER.format(dtype=tensor.dtype))
    if tensor.layout == "sparse_coo":
        if op not in (ReduceOp.SUM, ReduceOp.AVG):
            raise TypeError(errors.SPARSE_OP.format(op=op))
        return _run(Work(_sparse_all_reduce(g, tensor, op), "all_reduce", g), async_op)
    return _run(Work(_dense_all_reduce(g, tensor, op), "all_reduce", g), async_op)


def _dense_all_reduce(g: ProcessGroup, tensor: Tensor, op: ReduceOp):
    buf = _in_place_buffer(tensor)
    yield g.comm.Iallreduce(g.mpi.IN_PLACE, buf, op=getattr(g.mpi, _MPI_OP[op.value]))
    if op is ReduceOp.AVG:
        buf /= g.size
    if buf is not tensor._data:
        _write(tensor, buf)
    else:
        tensor._bump_version()
    counting.record("all_reduce", counting.ring_all_reduce_bytes(buf.nbytes, g.size))


def _in_place_buffer(tensor: Tensor) -> np.ndarray:
    """The tensor's own array when MPI can reduce into it (C-contiguous, writeable, at
    least 1-d), else a copy: a 1M x 64 embedding gradient is 256 MB, one copy too many."""
    data = tensor._data
    if data.ndim > 0 and data.flags.c_contiguous and data.flags.writeable:
        return data
    return np.array(data, copy=True, order="C")


def _write(tensor: Tensor, array: np.ndarray) -> None:
    tensor._data[...] = array
    tensor._bump_version()


def _sparse_all_reduce(g: ProcessGroup, tensor: Tensor, op: ReduceOp):
    """All-gather the coalesced (indices, values) of every rank; the sum is their
    concatenation, coalesced."""
    local = tensor._data.coalesce()
    blocks = yield from gather_blocks(g, _pack(local), "all_reduce")
    parts = [_unpack(block, local) for block in blocks]
    indices = np.concatenate([p[0] for p in parts], axis=1)
    values = np.concatenate([p[1] for p in parts], axis=0)
    total = COO._new(indices, values, local.shape, False).coalesce()
    if op is ReduceOp.AVG:
        total = total.with_values(total.values / np.asarray(g.size, total.values.dtype))
    tensor._data = total
    tensor._bump_version()


def _pack(coo: COO) -> np.ndarray:
    """One byte block: the int64 indices (sparse_dim x nnz), then the values."""
    return np.concatenate(
        [
            np.ascontiguousarray(coo.indices).view(np.uint8).ravel(),
            np.ascontiguousarray(coo.values).view(np.uint8).ravel(),
        ]
    )


def _unpack(block: np.ndarray, like: COO):
    """The (indices, values) of a block packed by a rank with a tensor like ``like``."""
    row_shape = like.values.shape[1:]
    row_bytes = like.values.dtype.itemsize * int(np.prod(row_shape, dtype=np.int64))
    nnz = block.size // (like.sparse_dim * 8 + row_bytes)
    split = like.sparse_dim * 8 * nnz
    indices = block[:split].view(np.int64).reshape(like.sparse_dim, nnz)
    values = block[split:].view(like.values.dtype).reshape((nnz, *row_shape))
    return indices, values


def gather_blocks(g: ProcessGroup, block: np.ndarray, op: str):
    """All-gather byte blocks of any size: the sizes first (``Iallgather``, waited for
    here), then the bytes (``Iallgatherv``, yielded). A step generator; returns the list
    of blocks, rank by rank."""
    block = np.ascontiguousarray(block).view(np.uint8).ravel()
    sizes = np.zeros(g.size, dtype=np.int64)
    request = g.comm.Iallgather(np.array([block.size], dtype=np.int64), sizes)
    poll_until(request.Test, g, op)  # now, so every rank starts its collectives in one order
    counting.record(op, counting.ring_all_gather_bytes([8] * g.size, g.rank), calls=0)
    out = np.empty(int(sizes.sum()), dtype=np.uint8)
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    yield g.comm.Iallgatherv(block, [out, sizes.tolist(), offsets.tolist(), g.mpi.BYTE])
    counting.record(op, counting.ring_all_gather_bytes(sizes.tolist(), g.rank))
    return [out[o : o + s] for o, s in zip(offsets, sizes)]


def all_gather(tensor_list: list, tensor: Tensor, group=None, async_op: bool = False):
    """Fill ``tensor_list[i]`` with rank i's ``tensor`` (``torch.distributed.all_gather``).

    Sparse COO tensors travel as indices and values (``tensor_list`` holds sparse tensors
    of the same shape, replaced by each rank's).
    """
    g = default_group(group)
    _check_tensor(tensor)
    if not isinstance(tensor_list, (list, tuple)) or len(tensor_list) != g.size:
        got = len(tensor_list) if isinstance(tensor_list, (list, tuple)) else type(tensor_list)
        raise RuntimeError(errors.GATHER_LIST_LEN.format(want=g.size, got=got))
    for i, out in enumerate(tensor_list):
        _check_tensor(out, f"tensor_list[{i}]")
        if out.shape != tensor.shape or out.layout != tensor.layout:
            raise RuntimeError(
                errors.GATHER_LIST_SIZE.format(i=i, want=list(tensor.shape), got=list(out.shape))
            )
    steps = _all_gather(g, tensor_list, tensor)
    return _run(Work(steps, "all_gather", g), async_op)


def _all_gather(g: ProcessGroup, tensor_list: list, tensor: Tensor):
    sparse = tensor.layout == "sparse_coo"
    local = tensor._data.coalesce() if sparse else np.ascontiguousarray(tensor._data)
    blocks = yield from gather_blocks(g, _pack(local) if sparse else local, "all_gather")
    for rank, (out, block) in enumerate(zip(tensor_list, blocks)):
        if sparse:
            indices, values = _unpack(block, local)
            out._data = COO._new(indices, values, local.shape, True)
            out._bump_version()
        elif block.size != local.nbytes:
            raise RuntimeError(
                errors.GATHER_SHAPES.format(
                    rank=rank, got=f"{block.size} bytes", want=f"{local.nbytes} bytes"
                )
            )
        else:
            _write(out, block.view(local.dtype).reshape(local.shape))


def broadcast(tensor: Tensor, src: int = 0, group=None, async_op: bool = False):
    """Copy rank ``src``'s ``tensor`` into every rank's, in place (dense tensors)."""
    g = default_group(group)
    _check_tensor(tensor)
    if tensor.layout != "strided":
        raise TypeError(errors.SPARSE_LAYOUT.format(layout=tensor.layout))
    if not isinstance(src, int) or not 0 <= src < g.size:
        raise RuntimeError(errors.ROOT_RANK.format(src=src, last=g.size - 1))
    return _run(Work(_broadcast(g, tensor, src), "broadcast", g), async_op)


def _broadcast(g: ProcessGroup, tensor: Tensor, src: int):
    buf = np.array(tensor._data, copy=True, order="C")
    yield g.comm.Ibcast(buf, root=src)
    _write(tensor, buf)
    last = (src - 1) % g.size  # the end of the pipeline sends nothing
    counting.record("broadcast", 0 if g.rank == last else buf.nbytes)


def barrier(group=None, async_op: bool = False):
    """Wait until every rank has reached the barrier (``torch.distributed.barrier``)."""
    g = default_group(group)
    return _run(Work(_barrier(g), "barrier", g), async_op)


def _barrier(g: ProcessGroup):
    yield g.comm.Ibarrier()
