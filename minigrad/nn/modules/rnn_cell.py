"""Recurrent cells, one time step each: ``RNNCell``, ``LSTMCell``, ``GRUCell`` (``torch.nn``'s).

A cell maps an input (N, input_size) and a hidden state (N, hidden_size) to the
next hidden state; ``LSTMCell`` also carries a cell state c. The gate weights are
stacked along dim 0 in PyTorch's order (LSTM: i, f, g, o; GRU: r, z, n), so
``weight_ih`` has shape (gates * hidden_size, input_size) and a ``state_dict``
loads into PyTorch's cell unchanged. The math lives in ``nn._functional_rnn``.
"""

from __future__ import annotations

import math

from ... import _device, _dtype
from ...errors import nn as _errors
from ...factory import empty, zeros
from ...tensor import Tensor, typename
from .. import _functional_rnn as R
from .. import init
from ..parameter import Parameter
from .module import Module


def check_size(cls: str, name: str, value) -> None:
    """``value`` must be a positive int (PyTorch's checks of the sizes of a recurrent layer)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(_errors.RNN_INT.format(cls=cls, name=name, got=typename(value)))
    if value <= 0:
        raise ValueError(_errors.RNN_POSITIVE.format(name=name))


def check_nonlinearity(nonlinearity) -> None:
    """Only ``"tanh"`` and ``"relu"`` are recurrent activations, as in PyTorch."""
    if nonlinearity not in ("tanh", "relu"):
        raise ValueError(_errors.RNN_NONLINEARITY.format(got=nonlinearity))


def reset_uniform(module: Module, hidden_size: int) -> None:
    """PyTorch's default: every parameter, in order, from U(-1/sqrt(hidden), 1/sqrt(hidden))."""
    bound = 1.0 / math.sqrt(hidden_size)
    for weight in module.parameters():
        init.uniform_(weight, -bound, bound)


class RNNCellBase(Module):
    """What the three cells share: the parameters, their init, the repr and the input checks."""

    def __init__(self, input_size, hidden_size, bias, num_chunks, device=None, dtype=None):
        name = type(self).__name__
        _device.check(device, f"{name}()")
        super().__init__()
        check_size(name, "input_size", input_size)
        check_size(name, "hidden_size", hidden_size)
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        rows = num_chunks * hidden_size
        self.weight_ih = Parameter(empty(rows, input_size, dtype=d))
        self.weight_hh = Parameter(empty(rows, hidden_size, dtype=d))
        if bias:
            self.bias_ih = Parameter(empty(rows, dtype=d))
            self.bias_hh = Parameter(empty(rows, dtype=d))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Draw every weight and bias from U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))."""
        reset_uniform(self, self.hidden_size)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nonlinearity = getattr(self, "nonlinearity", "tanh")
        if nonlinearity != "tanh":
            s += f", nonlinearity={nonlinearity}"
        return s

    def _weights(self):
        return self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh

    def _batched_input(self, input: Tensor) -> tuple[Tensor, bool]:  # noqa: A002
        """``input`` as (N, input_size), and whether it came without a batch dim."""
        if input.dim() not in (1, 2):
            cls = type(self).__name__
            raise ValueError(_errors.RNN_CELL_DIMS.format(cls=cls, got=input.dim()))
        if input.shape[-1] != self.input_size:
            msg = _errors.RNN_CELL_INPUT_SIZE.format(got=input.shape[-1], want=self.input_size)
            raise RuntimeError(msg)
        unbatched = input.dim() == 1
        return (input.unsqueeze(0) if unbatched else input), unbatched

    def _batched_hidden(self, hx, x: Tensor, unbatched: bool, k: int = 0) -> Tensor:
        """A hidden state as (N, hidden_size): zeros when None, else checked against x."""
        n = x.shape[0]
        if hx is None:
            return zeros(n, self.hidden_size, dtype=x.dtype)
        want = 1 if unbatched else 2
        if hx.dim() != want:
            kind, dim = ("unbatched", 1) if unbatched else ("batched", 2)
            msg = _errors.RNN_CELL_HIDDEN_DIMS.format(
                kind=kind, dim=dim, k=k, want=want, got=hx.dim(), shape=tuple(hx.shape)
            )
            raise RuntimeError(msg)
        hx = hx.unsqueeze(0) if unbatched else hx
        if hx.shape[0] != n:
            raise RuntimeError(_errors.RNN_CELL_BATCH.format(n=n, k=k, got=hx.shape[0]))
        if hx.shape[1] != self.hidden_size:
            msg = _errors.RNN_CELL_HIDDEN_SIZE.format(
                k=k, got=hx.shape[1], want=self.hidden_size, shape=tuple(hx.shape)
            )
            raise RuntimeError(msg)
        return hx


class RNNCell(RNNCellBase):
    """Elman cell: h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act tanh or relu.

    Args:
        input_size: features of the input x.
        hidden_size: features of the hidden state h.
        bias: learn ``bias_ih`` and ``bias_hh`` (default True).
        nonlinearity: ``"tanh"`` (default) or ``"relu"``.
        device: accepted as in PyTorch; must be the CPU.
        dtype: dtype of the parameters (default: the default float dtype).

    Input ``(N, input_size)`` or unbatched ``(input_size,)``; ``hx`` of the matching
    shape with ``hidden_size`` features, zeros when omitted. Returns h'.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> cell = mg.nn.RNNCell(3, 4)
        >>> cell
        RNNCell(3, 4)
        >>> cell(mg.ones(2, 3)).shape, cell(mg.ones(3)).shape
        (minigrad.Size([2, 4]), minigrad.Size([4]))
    """

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        bias: bool = True,
        nonlinearity: str = "tanh",
        device=None,
        dtype=None,
    ):
        check_nonlinearity(nonlinearity)
        super().__init__(input_size, hidden_size, bias, 1, device, dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, unbatched = self._batched_input(input)
        h = self._batched_hidden(hx, x, unbatched)
        h = R.rnn_cell(x, h, *self._weights(), self.nonlinearity)
        return h.squeeze(0) if unbatched else h


class LSTMCell(RNNCellBase):
    """Long short-term memory cell: gates i, f, g, o; c' = f*c + i*g, h' = o*tanh(c').

    i, f, o are sigmoids and g a tanh of ``x W_ih^T + b_ih + h W_hh^T + b_hh``
    (split in four along the features, in that order). Arguments as
    :class:`RNNCell`'s without ``nonlinearity``; ``hx`` is a pair ``(h, c)`` (zeros
    when omitted) and the result is the pair ``(h', c')``.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> cell = mg.nn.LSTMCell(3, 4)
        >>> cell.weight_ih.shape
        minigrad.Size([16, 3])
        >>> h, c = cell(mg.ones(2, 3))
        >>> h.shape, c.shape
        (minigrad.Size([2, 4]), minigrad.Size([2, 4]))
    """

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None
    ):
        super().__init__(input_size, hidden_size, bias, 4, device, dtype)

    def forward(self, input: Tensor, hx=None) -> tuple[Tensor, Tensor]:  # noqa: A002
        x, unbatched = self._batched_input(input)
        h0, c0 = (None, None) if hx is None else hx
        h = self._batched_hidden(h0, x, unbatched, 0)
        c = self._batched_hidden(c0, x, unbatched, 1)
        h, c = R.lstm_cell(x, (h, c), *self._weights())
        return (h.squeeze(0), c.squeeze(0)) if unbatched else (h, c)


class GRUCell(RNNCellBase):
    """Gated recurrent unit cell: gates r, z, n; h' = (1 - z) * n + z * h.

    r = sigmoid(W_ir x + b_ir + W_hr h + b_hr), z likewise, and
    n = tanh(W_in x + b_in + r * (W_hn h + b_hn)) (PyTorch's form: r scales the
    whole hidden term, bias included). Arguments as :class:`LSTMCell`'s; ``hx``
    is h (zeros when omitted) and the result is h'.
    """

    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None
    ):
        super().__init__(input_size, hidden_size, bias, 3, device, dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:  # noqa: A002
        x, unbatched = self._batched_input(input)
        h = self._batched_hidden(hx, x, unbatched)
        h = R.gru_cell(x, h, *self._weights())
        return h.squeeze(0) if unbatched else h
