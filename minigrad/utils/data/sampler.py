"""Samplers (``torch.utils.data``): the order in which a DataLoader visits a dataset's indices."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ... import random
from ..._dtype import float64
from ..._sampling import multinomial
from ...errors import utils as _errors
from ...factory import as_tensor, randint, randperm
from .dataset import check_generator


class Sampler:
    """The base class: an iterable of dataset indices (``torch.utils.data.Sampler``)."""

    def __iter__(self) -> Iterator:
        raise NotImplementedError(f"{type(self).__name__} does not implement __iter__")


class SequentialSampler(Sampler):
    """0, 1, ..., len(data_source) - 1, always in that order."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(Sampler):
    """The indices in a new random order at every pass (``torch.utils.data.RandomSampler``).

    Each pass draws from ``generator``, or, when it is None, from a fresh generator seeded
    by one draw of the global one, exactly as PyTorch does: after the same
    ``mg.manual_seed(s)`` the orders are PyTorch's.

    Args:
        data_source: the dataset.
        replacement: draw indices independently (repeats possible) instead of permuting.
        num_samples: indices per pass (default ``len(data_source)``); without replacement,
            more than the dataset's length chains several permutations.
        generator: a :class:`minigrad.Generator` to draw from, or None.
    """

    def __init__(self, data_source, replacement: bool = False, num_samples=None, generator=None):
        check_generator(generator, "RandomSampler")
        if not isinstance(replacement, bool):
            raise TypeError(_errors.REPLACEMENT.format(got=replacement))
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator
        n = self.num_samples
        if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
            raise ValueError(_errors.NUM_SAMPLES.format(got=n))

    @property
    def num_samples(self) -> int:
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self) -> Iterator[int]:
        n, want = len(self.data_source), self.num_samples
        generator = self.generator
        if generator is None:  # a fresh stream per pass, seeded from the global generator
            generator = random.Generator().manual_seed(random.draw_seed(None))
        if self.replacement:
            yield from randint(0, n, (want,), generator=generator).tolist()
            return
        for _ in range(want // n):
            yield from randperm(n, generator=generator).tolist()
        yield from randperm(n, generator=generator).tolist()[: want % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(Sampler):
    """The given ``indices`` in a new random order at every pass
    (``torch.utils.data.SubsetRandomSampler``): a ``randperm`` drawn from ``generator``, or
    from the global generator itself, as PyTorch's."""

    def __init__(self, indices, generator=None):
        check_generator(generator, "SubsetRandomSampler")
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator:
        for i in randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(Sampler):
    """``num_samples`` indices in ``[0, len(weights))``, index i with probability proportional
    to ``weights[i]`` (``torch.utils.data.WeightedRandomSampler``, the usual answer to
    unbalanced classes): one ``multinomial`` draw of the float64 weights per pass, with
    replacement by default, from ``generator`` or the global generator, as PyTorch's.

    Raises:
        ValueError: for a num_samples that is not a positive int, a non-bool replacement,
            or weights that are not a 1-d sequence.
    """

    def __init__(self, weights, num_samples: int, replacement: bool = True, generator=None):
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(_errors.NUM_SAMPLES.format(got=num_samples))
        if not isinstance(replacement, bool):
            raise ValueError(_errors.REPLACEMENT.format(got=replacement))
        check_generator(generator, "WeightedRandomSampler")
        weights = as_tensor(weights, dtype=float64)
        if weights.ndim != 1:
            raise ValueError(_errors.WEIGHTS_1D.format(shape=tuple(weights.shape)))
        self.weights = weights
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        drawn = multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(Sampler):
    """Group another sampler's indices into lists of ``batch_size``
    (``torch.utils.data.BatchSampler``); the last, shorter one is dropped with ``drop_last``.

    Raises:
        ValueError: for a batch_size that is not a positive int, or a non-bool drop_last.
    """

    def __init__(self, sampler: Iterable[int], batch_size: int, drop_last: bool):
        check_batch_options(batch_size, drop_last)
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        batch = []
        for index in self.sampler:
            batch.append(index)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self) -> int:
        full, rest = divmod(len(self.sampler), self.batch_size)
        return full if self.drop_last or not rest else full + 1


def check_batch_options(batch_size, drop_last) -> None:
    """PyTorch's checks: batch_size a positive int (not a bool), drop_last a bool."""
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
        raise ValueError(_errors.BATCH_SIZE.format(got=batch_size))
    if not isinstance(drop_last, bool):
        raise ValueError(_errors.DROP_LAST.format(got=drop_last))
