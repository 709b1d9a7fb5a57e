"""Run a worker script on W MPI processes from a test, with a hard timeout.

Every test here launches ``python -m minigrad.distributed.run -n W script.py`` in its own
process group and kills the whole group if it outlives ``timeout``, so a bug that hangs
a collective fails the test instead of hanging CI. Without mpirun or mpi4py the tests
skip, unless ``MINIGRAD_REQUIRE_MPI=1`` (``make test`` sets it) makes that a failure.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import signal
import subprocess
import sys
import textwrap

import pytest

from minigrad.distributed.run import find_mpirun

ROOT = pathlib.Path(__file__).resolve().parents[2]


def require_mpi() -> None:
    missing = [
        what
        for what, ok in (
            ("mpirun", find_mpirun() is not None),
            ("mpi4py", importlib.util.find_spec("mpi4py") is not None),
        )
        if not ok
    ]
    if missing:
        message = f"needs {' and '.join(missing)} (make venv installs them)"
        if os.environ.get("MINIGRAD_REQUIRE_MPI") == "1":
            pytest.fail(message)
        pytest.skip(message)


def run_job(
    tmp_path, source: str, n: int = 2, timeout: float = 90, args=()
) -> subprocess.CompletedProcess:
    """Write ``source`` to a script, run it on ``n`` ranks; kill everything after ``timeout``."""
    require_mpi()
    script = tmp_path / "job.py"
    script.write_text(textwrap.dedent(source))
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    cmd = [sys.executable, "-m", "minigrad.distributed.run", "-n", str(n), str(script), *args]
    proc = subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the MPI job hung for {timeout} s\nstdout:\n{out}\nstderr:\n{err}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def assert_ok(result: subprocess.CompletedProcess, n: int = 2) -> None:
    """The job exited 0 and every rank printed ``rank R ok``."""
    report = f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    assert result.returncode == 0, report
    for rank in range(n):
        assert f"rank {rank} ok" in result.stdout, report
