"""What happens to a sparse gradient on accumulation, as records: a :class:`DensificationEvent`
(it became dense: which rule, where, what caused it, what it cost) or a :class:`CoalesceEvent`,
and the warning and error the policy (:mod:`.config`) raises them as. The decisions are made
in :mod:`minigrad.accumulation.accumulate`; these classes sit here, below it, so that
``minigrad.sparse`` can name them without importing the layer above.
"""

from __future__ import annotations

import dataclasses

from ..errors import sparse_grad as errors


class DensificationWarning(UserWarning):
    """A sparse gradient became dense (``on_densify="warn"``, or the first one the policy
    made under the default ``"once"``)."""


class DensificationError(RuntimeError):
    """A sparse gradient would become dense (``on_densify="error"``)."""


@dataclasses.dataclass(frozen=True)
class DensificationEvent:
    """One densification, with its provenance.

    Attributes:
        where: what was being accumulated (e.g. ``"leaf weight [1000, 64]"``).
        rule: ``"dense_met_sparse"``, ``"outgrew_dense"``, ``"always"``,
            ``"no_sparse_formula"``, ...
        caused_by: name of the node whose gradient triggered it (or None).
        nnz, density: of the sparse gradient before densification.
        bytes_before, bytes_after: sparse bytes, then dense bytes.
    """

    where: str
    rule: str
    caused_by: str | None
    nnz: int
    density: float
    bytes_before: int
    bytes_after: int
    kind = "densified"  # what happened (CoalesceEvent says "coalesced")

    @property
    def message(self) -> str:
        """A sentence that says why, and what it cost."""
        threshold = ""
        if self.rule == "outgrew_dense":
            threshold = f"{self._threshold:.1%}"
        why = errors.WHY[self.rule].format(threshold=threshold, node=self.caused_by)
        caused = f" (caused by {self.caused_by})" if self.caused_by else ""
        return errors.DENSIFIED.format(
            where=self.where,
            why=why,
            before=_fmt_bytes(self.bytes_before),
            nnz=self.nnz,
            density=f"{self.density:.2%}",
            after=_fmt_bytes(self.bytes_after),
            caused=caused,
        )

    _threshold: float = dataclasses.field(default=0.0, repr=False, compare=False)


@dataclasses.dataclass(frozen=True)
class CoalesceEvent:
    """A sparse gradient was coalesced on accumulation (``coalesce="eager"``): duplicates
    summed, indices sorted."""

    where: str
    nnz_before: int
    nnz_after: int
    bytes_before: int
    bytes_after: int
    kind = "coalesced"

    @property
    def message(self) -> str:
        """A sentence that says what happened."""
        return (
            f"{self.where}: the sparse gradient was coalesced (coalesce='eager'): "
            f"{self.nnz_before} stored entries became {self.nnz_after}, "
            f"{_fmt_bytes(self.bytes_before)} became {_fmt_bytes(self.bytes_after)}."
        )


def _fmt_bytes(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n} bytes"  # pragma: no cover
