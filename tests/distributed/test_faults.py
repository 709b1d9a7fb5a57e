"""A failing or missing rank ends the whole job with the rank and the error, never a hang."""

import time

from mpi_jobs import run_job

START = """
import datetime, sys, time
import minigrad as mg
import minigrad.distributed as dist
from minigrad import nn
from minigrad.nn.parallel import DistributedDataParallel as DDP
dist.init_process_group(backend="mpi", timeout=datetime.timedelta(seconds=float(sys.argv[1])))
r = dist.get_rank()
"""

RAISES = (
    START
    + """
model = DDP(nn.Linear(3, 1))
for step in range(5):
    if r == 1 and step == 2:
        raise ValueError(f"boom at step {step}")
    model(mg.randn(4, 3)).sum().backward()   # rank 0 waits for rank 1 in here
"""
)

SKIPS = (
    START
    + """
if r == 0:
    dist.all_reduce(mg.ones(3))  # rank 1 never joins
else:
    time.sleep(60)
"""
)

MISMATCH = (
    START
    + """
model = nn.Sequential(nn.Linear(3, 4 if r == 0 else 5), nn.Tanh())
DDP(model)
print(f"rank {r} started", flush=True)
"""
)


def test_a_rank_that_raises_ends_every_rank_with_its_rank_and_error(tmp_path):
    t0 = time.monotonic()
    result = run_job(tmp_path, RAISES, args=["600"], timeout=60)  # no timeout needed: abort
    assert result.returncode != 0
    assert "rank 1 of 2 failed" in result.stderr, result.stderr
    assert "ValueError: boom at step 2" in result.stderr, result.stderr
    assert time.monotonic() - t0 < 60


def test_a_rank_that_never_joins_times_the_collective_out(tmp_path):
    result = run_job(tmp_path, SKIPS, args=["2"], timeout=60)
    assert result.returncode != 0
    assert "rank 0 of 2 failed" in result.stderr, result.stderr
    assert "DistBackendError: rank 0: all_reduce did not complete within 2 s" in result.stderr


def test_mismatched_parameter_shapes_are_refused_at_start_up(tmp_path):
    result = run_job(tmp_path, MISMATCH, args=["30"], timeout=60)
    assert result.returncode != 0
    assert "started" not in result.stdout
    assert "parameter '0.weight' is [5, 3] float32 on rank 1 but [4, 3] float32 on rank 0" in (
        result.stderr
    ), result.stderr
