"""The default process group on MPI: start it, ask who we are, end it.

``init_process_group(backend="mpi")`` is the one place that loads mpi4py (importing
``mpi4py.MPI`` starts MPI), so ``import minigrad`` works without it. It also makes an
uncaught exception on any rank abort the whole job (``MPI_Abort``) after printing the rank
and the traceback: without that, the other ranks would wait for the failed one in their
next collective forever. PyTorch's ``torchrun`` tears the job down the same way.
"""

from __future__ import annotations

import dataclasses
import datetime
import sys

from ..errors import distributed as errors

# PyTorch's default collective timeout (torch.distributed.default_pg_timeout)
default_pg_timeout = datetime.timedelta(minutes=30)


@dataclasses.dataclass
class ProcessGroup:
    """The ranks that take part in collectives (here always all of them: MPI_COMM_WORLD).

    Attributes:
        comm: the mpi4py communicator; ``mpi``: the ``mpi4py.MPI`` module.
        rank, size: this process's rank and the number of processes.
        timeout: seconds a collective may take before it fails with
            :class:`DistBackendError`.
    """

    comm: object
    mpi: object
    rank: int
    size: int
    timeout: float
    previous_excepthook: object = None


_default = [None]  # the default group once init_process_group has run


class DistBackendError(RuntimeError):
    """A collective failed or timed out (``torch.distributed.DistBackendError``)."""


def _load_mpi():
    """The ``mpi4py.MPI`` module, or an ImportError that says how to install it."""
    try:
        from mpi4py import MPI  # optional, and importing it starts MPI: only when asked for
    except ImportError as exc:
        raise ImportError(errors.NO_MPI4PY.format(why=exc)) from exc
    return MPI


def init_process_group(
    backend: str | None = None, timeout: datetime.timedelta | None = None, **kwargs
) -> None:
    """Join the job's default process group (``torch.distributed.init_process_group``).

    Rank and world size come from the MPI launcher (``mpirun -n 4 python train.py`` or
    ``python -m minigrad.distributed.run -n 4 train.py``); run without a launcher, the
    process is a world of one.

    Args:
        backend: ``"mpi"`` (or None); PyTorch's ``"gloo"``/``"nccl"`` are not available.
        timeout: how long a collective may wait for the other ranks (default 30 minutes,
            as PyTorch); past it the collective raises :class:`DistBackendError`.
        **kwargs: PyTorch's ``init_method``, ``world_size``, ``rank``: accepted and ignored,
            since MPI's launcher already decided them.
    """
    if _default[0] is not None:
        raise ValueError(errors.INIT_TWICE)
    if backend not in (None, "mpi"):
        raise ValueError(errors.BACKEND.format(got=backend))
    timeout = default_pg_timeout if timeout is None else timeout
    if not isinstance(timeout, datetime.timedelta):
        raise TypeError(errors.TIMEOUT_TYPE.format(got=type(timeout).__name__))
    mpi = _load_mpi()
    comm = mpi.COMM_WORLD
    group = ProcessGroup(comm, mpi, comm.Get_rank(), comm.Get_size(), timeout.total_seconds())
    group.previous_excepthook = sys.excepthook
    sys.excepthook = _abort_on_error(group)
    _default[0] = group


def _abort_on_error(group: ProcessGroup):
    """An excepthook: print which rank failed and why, then abort every rank."""

    def hook(kind, value, tb):
        sys.stderr.write(errors.RANK_FAILED.format(rank=group.rank, size=group.size))
        group.previous_excepthook(kind, value, tb)
        sys.stderr.flush()
        sys.stdout.flush()
        group.comm.Abort(1)

    return hook


def is_initialized() -> bool:
    """True once :func:`init_process_group` has run (and until it is destroyed)."""
    return _default[0] is not None


def default_group(group=None) -> ProcessGroup:
    """The default group; PyTorch's ValueError if there is none yet."""
    if group is not None and group is not _default[0]:
        raise ValueError(f"only the default process group is supported, got {group!r}")
    if _default[0] is None:
        raise ValueError(errors.NOT_INITIALIZED)
    return _default[0]


def get_rank(group=None) -> int:
    """This process's rank, 0 .. world size - 1 (``torch.distributed.get_rank``)."""
    return default_group(group).rank


def get_world_size(group=None) -> int:
    """The number of processes in the job (``torch.distributed.get_world_size``)."""
    return default_group(group).size


def destroy_process_group(group=None) -> None:
    """Leave the default group (MPI itself ends when the process exits, as mpi4py does)."""
    current = default_group(group)
    sys.excepthook = current.previous_excepthook
    _default[0] = None
