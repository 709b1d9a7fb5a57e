"""``MultiheadAttention`` (``torch.nn.MultiheadAttention``): the attention block of a
transformer, built from linear maps, batched products and a softmax, as PyTorch's
``F.multi_head_attention_forward`` computes it when it returns the attention weights."""

from __future__ import annotations

import math

import numpy as np

from ... import _device, _dtype
from ...factory import empty
from ...tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import Linear
from .module import Module


class NonDynamicallyQuantizableLinear(Linear):
    """PyTorch's name for the output projection of :class:`MultiheadAttention` (a
    ``Linear``; the name is what ``print(model)`` shows)."""


class MultiheadAttention(Module):
    """Attention with ``num_heads`` heads: out = concat_h(softmax(q_h k_h^T / sqrt(d)) v_h) W_o + b_o.

    q, k, v are the inputs times the three blocks of ``in_proj_weight`` (3E, E) plus
    ``in_proj_bias``; each head sees E / num_heads of their features.

    Args:
        embed_dim: E, the features of query, key and value.
        num_heads: the heads; must divide E.
        dropout: probability of dropping attention weights (in training).
        bias: learn the input and output biases.
        batch_first: inputs are (N, L, E) instead of (L, N, E).
        device: the CPU only; dtype: of the parameters.

    Initialised as PyTorch's (the same draws after the same seed): the output projection
    as a ``Linear``, then ``in_proj_weight`` by ``xavier_uniform_``; both biases zero.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> mha = mg.nn.MultiheadAttention(8, 2, batch_first=True)
        >>> x = mg.randn(3, 5, 8)
        >>> out, weights = mha(x, x, x)
        >>> out.shape, weights.shape
        (minigrad.Size([3, 5, 8]), minigrad.Size([3, 5, 5]))
    """

    def __init__(
        self,
        embed_dim: int,
        num_heads: int,
        dropout: float = 0.0,
        bias: bool = True,
        add_bias_kv: bool = False,
        add_zero_attn: bool = False,
        kdim: int | None = None,
        vdim: int | None = None,
        batch_first: bool = False,
        device=None,
        dtype=None,
    ):
        _device.check(device, "MultiheadAttention()")
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(
                f"embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                f"and num_heads={num_heads} instead"
            )
        if (
            add_bias_kv
            or add_zero_attn
            or kdim not in (None, embed_dim)
            or vdim not in (None, embed_dim)
        ):
            raise NotImplementedError(
                "MultiheadAttention: minigrad has no add_bias_kv, add_zero_attn, or key/value "
                "dims other than embed_dim"
            )
        super().__init__()
        self.embed_dim, self.kdim, self.vdim = embed_dim, embed_dim, embed_dim
        self._qkv_same_embed_dim = True
        self.num_heads, self.dropout, self.batch_first = num_heads, dropout, batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        self.in_proj_weight = Parameter(empty(3 * embed_dim, embed_dim, dtype=d))
        for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
            self.register_parameter(name, None)
        if bias:
            self.in_proj_bias = Parameter(empty(3 * embed_dim, dtype=d))
        else:
            self.register_parameter("in_proj_bias", None)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias, dtype=d)
        self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _reset_parameters(self) -> None:
        init.xavier_uniform_(self.in_proj_weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)

    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ):
        """(attention output, attention weights or None). Masks: a bool ``attn_mask``
        (L, S) or (N * heads, L, S) is True where attending is NOT allowed (the opposite
        of ``scaled_dot_product_attention``'s); a float one is added to the scores;
        ``key_padding_mask`` (N, S) is True at the keys to ignore."""
        unbatched = query.ndim == 2
        if unbatched:
            query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
            if key_padding_mask is not None:
                key_padding_mask = key_padding_mask.unsqueeze(0)
        elif self.batch_first:
            query, key, value = (t.transpose(0, 1) for t in (query, key, value))
        out, weights = self._attend(
            query, key, value, key_padding_mask, attn_mask, is_causal, safe=not need_weights
        )
        if self.batch_first and not unbatched:
            out = out.transpose(0, 1)
        if unbatched:
            out = out.squeeze(1)
        if not need_weights:
            return out, None
        if average_attn_weights:
            weights = weights.mean(1)
        return out, weights.squeeze(0) if unbatched else weights

    def _attend(self, query, key, value, key_padding_mask, attn_mask, is_causal, safe=False):
        """(L, N, E) inputs -> (L, N, E) output and (N, heads, L, S) weights. ``safe``: a query
        whose keys are all masked gets zero weights (PyTorch's ``need_weights=False`` path,
        ``scaled_dot_product_attention``), not NaN (its ``need_weights=True`` path)."""
        tgt_len, bsz, e = query.shape
        src_len, heads, hd = key.shape[0], self.num_heads, self.head_dim
        w_q, w_k, w_v = self.in_proj_weight.chunk(3)
        b_q = b_k = b_v = None
        if self.in_proj_bias is not None:
            b_q, b_k, b_v = self.in_proj_bias.chunk(3)
        q = F.linear(query, w_q, b_q).reshape(tgt_len, bsz * heads, hd).transpose(0, 1)
        k = F.linear(key, w_k, b_k).reshape(src_len, bsz * heads, hd).transpose(0, 1)
        v = F.linear(value, w_v, b_v).reshape(src_len, bsz * heads, hd).transpose(0, 1)
        scores = (q * math.sqrt(1.0 / hd)) @ k.transpose(-2, -1)
        if is_causal and attn_mask is None:
            attn_mask = Tensor._make(np.triu(np.ones((tgt_len, src_len), bool), 1), False, None)
        mask = _as_float_mask(attn_mask, scores.dtype)
        if key_padding_mask is not None:
            pad = _as_float_mask(key_padding_mask, scores.dtype).reshape(bsz, 1, 1, src_len)
            pad = pad.expand(bsz, heads, 1, src_len).reshape(bsz * heads, 1, src_len)
            mask = pad if mask is None else mask + pad
        dead = None
        if mask is not None:
            if safe:
                dead = np.isneginf(np.broadcast_to(mask._data, scores.shape)).all(-1, keepdims=True)
                dead = Tensor._make(dead, False, None) if dead.any() else None
            scores = scores + (mask if dead is None else mask.masked_fill(dead, 0.0))
        weights = scores.softmax(-1)
        if dead is not None:
            weights = weights.masked_fill(dead, 0.0)
        if self.training and self.dropout > 0.0:
            weights = F.dropout(weights, self.dropout)
        out = (weights @ v).transpose(0, 1).reshape(tgt_len * bsz, e)
        out = self.out_proj(out).reshape(tgt_len, bsz, e)
        return out, weights.reshape(bsz, heads, tgt_len, src_len)


def _as_float_mask(mask: Tensor | None, dtype) -> Tensor | None:
    """A bool mask (True: masked out) as 0 / -inf of ``dtype``; a float mask as it is (of
    the scores' dtype, as PyTorch requires)."""
    if mask is None:
        return None
    if mask.dtype.name != "bool":
        if mask.dtype != dtype:
            raise RuntimeError(
                f"MultiheadAttention: a float mask must have the inputs' dtype {dtype}, got "
                f"{mask.dtype}; convert it with .to({dtype}) or pass a bool mask"
            )
        return mask
    data = np.where(mask._data, -np.inf, 0.0).astype(dtype.np)
    return Tensor._make(data, False, None)
