"""The densification policy: when a sparse gradient may become dense, and who hears of it.

``config`` works as a call-free context manager and ``set_config`` sets it for
the rest of the session::

    with mg.sparse.config(densify="never", on_densify="error"):
        loss.backward()

* ``densify``: when accumulating sparse gradients into a sparse ``.grad``,
  ``"never"`` (the default, PyTorch's behaviour) keeps it sparse whatever it costs;
  ``"auto"`` densifies once the sparse form takes at least as many bytes as the dense
  one (the break-even, see :func:`break_even_density`); ``"always"`` densifies every
  sparse gradient (what a dense-only engine would hold, for comparison). ``"auto"`` is
  minigrad's own idea, an opt-in the course turns on to watch the trade-off.
* ``on_densify``: every densification (whatever caused it) is an event recorded
  in the backward step; ``"once"`` (the default) also warns the first time the
  ``densify`` policy itself densifies a gradient in this process, since PyTorch never
  would (densifications PyTorch also makes, such as a dense gradient meeting a sparse
  one, stay silent events); ``None`` records silently, ``"warn"`` emits a
  :class:`DensificationWarning` for every event, ``"error"`` raises
  :class:`DensificationError`.
* ``coalesce``: ``"lazy"`` keeps accumulated sparse gradients uncoalesced
  (indices concatenated, as PyTorch), ``"eager"`` coalesces after each
  accumulation (smaller, slower).
"""

from __future__ import annotations

import contextlib
import dataclasses

from ..errors import sparse_grad as errors

_CHOICES = {
    "densify": ("auto", "never", "always"),
    "on_densify": ("once", None, "warn", "error"),
    "coalesce": ("lazy", "eager"),
}


@dataclasses.dataclass(frozen=True)
class SparseConfig:
    """The current policy (read it with :func:`get_config`)."""

    densify: str = "never"
    on_densify: str | None = "once"
    coalesce: str = "lazy"


_current = [SparseConfig()]


def get_config() -> SparseConfig:
    """The policy in force."""
    return _current[0]


def _validated(**changes) -> SparseConfig:
    for key, value in changes.items():
        if key not in _CHOICES:
            raise TypeError(errors.CONFIG_KEY.format(key=key, keys=", ".join(_CHOICES)))
        if value not in _CHOICES[key]:
            raise ValueError(errors.CONFIG_VALUE.format(key=key, got=value, choices=_CHOICES[key]))
    return dataclasses.replace(_current[0], **changes)


def set_config(**changes) -> SparseConfig:
    """Change the policy from now on; returns the new policy."""
    _current[0] = _validated(**changes)
    return _current[0]


@contextlib.contextmanager
def config(**changes):
    """Change the policy inside a ``with`` block (restored afterwards, even on errors)."""
    new = _validated(**changes)
    old = _current[0]
    _current[0] = new
    try:
        yield new
    finally:
        _current[0] = old


def coo_nbytes(nnz: int, sparse_dim: int, dense_row_bytes: int) -> int:
    """Bytes of a COO: int64 indices per entry plus its values."""
    return nnz * (sparse_dim * 8 + dense_row_bytes)


def break_even_density(sparse_dim: int, itemsize: int, dense_row: int = 1) -> float:
    """Density at which COO stops saving memory: the "auto" threshold, derived from bytes.

    A sparse position costs ``sparse_dim * 8 + itemsize * dense_row`` bytes in COO
    and ``itemsize * dense_row`` dense, so COO is smaller below
    ``itemsize * dense_row / (sparse_dim * 8 + itemsize * dense_row)``.

    Example:
        >>> round(break_even_density(2, 4), 3)  # 2-D float32 matrix: 4 / (16 + 4)
        0.2
        >>> round(break_even_density(1, 4, dense_row=64), 3)  # row-sparse 64-wide float32
        0.97
    """
    row = itemsize * dense_row
    return row / (sparse_dim * 8 + row)
