"""Launch a script on several MPI processes: ``python -m minigrad.distributed.run -n 4 train.py``.

Like PyTorch's ``torchrun --nproc-per-node 4 train.py``, but the processes are started by
MPI's own launcher: this builds the ``mpirun`` command and runs it. It adds the flags users
otherwise trip on: ``--allow-run-as-root`` when running as root (containers, CI), and
``--oversubscribe`` when asking for more processes than this machine has cores (4 workers
on a 2-core laptop). ``--hostfile FILE`` runs on a cluster's nodes instead (then no
oversubscription is added); ``--dry-run`` prints the command without running it.

Example:
    >>> cmd = mpirun_command(["train.py", "--steps", "5"], nprocs=2, cores=2, root=False)
    >>> cmd[:3], cmd[-3:]
    (['mpirun', '-n', '2'], ['train.py', '--steps', '5'])
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys

NO_MPIRUN = (
    "mpirun was not found on PATH. Install Open MPI (apt-get install openmpi-bin "
    "libopenmpi-dev; brew install open-mpi; conda install -c conda-forge openmpi) and "
    "pip install mpi4py, or run `make venv`."
)


def mpirun_command(
    script_and_args: list[str],
    nprocs: int,
    hostfile: str | None = None,
    cores: int | None = None,
    root: bool | None = None,
    python: str | None = None,
) -> list[str]:
    """The ``mpirun`` command line that runs ``python script args...`` on ``nprocs`` ranks."""
    cores = (os.cpu_count() or 1) if cores is None else cores
    root = os.geteuid() == 0 if root is None else root
    cmd = ["mpirun", "-n", str(nprocs)]
    if root:
        cmd.append("--allow-run-as-root")
    if hostfile is not None:
        cmd += ["--hostfile", hostfile]
    elif nprocs > cores:
        cmd.append("--oversubscribe")
    return cmd + [python or sys.executable, *script_and_args]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m minigrad.distributed.run",
        description="Run a training script on N MPI processes (calls mpirun).",
    )
    p.add_argument("-n", "--nproc", type=int, default=2, help="number of processes (ranks)")
    p.add_argument("--hostfile", help="mpirun host file: run on these nodes")
    p.add_argument("--dry-run", action="store_true", help="print the mpirun command only")
    p.add_argument("script", help="the Python script every rank runs")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments for the script")
    return p


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run mpirun, return its exit code."""
    ns = _parser().parse_args(argv)
    if ns.nproc < 1:
        _parser().error(f"-n must be at least 1, got {ns.nproc}")
    cmd = mpirun_command([ns.script, *ns.args], ns.nproc, hostfile=ns.hostfile)
    if ns.dry_run:
        print(shlex.join(cmd))
        return 0
    if shutil.which("mpirun") is None:
        print(NO_MPIRUN, file=sys.stderr)
        return 127
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main())
