"""PyTorch as oracle for optimizers with sparse gradients: 20-step trajectories of an
Embedding(sparse=True) model (two lookups per step into one table, duplicates, an empty
batch) with SparseAdam, Adagrad and plain SGD, float64, rtol 1e-6. And the documented
difference: SGD's lazy momentum against PyTorch's."""

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")

pytestmark = [
    pytest.mark.oracle,
    pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled"),
]
NUM, DIM, STEPS = 40, 6, 20


def batches(seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for step in range(STEPS):
        n = 0 if step == 7 else int(rng.integers(1, 12))  # step 7: an empty batch
        out.append((rng.integers(0, NUM, n), rng.integers(0, NUM, n), rng.standard_normal(n)))
    return out


def train(lib, make_opt, seed=0):
    """Matrix factorisation on one table: loss = mean((E[u] . E[i] - r)^2)."""
    w0 = np.random.default_rng(seed).standard_normal((NUM, DIM))
    if lib is torch:
        emb = torch.nn.Embedding.from_pretrained(torch.tensor(w0), freeze=False, sparse=True)
    else:
        emb = mg.nn.Embedding.from_pretrained(mg.tensor(w0.copy()), freeze=False, sparse=True)
    opt = make_opt(lib, emb.parameters())
    history = []
    for users, items, ratings in batches(seed):
        opt.zero_grad()
        u, i = lib.tensor(users, dtype=lib.int64), lib.tensor(items, dtype=lib.int64)
        pred = (emb(u) * emb(i)).sum(-1)
        loss = ((pred - lib.tensor(ratings)) ** 2).sum() / max(len(users), 1)
        with mg.sparse.config(densify="never"):
            loss.backward()
        grad = emb.weight.grad
        assert grad.is_sparse and not grad.is_coalesced() or len(users) <= 1
        opt.step()
        w = emb.weight.detach()
        history.append(w.numpy().copy())
    return history


CASES = {
    "SparseAdam": lambda lib, ps: lib.optim.SparseAdam(ps, lr=0.05),
    "SparseAdam betas maximize": lambda lib, ps: lib.optim.SparseAdam(
        ps, lr=0.01, betas=(0.5, 0.8), eps=1e-6, maximize=True
    ),
    "Adagrad": lambda lib, ps: lib.optim.Adagrad(ps, lr=0.1),
    "Adagrad lr_decay init": lambda lib, ps: lib.optim.Adagrad(
        ps, lr=0.1, lr_decay=0.05, initial_accumulator_value=0.3, eps=1e-8
    ),
    "SGD": lambda lib, ps: lib.optim.SGD(ps, lr=0.05),
    "SGD maximize": lambda lib, ps: lib.optim.SGD(ps, lr=0.01, maximize=True),
}


@pytest.mark.parametrize("name", CASES)
def test_trajectory_matches_torch(name):
    ours, theirs = train(mg, CASES[name]), train(torch, CASES[name])
    for step, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-12, err_msg=f"step {step}")
    assert not np.allclose(ours[-1], ours[0])  # it did train


def test_lazy_momentum_differs_from_torch_as_documented():
    """PyTorch's sparse momentum buffer keeps every row ever seen coasting; ours does not."""

    def two_steps(lib):
        emb = lib.nn.Embedding.from_pretrained(
            lib.zeros(5, 2, dtype=lib.float64), freeze=False, sparse=True
        )
        opt = lib.optim.SGD(emb.parameters(), lr=1.0, momentum=0.9)
        for ids in ([1], [2]):
            opt.zero_grad()
            (emb(lib.tensor(ids)) * 1.0).sum().backward()
            opt.step()
        w = emb.weight.detach()
        return w.numpy()[:, 0]

    np.testing.assert_allclose(two_steps(torch), [0, -1.9, -1, 0, 0])  # row 1 coasted
    np.testing.assert_allclose(two_steps(mg), [0, -1.0, -1, 0, 0])  # row 1 absent: stays
