"""The transformer of "Attention Is All You Need" (``torch.nn.Transformer``) and its stacks
``TransformerEncoder`` / ``TransformerDecoder``: copies of the layers of
:mod:`.transformer_layers` applied in turn, each stack ending in an optional LayerNorm.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import numpy as np

from ...errors import transformer as errors
from ...tensor import Tensor
from .. import functional as F
from .. import init
from .container import ModuleList
from .module import Module
from .normalization import LayerNorm
from .transformer_layers import (
    TransformerDecoderLayer,
    TransformerEncoderLayer,
    _canonical_mask,
    _generate_square_subsequent_mask,
)


def _detect_is_causal_mask(mask, is_causal, size) -> bool:
    """``is_causal`` when given; else whether ``mask`` equals the (size, size) causal mask."""
    if is_causal is not None or mask is None:
        return is_causal is True
    sz = size if size is not None else mask.shape[-2]
    causal = np.triu(np.full((sz, sz), -np.inf), 1)
    return tuple(mask.shape) == (sz, sz) and bool(np.array_equal(mask._data, causal))


def _seq_len(src: Tensor, batch_first: bool) -> int:
    return src.shape[0] if src.ndim == 2 else src.shape[1 if batch_first else 0]


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
