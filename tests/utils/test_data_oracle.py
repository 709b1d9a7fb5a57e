"""PyTorch as oracle for utils.data: the same datasets and loaders under both libraries give
batches of the same structure, shapes, dtypes and values (unshuffled), the same lengths and
drop_last counts, and the same errors. Shuffled orders are not compared (other generators)."""

import collections
import inspect

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils import data as mgdata

torch = pytest.importorskip("torch")
tdata = torch.utils.data

pytestmark = pytest.mark.oracle
Point = collections.namedtuple("Point", "x label")


def assert_same_batch(ours, theirs, where="batch"):
    """Same structure (containers and their types), and leaves equal in dtype, shape, value."""
    if isinstance(theirs, torch.Tensor):
        assert isinstance(ours, mg.Tensor), where
        assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1], where
        assert tuple(ours.shape) == tuple(theirs.shape), where
        np.testing.assert_array_equal(ours.numpy(), theirs.numpy(), err_msg=where)
    elif isinstance(theirs, dict):
        assert type(ours) is type(theirs) and list(ours) == list(theirs), where
        for key in theirs:
            assert_same_batch(ours[key], theirs[key], f"{where}[{key!r}]")
    elif isinstance(theirs, (list, tuple)):
        assert type(ours).__name__ == type(theirs).__name__ and len(ours) == len(theirs), where
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same_batch(a, b, f"{where}[{i}]")
    else:
        assert ours == theirs and type(ours) is type(theirs), where


RNG = np.random.default_rng(3)
X = RNG.standard_normal((11, 3)).astype(np.float32)
Y = RNG.integers(0, 4, 11)


def samples(i):
    """One sample of every kind default_collate handles (built from index i)."""
    return {
        "image": X[i],
        "scalar_f32": np.float32(X[i, 0]),
        "scalar_i32": np.int32(Y[i]),
        "pair": (float(X[i, 1]), int(Y[i])),
        "flag": bool(Y[i] % 2),
        "name": f"item{i}",
        "nested": [{"a": X[i, :2]}, Point(x=X[i, 2].item(), label=int(Y[i]))],
    }


class DictDataset:
    """A plain map-style dataset (no base class), as PyTorch allows."""

    def __init__(self, lib):
        self.lib = lib

    def __len__(self):
        return len(X)

    def __getitem__(self, i):
        return samples(i)


def tensor_dataset(lib, m):
    return m.TensorDataset(lib.tensor(X), lib.tensor(Y), lib.tensor(X[:, 0] > 0))


def loaders(**kwargs):
    return (
        mgdata.DataLoader(DictDataset(mg), **kwargs),
        tdata.DataLoader(DictDataset(torch), **kwargs),
    )


@pytest.mark.parametrize("batch_size", [1, 3, 4, 11, 20])
@pytest.mark.parametrize("drop_last", [False, True])
def test_batches_of_every_kind_match_torch(batch_size, drop_last):
    ours, theirs = loaders(batch_size=batch_size, drop_last=drop_last)
    assert len(ours) == len(theirs)
    got, want = list(ours), list(theirs)
    assert len(got) == len(want) == len(theirs)
    for i, (a, b) in enumerate(zip(got, want)):
        assert_same_batch(a, b, f"batch {i}")


@pytest.mark.parametrize("batch_size", [2, 5])
@pytest.mark.parametrize("drop_last", [False, True])
def test_tensor_dataset_batches_match_torch(batch_size, drop_last):
    ours = mgdata.DataLoader(tensor_dataset(mg, mgdata), batch_size, drop_last=drop_last)
    theirs = tdata.DataLoader(tensor_dataset(torch, tdata), batch_size, drop_last=drop_last)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert_same_batch(a, b)


@pytest.mark.parametrize("drop_last", [False, True])
def test_shuffled_batch_shapes_and_counts_match_torch(drop_last):
    mg.manual_seed(0)
    ours = mgdata.DataLoader(tensor_dataset(mg, mgdata), 4, shuffle=True, drop_last=drop_last)
    theirs = tdata.DataLoader(tensor_dataset(torch, tdata), 4, shuffle=True, drop_last=drop_last)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert [tuple(t.shape) for t in a] == [tuple(t.shape) for t in b]


def test_no_batching_converts_like_torch():
    ours, theirs = loaders(batch_size=None)
    assert len(ours) == len(theirs) == len(X)
    for a, b in zip(ours, theirs, strict=True):
        assert_same_batch(a, b)


def stream(m, sized=True):
    """An IterableDataset of the same samples, subclassing the library's own base."""
    body = {"__iter__": lambda self: (samples(i) for i in range(len(X)))}
    if sized:
        body["__len__"] = lambda self: len(X)
    return type("Stream", (m.IterableDataset,), body)()


@pytest.mark.parametrize(
    "batch_size, drop_last",
    [(None, False)] + [(n, drop) for n in (1, 4, 11, 12) for drop in (False, True)],
)
def test_iterable_dataset_batches_match_torch(batch_size, drop_last):
    ours = mgdata.DataLoader(stream(mgdata), batch_size, drop_last=drop_last)
    theirs = tdata.DataLoader(stream(tdata), batch_size, drop_last=drop_last)
    assert len(ours) == len(theirs)
    got, want = list(ours), list(theirs)
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert_same_batch(a, b)
    chained = mgdata.DataLoader(stream(mgdata) + stream(mgdata), 5)
    assert len(chained) == len(tdata.DataLoader(stream(tdata) + stream(tdata), 5)) == 5


@pytest.mark.parametrize(
    "lengths", [[3, 8], [0.5, 0.5], [0.3, 0.3, 0.4], [0.1, 0.2, 0.7], [1.0], [11], [0.25] * 4]
)
def test_random_split_lengths_match_torch(lengths):
    got = [len(s) for s in mgdata.random_split(range(11), lengths)]
    want = [len(s) for s in tdata.random_split(range(11), lengths)]
    assert got == want


def test_subset_and_concat_match_torch():
    def probe(m, lib):
        ds = tensor_dataset(lib, m)
        sub = m.Subset(ds, [4, 0, 7])
        both = sub + ds
        return len(sub), len(both), sub[1][1].item(), both[3][1].item(), both[-1][1].item()

    assert probe(mgdata, mg) == probe(tdata, torch)


ERRORS = {
    "size-mismatch": lambda m, lib: m.TensorDataset(lib.zeros(3), lib.zeros(4)),
    "collate-object": lambda m, lib: m.default_collate([object(), object()]),
    "collate-ragged": lambda m, lib: m.default_collate([[1, 2], [3]]),
    "collate-str-array": lambda m, lib: m.default_collate([np.array(["a"]), np.array(["b"])]),
    "split-sum": lambda m, lib: m.random_split(range(5), [2, 2]),
    "split-fraction": lambda m, lib: m.random_split(range(5), [1.5, -0.5]),
    "batch-size-0": lambda m, lib: m.DataLoader(range(4), batch_size=0),
    "batch-size-bool": lambda m, lib: m.DataLoader(range(4), batch_size=True),
    "drop-last-not-bool": lambda m, lib: m.DataLoader(range(4), drop_last=None),
    "sampler-and-shuffle": lambda m, lib: m.DataLoader(range(4), sampler=[0, 1], shuffle=True),
    "batch-sampler-and-size": lambda m, lib: m.DataLoader(range(4), 2, batch_sampler=[[0]]),
    "no-batching-drop-last": lambda m, lib: m.DataLoader(range(4), None, drop_last=True),
    "negative-workers": lambda m, lib: m.DataLoader(range(4), num_workers=-1),
    "timeout": lambda m, lib: m.DataLoader(range(4), timeout=-1),
    "prefetch": lambda m, lib: m.DataLoader(range(4), prefetch_factor=2),
    "persistent": lambda m, lib: m.DataLoader(range(4), persistent_workers=True),
    "iterable-shuffle": lambda m, lib: m.DataLoader(stream(m), shuffle=True),
    "iterable-sampler": lambda m, lib: m.DataLoader(stream(m), sampler=[0]),
    "iterable-batch-sampler": lambda m, lib: m.DataLoader(stream(m), batch_sampler=[[0]]),
    "iterable-unsized-len": lambda m, lib: len(m.DataLoader(stream(m, sized=False))),
    "iterable-batch-size": lambda m, lib: m.DataLoader(stream(m), batch_size=-2),
    "concat-empty": lambda m, lib: m.ConcatDataset([]),
    "concat-index": lambda m, lib: m.ConcatDataset([range(3)])[-4],
    "dataset-getitem": lambda m, lib: m.Dataset()[0],
    "replacement": lambda m, lib: m.RandomSampler(range(3), replacement=1),
    "num-samples": lambda m, lib: m.RandomSampler(range(3), num_samples=0),
    "weighted-num-samples": lambda m, lib: m.WeightedRandomSampler([1.0], 0),
    "weighted-replacement": lambda m, lib: m.WeightedRandomSampler([1.0], 2, replacement=1),
    "weighted-2d": lambda m, lib: m.WeightedRandomSampler([[1.0]], 2),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_match_torch(name):
    raised = []
    for m, lib in ((mgdata, mg), (tdata, torch)):
        with pytest.raises(Exception) as info:
            ERRORS[name](m, lib)
        raised.append(info.value)
    ours, theirs = raised
    assert type(ours) is type(theirs), (ours, theirs)
    assert " ".join(str(theirs).split()[:3]) in str(ours)


def _parameters(fn):
    return [(p.name, p.default, p.kind) for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize(
    "name",
    [
        "DataLoader",
        "TensorDataset",
        "Subset",
        "RandomSampler",
        "BatchSampler",
        "SubsetRandomSampler",
        "WeightedRandomSampler",
    ],
)
def test_signatures_match_torch(name):
    assert _parameters(getattr(mgdata, name).__init__) == _parameters(getattr(tdata, name).__init__)


def test_random_split_signature_matches_torch_but_the_generator_default():
    ours, theirs = _parameters(mgdata.random_split), _parameters(tdata.random_split)
    assert [p[0] for p in ours] == [p[0] for p in theirs] and ours[2][1] is None


def test_weighted_and_subset_samplers_draw_torchs_indices():
    """The same seeds give the same indices, pass after pass, with a generator or from the
    global one (which the next draw shows was advanced alike)."""
    draws = []
    for m, lib in ((mgdata, mg), (tdata, torch)):
        g = lib.Generator().manual_seed(0)
        weighted = m.WeightedRandomSampler([0.1, 0.9, 0.5, 2.0], 7, generator=g)
        subset = m.SubsetRandomSampler([4, 5, 6, 9, 11], generator=g)
        out = [list(weighted), list(subset), list(weighted), list(subset)]
        lib.manual_seed(5)
        out.append(list(m.WeightedRandomSampler(lib.tensor([1, 2, 3, 4]), 3, replacement=False)))
        out += [list(m.SubsetRandomSampler(range(10))), list(m.WeightedRandomSampler([1, 5], 6))]
        out.append(lib.rand(2).tolist())
        ds = m.TensorDataset(lib.arange(10), lib.tensor([0] * 8 + [1] * 2))
        sampler = m.WeightedRandomSampler([1.0] * 8 + [4.0] * 2, 8)
        out.append([yb.tolist() for _, yb in m.DataLoader(ds, batch_size=4, sampler=sampler)])
        draws.append(out)
    assert draws[0] == draws[1]


def test_tuple_samples_collate_strings_into_a_tuple_as_torch():
    batch = [(np.float32(1.5), "a"), (np.float32(2.5), "b")]
    ours, theirs = mgdata.default_collate(batch), tdata.default_collate(batch)
    assert_same_batch(ours, theirs)
    assert ours[1] == ("a", "b")
