"""Data loading (``torch.utils.data``): datasets, samplers and the DataLoader.

The usual loop, exactly as in PyTorch::

    from minigrad.utils.data import DataLoader, TensorDataset, random_split

    train, val = random_split(TensorDataset(X, y), [0.8, 0.2])
    for epoch in range(epochs):
        for xb, yb in DataLoader(train, batch_size=32, shuffle=True):
            ...

Shuffling and ``random_split`` draw from ``generator=`` (a :class:`minigrad.Generator`)
or the global generator (``mg.manual_seed``), in PyTorch's order, so a seeded script
shuffles as PyTorch does. Loading runs in the main process (``num_workers=0``).
"""

from .collate import default_collate, default_convert
from .dataloader import DataLoader
from .dataset import (
    ChainDataset,
    ConcatDataset,
    Dataset,
    IterableDataset,
    Subset,
    TensorDataset,
    random_split,
)
from .sampler import (
    BatchSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    WeightedRandomSampler,
)

__all__ = [
    "Dataset",
    "IterableDataset",
    "TensorDataset",
    "Subset",
    "ConcatDataset",
    "ChainDataset",
    "random_split",
    "DataLoader",
    "default_collate",
    "default_convert",
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "BatchSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
]
