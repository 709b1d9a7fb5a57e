"""Gradient accumulation with sparse gradients: the ONE place where sparse meets dense.

The engine calls :func:`accumulate` whenever two gradients for the same tensor
must be added and at least one of them is sparse (in a node's input buffer, or
into a leaf's ``.grad``). The result follows PyTorch's algebra:

=============  ==========  ================================================
existing       incoming    result
=============  ==========  ================================================
None           sparse S    S
sparse         sparse      sparse, indices concatenated (uncoalesced)
dense          sparse      dense (scatter-add)
sparse         dense       dense (a new tensor)
=============  ==========  ================================================

Unlike PyTorch, every densification is a :class:`DensificationEvent` saying
which rule fired, where, what caused it and what it cost; the policy in
:mod:`minigrad.sparse.config` decides whether it also warns or raises.
"""

from __future__ import annotations

import dataclasses
import warnings

import numpy as np

from ..errors import sparse_grad as errors
from .config import break_even_density, get_config
from .report import count_accumulation


class DensificationWarning(UserWarning):
    """A sparse gradient became dense (``on_densify="warn"``)."""


class DensificationError(RuntimeError):
    """A sparse gradient would become dense (``on_densify="error"``)."""


@dataclasses.dataclass(frozen=True)
class DensificationEvent:
    """One densification, with its provenance.

    Attributes:
        where: what was being accumulated (e.g. ``"leaf weight [1000, 64]"``).
        rule: ``"dense_met_sparse"``, ``"outgrew_dense"``, ``"always"``, ...
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
        why = errors.WHY[self.rule].format(threshold=threshold)
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


def _event(sparse, rule, where, caused_by) -> DensificationEvent:
    data = sparse.data
    return DensificationEvent(
        where,
        rule,
        caused_by,
        data.nnz,
        data.density,
        data.nbytes,
        data.dense_nbytes,
        _threshold=break_even_density(
            getattr(data, "sparse_dim", 2),
            data.values.itemsize,
            int(np.prod(data.values.shape[1:])) if data.values.ndim > 1 else 1,
        ),
    )


def report(event: DensificationEvent, events: list | None) -> None:
    """Record an event, then warn or raise as the policy says."""
    if events is not None:
        events.append(event)
    mode = get_config().on_densify
    if mode == "warn":
        warnings.warn(event.message, DensificationWarning, stacklevel=4)
    elif mode == "error":
        raise DensificationError(event.message + errors.DENSIFY_HINT)


def accumulate(existing, incoming, *, where: str, caused_by=None, events=None, leaf=None):
    """``existing + incoming`` for gradients, at least one sparse; never in place.

    Args:
        existing, incoming: gradient tensors (dense or sparse) of the same shape.
        where: what is accumulated into, for event messages.
        caused_by: the node that produced ``incoming``.
        events: a list the events are appended to (the engine's step).
        leaf: the leaf tensor when accumulating into its ``.grad``. The densify
            policy applies to dense leaves (a sparse leaf keeps a sparse gradient of
            its own layout); node buffers follow the algebra only.
    """
    from .tensor import add_sparse, densify

    count_accumulation(_kind(existing, incoming))
    if existing is None:
        result = incoming
        if leaf is not None and incoming._sparse:  # .grad gets its own copy of the values
            from .tensor import make_sparse

            result = make_sparse(incoming.data.with_values(incoming.data.values.copy()))
    elif existing._sparse and incoming._sparse:
        result = add_sparse(existing, incoming)
    elif existing._sparse:  # sparse .grad, dense incoming: a new dense tensor
        report(_event(existing, "dense_met_sparse", where, caused_by), events)
        result = densify(existing) + incoming
    elif incoming._sparse:  # dense .grad, sparse incoming: scatter-add into a copy
        report(_event(incoming, "dense_met_sparse", where, caused_by), events)
        result = existing + densify(incoming)
    else:
        result = existing + incoming
    if leaf is not None and result._sparse:
        if not leaf._sparse:
            result = _apply_policy(result, where, caused_by, events)
        elif result.layout != leaf.layout:  # a CSR/CSC leaf keeps a gradient of its layout
            from .tensor import _convert, make_sparse

            result = make_sparse(_convert(result.data.coalesce(), leaf.layout))
        elif get_config().coalesce == "eager" and not result.data.is_coalesced:
            result = _coalesce(result, where, events)
    return result


def _kind(existing, incoming) -> str:
    name = {None: "none", True: "sparse", False: "dense"}
    return f"{name[None if existing is None else existing._sparse]}+{name[incoming._sparse]}"


def _apply_policy(grad, where, caused_by, events):
    cfg = get_config()
    data = grad.data
    if cfg.densify == "always" or (
        cfg.densify == "auto" and data.nbytes >= data.dense_nbytes and data.nnz > 0
    ):
        rule = "always" if cfg.densify == "always" else "outgrew_dense"
        report(_event(grad, rule, where, caused_by), events)
        from .tensor import densify

        return densify(grad)
    if cfg.coalesce == "eager" and not data.is_coalesced:
        return _coalesce(grad, where, events)
    return grad


def _coalesce(grad, where, events):
    """Coalesce a gradient and record it (a step of the lesson, not a cost to warn about)."""
    from .tensor import make_sparse

    before = grad.data
    after = before.coalesce()
    if events is not None:
        events.append(CoalesceEvent(where, before.nnz, after.nnz, before.nbytes, after.nbytes))
    return make_sparse(after)
