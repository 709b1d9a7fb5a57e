"""``RNN``/``LSTM``/``GRU`` over a :class:`PackedSequence` (private to ``nn.modules.rnn``).

Step t of a packed batch holds the ``batch_sizes[t]`` sequences still running, longest first,
so the cell runs on the first ``batch_sizes[t]`` rows of the state and leaves the other rows
(finished sequences, or in the reverse direction not yet started ones) as they are: each
sequence's final state is the state after its own last step, and padding is never computed,
as in PyTorch's packed kernels.
"""

from __future__ import annotations

import numpy as np

from ...ops.select import cat, stack
from .. import functional as F
from ..utils.rnn import PackedSequence


def _take(state, rows: int):
    return tuple(s[:rows] for s in state) if isinstance(state, tuple) else state[:rows]


def _put(new, state, rows: int):
    """The state with its first ``rows`` rows replaced by ``new``."""
    if isinstance(state, tuple):
        return tuple(_put(n, s, rows) for n, s in zip(new, state))
    return new if rows == state.shape[0] else cat([new, state[rows:]])


def _run_direction(module, data, batch_sizes, state, weights, reverse: bool):
    """One cell along the packed ``data``; returns (packed outputs, final state)."""
    offsets = np.concatenate([[0], np.cumsum(batch_sizes)])
    steps = range(len(batch_sizes))
    outputs = []
    for t in reversed(steps) if reverse else steps:
        rows = int(batch_sizes[t])
        new = module._step(data[int(offsets[t]) : int(offsets[t + 1])], _take(state, rows), weights)
        outputs.append(new[0] if isinstance(new, tuple) else new)
        state = _put(new, state, rows)
    if reverse:
        outputs.reverse()
    return cat(outputs, 0), state


def _permute(states: list, indices):
    return states if indices is None else [s.index_select(1, indices) for s in states]


def forward_packed(module, packed: PackedSequence, hx=None):
    """(output PackedSequence, h_n or (h_n, c_n)) of ``module`` on ``packed``."""
    data, batch_sizes = packed.data, packed.batch_sizes._data
    module._sequence_input(data.unsqueeze(1))  # the checks of dtype and feature size
    if hx is not None:  # hx follows the input's batch order; the packed batch is sorted
        permuted = _permute(list(hx) if isinstance(hx, tuple) else [hx], packed.sorted_indices)
        hx = tuple(permuted) if isinstance(hx, tuple) else permuted[0]
    states = module._initial_states(hx, data[: int(batch_sizes[0])].unsqueeze(0), False)
    directions = 2 if module.bidirectional else 1
    finals = []
    for layer in range(module.num_layers):
        outs = []
        for direction in range(directions):
            k = layer * directions + direction
            state = (states[0][k], states[1][k]) if module.mode == "LSTM" else states[0][k]
            weights = module._cell_weights(layer, direction)
            out, final = _run_direction(module, data, batch_sizes, state, weights, direction == 1)
            outs.append(out)
            finals.append(final)
        data = cat(outs, 1) if directions == 2 else outs[0]
        if module.dropout > 0 and module.training and layer < module.num_layers - 1:
            data = F.dropout(data, module.dropout, True)
    parts = list(zip(*finals)) if module.mode == "LSTM" else [finals]
    hidden = _permute([stack(list(p), 0) for p in parts], packed.unsorted_indices)
    output = PackedSequence(
        data, packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices
    )
    return output, (tuple(hidden) if module.mode == "LSTM" else hidden[0])
