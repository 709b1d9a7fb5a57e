"""The handle of a collective that runs in the background (``torch.distributed.Work``).

A collective is written as a generator that yields one MPI request (``Iallreduce``,
``Iallgatherv``, ...) and, after it completes, writes its result into the tensors. MPI
needs every rank to start its collectives in the same order, so a collective that needs a
first exchange (all-gather of blocks of unknown size: the sizes) does it before yielding,
while the collective is being started, never later from a poll. :class:`Work` drives it: :meth:`Work.is_completed` tests the current request and
moves on when it is done; :meth:`Work.wait` does so until the end or until the group's
timeout, polling with a short sleep, so a rank that never joins makes the others fail
with a :class:`DistBackendError` instead of hanging.

MPI moves a non-blocking collective forward only while some MPI call runs in this
process (Open MPI has no progress thread by default), so code that wants overlap pokes
its pending work with ``is_completed()`` now and then: DistributedDataParallel does it
from every gradient hook. PyTorch runs its collectives on a separate thread instead.
"""

from __future__ import annotations

import datetime
import time

from ..errors import distributed as errors
from .process_group import DistBackendError, ProcessGroup

_LONGEST_PAUSE = 1e-3  # seconds between polls, at most: short next to any collective here


class Work:
    """A running collective. ``wait()`` blocks until it is done; ``is_completed()`` asks.

    Example (under ``mpirun``)::

        work = dist.all_reduce(t, async_op=True)
        ...                # compute while the reduction runs
        work.wait()        # t now holds the sum
    """

    def __init__(self, steps, op: str, group: ProcessGroup):
        self._steps, self._op, self._group = steps, op, group
        self._request, self._done = None, False
        self.result = None  # what the steps return (gather_blocks: the blocks)
        self._advance()  # start the first request now

    def _advance(self) -> bool:
        """Test the current request; when done, start the next step. True at the end."""
        while not self._done:
            if self._request is not None and not self._request.Test():
                return False
            try:
                self._request = next(self._steps)
            except StopIteration as stop:
                self._done, self._request, self.result = True, None, stop.value
        return True

    def is_completed(self) -> bool:
        """True once the collective has finished and written its result."""
        return self._advance()

    def wait(self, timeout: datetime.timedelta | None = None) -> bool:
        """Block until done (True), or raise DistBackendError after ``timeout`` (default:
        the group's)."""
        seconds = self._group.timeout if timeout is None else timeout.total_seconds()
        poll_until(self._advance, self._group, self._op, seconds)
        return True

    def __repr__(self) -> str:
        state = "completed" if self._done else "pending"
        return f"Work({self._op}, {state})"


def poll_until(done, group: ProcessGroup, op: str, seconds: float | None = None) -> None:
    """Call ``done()`` until it is True, sleeping a little longer each time (up to 1 ms);
    raise DistBackendError naming the rank and ``op`` after ``seconds`` (default: the
    group's timeout)."""
    seconds = group.timeout if seconds is None else seconds
    deadline = time.monotonic() + seconds
    pause = 0.0
    while not done():
        if time.monotonic() > deadline:
            raise DistBackendError(errors.TIMED_OUT.format(rank=group.rank, op=op, seconds=seconds))
        time.sleep(pause)
        pause = min(2 * pause + 1e-6, _LONGEST_PAUSE)
