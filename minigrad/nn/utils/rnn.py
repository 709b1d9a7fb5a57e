"""Variable-length sequences for recurrent layers (``torch.nn.utils.rnn``).

A batch of sequences of different lengths is either *padded* (one (L, B, *) tensor, short
sequences filled with ``padding_value``) or *packed*: a :class:`PackedSequence` whose ``data``
holds the time steps one after another, step t holding the ``batch_sizes[t]`` sequences that
are still running (sequences sorted longest first), so an RNN never computes on padding.

Every function here is built from differentiable ops (``cat``, ``stack``, ``index_select``),
so gradients flow back to the sequences. NB: PyTorch records ``PackPaddedSequenceBackward0``
for packing; minigrad records ``IndexSelectBackward0`` (the same gradient).

Example:
    >>> import minigrad as mg
    >>> from minigrad.nn.utils.rnn import pack_sequence, pad_packed_sequence
    >>> packed = pack_sequence([mg.tensor([1.0, 2.0, 3.0]), mg.tensor([4.0])])
    >>> packed.data, packed.batch_sizes
    (tensor([1., 4., 2., 3.]), tensor([2, 1, 1]))
    >>> pad_packed_sequence(packed, batch_first=True)
    (tensor([[1., 2., 3.],
            [4., 0., 0.]]), tensor([3, 1]))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from ... import _dtype
from ...errors import nn_utils as errors
from ...factory import full
from ...ops.select import cat, stack
from ...tensor import Tensor


def _ints(values: np.ndarray) -> Tensor:
    return Tensor._make(np.asarray(values, dtype=np.int64), False, None)


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The permutation that undoes ``permutation`` (None stays None)."""
    if permutation is None:
        return None
    return _ints(np.argsort(permutation._data, kind="stable"))


class _PackedFields(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(_PackedFields):
    """Packed sequences: ``data`` (sum of lengths, *) step by step, ``batch_sizes`` (int64,
    one count per time step), and the batch order: ``sorted_indices`` (position i of the
    packed batch holds input sequence ``sorted_indices[i]``; None when the input was sorted)
    and its inverse ``unsorted_indices``. Make one with :func:`pack_padded_sequence` or
    :func:`pack_sequence`, as in PyTorch."""

    __slots__ = ()

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> PackedSequence:
        """``data.to(...)`` (dtype or device); the indices stay as they are."""
        data = self.data.to(*args, **kwargs)
        return self if data is self.data else type(self)(data, *self[1:])

    def cpu(self) -> PackedSequence:
        return self

    def double(self) -> PackedSequence:
        return self.to(dtype=_dtype.as_dtype("float64"))

    def float(self) -> PackedSequence:
        return self.to(dtype=_dtype.as_dtype("float32"))

    @property
    def is_cuda(self) -> bool:
        return False

    def is_pinned(self) -> bool:
        return False


def pad_sequence(
    sequences, batch_first: bool = False, padding_value: float = 0.0, padding_side: str = "right"
) -> Tensor:
    """Stack sequences of shapes (L_i, *) into (L_max, B, *) (or (B, L_max, *) with
    ``batch_first``), filling with ``padding_value`` on the right (or the left).

    Example:
        >>> import minigrad as mg
        >>> from minigrad.nn.utils.rnn import pad_sequence
        >>> pad_sequence([mg.tensor([1, 2, 3]), mg.tensor([4])], batch_first=True, padding_side="left")
        tensor([[1, 2, 3],
                [0, 0, 4]])
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError(errors.NOT_ITERABLE.format(got=type(sequences)))
    sequences = list(sequences.unbind(0) if isinstance(sequences, Tensor) else sequences)
    if not sequences:
        raise RuntimeError(errors.EMPTY_SEQUENCES)
    if padding_side not in ("left", "right"):
        raise RuntimeError(errors.PADDING_SIDE.format(got=padding_side))
    rest = tuple(sequences[0].shape[1:])
    longest = max(s.shape[0] for s in sequences)
    padded = []
    for i, seq in enumerate(sequences):
        if tuple(seq.shape[1:]) != rest:
            raise RuntimeError(
                errors.TRAILING_DIMS.format(want=rest, i=i, got=tuple(seq.shape[1:]))
            )
        fill = full((longest - seq.shape[0], *rest), padding_value, dtype=seq.dtype)
        padded.append(cat([seq, fill] if padding_side == "right" else [fill, seq]))
    return stack(padded, 0 if batch_first else 1)


def _lengths(lengths, batch: int, enforce_sorted: bool, steps: int) -> np.ndarray:
    values = np.asarray(lengths._data if isinstance(lengths, Tensor) else lengths, np.int64)
    if values.shape != (batch,):
        raise RuntimeError(errors.LENGTHS_COUNT.format(want=batch, got=values.size))
    if (values <= 0).any():
        raise RuntimeError(errors.LENGTH_POSITIVE)
    if enforce_sorted and (np.diff(values) > 0).any():
        raise RuntimeError(errors.LENGTHS_SORTED)
    if values.max() > steps:
        raise RuntimeError(errors.LENGTH_TOO_LONG.format(got=int(values.max()), have=steps))
    return values


def pack_padded_sequence(
    input: Tensor,  # noqa: A002  (PyTorch's name)
    lengths,
    batch_first: bool = False,
    enforce_sorted: bool = True,
) -> PackedSequence:
    """Pack a padded batch (L, B, *) (or (B, L, *)) whose sequence b has ``lengths[b]`` steps.

    With ``enforce_sorted`` the lengths must decrease; otherwise the batch is sorted
    longest first (a stable sort) and the order kept in ``sorted_indices``.
    """
    batch_dim = 0 if batch_first else 1
    values = _lengths(lengths, input.shape[batch_dim], enforce_sorted, input.shape[1 - batch_dim])
    sorted_indices = None
    if not enforce_sorted:
        order = np.argsort(-values, kind="stable")
        values, sorted_indices = values[order], _ints(order)
        input = input.index_select(batch_dim, sorted_indices)  # noqa: A001
    x = input.transpose(0, 1) if batch_first else input
    steps, batch = int(values[0]), x.shape[1]
    batch_sizes = (values[None, :] > np.arange(steps)[:, None]).sum(1)
    rows = np.concatenate([t * batch + np.arange(b) for t, b in enumerate(batch_sizes)])
    data = x.reshape(x.shape[0] * batch, *x.shape[2:]).index_select(0, _ints(rows))
    return PackedSequence(data, _ints(batch_sizes), sorted_indices, None)


def pad_packed_sequence(
    sequence: PackedSequence,
    batch_first: bool = False,
    padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    """Undo :func:`pack_padded_sequence`: (padded (L, B, *) or (B, L, *), lengths int64) in
    the original batch order; ``total_length`` pads to that many steps."""
    batch_sizes = sequence.batch_sizes._data
    steps, batch = len(batch_sizes), int(batch_sizes[0])
    if total_length is not None:
        if total_length < steps:
            raise ValueError(errors.TOTAL_LENGTH.format(got=total_length, want=steps))
        steps = total_length
    data = sequence.data
    pad_row = data.shape[0]  # the index of the padding row appended below
    rows = np.full((steps, batch), pad_row, dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(batch_sizes)])
    for t, b in enumerate(batch_sizes):
        rows[t, :b] = offsets[t] + np.arange(b)
    fill = full((1, *data.shape[1:]), padding_value, dtype=data.dtype)
    padded = cat([data, fill]).index_select(0, _ints(rows.reshape(-1)))
    padded = padded.reshape(steps, batch, *data.shape[1:])
    lengths = (batch_sizes[None, :] > np.arange(batch)[:, None]).sum(1)
    if batch_first:
        padded = padded.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(0 if batch_first else 1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices._data]
    return padded, _ints(lengths)


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of (L_i, *) sequences (``pad_sequence`` then ``pack_padded_sequence``)."""
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences: Tensor, lengths, batch_first: bool = False) -> list[Tensor]:
    """The list of sequences (each its first ``lengths[b]`` steps) of a padded batch."""
    x = padded_sequences if batch_first else padded_sequences.transpose(0, 1)
    values = lengths._data if isinstance(lengths, Tensor) else lengths
    return [x[b, : int(n)] for b, n in enumerate(values)]


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """The list of sequences in a :class:`PackedSequence`, in their original order."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


__all__ = [
    "PackedSequence",
    "invert_permutation",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pad_sequence",
    "unpad_sequence",
    "pack_sequence",
    "unpack_sequence",
]
