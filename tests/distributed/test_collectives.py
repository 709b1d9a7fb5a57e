"""Collectives on 2 MPI processes against numpy; errors before init_process_group."""

import subprocess
import sys

import pytest
from mpi_jobs import ROOT, assert_ok, run_job

import minigrad as mg
import minigrad.distributed as dist

COLLECTIVES = """
import numpy as np
import minigrad as mg
import minigrad.distributed as dist

dist.init_process_group(backend="mpi")
r, w = dist.get_rank(), dist.get_world_size()
assert dist.is_initialized() and w == 2
rng = [np.random.default_rng(k) for k in range(w)]  # every rank can compute every rank's data
data = [g.standard_normal((3, 4)) for g in rng]

# all_reduce: every op against numpy
for op, ref in [(dist.ReduceOp.SUM, np.sum), (dist.ReduceOp.AVG, np.mean),
                (dist.ReduceOp.MAX, np.max), (dist.ReduceOp.MIN, np.min),
                (dist.ReduceOp.PRODUCT, np.prod)]:
    t = mg.tensor(data[r])
    assert dist.all_reduce(t, op=op) is None
    np.testing.assert_allclose(t.numpy(), ref(np.stack(data), axis=0), rtol=1e-12)
t = mg.tensor(r + 1)  # 0-d, int64
dist.all_reduce(t)
assert t.item() == 3 and t.dtype is mg.int64

# all_gather and broadcast
out = [mg.zeros(3, 4, dtype=mg.float64) for _ in range(w)]
dist.all_gather(out, mg.tensor(data[r]))
for k in range(w):
    np.testing.assert_array_equal(out[k].numpy(), data[k])
b = mg.tensor(data[r])
dist.broadcast(b, src=1)
np.testing.assert_array_equal(b.numpy(), data[1])

# async: two reductions in flight, then wait
x, y = mg.tensor(data[r]), mg.tensor(2 * data[r])
wx = dist.all_reduce(x, async_op=True)
wy = dist.all_reduce(y, op=dist.ReduceOp.AVG, async_op=True)
assert isinstance(wx, dist.Work)
assert wy.wait() is True and wx.wait() is True and wx.is_completed()
np.testing.assert_allclose(x.numpy(), data[0] + data[1])
np.testing.assert_allclose(y.numpy(), data[0] + data[1])
assert dist.barrier(async_op=True).wait()
dist.barrier()

# sparse all_reduce: all-gather + coalesce, never dense; an empty rank is fine
rows = [np.array([[1, 4, 1]]), np.array([[4, 7]])]
vals = [np.arange(6.0).reshape(3, 2), np.ones((2, 2))]
s = mg.sparse_coo_tensor(rows[r], vals[r], (9, 2))
dist.all_reduce(s)
dense = sum(mg.sparse_coo_tensor(rows[k], vals[k], (9, 2)).to_dense().numpy() for k in range(w))
assert s.layout == mg.sparse_coo and s.is_coalesced()
assert s.indices().tolist() == [[1, 4, 7]]
np.testing.assert_array_equal(s.to_dense().numpy(), dense)
e = mg.sparse_coo_tensor(rows[0], vals[0], (9, 2)) if r == 0 else mg.sparse_coo_tensor(np.zeros((1, 0), dtype=np.int64), np.zeros((0, 2)), (9, 2))
dist.all_reduce(e, op=dist.ReduceOp.AVG, async_op=True).wait()
np.testing.assert_array_equal(e.to_dense().numpy(), mg.sparse_coo_tensor(rows[0], vals[0], (9, 2)).to_dense().numpy() / 2)
got = [mg.sparse_coo_tensor(np.zeros((1, 0), dtype=np.int64), np.zeros((0, 2)), (9, 2)) for _ in range(w)]
dist.all_gather(got, mg.sparse_coo_tensor(rows[r], vals[r], (9, 2)))
for k in range(w):
    np.testing.assert_array_equal(got[k].to_dense().numpy(), mg.sparse_coo_tensor(rows[k], vals[k], (9, 2)).to_dense().numpy())

# bytes counted with the ring formulas
dist.reset_traffic()
dist.all_reduce(mg.zeros(1000, dtype=mg.float64))
assert dist.traffic()["all_reduce"] == {"calls": 1, "bytes_sent": 2 * (w - 1) * 8000 // w}

# errors with PyTorch's types
for call, kind in [
    (lambda: dist.init_process_group("mpi"), ValueError),
    (lambda: dist.init_process_group("gloo"), ValueError),
    (lambda: dist.all_reduce(mg.ones(2), op="mean"), TypeError),
    (lambda: dist.all_reduce([1.0, 2.0]), TypeError),
    (lambda: dist.all_reduce(mg.ones(2, dtype=mg.int64), op=dist.ReduceOp.AVG), TypeError),
    (lambda: dist.broadcast(mg.ones(2), src=5), RuntimeError),
    (lambda: dist.all_gather([mg.ones(2)], mg.ones(2)), RuntimeError),
    (lambda: dist.all_gather([mg.ones(3), mg.ones(3)], mg.ones(2)), RuntimeError),
]:
    try:
        call()
    except kind:
        pass
    else:
        raise AssertionError(f"no {kind.__name__}")
dist.destroy_process_group()
assert not dist.is_initialized()
print(f"rank {r} ok", flush=True)
"""


def test_collectives_match_numpy_on_two_ranks(tmp_path):
    assert_ok(run_job(tmp_path, COLLECTIVES))


# --- before init_process_group, and without mpi4py ---------------------------------------------
NOT_INIT = (
    "Default process group has not been initialized, please make sure to call init_process_group."
)


@pytest.mark.parametrize(
    "call",
    [
        lambda: dist.get_rank(),
        lambda: dist.get_world_size(),
        lambda: dist.all_reduce(mg.ones(2)),
        lambda: dist.all_gather([mg.ones(2)], mg.ones(2)),
        lambda: dist.broadcast(mg.ones(2), 0),
        lambda: dist.barrier(),
        lambda: mg.nn.parallel.DistributedDataParallel(mg.nn.Linear(2, 1)),
    ],
)
def test_a_collective_before_init_is_pytorchs_value_error(call):
    assert not dist.is_initialized()
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == NOT_INIT


@pytest.mark.oracle
def test_the_not_initialized_error_is_pytorchs():
    torch = pytest.importorskip("torch")
    with pytest.raises(ValueError) as theirs:
        torch.distributed.all_reduce(torch.ones(2))
    with pytest.raises(ValueError) as ours:
        dist.all_reduce(mg.ones(2))
    assert str(ours.value) == str(theirs.value)
    assert not torch.distributed.is_initialized() and not dist.is_initialized()


def test_bad_backend_and_timeout_are_refused_before_mpi_starts():
    with pytest.raises(ValueError, match="backend must be 'mpi'"):
        dist.init_process_group(backend="nccl")
    with pytest.raises(TypeError, match="timeout must be a datetime.timedelta"):
        dist.init_process_group(timeout=5)


def test_minigrad_imports_without_mpi4py_and_says_how_to_install_it():
    code = (
        "import sys; sys.modules['mpi4py'] = None\n"
        "import minigrad, minigrad.distributed as dist\n"
        "from minigrad.nn.parallel import DistributedDataParallel\n"
        "try:\n    dist.init_process_group('mpi')\n"
        "except ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert "pip install mpi4py" in out.stdout and "openmpi-bin" in out.stdout


def test_ddp_refuses_bad_arguments_before_needing_a_group():
    DDP = mg.nn.parallel.DistributedDataParallel
    with pytest.raises(TypeError, match="expects an nn.Module, got function"):
        DDP(lambda x: x)
    for cap in (0, -1, "25", True):
        with pytest.raises(ValueError, match="bucket_cap_mb must be a positive number"):
            DDP(mg.nn.Linear(2, 1), bucket_cap_mb=cap)
