"""Optimizers with sparse gradients: lazy row updates (rows not looked up stay bit for bit),
where sparse and dense trajectories must agree, lazy momentum and weight decay, SparseAdam
on dense and mixed models, Adam's refusal, and nnz = 0."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import optim

NUM, DIM = 30, 4
BATCHES = [[1, 2, 1, 7], [7, 8], [], [2, 2, 2, 29], [0, 1]]


def make_table(seed=0, dtype=mg.float64):
    mg.manual_seed(seed)
    return mg.nn.Parameter(mg.randn(NUM, DIM, dtype=dtype))


def run(opt_factory, sparse, batches=BATCHES, seed=0):
    """Train a table on (W[ids]**2 * c).sum() for each batch; return the weights after each step."""
    W = make_table(seed)
    opt = opt_factory([W])
    rng = np.random.default_rng(seed)
    history = []
    for ids in batches:
        opt.zero_grad()
        c = mg.tensor(rng.uniform(0.5, 1.5, (len(ids), DIM)))
        out = F.embedding(mg.tensor(ids, dtype=mg.int64), W, sparse=sparse)
        with mg.sparse.config(densify="never"):
            (out**2 * c).sum().backward()
        opt.step()
        history.append(W.detach().numpy().copy())
    return history


LAZY = [
    lambda ps: optim.SGD(ps, lr=0.1),
    lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9),
    lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1),
    lambda ps: optim.SGD(ps, lr=0.1, momentum=0.5, dampening=0.3, maximize=True),
    lambda ps: optim.Adagrad(ps, lr=0.1, lr_decay=0.01, weight_decay=0.1),
    lambda ps: optim.Adagrad(ps, lr=0.1, initial_accumulator_value=0.5, maximize=True),
    lambda ps: optim.SparseAdam(ps, lr=0.1),
    lambda ps: optim.SparseAdam(ps, lr=0.1, betas=(0.5, 0.9), maximize=True),
]


@pytest.mark.parametrize("factory", LAZY)
def test_rows_not_looked_up_stay_bit_identical(factory):
    W = make_table()
    before = W.detach().numpy().copy()
    history = run(factory, sparse=True)
    seen = set()
    for ids, after in zip(BATCHES, history):
        seen |= set(ids)
        untouched = sorted(set(range(NUM)) - seen)
        np.testing.assert_array_equal(after[untouched], before[untouched])
        if ids:
            assert not np.array_equal(after[ids], before[ids])
    previous = history[0]
    for ids, after in zip(BATCHES[1:], history[1:]):
        absent = sorted(set(range(NUM)) - set(ids))  # lazy: absent rows do not coast or decay
        np.testing.assert_array_equal(after[absent], previous[absent])
        previous = after


@pytest.mark.parametrize(
    "factory",
    [
        lambda ps: optim.SGD(ps, lr=0.1),
        lambda ps: optim.SGD(ps, lr=0.1, maximize=True),
        lambda ps: optim.Adagrad(ps, lr=0.1, lr_decay=0.01),
        lambda ps: optim.Adagrad(ps, lr=0.1, initial_accumulator_value=0.5),
    ],
)
def test_sparse_equals_dense_where_the_algorithm_is_lazy_anyway(factory):
    """Plain SGD and Adagrad do not move a row whose gradient is zero: sparse == dense."""
    for sparse_step, dense_step in zip(run(factory, True), run(factory, False)):
        np.testing.assert_array_equal(sparse_step, dense_step)


def test_sparse_adam_with_dense_gradients_is_adam():
    def train(make_opt):
        mg.manual_seed(1)
        model = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.Tanh(), mg.nn.Linear(4, 1))
        opt = make_opt(model.parameters())
        x = mg.randn(8, 3)
        for _ in range(5):
            opt.zero_grad()
            (model(x) ** 2).mean().backward()
            opt.step()
        return [p.detach().numpy().copy() for p in model.parameters()], opt

    ours, opt = train(lambda ps: optim.SparseAdam(ps, lr=0.01, betas=(0.8, 0.99), eps=1e-6))
    adam, _ = train(lambda ps: optim.Adam(ps, lr=0.01, betas=(0.8, 0.99), eps=1e-6))
    for a, b in zip(ours, adam):
        np.testing.assert_array_equal(a, b)
    state = next(iter(opt.state.values()))
    assert sorted(state) == ["exp_avg", "exp_avg_sq", "step"] and state["step"].item() == 5


def test_one_sparse_adam_serves_a_mixed_model():
    """Embedding(sparse=True) + Linear under one SparseAdam == lazy part + Adam part."""

    def train(two_optimizers):
        mg.manual_seed(2)
        emb, head = mg.nn.Embedding(NUM, DIM, sparse=True), mg.nn.Linear(DIM, 1)
        if two_optimizers:
            opts = [
                optim.SparseAdam(emb.parameters(), lr=0.05),
                optim.Adam(head.parameters(), lr=0.05),
            ]
        else:
            opts = [optim.SparseAdam([*emb.parameters(), *head.parameters()], lr=0.05)]
        for ids in BATCHES:
            for o in opts:
                o.zero_grad()
            (head(emb(mg.tensor(ids, dtype=mg.int64))) ** 2).sum().backward()
            assert emb.weight.grad.layout == "sparse_coo" and head.weight.grad.layout == "strided"
            for o in opts:
                o.step()
        return emb.weight.detach().numpy().copy(), head.weight.detach().numpy().copy()

    for a, b in zip(train(False), train(True)):
        np.testing.assert_array_equal(a, b)


def test_lazy_momentum_follows_dense_sgd_on_each_rows_own_steps():
    """With dampening=0 a row's trajectory is dense SGD on the steps where it is present."""
    batches = [[3, 5], [5], [3], [3, 5, 5]]
    history = run(lambda ps: optim.SGD(ps, lr=0.1, momentum=0.9, weight_decay=0.01), True, batches)
    rng = np.random.default_rng(0)
    scales = [rng.uniform(0.5, 1.5, (len(ids), DIM)) for ids in batches]
    for row in (3, 5):
        p = mg.nn.Parameter(mg.tensor(make_table().detach().numpy()[row].copy()))
        opt = optim.SGD([p], lr=0.1, momentum=0.9, weight_decay=0.01)
        for ids, c in zip(batches, scales):
            if row not in ids:
                continue
            opt.zero_grad()
            coef = sum(c[i] for i, r in enumerate(ids) if r == row)
            (p**2 * mg.tensor(coef)).sum().backward()
            opt.step()
        np.testing.assert_allclose(history[-1][row], p.detach().numpy(), rtol=1e-12)


def test_first_step_buffer_is_the_gradient_and_later_rows_start_damped():
    W = mg.nn.Parameter(mg.zeros(4, 1, dtype=mg.float64))
    opt = optim.SGD([W], lr=1.0, momentum=0.5, dampening=0.5)
    for ids in ([0], [0, 1]):
        opt.zero_grad()
        F.embedding(mg.tensor(ids), W, sparse=True).sum().backward()
        opt.step()
    buf = opt.state[W]["momentum_buffer"].detach().numpy()[:, 0]
    np.testing.assert_array_equal(buf, [0.5 * 1 + 0.5 * 1, 0.5, 0, 0])  # row 0: dense rule


def test_step_does_not_modify_the_gradient():
    W = make_table()
    for factory in LAZY:
        opt = factory([W])
        W.grad = None
        F.embedding(mg.tensor([1, 1, 2]), W, sparse=True).sum().backward()
        values = W.grad._values().detach().numpy().copy()
        opt.step()
        np.testing.assert_array_equal(W.grad._values().detach().numpy(), values)
        assert W.grad.nnz == 3 and not W.grad.is_coalesced()


@pytest.mark.parametrize("factory", LAZY)
def test_empty_batch_moves_nothing(factory):
    W = make_table()
    before = W.detach().numpy().copy()
    opt = factory([W])
    F.embedding(mg.tensor([], dtype=mg.int64), W, sparse=True).sum().backward()
    assert W.grad.layout != "strided" and W.grad.nnz == 0
    opt.step()
    np.testing.assert_array_equal(W.detach().numpy(), before)


def test_sparse_adam_counts_empty_steps_as_pytorch():
    W = make_table()
    opt = optim.SparseAdam([W])
    F.embedding(mg.tensor([], dtype=mg.int64), W, sparse=True).sum().backward()
    opt.step()
    assert opt.state[W]["step"].item() == 1


@pytest.mark.parametrize("cls", [optim.Adam, optim.AdamW])
def test_adam_rejects_sparse_gradients(cls):
    W = make_table()
    F.embedding(mg.tensor([1]), W, sparse=True).sum().backward()
    before = W.detach().numpy().copy()
    with pytest.raises(
        RuntimeError,
        match="^Adam does not support sparse gradients, please consider SparseAdam instead$",
    ):
        cls([W]).step()
    np.testing.assert_array_equal(W.detach().numpy(), before)


def test_sparse_parameters_are_refused():
    S = mg.sparse_coo_tensor([[0, 1]], [1.0, 2.0], (3,), requires_grad=True)
    with pytest.raises(
        ValueError, match="SparseAdam updates dense parameters only, but parameter 0"
    ):
        optim.SparseAdam([S])
    S.grad = mg.sparse_coo_tensor([[0]], [1.0], (3,))
    with pytest.raises(ValueError, match="SGD updates dense parameters only"):
        optim.SGD([S], lr=0.1).step()


def test_hyperparameter_validation():
    W = make_table()
    for call, message in [
        (lambda: optim.SparseAdam([W], lr=0.0), "Invalid learning rate: 0.0"),
        (lambda: optim.SparseAdam([W], eps=0.0), "Invalid epsilon value: 0.0"),
        (lambda: optim.SparseAdam([W], betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
        (lambda: optim.Adagrad([W], lr=-1), "Invalid learning rate: -1"),
        (lambda: optim.Adagrad([W], lr_decay=-1), "Invalid lr_decay value: -1"),
        (
            lambda: optim.Adagrad([W], initial_accumulator_value=-1),
            "Invalid initial_accumulator_value",
        ),
        (lambda: optim.Adagrad([W], eps=-1), "Invalid epsilon value: -1"),
    ]:
        with pytest.raises(ValueError, match=message):
            call()


def test_adagrad_state_is_created_with_the_optimizer_and_saved():
    W = make_table()
    opt = optim.Adagrad([W], initial_accumulator_value=0.25)
    assert opt.state[W]["step"].item() == 0
    np.testing.assert_array_equal(opt.state[W]["sum"].detach().numpy(), 0.25)
    F.embedding(mg.tensor([3]), W, sparse=True).sum().backward()
    opt.step()
    saved = opt.state_dict()
    fresh = optim.Adagrad([mg.nn.Parameter(W.detach().clone())], initial_accumulator_value=0.25)
    fresh.load_state_dict(saved)
    state = next(iter(fresh.state.values()))
    assert state["step"].item() == 1
    np.testing.assert_array_equal(
        state["sum"].detach().numpy(), opt.state[W]["sum"].detach().numpy()
    )


def test_float32_table_keeps_its_dtype():
    W = make_table(dtype=mg.float32)
    for factory in LAZY:
        opt = factory([W])
        W.grad = None
        F.embedding(mg.tensor([1, 2, 1]), W, sparse=True).sum().backward()
        opt.step()
        assert W.detach().numpy().dtype == np.float32
        for value in opt.state[W].values():
            if value.ndim:
                assert value.detach().numpy().dtype == np.float32


def test_version_counter_is_bumped_by_a_sparse_step():
    W = make_table()
    F.embedding(mg.tensor([1]), W, sparse=True).sum().backward()
    before = W._version
    optim.SGD([W], lr=0.1).step()
    assert W._version > before
