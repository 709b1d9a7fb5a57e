"""DistributedDataParallel on 2 MPI processes equals one process on the same global batches."""

from mpi_jobs import assert_ok, run_job

# Each rank trains a DDP replica on its half of every global batch, and a reference model on
# the whole batch in one process; after the steps both must agree (float64, 1e-6).
COMMON = """
import copy
import numpy as np
import minigrad as mg
import minigrad.distributed as dist
from minigrad import nn
from minigrad.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group(backend="mpi")
r, w = dist.get_rank(), dist.get_world_size()
mg.set_default_dtype(mg.float64)

def check_same_on_every_rank(model):
    for name, p in model.named_parameters():
        dense = p.detach() if p.layout == "strided" else p.detach().to_dense()
        out = [mg.zeros_like(dense) for _ in range(w)]
        dist.all_gather(out, dense)
        assert all(np.array_equal(o.numpy(), out[0].numpy()) for o in out), name

def assert_close(ddp, ref):
    for (name, a), b in zip(ddp.module.named_parameters(), ref.parameters()):
        err = np.abs(a.detach().numpy() - b.detach().numpy()).max()
        assert err < 1e-6, (name, err)
"""

DENSE_MLP = (
    COMMON
    + """
mg.manual_seed(100 + r)  # different on purpose: DDP must broadcast rank 0's parameters
model = nn.Sequential(nn.Linear(5, 16), nn.Tanh(), nn.Linear(16, 8), nn.Tanh(), nn.Linear(8, 1))
for cap in (25, 0.0005):  # one bucket; then a bucket per parameter or two
    net = copy.deepcopy(model)
    ddp = DDP(net, bucket_cap_mb=cap)
    check_same_on_every_rank(ddp)
    ref = copy.deepcopy(ddp.module)
    opt = mg.optim.SGD(ddp.parameters(), lr=0.1, momentum=0.9)
    ref_opt = mg.optim.SGD(ref.parameters(), lr=0.1, momentum=0.9)
    rng = np.random.default_rng(0)
    for step in range(4):
        x, y = mg.tensor(rng.standard_normal((8, 5))), mg.tensor(rng.standard_normal((8, 1)))
        mine = slice(r * 4, (r + 1) * 4)
        opt.zero_grad()
        nn.functional.mse_loss(ddp(x[mine]), y[mine]).backward()
        opt.step()
        ref_opt.zero_grad()
        nn.functional.mse_loss(ref(x), y).backward()
        ref_opt.step()
    assert_close(ddp, ref)
    check_same_on_every_rank(ddp)
    assert len(ddp.reducer.buckets) == (1 if cap == 25 else 4), len(ddp.reducer.buckets)
print(f"rank {r} ok", flush=True)
"""
)

SPARSE_RECOMMENDER = (
    COMMON
    + """
class Recommender(nn.Module):
    def __init__(self):
        super().__init__()
        self.users = nn.Embedding(50, 4, sparse=True)
        self.items = nn.Embedding(80, 4, sparse=True)
        self.bias = nn.Linear(4, 1)

    def forward(self, u, i):
        return (self.users(u) * self.items(i)).sum(1) + self.bias(self.items(i)).squeeze(1)

mg.manual_seed(7 + r)
ddp = DDP(Recommender())
ref = copy.deepcopy(ddp.module)
opt, ref_opt = mg.optim.SGD(ddp.parameters(), lr=0.5), mg.optim.SGD(ref.parameters(), lr=0.5)
rng = np.random.default_rng(1)
for step in range(5):
    u, i = mg.tensor(rng.integers(0, 50, 16)), mg.tensor(rng.integers(0, 80, 16))
    y = mg.tensor(rng.standard_normal(16))
    mine = slice(r * 8, (r + 1) * 8)
    opt.zero_grad()
    ((ddp(u[mine], i[mine]) - y[mine]) ** 2).mean().backward()
    g = ddp.module.users.weight.grad
    assert g.layout == mg.sparse_coo and g.is_coalesced(), g.layout  # all-gathered, never dense
    opt.step()
    ref_opt.zero_grad()
    ((ref(u, i) - y) ** 2).mean().backward()
    ref_opt.step()
assert_close(ddp, ref)
check_same_on_every_rank(ddp)
assert [b.sparse for b in ddp.reducer.buckets] == [False, True, True]  # reverse order

# the densify policy still decides: a table whose every row is touched densifies, with an event
with mg.sparse.config(densify="auto", on_densify="warn"):
    import warnings
    small = DDP(nn.Embedding(3, 2, sparse=True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        small(mg.tensor([0, 1, 2, 0])).sum().backward()
    assert small.module.weight.grad.layout == mg.strided
    assert any("parameter 'weight'" in str(c.message) for c in caught), [str(c.message) for c in caught]
print(f"rank {r} ok", flush=True)
"""
)

SPARSE_IN_A_DENSE_BUCKET = (
    COMMON
    + """
import warnings

class Lookup(nn.Module):  # a plain Parameter looked up sparsely: DDP gives it a dense bucket
    def __init__(self):
        super().__init__()
        self.table = nn.Parameter(mg.randn(6, 3))

    def forward(self, i):
        return nn.functional.embedding(i, self.table, sparse=True)

mg.manual_seed(5)
ddp = DDP(Lookup())
ref = copy.deepcopy(ddp.module)
batch = mg.tensor([0, 2, 2, 5])
mine = batch[r * 2 : (r + 1) * 2]
with mg.sparse.config(on_densify="warn"), warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    (ddp(mine) ** 2).sum().backward()
assert [b.sparse for b in ddp.reducer.buckets] == [False]
assert ddp.module.table.grad.layout == mg.strided
assert [(e.rule, e.where) for e in ddp.reducer.events] == [("dense_bucket", "parameter 'table'")]
assert any("in a dense bucket" in str(c.message) for c in caught), [str(c.message) for c in caught]
((ref(batch) ** 2).sum() / w).backward()
err = np.abs(ddp.module.table.grad.numpy() - ref.table.grad.to_dense().numpy()).max()
assert err < 1e-12, err

# on_densify="error" stops it on every rank, before any collective starts
ddp.module.table.grad = None
with mg.sparse.config(on_densify="error"):
    try:
        (ddp(mine) ** 2).sum().backward()
    except mg.sparse.DensificationError as e:
        assert "parameter 'table'" in str(e) and "dense bucket" in str(e), e
    else:
        raise AssertionError("no DensificationError for a sparse gradient in a dense bucket")
print(f"rank {r} ok", flush=True)
"""
)

NO_SYNC = (
    COMMON
    + """
mg.manual_seed(3)
ddp = DDP(nn.Linear(3, 2))
ref = copy.deepcopy(ddp.module)
rng = np.random.default_rng(2)
batches = [(mg.tensor(rng.standard_normal((4, 3))), mg.tensor(rng.standard_normal((4, 2)))) for _ in range(3)]
mine = slice(r * 2, (r + 1) * 2)
with ddp.no_sync():  # two micro-batches accumulate locally
    for x, y in batches[:2]:
        nn.functional.mse_loss(ddp(x[mine]), y[mine]).backward()
local = ddp.module.weight.grad.numpy().copy()
out = [mg.zeros(2, 3) for _ in range(w)]
dist.all_gather(out, mg.tensor(local))
assert not np.allclose(out[0].numpy(), out[1].numpy())  # not averaged yet
x, y = batches[2]
nn.functional.mse_loss(ddp(x[mine]), y[mine]).backward()  # this one averages everything
for x, y in batches:
    nn.functional.mse_loss(ref(x), y).backward()
for a, b in zip(ddp.module.parameters(), ref.parameters()):
    assert np.abs(a.grad.numpy() - b.grad.numpy()).max() < 1e-6

# a parameter that got no gradient: the next forward says so (PyTorch's check)
class TwoHeads(nn.Module):
    def __init__(self):
        super().__init__()
        self.used, self.unused = nn.Linear(2, 1), nn.Linear(2, 1)
    def forward(self, x):
        return self.used(x)
two = DDP(TwoHeads())
two(mg.ones(1, 2)).sum().backward()
try:
    two(mg.ones(1, 2))
except RuntimeError as e:
    assert "finished reduction in the prior iteration" in str(e) and "unused.weight" in str(e), e
else:
    raise AssertionError("no error for an unused parameter")

# a different number of parameters, and none at all: every rank raises, and can go on
try:
    DDP(nn.Sequential(*[nn.Linear(2, 2) for _ in range(1 + r)]))
except RuntimeError as e:
    assert "rank 1 has 4 params, while rank 0 has 2 params" in str(e), e
else:
    raise AssertionError("no error for a different number of parameters")
try:
    DDP(nn.ReLU())
except RuntimeError as e:
    assert "doesn't have any parameter that requires a gradient" in str(e), e
else:
    raise AssertionError("no error for a module without parameters")
dist.barrier()
print(f"rank {r} ok", flush=True)
"""
)


def test_dense_mlp_on_two_ranks_equals_one_process(tmp_path):
    assert_ok(run_job(tmp_path, DENSE_MLP))


def test_sparse_recommender_on_two_ranks_equals_one_process(tmp_path):
    assert_ok(run_job(tmp_path, SPARSE_RECOMMENDER))


def test_a_sparse_gradient_in_a_dense_bucket_is_densified_through_the_policy(tmp_path):
    assert_ok(run_job(tmp_path, SPARSE_IN_A_DENSE_BUCKET))


def test_no_sync_accumulates_locally_then_averages_everything(tmp_path):
    assert_ok(run_job(tmp_path, NO_SYNC))
