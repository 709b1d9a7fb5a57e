"""Datasets (``torch.utils.data``): Dataset, IterableDataset, TensorDataset, Subset,
ConcatDataset, ChainDataset, StackDataset, random_split.

A *map-style* dataset is anything with ``__getitem__(i)`` and ``__len__()``: the
DataLoader asks it for samples by index. Subclass :class:`Dataset` for your own data,
or :class:`IterableDataset` for a stream of samples (``__iter__``) read in order.
"""

from __future__ import annotations

import bisect
import itertools
import math
import warnings
from collections.abc import Sequence

from ... import random
from ...errors import utils as _errors
from ...factory import randperm
from ...tensor import Tensor


class Dataset:
    """The base class of map-style datasets (``torch.utils.data.Dataset``).

    Subclasses implement ``__getitem__(index)`` (one sample) and usually ``__len__``;
    they may add ``__getitems__(indices)`` to fetch a whole batch at once.
    ``a + b`` concatenates two datasets (a :class:`ConcatDataset`).
    """

    def __getitem__(self, index):
        raise NotImplementedError(_errors.DATASET_GETITEM)

    def __add__(self, other: Dataset) -> ConcatDataset:
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """The base class of datasets read as a stream (``torch.utils.data.IterableDataset``).

    Subclasses implement ``__iter__`` (yielding samples); a DataLoader over one batches
    the samples in the order they come (no shuffle, sampler or batch_sampler).
    ``a + b`` chains two of them (a :class:`ChainDataset`).
    """

    def __iter__(self):
        raise NotImplementedError(f"{type(self).__name__} does not implement __iter__")

    def __add__(self, other: IterableDataset) -> ChainDataset:
        return ChainDataset([self, other])


class ChainDataset(IterableDataset):
    """Several iterable datasets one after another (``torch.utils.data.ChainDataset``)."""

    def __init__(self, datasets):
        self.datasets = datasets

    def __iter__(self):
        for d in self.datasets:
            yield from d

    def __len__(self) -> int:
        return sum(len(d) for d in self.datasets)


class TensorDataset(Dataset):
    """Samples are rows: ``dataset[i] == tuple(t[i] for t in tensors)``
    (``torch.utils.data.TensorDataset``), e.g. ``TensorDataset(inputs, targets)``.

    Args:
        *tensors: tensors with the same size of their first dimension.

    Raises:
        AssertionError: "Size mismatch between tensors" (PyTorch's exception) when the
            first dimensions differ.
        TypeError: for an argument that is not a Tensor.
    """

    def __init__(self, *tensors: Tensor):
        for i, t in enumerate(tensors):
            if not isinstance(t, Tensor):
                raise TypeError(_errors.TENSOR_DATASET_ARG.format(i=i, got=type(t).__name__))
        if any(t.size(0) != tensors[0].size(0) for t in tensors):
            raise AssertionError(_errors.TENSOR_SIZE_MISMATCH)
        self.tensors = tensors

    def __getitem__(self, index):
        return tuple(t[index] for t in self.tensors)

    def __len__(self) -> int:
        return self.tensors[0].size(0)


class StackDataset(Dataset):
    """Several datasets of one length read side by side (``torch.utils.data.StackDataset``).

    ``StackDataset(a, b)[i]`` is the tuple ``(a[i], b[i])``; with keywords,
    ``StackDataset(image=a, label=b)[i]`` is the dict ``{"image": a[i], "label": b[i]}``.
    A batch of indices (``__getitems__``) is one sample per index, each in that form.

    Raises:
        ValueError: for no dataset, positional and keyword datasets mixed, or datasets
            of different lengths.
    """

    def __init__(self, *args, **kwargs):
        if args and kwargs:
            raise ValueError(_errors.STACK_BOTH)
        if not args and not kwargs:
            raise ValueError(_errors.STACK_NONE)
        datasets = list(args) if args else list(kwargs.values())
        self._length = len(datasets[0])
        if any(len(d) != self._length for d in datasets):
            raise ValueError(_errors.STACK_SIZES)
        self.datasets = args if args else kwargs

    def __getitem__(self, index):
        if isinstance(self.datasets, dict):
            return {key: d[index] for key, d in self.datasets.items()}
        return tuple(d[index] for d in self.datasets)

    def __getitems__(self, indices: list) -> list:
        return [self[i] for i in indices]

    def __len__(self) -> int:
        return self._length


class Subset(Dataset):
    """The samples of ``dataset`` at ``indices``, in that order (``torch.utils.data.Subset``).

    Args:
        dataset: the whole dataset.
        indices: the positions in ``dataset`` this subset holds.
    """

    def __init__(self, dataset, indices: Sequence[int]):
        self.dataset = dataset
        self.indices = indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return self.dataset[[self.indices[i] for i in idx]]
        return self.dataset[self.indices[idx]]

    def __getitems__(self, indices: list[int]) -> list:
        """A batch of samples (the DataLoader's call), through the dataset's own
        ``__getitems__`` when it has one."""
        chosen = [self.indices[i] for i in indices]
        if callable(getattr(self.dataset, "__getitems__", None)):
            return self.dataset.__getitems__(chosen)
        return [self.dataset[i] for i in chosen]

    def __len__(self) -> int:
        return len(self.indices)


class ConcatDataset(Dataset):
    """Several datasets one after another (``torch.utils.data.ConcatDataset``).

    Args:
        datasets: the datasets (at least one), each with a ``__len__``.
    """

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise AssertionError(_errors.CONCAT_EMPTY)
        self.cumulative_sizes = list(itertools.accumulate(len(d) for d in self.datasets))

    def __len__(self) -> int:
        return self.cumulative_sizes[-1]

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise ValueError(_errors.CONCAT_INDEX)
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        start = self.cumulative_sizes[which - 1] if which > 0 else 0
        return self.datasets[which][idx - start]


def check_generator(generator, where: str) -> None:
    """``generator`` is None (the global generator) or a :class:`minigrad.Generator`."""
    if generator is not None and not isinstance(generator, random.Generator):
        raise TypeError(_errors.GENERATOR.format(where=where, got=type(generator).__name__))


def random_split(dataset, lengths: Sequence[int | float], generator=None) -> list[Subset]:
    """Split ``dataset`` at random into non-overlapping :class:`Subset` s of the given
    lengths (``torch.utils.data.random_split``).

    ``lengths`` are sizes that add up to ``len(dataset)``, or fractions that add up to 1:
    each split then gets ``floor(fraction * len(dataset))`` samples and the remainder is
    handed out one by one, round robin from the first split (PyTorch's rule).

    Args:
        dataset: the dataset to split.
        lengths: the sizes or fractions of the splits.
        generator: the :class:`minigrad.Generator` of the permutation (default: the global
            one), so a seed makes the split PyTorch's.

    Raises:
        ValueError: for a fraction outside [0, 1] or sizes that do not add up.
    """
    check_generator(generator, "random_split()")
    lengths = list(lengths)
    if math.isclose(sum(lengths), 1) and sum(lengths) <= 1:
        lengths = _lengths_from_fractions(lengths, len(dataset))
    if sum(lengths) != len(dataset):
        raise ValueError(_errors.SPLIT_SUM)
    order = randperm(sum(lengths), generator=generator).tolist()
    ends = itertools.accumulate(lengths)
    return [Subset(dataset, order[end - n : end]) for end, n in zip(ends, lengths, strict=True)]


def _lengths_from_fractions(fractions: list[float], n: int) -> list[int]:
    for i, frac in enumerate(fractions):
        if frac < 0 or frac > 1:
            raise ValueError(_errors.SPLIT_FRACTION.format(i=i))
    lengths = [math.floor(n * frac) for frac in fractions]
    for i in range(n - sum(lengths)):
        lengths[i % len(lengths)] += 1
    for i, length in enumerate(lengths):
        if length == 0:
            warnings.warn(_errors.SPLIT_EMPTY.format(i=i), UserWarning, stacklevel=3)
    return lengths
