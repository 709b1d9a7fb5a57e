"""The methods of :class:`~minigrad.sparse.tensor.SparseTensor`: those with a sparse kernel
(``@``, ``*``, ``t``, ``sum``, ``norm`` ..., each handing over to ``minigrad.sparse``), the
``Tensor`` methods that serve every layout (:data:`LAYOUT_FREE`), and a refusal for every
other method of ``Tensor`` (:func:`refuse_without_kernel`).

``minigrad._tensor_methods.install`` puts them on ``SparseTensor``; the refusals are computed
there, from what the two classes define, so there is no list of what a sparse tensor cannot
do to keep up to date.
"""

from __future__ import annotations

import numpy as np

from .errors import sparse_grad as sparse_errors
from .ops import shape
from .recording import grad_mode
from .sparse import ops as sparse_ops
from .sparse import ops_layout as sparse_layout
from .sparse import ops_values as sparse_values
from .sparse.tensor import SparseTensor, coalesced_pattern
from .tensor import Tensor


class SparseTensorOps:
    """The op methods of SparseTensor; each hands over to :mod:`minigrad.sparse.ops`."""

    # --- values and layouts (differentiable) -----------------------------------------
    def values(self) -> Tensor:
        """The stored values (differentiable); COO must be coalesced first."""
        if self._data.layout == "sparse_coo" and not self._data.is_coalesced:
            raise RuntimeError(sparse_errors.UNCOALESCED.format(what="values"))
        return sparse_layout.Values.apply(self)

    def _values(self) -> Tensor:
        """The raw values, coalesced or not (differentiable)."""
        return sparse_layout.Values.apply(self)

    def coalesce(self) -> SparseTensor:
        """Sorted indices, duplicates summed (explicit zeros kept); each duplicate's
        gradient is the gradient at its coordinate."""
        self._need("coalesce", "sparse_coo")
        if self._data.is_coalesced:
            return self
        return sparse_layout.Coalesce.apply(self)

    def to_dense(self, masked_grad: bool = True) -> Tensor:
        """A dense copy. Its gradient flows back masked (only at stored entries) by
        default, as PyTorch's; ``masked_grad=False`` sends the full dense gradient."""
        return sparse_layout.ToDense.apply(self, masked=masked_grad)

    def to_sparse(self, layout: str = "sparse_coo") -> SparseTensor:
        """Convert between sparse layouts (values and gradients follow)."""
        return (
            self
            if self._data.layout == layout
            else sparse_layout.ToLayout.apply(self, layout=layout)
        )

    def to_sparse_coo(self) -> SparseTensor:
        return self.to_sparse("sparse_coo")

    def to_sparse_csr(self) -> SparseTensor:
        return self.to_sparse("sparse_csr")

    def to_sparse_csc(self) -> SparseTensor:
        return self.to_sparse("sparse_csc")

    # --- products and arithmetic ---------------------------------------------------
    def __matmul__(self, other) -> Tensor:
        """``S @ D``: full gradient for S (``torch.mm``); see :func:`minigrad.sparse.mm`."""
        return sparse_ops.matmul(self, other)

    def __rmatmul__(self, other) -> Tensor:
        return sparse_ops.matmul(other, self)

    def matmul(self, other) -> Tensor:
        """``torch.matmul`` with a sparse operand: the full gradient for S."""
        return sparse_ops.matmul(self, other)

    def mm(self, mat2) -> Tensor:
        """``torch.mm`` with a sparse operand: the full gradient for S."""
        return sparse_ops.full_mm(self, mat2)

    def _rmm(self, mat1) -> Tensor:
        """``minigrad.mm(dense, sparse)``: the full gradient for S (called by ``mm``)."""
        return sparse_ops.full_mm(mat1, self)

    def t(self) -> SparseTensor:
        """Transpose of a sparse matrix: COO swaps index rows, CSR <-> CSC share arrays."""
        return sparse_ops.t(self)

    def transpose(self, dim0: int, dim1: int) -> SparseTensor:
        """Swap two sparse dims (CSR becomes CSC and back); the gradient transposes back."""
        return sparse_ops.transpose(self, dim0, dim1)

    def permute(self, *dims) -> SparseTensor:
        """Reorder dims: sparse dims among sparse ones, dense among dense (PyTorch's rule)."""
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = tuple(dims[0])
        return sparse_ops.permute(self, dims)

    def movedim(self, source, destination) -> SparseTensor:
        """``torch.movedim``: a :meth:`permute`, so sparse dims must stay in front."""
        return sparse_ops.permute(self, shape.movedim_order(self.ndim, source, destination))

    def _view_dense_dims(self, shape: tuple) -> SparseTensor:
        """Reshape the dense dims, keeping the sparse ones (the backward of a view)."""
        return sparse_values.view_dense_dims(self, shape)

    def _narrow_dense_dim(self, dim: int, start: int, stop: int) -> SparseTensor:
        """Cut a dense dim to ``start:stop``, the pattern kept (the backward of a cat)."""
        return sparse_values.SparseNarrowDense.apply(self, dim=dim, start=start, stop=stop)

    def clone(self) -> SparseTensor:
        """A copy with its own values, same pattern and layout; grad = g (``Tensor.clone``)."""
        return sparse_values.SparseClone.apply(self)

    def __mul__(self, other) -> SparseTensor:
        """``S * c`` or ``S * D`` (masked: S's pattern); see :func:`minigrad.sparse.ops.mul`."""
        return sparse_ops.mul(self, other)

    __rmul__ = __mul__
    mul = __mul__

    def __truediv__(self, other) -> SparseTensor:
        """``S / c`` for a number ``c``: values divided, pattern kept."""
        return sparse_ops.div(self, other)

    div = __truediv__

    def __neg__(self) -> SparseTensor:
        return sparse_ops.neg(self)

    neg = __neg__

    def _cast(self, dtype) -> SparseTensor:
        """The values cast to ``dtype`` (what ``to``, ``float()``, ``double()`` ... do)."""
        if not dtype.is_floating_point and self._requires_grad:  # as dense: no gradient
            with grad_mode.no_grad():
                return sparse_values.SparseTo.apply(self, dtype=dtype)
        return sparse_values.SparseTo.apply(self, dtype=dtype)

    def norm(self, p="fro", dim=None, keepdim: bool = False) -> Tensor:
        """``Tensor.norm`` of every entry (PyTorch's sparse norm: full reductions only); the
        gradient is sparse, on the stored pattern."""
        return sparse_ops.norm(self, p, dim, keepdim)

    def any(self, dim=None, keepdim: bool = False) -> Tensor:
        """True if some entry is nonzero (``Tensor.any``; full reduction only, as PyTorch)."""
        if dim is not None or keepdim:
            raise NotImplementedError(self._no_kernel("any(dim)"))
        values = coalesced_pattern(self._data).values  # duplicates summed first
        return Tensor._make(np.asarray(bool(np.any(values != 0))), False, None)

    def sum(self, dim=None, keepdim: bool = False, dtype=None) -> Tensor:
        """``Tensor.sum``: values as :func:`minigrad.sparse.sum`, but the FULL (dense)
        gradient, as PyTorch's ``Tensor.sum`` on a sparse tensor. For the masked (sparse)
        gradient use :func:`minigrad.sparse.sum`."""
        return sparse_ops.sum_full(self, dim, keepdim, dtype)


# Tensor methods that never read a tensor's values as an array, so they serve every layout.
LAYOUT_FREE = (
    "requires_grad_",
    "detach",
    "detach_",
    "retain_grad",
    "register_hook",
    "register_post_accumulate_grad_hook",
    "backward",
    "size",
    "dim",
    "element_size",
    "is_floating_point",
    "get_device",
    "to",
    "type",
    "cpu",
    "cuda",
    "float",
    "double",
    "half",
    "long",
    "int",
    "bool",
    "__len__",
    "__pos__",
    "__reduce_ex__",
    "__deepcopy__",
)


def public(name: str) -> bool:
    """A method users call: a public name, or an operator (``__add__``, ``__getitem__``)."""
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def refuse_without_kernel(tensor_cls, sparse_cls) -> list:
    """Give ``sparse_cls`` a refusal for every public method of ``tensor_cls`` that has no
    sparse kernel: neither ``sparse_cls`` nor :class:`SparseTensorOps` defines it, and it is
    not :data:`LAYOUT_FREE`. Returns the names refused.

    Called after the methods are installed, so whatever ``Tensor`` has then is covered.
    """
    kernels = {n for n, v in vars(sparse_cls).items() if not getattr(v, "_refusal", False)}
    kernels |= set(vars(SparseTensorOps)) | set(LAYOUT_FREE)
    refused = []
    for name, value in vars(tensor_cls).items():
        if callable(value) and public(name) and name not in kernels:
            setattr(sparse_cls, name, _refusal(name))
            refused.append(name)
    return refused


def _refusal(name: str):
    def method(self, *args, **kwargs):
        raise NotImplementedError(self._no_kernel(name))

    method.__name__ = name
    method.__doc__ = f"Not available for sparse tensors: {name} has no sparse kernel."
    method._refusal = True
    return method
