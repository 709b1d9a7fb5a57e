"""Lookup tables: ``Embedding`` and ``EmbeddingBag`` (``torch.nn.Embedding`` / ``EmbeddingBag``).

An embedding table is a (num_embeddings, embedding_dim) weight whose rows are
looked up by integer ids. A batch touches only a few rows, so with
``sparse=True`` the weight's gradient lists just those rows (a row-sparse COO,
see :mod:`minigrad.sparse.embedding`) and ``optim.SGD``, ``optim.Adagrad`` or
``optim.SparseAdam`` move just those rows.
"""

from __future__ import annotations

from ... import _device, _dtype
from ...errors import sparse_grad as _errors
from ...factory import randn
from ...recording.grad_mode import no_grad
from ...sparse import embedding as _lookup
from ...tensor import Tensor
from .. import functional as F
from ..parameter import Parameter
from .module import Module


class Embedding(Module):
    """A table of ``num_embeddings`` vectors of size ``embedding_dim``, looked up by index.

    The weight starts as N(0, 1) samples from minigrad's seeded generator (the same
    numbers as ``mg.randn(num_embeddings, embedding_dim)`` after the same seed, as in
    PyTorch), with the ``padding_idx`` row set to zeros.

    Sparse gradients (``sparse=True``): ``weight.grad`` is a row-sparse COO with one
    row per lookup, in lookup order, uncoalesced (ids [1, 2, 1, 7] give nnz 4;
    ``coalesce()`` gives nnz 3 with row 1's gradient doubled); ``padding_idx``
    lookups are left out. Two lookups into the same table before ``step()``
    concatenate their rows. If the same weight also gets a dense gradient (weight
    tying, e.g. ``h @ emb.weight.T``), ``.grad`` becomes dense, as in PyTorch; under
    the opt-in policy ``mg.sparse.config(densify="auto")`` a sparse gradient that
    would take at least as many bytes as the dense table is stored dense as well (the
    default, ``densify="never"``, keeps it sparse). Both are recorded as densification
    events (see :mod:`minigrad.accumulation.accumulate`).

    Args:
        num_embeddings: number of rows.
        embedding_dim: size of each row.
        padding_idx: a row that stays zero and never receives gradient (e.g. the id
            used to pad sequences); negative values count from the end.
        max_norm: rows looked up with a larger ``norm_type``-norm are rescaled in place
            to this norm, at each forward.
        norm_type: p of the p-norm for ``max_norm``.
        scale_grad_by_freq: divide each row's gradient by its count in the batch.
        sparse: give ``weight`` a row-sparse gradient.
        device: accepted as in PyTorch; must be the CPU.
        dtype: dtype of the weight (default: the default float dtype).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> emb = mg.nn.Embedding(10, 3, sparse=True)
        >>> emb(mg.tensor([[1, 2], [1, 7]])).shape
        minigrad.Size([2, 2, 3])
        >>> emb(mg.tensor([1, 2, 1, 7])).sum().backward()
        >>> g = emb.weight.grad
        >>> g.layout, g.nnz, g.coalesce().nnz
        ('sparse_coo', 4, 3)
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
        _weight: Tensor | None = None,
        _freeze: bool = False,
        device=None,
        dtype=None,
    ):
        _device.check(device, "Embedding()")
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.sparse = sparse
        self.weight, self.padding_idx = _table(
            num_embeddings, embedding_dim, padding_idx, _weight, _freeze, dtype
        )

    def reset_parameters(self) -> None:
        """Fresh N(0, 1) weights, padding row zeroed (``torch.nn.init.normal_``)."""
        with no_grad():
            self.weight.copy_(randn(*self.weight.shape, dtype=self.weight.dtype))
        self._fill_padding_idx_with_zero()

    def _fill_padding_idx_with_zero(self) -> None:
        if self.padding_idx is not None:
            with no_grad():
                self.weight._data[self.padding_idx] = 0
                self.weight._bump_version()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002  (PyTorch name)
        return F.embedding(
            input,
            self.weight,
            self.padding_idx,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.sparse,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        s += _norm_repr(self)
        if self.sparse:
            s += ", sparse=True"
        return s

    @classmethod
    def from_pretrained(
        cls,
        embeddings: Tensor,
        freeze: bool = True,
        padding_idx: int | None = None,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        sparse: bool = False,
    ) -> Embedding:
        """An Embedding over the given 2-D ``embeddings`` (shared, not copied; frozen by default).

        The padding row keeps its given values, as in PyTorch.
        """
        if embeddings.ndim != 2:
            raise ValueError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(
            rows,
            cols,
            padding_idx=padding_idx,
            max_norm=max_norm,
            norm_type=norm_type,
            scale_grad_by_freq=scale_grad_by_freq,
            sparse=sparse,
            _weight=embeddings,
            _freeze=freeze,
        )


class EmbeddingBag(Module):
    """Sums, means or maxima of bags of embeddings (``torch.nn.EmbeddingBag``).

    ``forward(input, offsets=None, per_sample_weights=None)``: a 2-D ``input`` holds
    one fixed-size bag per row; a 1-D ``input`` is cut into bags at ``offsets``.
    The result has one row per bag. With ``sparse=True`` the weight's gradient is
    row-sparse, one row per (non-padding) index, scaled as the forward scaled it
    (1/bag size for "mean", the per-sample weight for weighted "sum"; for "max"
    each column's gradient goes to the row that held the maximum, the other
    entries of the listed rows are zero). PyTorch refuses ``sparse=True`` with
    ``mode="max"``; minigrad accepts it.

    Args:
        num_embeddings, embedding_dim, max_norm, norm_type, scale_grad_by_freq,
        sparse, padding_idx, device, dtype: as :class:`Embedding` (padding entries are left
            out of their bag and of its mean).
        mode: ``"sum"``, ``"mean"`` (the default, as PyTorch) or ``"max"``.
        include_last_offset: ``offsets`` has one more entry, the end of the last bag.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> bag = mg.nn.EmbeddingBag(10, 3, mode="sum")
        >>> bag(mg.tensor([1, 2, 4, 5, 4, 3, 2, 9]), mg.tensor([0, 4])).shape
        minigrad.Size([2, 3])
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        max_norm: float | None = None,
        norm_type: float = 2.0,
        scale_grad_by_freq: bool = False,
        mode: str = "mean",
        sparse: bool = False,
        _weight: Tensor | None = None,
        include_last_offset: bool = False,
        padding_idx: int | None = None,
        device=None,
        dtype=None,
    ):
        _device.check(device, "EmbeddingBag()")
        if mode not in ("sum", "mean", "max"):
            raise ValueError(_errors.BAG_MODE.format(got=mode))
        super().__init__()
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        self.max_norm = max_norm
        self.norm_type = norm_type
        self.scale_grad_by_freq = scale_grad_by_freq
        self.mode = mode
        self.sparse = sparse
        self.include_last_offset = include_last_offset
        self.weight, self.padding_idx = _table(
            num_embeddings, embedding_dim, padding_idx, _weight, False, dtype
        )

    def reset_parameters(self) -> None:
        """Fresh N(0, 1) weights, padding row zeroed."""
        Embedding.reset_parameters(self)

    _fill_padding_idx_with_zero = Embedding._fill_padding_idx_with_zero

    def forward(
        self,
        input: Tensor,  # noqa: A002
        offsets: Tensor | None = None,
        per_sample_weights: Tensor | None = None,
    ) -> Tensor:
        return F.embedding_bag(
            input,
            self.weight,
            offsets,
            self.max_norm,
            self.norm_type,
            self.scale_grad_by_freq,
            self.mode,
            self.sparse,
            per_sample_weights,
            self.include_last_offset,
            self.padding_idx,
        )

    def extra_repr(self) -> str:
        s = f"{self.num_embeddings}, {self.embedding_dim}" + _norm_repr(self)
        s += f", mode={self.mode!r}"
        if self.padding_idx is not None:
            s += f", padding_idx={self.padding_idx}"
        return s


def _table(num, dim, padding_idx, weight, freeze, dtype) -> tuple[Parameter, int | None]:
    """The weight Parameter (fresh N(0, 1) with the padding row zeroed, or the given
    tensor, shared) and the padding row number."""
    if weight is None:
        d = _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)
        weight = randn(num, dim, dtype=d)
        row = _lookup.padding_row(padding_idx, weight)
        if row is not None:
            weight._data[row] = 0
    elif tuple(weight.shape) != (num, dim):
        raise ValueError(_errors.WEIGHT_SHAPE.format(got=tuple(weight.shape), want=(num, dim)))
    else:
        row = _lookup.padding_row(padding_idx, weight)
    return Parameter(weight, requires_grad=not freeze), row


def _norm_repr(m) -> str:
    """The max_norm / norm_type / scale_grad_by_freq part of both reprs (as PyTorch prints it)."""
    s = ""
    if m.max_norm is not None:
        s += f", max_norm={m.max_norm}"
    if m.norm_type != 2:
        s += f", norm_type={m.norm_type}"
    if m.scale_grad_by_freq:
        s += ", scale_grad_by_freq=True"
    return s
