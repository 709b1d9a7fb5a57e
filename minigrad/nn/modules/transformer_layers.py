"""The encoder and decoder layers of the transformer (``torch.nn.TransformerEncoderLayer``,
``TransformerDecoderLayer``), built from :class:`MultiheadAttention`, ``Linear``, ``LayerNorm``
and ``Dropout``, and the mask helpers the stacks of :mod:`.transformer` share.

The sub-modules carry PyTorch's names (``self_attn``, ``linear1``, ``dropout``, ``linear2``,
``norm1``, ``norm2``, ``dropout1``, ``dropout2``; the decoder adds ``multihead_attn``,
``norm3``, ``dropout3``), so ``state_dict`` keys are PyTorch's and a converted PyTorch state
dict loads. NB: in ``eval()`` PyTorch may take a fused "fast path"
(``torch._transformer_encoder_layer_fwd``, nested tensors); it computes the same math, and
minigrad always takes the plain path below.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

from ...errors import transformer as errors
from ...factory import full
from ...ops.flip_split import triu
from ...tensor import Tensor
from .. import functional as F
from .attention import MultiheadAttention
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm


def _generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
    """(sz, sz) float mask: 0 on and below the diagonal, -inf above (position i sees j <= i)."""
    return triu(full((sz, sz), float("-inf"), dtype=dtype, device=device), diagonal=1)


def _activation(activation: str | Callable) -> Callable:
    if not isinstance(activation, str):
        return activation
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(errors.ACTIVATION.format(got=activation))


def _canonical_mask(mask, name: str, other: Tensor | None, other_name: str, dtype):
    """A bool mask (True: masked out) as a float one of ``dtype`` (0 / -inf), as PyTorch's
    layers convert masks before attention; a float mask as it is."""
    if mask is None:
        return None
    if mask.dtype.name != "bool" and not mask.is_floating_point():
        raise AssertionError(errors.MASK_DTYPE.format(name=name))
    if other is not None and other.dtype != mask.dtype:
        warnings.warn(errors.MASK_MISMATCH.format(name=name, other=other_name), stacklevel=3)
    if mask.dtype.name != "bool":
        return mask
    return Tensor._make(np.where(mask._data, -np.inf, 0.0).astype(dtype.np), False, None)


def _attend(attn, x, mem, attn_mask, key_padding_mask, is_causal) -> Tensor:
    """The attention output of ``attn(x, mem, mem)`` without its weights (as PyTorch's
    ``need_weights=False``), refusing ``is_causal`` without a mask as PyTorch does."""
    if is_causal and attn_mask is None:
        raise RuntimeError(errors.CAUSAL_NEEDS_MASK)
    return attn(
        x,
        mem,
        mem,
        attn_mask=attn_mask,
        key_padding_mask=key_padding_mask,
        need_weights=False,
        is_causal=is_causal,
    )[0]


class TransformerEncoderLayer(Module):
    """Self-attention then a feed-forward block, each with a residual and a LayerNorm.

    Post-norm (default): x = norm1(x + SA(x)); x = norm2(x + FF(x)). With ``norm_first``:
    x = x + SA(norm1(x)); x = x + FF(norm2(x)). FF(x) = linear2(dropout(act(linear1(x)))).

    Args:
        d_model: the features of each position; nhead: attention heads (divides d_model).
        dim_feedforward: the hidden width of FF; dropout: the probability of every Dropout
            and of the attention weights.
        activation: "relu", "gelu" or a callable (a module is registered as a sub-module).
        layer_norm_eps: the LayerNorms' eps; batch_first: inputs (N, S, E), not (S, N, E).
        norm_first: pre-norm; bias: learn the biases of Linear, LayerNorm and attention.

    Initialised as PyTorch's: the same draws in the same order after the same seed
    (attention, linear1, linear2).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layer = mg.nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16)
        >>> layer(mg.randn(5, 3, 8)).shape
        minigrad.Size([5, 3, 8])
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        self.self_attn = MultiheadAttention(
            d_model, nhead, dropout=dropout, bias=bias, batch_first=batch_first, **kw
        )
        self._feed_forward_parts(d_model, dim_feedforward, dropout, bias, kw)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.activation = _activation(activation)
        act = self.activation
        relu = act is F.relu or type(act).__name__ == "ReLU"
        gelu = act is F.gelu or type(act).__name__ == "GELU"
        self.activation_relu_or_gelu = 1 if relu else 2 if gelu else 0

    def _feed_forward_parts(self, d_model, dim_feedforward, dropout, bias, kw) -> None:
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **kw)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **kw)

    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor:
        """(S, N, E) or (N, S, E) or unbatched (S, E) in, the same shape out. Masks as
        :class:`MultiheadAttention`'s (bool: True is masked out; float: added)."""
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", src_mask, "src_mask", src.dtype
        )
        src_mask = _canonical_mask(src_mask, "src_mask", None, "", src.dtype)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal))
        return self.norm2(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False) -> Tensor:
        return self.dropout1(_attend(self.self_attn, x, x, attn_mask, key_padding_mask, is_causal))

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout2(x)


class TransformerDecoderLayer(Module):
    """Self-attention, attention over the encoder's output (``memory``), then feed-forward,
    each with a residual and a LayerNorm (``norm1``, ``norm2``, ``norm3``).

    Post-norm (default): x = norm1(x + SA(x)); x = norm2(x + MHA(x, mem)); x = norm3(x + FF(x));
    ``norm_first`` normalises each block's input instead. Arguments as
    :class:`TransformerEncoderLayer`'s.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layer = mg.nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, batch_first=True)
        >>> layer(mg.randn(3, 4, 8), mg.randn(3, 6, 8)).shape
        minigrad.Size([3, 4, 8])
    """

    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable = F.relu,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        args = {"dropout": dropout, "batch_first": batch_first, "bias": bias, **kw}
        self.self_attn = MultiheadAttention(d_model, nhead, **args)
        self.multihead_attn = MultiheadAttention(d_model, nhead, **args)
        TransformerEncoderLayer._feed_forward_parts(
            self, d_model, dim_feedforward, dropout, bias, kw
        )
        self.norm_first = norm_first
        for i in (1, 2, 3):
            setattr(self, f"norm{i}", LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw))
        for i in (1, 2, 3):
            setattr(self, f"dropout{i}", Dropout(dropout))
        self.activation = _activation(activation)

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """``tgt`` (T, N, E) attends to itself and to ``memory`` (S, N, E); batch first
        or unbatched as :class:`TransformerEncoderLayer`."""
        x = tgt
        sa = (tgt_mask, tgt_key_padding_mask, tgt_is_causal)
        mha = (memory, memory_mask, memory_key_padding_mask, memory_is_causal)
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), *sa)
            x = x + self._mha_block(self.norm2(x), *mha)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, *sa))
        x = self.norm2(x + self._mha_block(x, *mha))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal=False) -> Tensor:
        return self.dropout1(_attend(self.self_attn, x, x, attn_mask, key_padding_mask, is_causal))

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal=False) -> Tensor:
        out = _attend(self.multihead_attn, x, mem, attn_mask, key_padding_mask, is_causal)
        return self.dropout2(out)

    def _ff_block(self, x: Tensor) -> Tensor:
        x = self.linear2(self.dropout(self.activation(self.linear1(x))))
        return self.dropout3(x)
