"""PyTorch as oracle for WeightedRandomSampler, SubsetRandomSampler and StackDataset: the
same indices as torch.utils.data under the same seed or generator, pass after pass, the
global stream left in the same place, in a DataLoader too; PyTorch's errors."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils import data as md

torch = pytest.importorskip("torch")
td = torch.utils.data
pytestmark = pytest.mark.oracle

WEIGHTS = [0.1, 0.5, 2.0, 0.0, 1.0, 3.0, 0.7, 0.2, 1.5]


def _generators(use):
    if not use:
        return None, None
    return torch.Generator().manual_seed(9), mg.Generator().manual_seed(9)


def _passes(sampler, n=3):
    return [list(sampler) for _ in range(n)]


@pytest.mark.parametrize("replacement", [True, False])
@pytest.mark.parametrize("num_samples", [1, 5, 8])
@pytest.mark.parametrize("use_generator", [False, True])
@pytest.mark.parametrize("as_tensor", [False, True])
def test_weighted_random_sampler_draws_pytorchs_indices(
    replacement, num_samples, use_generator, as_tensor
):
    torch.manual_seed(5)
    mg.manual_seed(5)
    tg, mgg = _generators(use_generator)
    tw = torch.tensor(WEIGHTS) if as_tensor else WEIGHTS
    mw = mg.tensor(WEIGHTS) if as_tensor else WEIGHTS
    theirs = td.WeightedRandomSampler(tw, num_samples, replacement, generator=tg)
    ours = md.WeightedRandomSampler(mw, num_samples, replacement, generator=mgg)
    assert _passes(ours) == _passes(theirs)
    assert len(ours) == num_samples and ours.weights.dtype == mg.float64
    assert torch.rand(1).item() == mg.rand(1).item()


def test_weighted_many_samples_large_population():
    torch.manual_seed(1)
    mg.manual_seed(1)
    w = np.random.default_rng(0).random(300).tolist()
    assert _passes(md.WeightedRandomSampler(w, 1000)) == _passes(td.WeightedRandomSampler(w, 1000))
    assert _passes(md.WeightedRandomSampler(w, 100, False)) == _passes(
        td.WeightedRandomSampler(w, 100, False)
    )


@pytest.mark.parametrize("indices", [[3, 9, 1, 7, 20], list(range(40)), [4], range(2, 30, 3)])
@pytest.mark.parametrize("use_generator", [False, True])
def test_subset_random_sampler_draws_pytorchs_order(indices, use_generator):
    torch.manual_seed(5)
    mg.manual_seed(5)
    tg, mgg = _generators(use_generator)
    theirs = td.SubsetRandomSampler(indices, generator=tg)
    ours = md.SubsetRandomSampler(indices, generator=mgg)
    assert _passes(ours) == _passes(theirs)
    assert len(ours) == len(indices)
    assert torch.rand(1).item() == mg.rand(1).item()


def test_samplers_in_a_dataloader():
    x = np.arange(24.0).reshape(12, 2)
    tds, mds = td.TensorDataset(torch.tensor(x)), md.TensorDataset(mg.tensor(x))
    torch.manual_seed(2)
    mg.manual_seed(2)
    for t_sampler, m_sampler in [
        (td.SubsetRandomSampler(range(0, 12, 2)), md.SubsetRandomSampler(range(0, 12, 2))),
        (td.WeightedRandomSampler([1.0] * 12, 7), md.WeightedRandomSampler([1.0] * 12, 7)),
    ]:
        for _ in range(2):
            theirs = [b[0].numpy() for b in td.DataLoader(tds, batch_size=4, sampler=t_sampler)]
            ours = [b[0].numpy() for b in md.DataLoader(mds, batch_size=4, sampler=m_sampler)]
            assert len(ours) == len(theirs)
            for a, b in zip(ours, theirs):
                np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    "args",
    [([[1.0, 2.0]], 2), ([1.0], 0), ([1.0], -3), ([1.0], True), ([1.0], 2.0), ([1.0], 3, 1)],
)
def test_weighted_errors_are_pytorchs(args):
    with pytest.raises(ValueError) as theirs:
        td.WeightedRandomSampler(*args)
    with pytest.raises(ValueError) as ours:
        md.WeightedRandomSampler(*args)
    assert str(ours.value) == str(theirs.value)


def test_weighted_without_replacement_refuses_too_many():
    with pytest.raises(RuntimeError):
        list(td.WeightedRandomSampler([1.0, 0.0, 1.0], 4, replacement=False))
    with pytest.raises(RuntimeError):
        list(md.WeightedRandomSampler([1.0, 0.0, 1.0], 4, replacement=False))


def test_samplers_refuse_a_foreign_generator():
    with pytest.raises(TypeError, match="minigrad.Generator"):
        md.SubsetRandomSampler([1, 2], generator=np.random.default_rng(0))
    with pytest.raises(TypeError, match="minigrad.Generator"):
        md.WeightedRandomSampler([1.0, 2.0], 2, generator=42)


# --- StackDataset -----------------------------------------------------------------------


def test_stack_dataset_tuple_and_dict_like_pytorch():
    x = np.arange(8.0).reshape(4, 2)
    labels = [5, 6, 7, 8]
    theirs = td.StackDataset(td.TensorDataset(torch.tensor(x)), labels)
    ours = md.StackDataset(md.TensorDataset(mg.tensor(x)), labels)
    assert len(ours) == len(theirs) == 4
    (m_x,), m_y = ours[2]
    (t_x,), t_y = theirs[2]
    np.testing.assert_array_equal(m_x.numpy(), t_x.numpy())
    assert m_y == t_y == 7
    ours = md.StackDataset(image=mg.tensor(x), label=labels)
    theirs = td.StackDataset(image=torch.tensor(x), label=labels)
    assert ours[1].keys() == theirs[1].keys() == {"image", "label"}
    np.testing.assert_array_equal(ours[1]["image"].numpy(), theirs[1]["image"].numpy())
    assert ours.__getitems__([0, 3])[1]["label"] == theirs.__getitems__([0, 3])[1]["label"] == 8


def test_stack_dataset_in_a_dataloader():
    x = np.arange(12.0).reshape(6, 2)
    ours = md.DataLoader(md.StackDataset(x=mg.tensor(x), y=mg.arange(6)), batch_size=4)
    theirs = td.DataLoader(td.StackDataset(x=torch.tensor(x), y=torch.arange(6)), batch_size=4)
    for a, b in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(a["x"].numpy(), b["x"].numpy())
        np.testing.assert_array_equal(a["y"].numpy(), b["y"].numpy())


@pytest.mark.parametrize(
    "args, kwargs",
    [((), {}), (([1, 2],), {"y": [1, 2]}), (([1, 2], [1]), {}), ((), {"a": [1], "b": []})],
)
def test_stack_dataset_errors_are_pytorchs(args, kwargs):
    with pytest.raises(ValueError) as theirs:
        td.StackDataset(*args, **kwargs)
    with pytest.raises(ValueError) as ours:
        md.StackDataset(*args, **kwargs)
    assert str(ours.value) == str(theirs.value)
