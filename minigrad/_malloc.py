"""glibc's allocator told to keep freed memory, once, when minigrad is imported.

Why: a training step makes a few fresh arrays of a megabyte or more (the recommender step
of ``benchmarks/bench_recommender.py``, ``Embedding(1_000_000, 64, sparse=True)`` with a
batch of 4,096, makes several 4,096 x 64 float32 arrays). With glibc's default settings
every such array is ``mmap``-ed and handed back to the OS when it is freed, and the next
one page-faults again, 256 faults per megabyte. Measured in a fresh process, as a user
runs it (``benchmarks/bench_grad_pool.py``), that makes the step several times slower,
and slower than PyTorch, whose own allocator does not pay it.

What it changes: on Linux with glibc, two ``mallopt`` calls (the same settings as the
``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_`` environment variables):

* ``M_MMAP_THRESHOLD`` = 64 MiB: blocks below 64 MiB come from the heap, not from a
  fresh ``mmap``, so freed ones are reused;
* ``M_TRIM_THRESHOLD`` = 256 MiB: glibc gives the top of the heap back to the OS only
  once more than 256 MiB of it is free.

This is a process-wide setting of the C allocator: it applies to every library in the
process (numpy, scipy, and PyTorch if imported too), not only to minigrad. The cost is
memory: up to 256 MiB of freed memory may stay in the process (more, if live blocks
pin the heap), counted in its RSS. ``ctypes.CDLL(None).malloc_trim(0)`` hands it back
on demand. PyTorch's CPU allocator makes the same trade in its own way.

When it does nothing: off Linux or off glibc (musl, macOS, Windows: no error); when the
user has chosen already, with ``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_`` or
a ``glibc.malloc.mmap_threshold`` / ``glibc.malloc.trim_threshold`` entry in
``GLIBC_TUNABLES`` (theirs win); and when opted out with ``MINIGRAD_TUNE_MALLOC=0``
in the environment before ``import minigrad``.

What happened is recorded, for tests and the curious: ``applied`` (True when both
``mallopt`` calls succeeded) and ``reason`` (a sentence saying why or why not).

Example:
    >>> import minigrad._malloc as m
    >>> isinstance(m.applied, bool) and isinstance(m.reason, str)
    True
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Mapping

# From glibc's <malloc.h>.
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 64 << 20
TRIM_THRESHOLD = 256 << 20

OPT_OUT = "MINIGRAD_TUNE_MALLOC"
_USER_VARIABLES = ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_")
_USER_TUNABLES = ("glibc.malloc.mmap_threshold", "glibc.malloc.trim_threshold")


def _users_choice(environ: Mapping[str, str]) -> str | None:
    """The user's own malloc setting, if any, named as they wrote it."""
    for name in _USER_VARIABLES:
        if name in environ:
            return name
    tunables = environ.get("GLIBC_TUNABLES", "")
    for name in _USER_TUNABLES:
        if name in tunables:
            return f"GLIBC_TUNABLES {name}"
    return None


def _glibc() -> ctypes.CDLL | None:
    """The running C library when it is glibc (Linux), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc"):
            return None
        return ctypes.CDLL(None)
    except (ValueError, OSError, AttributeError):  # no such confstr name, musl, no dlopen
        return None


def tune(environ: Mapping[str, str] = os.environ) -> tuple[bool, str]:
    """Apply the two ``mallopt`` settings unless told not to; return (applied, reason)."""
    if environ.get(OPT_OUT, "").strip().lower() in ("0", "false", "no", "off"):
        return False, f"opted out: {OPT_OUT}={environ[OPT_OUT]}"
    users = _users_choice(environ)
    if users is not None:
        return False, f"left to the user's own setting: {users} is set"
    libc = _glibc()
    if libc is None:
        return False, f"not glibc on Linux (platform {sys.platform}): nothing to tune"
    libc.mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    if not libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD):
        return False, "glibc refused mallopt(M_MMAP_THRESHOLD, 64 MiB)"
    if not libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD):
        return False, "glibc refused mallopt(M_TRIM_THRESHOLD, 256 MiB)"
    return True, "mallopt: M_MMAP_THRESHOLD = 64 MiB, M_TRIM_THRESHOLD = 256 MiB"


applied, reason = tune()
