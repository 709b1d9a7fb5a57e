"""Collation (``torch.utils.data.default_collate``): a list of samples -> one batch.

The rule table, by the type of the first sample (the others must match it):

=====================  ================================================================
Tensor                 ``stack`` along a new dim 0 (sparse tensors are refused)
numpy array            each becomes a tensor (its dtype kept), then stacked
numpy scalar           ``as_tensor(batch)``: a 1-d tensor of the scalars' dtype
float / int / bool     a 1-d tensor: float64 for floats (PyTorch's rule), int64, bool
str / bytes            left as they come: a list (a dict's values), or a tuple (one
                       position of tuple samples), as PyTorch
dict (Mapping)         a dict of the same keys, each collated on its own
namedtuple             the same namedtuple, each field collated
tuple / list           a list with one collated entry per position (a tuple sample
                       gives a list, as PyTorch; all samples of the same length)
=====================  ================================================================
"""

from __future__ import annotations

import collections.abc
import copy

import numpy as np

from ..._dtype import float64
from ...errors import utils as _errors
from ...factory import as_tensor, tensor
from ...ops.select import stack
from ...tensor import Tensor


def default_collate(batch: list):
    """Turn a list of samples into a batch, as ``torch.utils.data.default_collate`` does.

    Example:
        >>> import minigrad as mg
        >>> from minigrad.utils.data import default_collate
        >>> default_collate([(mg.tensor([1.0, 2.0]), 0), (mg.tensor([3.0, 4.0]), 1)])
        [tensor([[1., 2.],
                [3., 4.]]), tensor([0, 1])]
    """
    elem = batch[0]
    if isinstance(elem, Tensor):
        if elem.layout != "strided":
            raise RuntimeError(_errors.COLLATE_SPARSE)
        return stack(list(batch), 0)
    if isinstance(elem, np.ndarray):
        if elem.dtype.kind in "SaUO":  # strings and objects have no tensor dtype
            raise TypeError(_errors.COLLATE_TYPE.format(got=elem.dtype))
        return default_collate([as_tensor(b) for b in batch])
    if isinstance(elem, (np.bool_, np.number)):
        return as_tensor(batch)
    if isinstance(elem, float):
        return tensor(batch, dtype=float64)
    if isinstance(elem, int):  # bool too (a bool tensor)
        return tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    return _collate_container(batch, elem)


def _collate_container(batch: list, elem):
    """Dicts, namedtuples, tuples and lists: collate position by position (or key by key)."""
    if isinstance(elem, collections.abc.Mapping):
        merged = {key: default_collate([d[key] for d in batch]) for key in elem}
        if isinstance(elem, collections.abc.MutableMapping):
            clone = copy.copy(elem)  # keep the mapping's own type (an OrderedDict, ...)
            clone.update(merged)
            return clone
        return merged
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(default_collate(field) for field in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(sample) != len(elem) for sample in batch):
            raise RuntimeError(_errors.COLLATE_SIZES)
        # each column is a tuple, as PyTorch's zip: strings stay that tuple
        return [default_collate(column) for column in zip(*batch)]  # tuple samples too
    raise TypeError(_errors.COLLATE_TYPE.format(got=type(elem)))


def default_convert(data):
    """What a DataLoader with ``batch_size=None`` yields (``torch.utils.data.default_convert``):
    numpy arrays become tensors, in containers too; everything else is left as it is."""
    if isinstance(data, np.ndarray):
        return data if data.dtype.kind in "SaUO" else as_tensor(data)
    if isinstance(data, (np.bool_, np.number)):
        return as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(value) for key, value in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data
