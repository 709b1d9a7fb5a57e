"""The transformer of "Attention Is All You Need" (``torch.nn.Transformer`` and its parts):
encoder and decoder layers built from :class:`MultiheadAttention`, ``Linear``, ``LayerNorm``
and ``Dropout``, stacked by :class:`TransformerEncoder` / :class:`TransformerDecoder`.

The sub-modules carry PyTorch's names (``self_attn``, ``linear1``, ``dropout``, ``linear2``,
``norm1``, ``norm2``, ``dropout1``, ``dropout2``; the decoder adds ``multihead_attn``,
``norm3``, ``dropout3``), so ``state_dict`` keys are PyTorch's and a converted PyTorch state
dict loads. NB: in ``eval()`` PyTorch may take a fused "fast path"
(``torch._transformer_encoder_layer_fwd``, nested tensors); it computes the same math, and
minigrad always takes the plain path below.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable

import numpy as np

from ...errors import transformer as errors
from ...factory import full
from ...ops.flip_split import triu
from ...tensor import Tensor
from .. import functional as F
from .. import init
from .attention import MultiheadAttention
from .container import ModuleList
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


def _detect_is_causal_mask(mask, is_causal, size) -> bool:
    """``is_causal`` when given; else whether ``mask`` equals the (size, size) causal mask."""
    if is_causal is not None or mask is None:
        return is_causal is True
    sz = size if size is not None else mask.shape[-2]
    causal = np.triu(np.full((sz, sz), -np.inf), 1)
    return tuple(mask.shape) == (sz, sz) and bool(np.array_equal(mask._data, causal))


def _seq_len(src: Tensor, batch_first: bool) -> int:
    return src.shape[0] if src.ndim == 2 else src.shape[1 if batch_first else 0]


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


def _get_clones(module: Module, n: int) -> ModuleList:
    """``n`` deep copies: every layer starts with the same parameters, as in PyTorch."""
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


class TransformerEncoder(Module):
    """``num_layers`` copies of ``encoder_layer`` applied in turn (``layers.0``, ...), then
    ``norm`` if given.

    The copies start equal (deep copies of ``encoder_layer``), as in PyTorch.
    ``enable_nested_tensor`` is accepted and stored but has no effect: minigrad has no
    nested tensors, so padded positions are always computed and masked
    (``use_nested_tensor`` is False).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layer = mg.nn.TransformerEncoderLayer(8, 2, dim_feedforward=16)
        >>> encoder = mg.nn.TransformerEncoder(layer, num_layers=2)
        >>> mask = mg.nn.Transformer.generate_square_subsequent_mask(5)
        >>> encoder(mg.randn(5, 3, 8), mask=mask).shape
        minigrad.Size([5, 3, 8])
    """

    def __init__(
        self,
        encoder_layer: Module,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ):
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = False
        self.mask_check = mask_check

    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool | None = None,
    ) -> Tensor:
        """``is_causal=None`` detects whether ``mask`` is the causal mask (as PyTorch)."""
        src_key_padding_mask = _canonical_mask(
            src_key_padding_mask, "src_key_padding_mask", mask, "mask", src.dtype
        )
        mask = _canonical_mask(mask, "mask", None, "", src.dtype)
        batch_first = self.layers[0].self_attn.batch_first
        is_causal = _detect_is_causal_mask(mask, is_causal, _seq_len(src, batch_first))
        output = src
        for layer in self.layers:
            output = layer(
                output,
                src_mask=mask,
                is_causal=is_causal,
                src_key_padding_mask=src_key_padding_mask,
            )
        return output if self.norm is None else self.norm(output)


class TransformerDecoder(Module):
    """``num_layers`` copies of ``decoder_layer`` applied in turn, then ``norm`` if given.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layer = mg.nn.TransformerDecoderLayer(8, 2, dim_feedforward=16)
        >>> decoder = mg.nn.TransformerDecoder(layer, num_layers=2)
        >>> decoder(mg.randn(4, 3, 8), mg.randn(6, 3, 8)).shape
        minigrad.Size([4, 3, 8])
    """

    def __init__(self, decoder_layer: Module, num_layers: int, norm: Module | None = None):
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """``tgt_is_causal=None`` detects whether ``tgt_mask`` is the causal mask."""
        batch_first = self.layers[0].self_attn.batch_first
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, _seq_len(tgt, batch_first))
        output = tgt
        for layer in self.layers:
            output = layer(
                output,
                memory,
                tgt_mask=tgt_mask,
                memory_mask=memory_mask,
                tgt_key_padding_mask=tgt_key_padding_mask,
                memory_key_padding_mask=memory_key_padding_mask,
                tgt_is_causal=tgt_is_causal,
                memory_is_causal=memory_is_causal,
            )
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    """Encoder (``encoder``) and decoder (``decoder``) stacks, each ending in a LayerNorm:
    ``out = decoder(tgt, encoder(src))``.

    Arguments as :class:`TransformerEncoderLayer`'s, plus the layer counts and
    ``custom_encoder`` / ``custom_decoder`` to use instead of the built stacks. After
    building, every parameter with more than one dim is re-drawn by ``xavier_uniform_``
    (in ``parameters()`` order, as PyTorch).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> model = mg.nn.Transformer(8, 2, 1, 1, dim_feedforward=16, batch_first=True)
        >>> src, tgt = mg.randn(3, 6, 8), mg.randn(3, 4, 8)
        >>> tgt_mask = model.generate_square_subsequent_mask(4)
        >>> model(src, tgt, tgt_mask=tgt_mask).shape
        minigrad.Size([3, 4, 8])
    """

    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable = F.relu,
        custom_encoder: Module | None = None,
        custom_decoder: Module | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ):
        super().__init__()
        kw = {"device": device, "dtype": dtype}
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps)
        layer_args += (batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(*layer_args, **kw)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(*layer_args, **kw)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **kw)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model, self.nhead, self.batch_first = d_model, nhead, batch_first

    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor:
        """``src`` (S, N, E) and ``tgt`` (T, N, E) (batch first: (N, S, E), (N, T, E)) ->
        (T, N, E). Masks as the layers'."""
        batch_dim = 0 if self.batch_first else 1
        if src.ndim == 3 and src.shape[batch_dim] != tgt.shape[batch_dim]:
            raise RuntimeError(errors.BATCH_MISMATCH)
        if src.shape[-1] != self.d_model or tgt.shape[-1] != self.d_model:
            raise RuntimeError(errors.FEATURE_MISMATCH)
        memory = self.encoder(
            src, mask=src_mask, src_key_padding_mask=src_key_padding_mask, is_causal=src_is_causal
        )
        return self.decoder(
            tgt,
            memory,
            tgt_mask=tgt_mask,
            memory_mask=memory_mask,
            tgt_key_padding_mask=tgt_key_padding_mask,
            memory_key_padding_mask=memory_key_padding_mask,
            tgt_is_causal=tgt_is_causal,
            memory_is_causal=memory_is_causal,
        )

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None) -> Tensor:
        """The causal mask of ``sz`` positions: 0 where j <= i, -inf where j > i.

        Example:
            >>> import minigrad as mg
            >>> mg.nn.Transformer.generate_square_subsequent_mask(3)
            tensor([[0., -inf, -inf],
                    [0., 0., -inf],
                    [0., 0., 0.]])
        """
        return _generate_square_subsequent_mask(sz, device=device, dtype=dtype)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.ndim > 1:
                init.xavier_uniform_(p)
