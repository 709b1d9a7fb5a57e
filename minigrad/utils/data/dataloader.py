"""``DataLoader``: batches from a dataset, in order or shuffled (``torch.utils.data.DataLoader``).

Every batch is loaded in the main process (as with ``num_workers=0``, PyTorch's default;
a larger ``num_workers`` gives the same batches, with a warning that no worker runs):
the loader asks its batch sampler for a list of indices, fetches those samples
from the dataset and hands them to ``collate_fn`` (:func:`default_collate` unless
given), which stacks them into tensors.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterable, Iterator

from ... import random
from ...errors import utils as _errors
from .collate import default_collate, default_convert
from .dataset import IterableDataset, check_generator
from .sampler import BatchSampler, RandomSampler, SequentialSampler, check_batch_options


class DataLoader:
    """Iterate over a dataset in batches (``torch.utils.data.DataLoader``).

    Each pass (``for batch in loader``) is one epoch: with ``shuffle=True`` a new
    random order each time, drawn from ``generator`` or the global generator as PyTorch
    draws it, so after the same ``mg.manual_seed(s)`` the epochs are PyTorch's.
    ``len(loader)`` is the number of batches.

    An :class:`IterableDataset` is read in its own order, ``batch_size`` samples at a time;
    ``len(loader)`` then needs the dataset's ``__len__``.

    Args:
        dataset: a map-style dataset (``__getitem__`` and ``__len__``), e.g. a TensorDataset,
            or an IterableDataset.
        batch_size: samples per batch; None yields single samples, uncollated
            (numpy arrays become tensors).
        shuffle: visit the samples in a new random order every epoch.
        sampler: an iterable of indices to use instead of shuffle's order.
        batch_sampler: an iterable of lists of indices (excludes batch_size, shuffle,
            sampler and drop_last).
        num_workers: 0, or more with a warning: minigrad loads in the main process, the
            same batches in the same order as PyTorch's workers (map-style datasets only:
            PyTorch runs a copy of an IterableDataset in each worker).
        collate_fn: turns a list of samples into a batch (default :func:`default_collate`).
        pin_memory: accepted; there is no accelerator to pin memory for (it warns, as
            PyTorch without one).
        drop_last: drop the last batch when it is smaller than batch_size.
        timeout, worker_init_fn: used by worker processes only; accepted as PyTorch does
            (``worker_init_fn`` is never called: there is no worker).
        multiprocessing_context, prefetch_factor, persistent_workers: worker options;
            with num_workers=0 only their defaults (PyTorch refuses them too).
        pin_memory_device, in_order: accepted; with no workers and no accelerator they
            change nothing (as in PyTorch).
        generator: the :class:`minigrad.Generator` shuffling draws from (default: the global one).

    Raises:
        ValueError: for a negative num_workers (or workers for an IterableDataset),
            conflicting options (sampler with shuffle, ...), a batch_size that is not a
            positive int or None.
        TypeError: for a generator that is not a minigrad.Generator.

    Example:
        >>> import minigrad as mg
        >>> from minigrad.utils.data import DataLoader, TensorDataset
        >>> ds = TensorDataset(mg.arange(10.0).reshape(5, 2), mg.tensor([0, 1, 0, 1, 1]))
        >>> loader = DataLoader(ds, batch_size=2)
        >>> len(loader)
        3
        >>> for x, y in loader:
        ...     print(tuple(x.shape), y.tolist())
        (2, 2) [0, 1]
        (2, 2) [0, 1]
        (1, 2) [1]
    """

    def __init__(
        self,
        dataset,
        batch_size: int | None = 1,
        shuffle: bool | None = None,
        sampler: Iterable | None = None,
        batch_sampler: Iterable[list] | None = None,
        num_workers: int = 0,
        collate_fn: Callable | None = None,
        pin_memory: bool = False,
        drop_last: bool = False,
        timeout: float = 0,
        worker_init_fn: Callable | None = None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor: int | None = None,
        persistent_workers: bool = False,
        pin_memory_device: str = "",
        in_order: bool = True,
    ):
        _check_workers(num_workers, timeout, multiprocessing_context, prefetch_factor)
        if persistent_workers and num_workers == 0:
            raise ValueError(_errors.PERSISTENT_WORKERS)
        if num_workers > 0:  # loaded here all the same: the batches and order are PyTorch's
            if isinstance(dataset, IterableDataset):
                raise ValueError(_errors.WORKERS_ITERABLE.format(got=num_workers))
            warnings.warn(_errors.WORKERS_IN_MAIN.format(got=num_workers), UserWarning, 2)
        if pin_memory:  # there is no accelerator to pin host memory for
            warnings.warn(_errors.PIN_MEMORY, UserWarning, stacklevel=2)
        check_generator(generator, "DataLoader")
        self.dataset = dataset
        self.num_workers = num_workers
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.in_order = in_order
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.generator = generator
        self._iterable = isinstance(dataset, IterableDataset)
        self.sampler, self.batch_sampler = _samplers(
            dataset, batch_size, shuffle, sampler, batch_sampler, drop_last, generator
        )
        self.batch_size = None if batch_sampler is not None else batch_size
        self.drop_last = False if batch_sampler is not None else drop_last
        if collate_fn is None:
            batching = self.batch_size is not None or self.batch_sampler is not None
            collate_fn = default_collate if batching else default_convert
        self.collate_fn = collate_fn

    def __iter__(self) -> Iterator:
        # PyTorch draws a seed for its worker processes whenever an iterator is made (one
        # 64-bit draw, workers or not); minigrad draws it too, so the generators stay in step
        random.draw_seed(self.generator)
        return self._batches()

    def _batches(self) -> Iterator:
        if self._iterable:
            yield from self._iter_stream()
            return
        if self.batch_sampler is None:  # batch_size=None: one sample at a time
            for index in self.sampler:
                yield self.collate_fn(self.dataset[index])
            return
        fetch_many = getattr(self.dataset, "__getitems__", None)
        for indices in self.batch_sampler:
            if callable(fetch_many):
                samples = fetch_many(indices)
            else:
                samples = [self.dataset[i] for i in indices]
            yield self.collate_fn(samples)

    def _iter_stream(self) -> Iterator:
        """An IterableDataset's samples in its order, ``batch_size`` at a time."""
        samples = iter(self.dataset)
        if self.batch_size is None:
            for sample in samples:
                yield self.collate_fn(sample)
            return
        while batch := list(itertools.islice(samples, self.batch_size)):
            if len(batch) < self.batch_size and self.drop_last:
                return
            yield self.collate_fn(batch)

    def __len__(self) -> int:
        if self._iterable:  # as PyTorch: from the dataset's own __len__ (a TypeError without)
            n = len(self.dataset)
            if self.batch_size is None:
                return n
            return n // self.batch_size if self.drop_last else math.ceil(n / self.batch_size)
        return len(self.sampler if self.batch_sampler is None else self.batch_sampler)


def _check_workers(num_workers, timeout, multiprocessing_context, prefetch_factor) -> None:
    """The worker-process options, checked as PyTorch checks them. minigrad starts no worker
    process: with ``num_workers > 0`` the main process loads every batch, and a map-style
    dataset gives the same batches in the same order as PyTorch's workers (each batch is
    one sampler draw, and PyTorch hands them back in order), so the options are accepted."""
    if num_workers < 0:
        raise ValueError(_errors.NUM_WORKERS_NEGATIVE)
    if timeout < 0:
        raise ValueError(_errors.TIMEOUT)
    if num_workers == 0:
        if prefetch_factor is not None:
            raise ValueError(_errors.PREFETCH_FACTOR)
        if multiprocessing_context is not None:
            raise ValueError(_errors.MULTIPROCESSING_CONTEXT)
    elif isinstance(multiprocessing_context, str) and multiprocessing_context not in _METHODS:
        raise ValueError(
            _errors.START_METHOD.format(methods=list(_METHODS), got=multiprocessing_context)
        )


_METHODS = ("fork", "spawn", "forkserver")  # multiprocessing's start methods


def _check_iterable_options(shuffle, sampler, batch_sampler, batch_size, drop_last) -> None:
    """An IterableDataset sets its own order: no shuffle, sampler or batch_sampler."""
    for name, value in (("shuffle", shuffle), ("sampler", sampler)):
        if value not in (None, False):
            raise ValueError(_errors.ITERABLE_OPTION.format(name=name, got=value))
    if batch_sampler is not None:
        raise ValueError(_errors.ITERABLE_OPTION.format(name="batch_sampler", got=batch_sampler))
    if batch_size is not None:
        check_batch_options(batch_size, drop_last)


def _samplers(dataset, batch_size, shuffle, sampler, batch_sampler, drop_last, generator=None):
    """The (sampler, batch_sampler) pair the options ask for, checked as PyTorch does
    (both None for an IterableDataset, which is read in its own order)."""
    if isinstance(dataset, IterableDataset):
        _check_iterable_options(shuffle, sampler, batch_sampler, batch_size, drop_last)
        return None, None
    if sampler is not None and shuffle:
        raise ValueError(_errors.SAMPLER_SHUFFLE)
    if batch_sampler is not None:
        if batch_size != 1 or shuffle or sampler is not None or drop_last:
            raise ValueError(_errors.BATCH_SAMPLER_EXCLUSIVE)
        return sampler, batch_sampler
    if batch_size is None and drop_last:
        raise ValueError(_errors.NO_BATCH_DROP_LAST)
    if sampler is None:
        sampler = (
            RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        )
    if batch_size is None:
        return sampler, None
    return sampler, BatchSampler(sampler, batch_size, drop_last)
