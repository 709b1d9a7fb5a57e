"""Collectives across processes (``torch.distributed``) on MPI, for data-parallel training.

Launch a script on several processes with ``mpirun -n 4 python train.py`` or
``python -m minigrad.distributed.run -n 4 train.py`` (which adds the flags root users and
small machines need); in the script::

    import minigrad.distributed as dist
    dist.init_process_group(backend="mpi")
    rank, world = dist.get_rank(), dist.get_world_size()
    dist.all_reduce(t, op=dist.ReduceOp.AVG)       # in place, on every rank

Only collectives are offered (no point-to-point send/recv): ``all_reduce``,
``all_gather``, ``broadcast``, ``barrier``, each with ``async_op=True`` returning a
:class:`Work`. mpi4py is loaded by ``init_process_group`` only, so ``import minigrad``
works without it. :func:`traffic` counts the bytes each rank sent (ring-algorithm
formulas), which PyTorch does not offer.

Example:
    >>> import minigrad.distributed as dist
    >>> dist.is_initialized()
    False
    >>> dist.get_rank()
    Traceback (most recent call last):
    ...
    ValueError: Default process group has not been initialized, please make sure to call init_process_group.
"""

import importlib.util

from .collectives import ReduceOp, all_gather, all_reduce, barrier, broadcast
from .counting import reset_traffic, ring_all_gather_bytes, ring_all_reduce_bytes, traffic
from .process_group import (
    DistBackendError,
    ProcessGroup,
    default_pg_timeout,
    destroy_process_group,
    get_rank,
    get_world_size,
    init_process_group,
    is_initialized,
)
from .work import Work


def is_available() -> bool:
    """True: the package is always there (``torch.distributed.is_available``); collectives
    also need mpi4py, see :func:`is_mpi_available`."""
    return True


def is_mpi_available() -> bool:
    """True if mpi4py can be imported (without starting MPI)."""
    return importlib.util.find_spec("mpi4py") is not None


__all__ = [
    "DistBackendError",
    "ProcessGroup",
    "ReduceOp",
    "Work",
    "all_gather",
    "all_reduce",
    "barrier",
    "broadcast",
    "default_pg_timeout",
    "destroy_process_group",
    "get_rank",
    "get_world_size",
    "init_process_group",
    "is_available",
    "is_initialized",
    "is_mpi_available",
    "reset_traffic",
    "ring_all_gather_bytes",
    "ring_all_reduce_bytes",
    "traffic",
]
