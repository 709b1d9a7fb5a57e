"""One time step of each recurrent cell, built from differentiable ops (private to nn).

PyTorch computes these in fused kernels (``torch._VF.lstm_cell`` and friends);
here each step is a few ``linear`` calls and pointwise ops, so autograd records
an ordinary graph that a student can draw and step through. Every function takes
a batched input ``x`` of shape (N, input_size) and hidden state(s) of shape
(N, hidden_size); the weights stack the gates along dim 0 in PyTorch's order.
"""

from __future__ import annotations

from ..tensor import Tensor
from . import functional as F


def _gates(x: Tensor, h: Tensor, w_ih, w_hh, b_ih, b_hh) -> tuple[Tensor, Tensor]:
    return F.linear(x, w_ih, b_ih), F.linear(h, w_hh, b_hh)


def rnn_cell(x: Tensor, h: Tensor, w_ih, w_hh, b_ih, b_hh, nonlinearity: str) -> Tensor:
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act = tanh or relu."""
    gi, gh = _gates(x, h, w_ih, w_hh, b_ih, b_hh)
    pre = gi + gh
    return F.tanh(pre) if nonlinearity == "tanh" else F.relu(pre)


def lstm_cell(x: Tensor, hc: tuple[Tensor, Tensor], w_ih, w_hh, b_ih, b_hh):
    """Gates i, f, g, o (that order); c' = f*c + i*g, h' = o*tanh(c'). Returns (h', c')."""
    h, c = hc
    gi, gh = _gates(x, h, w_ih, w_hh, b_ih, b_hh)
    i, f, g, o = (gi + gh).chunk(4, dim=1)
    c_next = F.sigmoid(f) * c + F.sigmoid(i) * F.tanh(g)
    h_next = F.sigmoid(o) * F.tanh(c_next)
    return h_next, c_next


def gru_cell(x: Tensor, h: Tensor, w_ih, w_hh, b_ih, b_hh) -> Tensor:
    """Gates r, z, n; n = tanh(W_in x + b_in + r * (W_hn h + b_hn)); h' = (1-z)*n + z*h."""
    gi, gh = _gates(x, h, w_ih, w_hh, b_ih, b_hh)
    i_r, i_z, i_n = gi.chunk(3, dim=1)
    h_r, h_z, h_n = gh.chunk(3, dim=1)
    r = F.sigmoid(i_r + h_r)
    z = F.sigmoid(i_z + h_z)
    n = F.tanh(i_n + r * h_n)
    return (1 - z) * n + z * h
