"""Memory formats, named as in PyTorch (``mg.contiguous_format`` is ``torch.contiguous_format``).

A memory format says how a tensor's elements are laid out in memory. PyTorch has
``contiguous_format`` (row-major, the default), ``preserve_format`` (keep the input's layout:
the default of ``clone`` and the ``*_like`` factories), and ``channels_last`` /
``channels_last_3d`` (a 4-D NCHW or 5-D NCDHW tensor stored as NHWC / NDHWC, which some GPU
convolution kernels prefer). minigrad's kernels are numpy's, which do not care, so every
format is accepted where PyTorch accepts it (its rank checked as PyTorch checks it) and the
result is laid out row-major: values, shapes and gradients are PyTorch's; only ``stride()``
of a ``channels_last`` result differs.
"""

from __future__ import annotations

from .errors import tensor_ops as errors


class memory_format:  # noqa: N801  (PyTorch's name)
    """One of PyTorch's memory formats; compare them with ``is`` or ``==``."""

    def __init__(self, name: str, rank: int | None = None):
        self.name, self.rank = name, rank

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last", 4)
channels_last_3d = memory_format("channels_last_3d", 5)


def check(fmt, ndim: int, op: str) -> None:
    """Refuse what PyTorch refuses: a value that is not a memory format (TypeError), a
    ``channels_last`` format for a tensor of another rank (RuntimeError)."""
    if fmt is None:
        return
    if not isinstance(fmt, memory_format):
        raise TypeError(errors.MEMORY_FORMAT_TYPE.format(op=op, got=type(fmt).__name__))
    if fmt.rank is not None and ndim != fmt.rank:
        raise RuntimeError(errors.MEMORY_FORMAT_RANK.format(rank=fmt.rank, name=fmt.name))
