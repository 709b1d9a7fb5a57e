"""``import minigrad`` tunes glibc's malloc (minigrad/_malloc.py): when, when not, and its effect.

Each check runs in a fresh interpreter, since the setting is made once per process at import
and lasts for the process. The children get this environment without any malloc setting of
the user's (``MALLOC_*``, ``GLIBC_TUNABLES``, ``MINIGRAD_TUNE_MALLOC``), plus what a test adds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _is_glibc_linux() -> bool:
    try:
        return sys.platform.startswith("linux") and os.confstr("CS_GNU_LIBC_VERSION").startswith(
            "glibc"
        )
    except (ValueError, OSError):
        return False


glibc_only = pytest.mark.skipif(not _is_glibc_linux(), reason="the tuning is for glibc on Linux")

REPORT = "import json, minigrad, minigrad._malloc as m; print(json.dumps([m.applied, m.reason]))"

# A step's worth of fresh arrays: 96 arrays of 1 MB allocated (and filled), then all freed, 20
# times; prints the minor page faults this took. 96 MB is more than the largest trim threshold
# glibc picks by itself (64 MiB) and less than the tuned one (256 MiB); 1 MB stays below numpy's
# huge-page cutoff (4 MiB), so one fault is one 4 KiB page.
FAULTS = """
import resource, numpy as np, minigrad
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(20):
    arrays = [np.ones(1 << 20, dtype=np.uint8) for _ in range(96)]
    del arrays
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _run(code: str, **extra: str) -> str:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("MALLOC_") and k not in ("GLIBC_TUNABLES", "MINIGRAD_TUNE_MALLOC")
    }
    env.update(extra)
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return out.stdout.strip().splitlines()[-1]


def _report(**extra: str) -> tuple[bool, str]:
    applied, reason = json.loads(_run(REPORT, **extra))
    return applied, reason


@glibc_only
def test_applied_by_default():
    applied, reason = _report()
    assert applied is True, reason
    assert "M_MMAP_THRESHOLD" in reason and "M_TRIM_THRESHOLD" in reason


@pytest.mark.skipif(_is_glibc_linux(), reason="checks the platforms without glibc")
def test_nothing_off_glibc():
    applied, reason = _report()
    assert applied is False and "not glibc" in reason


def test_opt_out():
    applied, reason = _report(MINIGRAD_TUNE_MALLOC="0")
    assert applied is False
    assert "MINIGRAD_TUNE_MALLOC=0" in reason


@pytest.mark.parametrize(
    "name, value",
    [
        ("MALLOC_TRIM_THRESHOLD_", "131072"),
        ("MALLOC_MMAP_THRESHOLD_", "131072"),
        ("GLIBC_TUNABLES", "glibc.malloc.trim_threshold=131072"),
    ],
)
def test_users_setting_wins(name, value):
    applied, reason = _report(**{name: value})
    assert applied is False
    assert "user's own setting" in reason and name in reason


@glibc_only
def test_freed_arrays_are_reused_not_faulted_again():
    """Untuned, every round faults its 96 MB in again; tuned, only the first round does."""
    untuned = int(_run(FAULTS, MINIGRAD_TUNE_MALLOC="0"))
    tuned = int(_run(FAULTS))
    round_pages = 96 * (1 << 20) // os.sysconf("SC_PAGE_SIZE")
    assert untuned >= 10 * round_pages, (untuned, round_pages)
    assert tuned <= 2 * round_pages, (tuned, round_pages)
