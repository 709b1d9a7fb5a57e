"""utils.data without PyTorch: datasets, random_split, samplers, the DataLoader's batching,
shuffling under mg.manual_seed, collation and the refused options. (The side-by-side checks
against PyTorch are in test_data_oracle.py.)"""

import collections

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils.data import (
    BatchSampler,
    ConcatDataset,
    DataLoader,
    Dataset,
    IterableDataset,
    RandomSampler,
    SequentialSampler,
    Subset,
    TensorDataset,
    default_collate,
    random_split,
)


def dataset(n=10):
    return TensorDataset(mg.arange(2.0 * n).reshape(n, 2), mg.arange(n))


def order(loader):
    """The dataset indices of one epoch, in the order the loader visited them."""
    return [i for _, y in loader for i in y.tolist()]


def test_reachable_as_in_torch():
    assert mg.utils.data.DataLoader is DataLoader
    from minigrad.utils.data import DataLoader as imported

    assert imported is DataLoader


def test_tensor_dataset_rows():
    ds = dataset(4)
    x, y = ds[2]
    assert len(ds) == 4 and x.tolist() == [4.0, 5.0] and y.item() == 2
    xs, ys = ds[1:3]
    assert tuple(xs.shape) == (2, 2) and ys.tolist() == [1, 2]


def test_tensor_dataset_refuses_mismatched_and_non_tensors():
    with pytest.raises(AssertionError, match="Size mismatch between tensors"):
        TensorDataset(mg.zeros(3, 2), mg.zeros(4))
    with pytest.raises(TypeError, match="argument 1 must be a Tensor, got list"):
        TensorDataset(mg.zeros(3), [1, 2, 3])


def test_dataset_subclass_subset_and_concat():
    class Squares(Dataset):
        def __len__(self):
            return 5

        def __getitem__(self, i):
            return i * i

    sub = Subset(Squares(), [4, 1])
    assert len(sub) == 2 and sub[0] == 16
    assert [sub[i] for i in range(2)] == [16, 1] and sub.__getitems__([1, 0]) == [1, 16]
    both = Squares() + Squares()
    assert isinstance(both, ConcatDataset) and len(both) == 10
    assert both[7] == 4 and both[-1] == 16
    with pytest.raises(NotImplementedError, match="should implement __getitem__"):
        Dataset()[0]
    rows = Subset(dataset(5), [4, 1])[[1, 0]]  # a list index goes to the dataset at once
    assert rows[1].tolist() == [1, 4]


def test_random_split_is_a_partition_repeatable_under_manual_seed():
    mg.manual_seed(5)
    a, b, c = random_split(range(10), [0.3, 0.3, 0.4])
    assert [len(s) for s in (a, b, c)] == [3, 3, 4]
    assert sorted(list(a) + list(b) + list(c)) == list(range(10))
    mg.manual_seed(5)
    again = random_split(range(10), [0.3, 0.3, 0.4])
    assert [list(s) for s in again] == [list(a), list(b), list(c)]


def test_random_split_fractions_hand_the_remainder_out_round_robin():
    assert [len(s) for s in random_split(range(11), [0.5, 0.5])] == [6, 5]
    assert [len(s) for s in random_split(range(7), [0.25] * 4)] == [2, 2, 2, 1]
    with pytest.warns(UserWarning, match="Length of split at index 1 is 0"):
        random_split(range(2), [0.9, 0.1])


def test_random_split_errors():
    with pytest.raises(ValueError, match="Sum of input lengths"):
        random_split(range(5), [2, 2])
    with pytest.raises(ValueError, match="Fraction at index 0 is not between 0 and 1"):
        random_split(range(5), [1.5, -0.5])
    with pytest.raises(
        TypeError, match="generator must be a minigrad.Generator or None, got Generator"
    ):
        random_split(range(5), [2, 3], generator=np.random.default_rng(0))


@pytest.mark.parametrize(
    "n, batch_size, drop_last, sizes",
    [
        (10, 3, False, [3, 3, 3, 1]),
        (10, 3, True, [3, 3, 3]),
        (10, 5, True, [5, 5]),
        (10, 10, False, [10]),
        (10, 20, False, [10]),
        (10, 20, True, []),
        (1, 1, False, [1]),
    ],
)
def test_len_and_batch_sizes(n, batch_size, drop_last, sizes):
    loader = DataLoader(dataset(n), batch_size=batch_size, drop_last=drop_last)
    assert len(loader) == len(sizes)
    batches = list(loader)
    assert [len(y) for _, y in batches] == sizes
    assert all(tuple(x.shape) == (len(y), 2) and x.dtype == mg.float32 for x, y in batches)
    assert all(y.dtype == mg.int64 for _, y in batches)


def test_unshuffled_order_and_two_epochs():
    loader = DataLoader(dataset(7), batch_size=3)
    assert order(loader) == list(range(7)) == order(loader)


def test_shuffle_is_a_permutation_new_each_epoch_and_repeatable():
    loader = DataLoader(dataset(50), batch_size=8, shuffle=True)
    mg.manual_seed(1)
    first, second = order(loader), order(loader)
    assert sorted(first) == sorted(second) == list(range(50))
    assert first != second and first != list(range(50))
    mg.manual_seed(1)
    assert order(loader) == first and order(loader) == second


def test_default_batch_size_is_one():
    batches = list(DataLoader(dataset(3)))
    assert len(batches) == 3 and tuple(batches[0][0].shape) == (1, 2)


def test_no_batching_yields_samples():
    loader = DataLoader([np.ones(2, dtype=np.float32), np.zeros(2, dtype=np.float32)], None)
    got = list(loader)
    assert len(loader) == 2 and isinstance(got[0], mg.Tensor) and tuple(got[0].shape) == (2,)


Pair = collections.namedtuple("Pair", "a b")


def test_default_collate_rules():
    batch = default_collate(
        [
            {"x": np.ones(3), "n": 1, "f": 0.5, "s": "a", "p": Pair(1, True)},
            {"x": np.zeros(3), "n": 2, "f": 1.5, "s": "b", "p": Pair(2, False)},
        ]
    )
    assert tuple(batch["x"].shape) == (2, 3) and batch["x"].dtype == mg.float64
    assert batch["n"].dtype == mg.int64 and batch["n"].tolist() == [1, 2]
    assert batch["f"].dtype == mg.float64  # Python floats collate to float64, as PyTorch
    assert batch["s"] == ["a", "b"]
    assert isinstance(batch["p"], Pair) and batch["p"].b.dtype == mg.bool
    tuples = default_collate([(mg.ones(2), 0), (mg.zeros(2), 1)])
    assert isinstance(tuples, list) and tuple(tuples[0].shape) == (2, 2)
    named = default_collate([(1.0, "a"), (2.0, "b")])  # a position of tuples: a tuple
    assert named[0].tolist() == [1.0, 2.0] and named[1] == ("a", "b")


def test_default_collate_refusals():
    with pytest.raises(TypeError, match="default_collate: batch must contain"):
        default_collate([object()])
    with pytest.raises(RuntimeError, match="each element in list of batch should be of equal"):
        default_collate([[1, 2], [3]])
    sparse = mg.tensor([[0.0, 1.0]]).to_sparse()
    with pytest.raises(RuntimeError, match="Batches of sparse tensors"):
        default_collate([sparse, sparse])


def test_collate_keeps_the_graph():
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    batch = default_collate([w * 2, w * 3])
    batch.sum().backward()
    assert w.grad.tolist() == [5.0, 5.0]


def test_custom_collate_sampler_and_batch_sampler():
    ds = dataset(6)
    lists = DataLoader(ds, batch_size=4, collate_fn=lambda samples: len(samples))
    assert list(lists) == [4, 2]
    backwards = DataLoader(ds, batch_size=2, sampler=[5, 4, 3, 2, 1, 0])
    assert order(backwards) == [5, 4, 3, 2, 1, 0]
    pairs = DataLoader(ds, batch_sampler=[[0, 5], [1]])
    assert len(pairs) == 2 and order(pairs) == [0, 5, 1]


class Countdown(IterableDataset):
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return iter(range(self.n, 0, -1))


def test_iterable_dataset_is_read_in_its_order():
    assert [b.tolist() for b in DataLoader(Countdown(5), batch_size=2)] == [[5, 4], [3, 2], [1]]
    assert [b.tolist() for b in DataLoader(Countdown(5), 2, drop_last=True)] == [[5, 4], [3, 2]]
    assert list(DataLoader(Countdown(2), batch_size=None)) == [2, 1]
    both = DataLoader(Countdown(2) + Countdown(1), batch_size=3)
    assert [b.tolist() for b in both] == [[2, 1, 1]]
    with pytest.raises(TypeError):
        len(DataLoader(Countdown(3)))  # no __len__: no length, as in PyTorch
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        DataLoader(Countdown(3), shuffle=True)
    with pytest.raises(NotImplementedError, match="does not implement __iter__"):
        iter(IterableDataset())


def test_samplers():
    assert list(SequentialSampler(range(3))) == [0, 1, 2]
    mg.manual_seed(0)
    drawn = list(RandomSampler(range(4), num_samples=10))
    assert len(drawn) == 10 and sorted(drawn[:8]) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert set(RandomSampler(range(3), replacement=True, num_samples=20)) <= {0, 1, 2}
    batches = BatchSampler(SequentialSampler(range(5)), 2, drop_last=False)
    assert list(batches) == [[0, 1], [2, 3], [4]] and len(batches) == 3


@pytest.mark.parametrize("workers", [1, 4])
def test_workers_load_in_the_main_process_with_a_warning(workers):
    # the 60-minute blitz loads CIFAR with num_workers=2: the same batches, in order
    mg.manual_seed(0)
    plain = [y.tolist() for _, y in DataLoader(dataset(), batch_size=3, shuffle=True)]
    mg.manual_seed(0)
    with pytest.warns(UserWarning, match=f"num_workers={workers}: minigrad starts no worker"):
        loader = DataLoader(
            dataset(), batch_size=3, shuffle=True, num_workers=workers, persistent_workers=True,
            prefetch_factor=2, multiprocessing_context="spawn", worker_init_fn=print,
        )  # fmt: skip
    assert [y.tolist() for _, y in loader] == plain
    with pytest.raises(ValueError, match="valid start method in .*got multiprocessing_context='x'"):
        DataLoader(dataset(), num_workers=workers, multiprocessing_context="x")
    with pytest.raises(ValueError, match="PyTorch runs a copy of the dataset in each worker"):
        DataLoader(Countdown(3), num_workers=workers)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(batch_size=0), "batch_size should be a positive integer value"),
        (dict(batch_size=2.0), "batch_size should be a positive integer value"),
        (dict(sampler=[0], shuffle=True), "mutually exclusive with shuffle"),
        (dict(batch_sampler=[[0]], drop_last=True), "batch_sampler option is mutually"),
        (dict(batch_size=None, drop_last=True), "batch_size=None option disables"),
        (dict(multiprocessing_context="spawn"), "multiprocessing_context can only be used"),
    ],
)
def test_conflicting_options(kwargs, message):
    with pytest.raises(ValueError, match=message):
        DataLoader(dataset(), **kwargs)


def test_generator_and_pin_memory():
    with pytest.raises(
        TypeError, match="DataLoader: generator must be a minigrad.Generator or None, got object"
    ):
        DataLoader(dataset(), shuffle=True, generator=object())
    with pytest.warns(UserWarning, match="pin_memory"):
        loader = DataLoader(dataset(), pin_memory=True)
    assert len(loader) == 10


def test_training_loop_with_a_scheduler():
    mg.manual_seed(0)
    X = mg.randn(64, 3, dtype=mg.float64)
    y = X @ mg.tensor([1.0, -2.0, 0.5], dtype=mg.float64)
    train, val = random_split(TensorDataset(X, y), [0.75, 0.25])
    model = mg.nn.Linear(3, 1, dtype=mg.float64)
    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    sched = mg.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
    loader = DataLoader(train, batch_size=8, shuffle=True)
    for _ in range(30):
        for xb, yb in loader:
            opt.zero_grad()
            mg.nn.functional.mse_loss(model(xb).squeeze(1), yb).backward()
            opt.step()
        sched.step()
    xv, yv = next(iter(DataLoader(val, batch_size=len(val))))
    assert mg.nn.functional.mse_loss(model(xv).squeeze(1), yv).item() < 1e-6
    assert sched.get_last_lr() == [pytest.approx(0.0125)]


def test_weighted_random_sampler_draws_in_proportion_to_the_weights():
    from minigrad.utils.data import WeightedRandomSampler

    g = mg.Generator().manual_seed(0)
    drawn = list(WeightedRandomSampler([1.0, 0.0, 3.0], 4000, generator=g))
    assert len(WeightedRandomSampler([1.0, 3.0], 4000)) == 4000
    assert drawn.count(1) == 0 and 0.70 < drawn.count(2) / 4000 < 0.80
    once = list(WeightedRandomSampler([1.0, 2.0, 3.0], 3, replacement=False, generator=g))
    assert sorted(once) == [0, 1, 2]
    with pytest.raises(ValueError, match="weights should be a 1d sequence"):
        WeightedRandomSampler([[1.0, 2.0]], 2)
    with pytest.raises(ValueError, match="num_samples should be a positive integer"):
        WeightedRandomSampler([1.0], 2.0)


def test_subset_random_sampler_visits_each_index_once_per_pass():
    from minigrad.utils.data import SubsetRandomSampler

    sampler = SubsetRandomSampler([3, 7, 8, 20], generator=mg.Generator().manual_seed(1))
    first, second = list(sampler), list(sampler)
    assert sorted(first) == sorted(second) == [3, 7, 8, 20] and len(sampler) == 4
    ds = TensorDataset(mg.arange(30.0))
    loaded = [x.tolist() for (x,) in DataLoader(ds, batch_size=2, sampler=sampler)]
    assert sorted(v for batch in loaded for v in batch) == [3.0, 7.0, 8.0, 20.0]
