"""Multi-layer recurrent layers over whole sequences: ``RNN``, ``LSTM``, ``GRU`` (``torch.nn``'s).

Each layer runs its cell (see ``rnn_cell``) along the sequence, one step at a
time; a bidirectional layer runs a second cell from the last step to the first
and concatenates the two outputs' features. Layer k > 0 reads layer k-1's
output, with dropout in between when ``dropout > 0`` and training. The
parameters are named as PyTorch's (``weight_ih_l0``, ``bias_hh_l1_reverse``, ...)
so a ``state_dict`` moves between the two libraries unchanged.

Shapes (L = sequence length, N = batch, D = 2 if bidirectional else 1):
input (L, N, input_size), or (N, L, input_size) with ``batch_first``, or
unbatched (L, input_size); h_0 and h_n (D * num_layers, N, hidden_size), or
(D * num_layers, hidden_size) unbatched (``batch_first`` never applies to them);
output (L, N, D * hidden_size). A :class:`~minigrad.nn.utils.rnn.PackedSequence` input gives a
PackedSequence output (see ``_rnn_packed``; hx in the input's batch order). PyTorch runs fused kernels; here every step is
ordinary differentiable ops, so backward is the engine's own.
"""

from __future__ import annotations

import numbers
import warnings

from ... import _device, _dtype
from ...errors import nn as _errors
from ...factory import empty, zeros
from ...ops.select import cat, stack
from ...tensor import Tensor, typename
from .. import _functional_rnn as R
from .. import functional as F
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from ._rnn_packed import forward_packed
from .module import Module
from .rnn_cell import check_nonlinearity, check_size, reset_uniform

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _check_dropout(dropout, num_layers: int) -> None:
    if isinstance(dropout, bool) or not isinstance(dropout, numbers.Number):
        raise ValueError(_errors.RNN_DROPOUT)
    if not 0 <= dropout <= 1:
        raise ValueError(_errors.RNN_DROPOUT)
    if dropout > 0 and num_layers == 1:
        warnings.warn(_errors.RNN_DROPOUT_ONE_LAYER.format(p=dropout, n=num_layers), stacklevel=3)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: parameters per layer and direction, checks, the loop."""

    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ):
        cls = type(self).__name__
        _device.check(device, f"{cls}()")
        super().__init__()
        check_size(cls, "input_size", input_size)
        check_size(cls, "hidden_size", hidden_size)
        check_size(cls, "num_layers", num_layers)
        _check_dropout(dropout, num_layers)
        if proj_size != 0:
            if mode != "LSTM":
                raise ValueError(_errors.RNN_PROJ_NOT_LSTM)
            raise NotImplementedError(_errors.RNN_PROJ_SIZE.format(cls=cls, got=proj_size))
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        self._make_parameters(_GATES[mode] * hidden_size, dtype)
        self.reset_parameters()

    def _make_parameters(self, rows: int, dtype) -> None:
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        directions = 2 if self.bidirectional else 1
        self._flat_weights_names = []
        for layer in range(self.num_layers):
            fan_in = self.input_size if layer == 0 else self.hidden_size * directions
            for direction in range(directions):
                suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
                shapes = {"weight_ih": (rows, fan_in), "weight_hh": (rows, self.hidden_size)}
                if self.bias:
                    shapes.update(bias_ih=(rows,), bias_hh=(rows,))
                for kind, shape in shapes.items():
                    setattr(self, kind + suffix, Parameter(empty(*shape, dtype=d)))
                    self._flat_weights_names.append(kind + suffix)

    def flatten_parameters(self) -> None:
        """Does nothing: PyTorch packs the weights for cuDNN here; minigrad has no such kernel."""

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters grouped per layer and direction, each group in ``weight_ih`` order."""
        per = 4 if self.bias else 2
        names = self._flat_weights_names
        return [[getattr(self, n) for n in names[i : i + per]] for i in range(0, len(names), per)]

    def reset_parameters(self) -> None:
        """Draw every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        reset_uniform(self, self.hidden_size)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    def _cell_weights(self, layer: int, direction: int) -> tuple:
        suffix = f"_l{layer}" + ("_reverse" if direction == 1 else "")
        weights = (getattr(self, "weight_ih" + suffix), getattr(self, "weight_hh" + suffix))
        if not self.bias:
            return (*weights, None, None)
        return (*weights, getattr(self, "bias_ih" + suffix), getattr(self, "bias_hh" + suffix))

    # --- checks ---------------------------------------------------------------------------
    def _sequence_input(self, input: Tensor) -> tuple[Tensor, bool]:  # noqa: A002
        """``input`` as (L, N, input_size), and whether it came without a batch dim."""
        if not isinstance(input, Tensor):
            cls = type(self).__name__
            raise TypeError(_errors.RNN_INPUT_TYPE.format(cls=cls, got=typename(input)))
        if input.dim() not in (2, 3):
            raise ValueError(_errors.RNN_DIMS.format(cls=type(self).__name__, got=input.dim()))
        want = self.weight_ih_l0.dtype
        if input.dtype != want:
            cls = "RNN" if self.mode.startswith("RNN") else self.mode
            raise ValueError(_errors.RNN_DTYPE.format(cls=cls, got=input.dtype, want=want))
        if input.shape[-1] != self.input_size:
            msg = _errors.RNN_INPUT_SIZE.format(want=self.input_size, got=input.shape[-1])
            raise RuntimeError(msg)
        unbatched = input.dim() == 2
        if unbatched:
            x = input.unsqueeze(1)
        else:
            x = input.transpose(0, 1) if self.batch_first else input
        if x.shape[0] == 0:
            raise RuntimeError(_errors.RNN_EMPTY_SEQUENCE)
        return x, unbatched

    def _initial_states(self, hx, x: Tensor, unbatched: bool) -> list[Tensor]:
        """The initial state(s), each as (D * num_layers, N, hidden_size); zeros for None."""
        count = 2 if self.mode == "LSTM" else 1
        directions = 2 if self.bidirectional else 1
        want = (self.num_layers * directions, x.shape[1], self.hidden_size)
        if hx is None:
            return [zeros(*want, dtype=x.dtype) for _ in range(count)]
        states = list(hx) if count == 2 else [hx]
        dims = 2 if unbatched else 3
        if any(s.dim() != dims for s in states):
            kind = "unbatched" if unbatched else "batched"
            got = ", ".join(f"{s.dim()}-D" for s in states)
            names, got = ("hx and cx", f"({got})") if count == 2 else ("hx", got)
            msg = _errors.RNN_HIDDEN_DIMS.format(
                kind=kind, dim=dims, names=names, want=dims, got=got, s="s" if count == 2 else ""
            )
            raise RuntimeError(msg)
        states = [s.unsqueeze(1) if unbatched else s for s in states]
        for k, s in enumerate(states):
            if tuple(s.shape) != want:
                which = f"[{k}]" if count == 2 else ""
                msg = _errors.RNN_HIDDEN_SHAPE.format(which=which, want=want, got=list(s.shape))
                raise RuntimeError(msg)
        return states

    # --- the loop -------------------------------------------------------------------------
    def _step(self, x: Tensor, state, weights):
        if self.mode == "LSTM":
            return R.lstm_cell(x, state, *weights)
        if self.mode == "GRU":
            return R.gru_cell(x, state, *weights)
        act = "tanh" if self.mode == "RNN_TANH" else "relu"
        return R.rnn_cell(x, state, *weights, act)

    def _run_direction(self, x: Tensor, state, weights, reverse: bool):
        """Run one cell along x (L, N, F) from ``state``; returns (outputs (L, N, H), final)."""
        steps = range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])
        outputs = []
        for t in steps:
            state = self._step(x[t], state, weights)
            outputs.append(state[0] if self.mode == "LSTM" else state)
        if reverse:
            outputs.reverse()
        return stack(outputs, 0), state

    def forward(self, input: Tensor, hx=None):  # noqa: A002  (PyTorch names)
        if isinstance(input, PackedSequence):
            return forward_packed(self, input, hx)
        x, unbatched = self._sequence_input(input)
        states = self._initial_states(hx, x, unbatched)
        directions = 2 if self.bidirectional else 1
        finals = []
        for layer in range(self.num_layers):
            outs = []
            for direction in range(directions):
                k = layer * directions + direction
                state = (states[0][k], states[1][k]) if self.mode == "LSTM" else states[0][k]
                weights = self._cell_weights(layer, direction)
                out, final = self._run_direction(x, state, weights, direction == 1)
                outs.append(out)
                finals.append(final)
            x = cat(outs, 2) if directions == 2 else outs[0]
            if self.dropout > 0 and self.training and layer < self.num_layers - 1:
                x = F.dropout(x, self.dropout, True)
        return self._outputs(x, finals, unbatched)

    def _outputs(self, x: Tensor, finals: list, unbatched: bool):
        if unbatched:
            x = x.squeeze(1)
        elif self.batch_first:
            x = x.transpose(0, 1)
        parts = list(zip(*finals)) if self.mode == "LSTM" else [finals]
        hidden = [stack(list(p), 0) for p in parts]
        if unbatched:
            hidden = [h.squeeze(1) for h in hidden]
        return (x, tuple(hidden)) if self.mode == "LSTM" else (x, hidden[0])


class RNN(RNNBase):
    """Elman RNN over a sequence: h_t = act(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh).

    Args:
        input_size: features of each input step.
        hidden_size: features of the hidden state.
        num_layers: stacked layers (default 1).
        nonlinearity: ``"tanh"`` (default) or ``"relu"``.
        bias: learn the ``bias_ih_l*`` and ``bias_hh_l*`` (default True).
        batch_first: input and output are (N, L, features) (default False: (L, N, features)).
        dropout: probability of dropout on the outputs of every layer but the last.
        bidirectional: also run each layer backwards in time (default False).
        proj_size: only 0 (PyTorch's LSTM-only option).
        device: accepted as in PyTorch; must be the CPU.
        dtype: dtype of the parameters (default: the default float dtype).

    ``forward(input, hx=None)`` returns ``(output, h_n)``, shapes in the module docstring.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> rnn = mg.nn.RNN(3, 4, num_layers=2)
        >>> rnn
        RNN(3, 4, num_layers=2)
        >>> output, h_n = rnn(mg.ones(5, 2, 3))
        >>> output.shape, h_n.shape
        (minigrad.Size([5, 2, 4]), minigrad.Size([2, 2, 4]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        nonlinearity: str = "tanh",
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ):
        check_nonlinearity(nonlinearity)
        mode = "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU"
        super().__init__(
            mode, input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, proj_size, device, dtype,
        )  # fmt: skip
        self.nonlinearity = nonlinearity


class LSTM(RNNBase):
    """Long short-term memory over a sequence (gates i, f, g, o as :class:`LSTMCell`).

    Arguments as :class:`RNN`'s without ``nonlinearity``; ``proj_size`` other than
    0 (projected hidden states) is not supported. ``forward(input, hx=None)`` takes
    ``hx = (h_0, c_0)`` and returns ``(output, (h_n, c_n))``.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> lstm = mg.nn.LSTM(3, 4, batch_first=True, bidirectional=True)
        >>> output, (h_n, c_n) = lstm(mg.ones(2, 5, 3))
        >>> output.shape, h_n.shape, c_n.shape
        (minigrad.Size([2, 5, 8]), minigrad.Size([2, 2, 4]), minigrad.Size([2, 2, 4]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ):
        super().__init__(
            "LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, proj_size, device, dtype,
        )  # fmt: skip


class GRU(RNNBase):
    """Gated recurrent unit over a sequence (gates r, z, n as :class:`GRUCell`).

    Arguments as :class:`LSTM`'s; ``forward(input, hx=None)`` returns ``(output, h_n)``.
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ):
        super().__init__(
            "GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout,
            bidirectional, proj_size, device, dtype,
        )  # fmt: skip
