"""Run a benchmark function in a fresh process, as a user's process runs, and get its numbers back.

Every benchmark here measures what a user's process gets: each library in its own fresh
interpreter (minigrad's never imports torch, torch's never imports minigrad), with no
``MALLOC_*`` / ``GLIBC_TUNABLES`` setting from the benchmark and no ``gc.freeze()``.
Processes of the libraries alternate (minigrad, torch, minigrad, torch, ...) for several
rounds, and each script compares medians over the rounds, taken from the same rounds.

Why processes: a library's speed depends on the state of the process it runs in. glibc's
malloc adapts its thresholds to the frees it has seen, and the cyclic garbage collector
walks every object in the process, so running two libraries side by side in one process
measures neither as a user gets it.

The children get this process's environment without the malloc settings and without
``MINIGRAD_TUNE_MALLOC`` (a job passes that one explicitly when it wants it), with
``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS`` and ``MKL_NUM_THREADS`` = 1 (set before numpy
is imported), and :func:`import_library` gives torch ``torch.set_num_threads(1)``.

Use::

    from _processes import Job, alternate
    runs = alternate({"minigrad": Job("bench_x:child", ("minigrad",)),
                      "torch": Job("bench_x:child", ("torch",))}, rounds=5)
    runs["minigrad"]  # one JSON result per round

``bench_x:child`` names a function of a module in this folder; its arguments and its result
go through JSON. ``python benchmarks/_processes.py MODULE FUNCTION ARGS_JSON FORBIDDEN`` is
the child's side.
"""

from __future__ import annotations

import gc
import importlib
import importlib.metadata
import json
import os
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULT = "@@result "  # the child's last line on stdout: RESULT + JSON
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
LIBRARIES = ("minigrad", "torch")


@dataclass(frozen=True)
class Job:
    """One fresh process: ``target`` ("module:function") called with ``args``.

    ``env`` is added to the child's clean environment (e.g. ``MINIGRAD_TUNE_MALLOC=0``).
    ``library`` is the one library the child may import; importing the other is an error.
    """

    target: str
    args: tuple = ()
    library: str = "minigrad"
    env: dict[str, str] = field(default_factory=dict)


def child_environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    """This environment without malloc settings, one BLAS thread, plus ``extra``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("MALLOC_") and k not in ("GLIBC_TUNABLES", "MINIGRAD_TUNE_MALLOC")
    }
    env.update(dict.fromkeys(THREAD_VARIABLES, "1"))
    env.update(extra or {})
    return env


def run(job: Job) -> Any:
    """Run ``job`` in a fresh interpreter and return its function's result."""
    module, function = job.target.split(":")
    forbidden = [lib for lib in LIBRARIES if lib != job.library]
    out = subprocess.run(
        [sys.executable, __file__, module, function, json.dumps(job.args), ",".join(forbidden)],
        capture_output=True,
        text=True,
        env=child_environment(job.env),
        cwd=HERE,
    )
    if out.returncode != 0:
        raise RuntimeError(f"{job.target}{job.args} failed:\n{out.stderr[-4000:]}")
    last = out.stdout.strip().splitlines()[-1]
    return json.loads(last.removeprefix(RESULT))


def alternate(jobs: dict[str, Job], rounds: int) -> dict[str, list]:
    """Run each job once per round, in the order given, for ``rounds`` rounds."""
    results: dict[str, list] = {name: [] for name in jobs}
    for r in range(rounds):
        for name, job in jobs.items():
            print(f"  round {r + 1}/{rounds}: {name}", file=sys.stderr, flush=True)
            results[name].append(run(job))
    return results


def import_library(name: str):
    """The library a child measures; torch gets one thread, as numpy's BLAS does."""
    lib = importlib.import_module(name)
    if name == "torch":
        lib.set_num_threads(1)
    return lib


def versions() -> str:
    """The versions measured, read from package metadata (so this process imports neither)."""
    torch = importlib.metadata.version("torch")
    numpy = importlib.metadata.version("numpy")
    return f"torch {torch}, numpy {numpy}, Python {sys.version.split()[0]}"


def median_and_range(values: list[float]) -> tuple[float, float, float]:
    """(median, min, max) of one figure over the rounds."""
    return statistics.median(values), min(values), max(values)


def ratio_cell(mine: list[float], theirs: list[float]) -> str:
    """Ratio of the medians, with the range of the per-round ratios: ``0.52x (0.40-0.71)``."""
    per_round = [a / b for a, b in zip(mine, theirs)]
    ratio = statistics.median(mine) / statistics.median(theirs)
    return f"{ratio:.2f}x ({min(per_round):.2f}-{max(per_round):.2f})"


def target_cell(mine: list[float], theirs: list[float], limit: float) -> str:
    """The ratio of the medians against its target: ``<= 1.0x: met``."""
    met = statistics.median(mine) / statistics.median(theirs) <= limit
    return f"<= {limit:.1f}x: {'met' if met else 'MISSED'}"


def _child(module: str, function: str, args_json: str, forbidden: str) -> None:
    result = getattr(importlib.import_module(module), function)(*json.loads(args_json))
    for lib in filter(None, forbidden.split(",")):
        if lib in sys.modules:
            raise RuntimeError(f"{module}.{function} imported {lib}: not a user's process")
    if gc.get_freeze_count():
        raise RuntimeError(f"{module}.{function} called gc.freeze()")
    print(RESULT + json.dumps(result))


if __name__ == "__main__":
    _child(*sys.argv[1:5])
