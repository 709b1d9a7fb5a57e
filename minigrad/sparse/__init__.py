"""Sparse tensors for minigrad: formats, autograd, and the densification policy.

* :mod:`minigrad.formats` — COO, CSR, CSC: plain containers of numpy arrays, no autograd.
* :mod:`.tensor` — :class:`SparseTensor`, a Tensor whose data is a format.
* :mod:`.construct` — ``sparse_coo_tensor`` / ``sparse_csr_tensor`` / ``sparse_csc_tensor``.
* :mod:`.events` — what accumulation did to a sparse gradient: densification and coalesce
  events (the accumulation itself is :mod:`minigrad.accumulation`, the layer above).
* :mod:`.ops` — sparse-aware ops: ``mm``, ``addmm``, ``sum`` (masked gradients), products
  with scalars and dense tensors, transpose.
* :mod:`.conv` — ``subm_conv2d`` / ``subm_conv3d`` (submanifold convolution over active
  sites, the functional form of ``nn.SubMConv2d``) and its ``rulebook``.
* :mod:`.attention` — ``sampled_addmm`` (SDDMM), ``softmax`` / ``log_softmax`` over stored
  entries: the sparse pieces of attention, gradients on the pattern (ops in ``ops_attention``).
* :mod:`.config` — the policy: ``config(densify=..., on_densify=..., coalesce=...)``.
* :mod:`.report` — ``memory_report(loss)``: what a backward pass cost in gradient memory.
"""

from ..formats import COO, CSC, CSR
from .attention import log_softmax, sampled_addmm, softmax
from .config import break_even_density, config, get_config, set_config
from .construct import sparse_coo_tensor, sparse_csc_tensor, sparse_csr_tensor
from .conv import rulebook, subm_conv2d, subm_conv3d
from .events import (
    CoalesceEvent,
    DensificationError,
    DensificationEvent,
    DensificationWarning,
)
from .ops import addmm, mm, sum  # noqa: A004  (torch.sparse.mm / addmm / sum: masked gradients)
from .report import MemoryReport, memory_report
from .tensor import SparseTensor
