"""What one student's kernel needs: wall time, peak and idle memory of each course notebook.

Each notebook (``notebooks/NN_*.ipynb``) runs top to bottom in a fresh kernel of its own
(nbclient, this venv's ``python3``, this checkout's minigrad and viz on ``PYTHONPATH``, the
notebook's folder as the working directory). The script times the cells from the first to the
last (the kernel's start, about a second, is not included) and reads the kernel process's
memory in ``/proc/<pid>/status`` (Linux): its peak resident size (``VmHWM``) after the last
cell, and its resident size (``VmRSS``) once it has sat idle for a few seconds after it, which
is what a kernel left open keeps (Python and glibc give little memory back to the system). It
prints a markdown table and the totals. A JupyterHub's sizing (docs/teaching.md) adds each
student's server; ``make test-hub`` prints that figure.

Run: ``python benchmarks/bench_notebooks.py [--only NAME]`` (NAME: a file name or its start,
e.g. ``--only 09``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

REPO = Path(__file__).resolve().parents[1]
TIMEOUT_S = 180  # per cell
IDLE_S = 5  # how long the kernel sits idle before its resident size is read


def rss_mib(pid: int, field: str = "VmHWM") -> float:
    """The process's peak (``VmHWM``) or current (``VmRSS``) resident set size, in MiB; NaN
    where /proc has none."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return float("nan")
    for line in status.splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1]) / 1024  # kB
    return float("nan")


def run(path: Path) -> tuple:
    """``(wall seconds of the cells, peak RSS, idle RSS in MiB)`` of ``path`` run in a fresh
    kernel."""
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        timeout=TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.reset_execution_trackers()
    with client.setup_kernel():
        pid = client.km.provisioner.pid
        client.wait_for_reply(client.kc.kernel_info())
        start = time.perf_counter()
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index, execution_count=client.code_cells_executed + 1)
        wall = time.perf_counter() - start
        peak = rss_mib(pid, "VmHWM")
        time.sleep(IDLE_S)
        idle = rss_mib(pid, "VmRSS")
    return wall, peak, idle


def table(rows) -> str:
    """The markdown table of ``(name, wall, peak, idle)`` rows, with a totals row."""
    lines = [
        "| notebook | wall time | peak memory (kernel RSS) | kept while idle (kernel RSS) |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| `{name}` | {wall:.1f} s | {peak:.0f} MiB | {idle:.0f} MiB |"
        for name, wall, peak, idle in rows
    ]
    total = sum(row[1] for row in rows)
    peak = max((row[2] for row in rows), default=float("nan"))
    idle = max((row[3] for row in rows), default=float("nan"))
    lines.append(
        f"| all {len(rows)}, one after another | {total:.1f} s | {peak:.0f} MiB at most "
        f"| {idle:.0f} MiB at most |"
    )
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="one notebook: its file name or the start of it (09)")
    args = parser.parse_args(argv)
    paths = sorted((REPO / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if args.only:
        paths = [p for p in paths if p.name.startswith(args.only)]
    if not paths:
        print(f"no notebook matches {args.only!r}", file=sys.stderr)
        return 1
    os.environ["PYTHONPATH"] = os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")])
    )
    rows = []
    for path in paths:
        wall, peak, idle = run(path)
        print(
            f"{path.name}: {wall:.1f} s, peak {peak:.0f} MiB, idle {idle:.0f} MiB",
            file=sys.stderr,
            flush=True,
        )
        rows.append((path.name, wall, peak, idle))
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
