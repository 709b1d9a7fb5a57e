"""Gradient accumulation with sparse gradients: the ONE place where sparse meets dense.

The engine calls :func:`add_gradients` whenever two gradients for the same tensor
must be added (in a node's input buffer, or into a ``.grad``: a leaf's, or a non-leaf's
for ``retain_grad`` and ``backward(inputs=...)``): two dense ones are simply added; when
one is sparse the result follows PyTorch's algebra:

=============  ==========  ================================================
existing       incoming    result
=============  ==========  ================================================
None           sparse S    S
sparse         sparse      sparse, indices concatenated (uncoalesced)
dense          sparse      dense (scatter-add)
sparse         dense       dense (a new tensor)
=============  ==========  ================================================

One more rule has no existing gradient: a sparse gradient that reaches a backward
formula with no sparse form (``MulBackward0``, a slice, ...) becomes dense before the
formula runs (:func:`densify_for_formula`, rule ``no_sparse_formula``). The formulas that
do take one, and keep it sparse as PyTorch does, are declared in
:mod:`minigrad.sparse.formulas`.

Unlike PyTorch, every densification is a :class:`DensificationEvent` saying
which rule fired, where, what caused it and what it cost; the policy in
:mod:`minigrad.sparse.config` decides whether it also warns or raises. Under
``create_graph=True`` each of these sums and densifications is a recorded op
(``SparseAdd``, ``ToDense``), so a second derivative goes through them too.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..errors import sparse_grad as errors
from ..recording.node import AccumulateGrad
from ..sparse.config import break_even_density, get_config
from ..sparse.counters import count_accumulation
from ..sparse.events import (
    CoalesceEvent,
    DensificationError,
    DensificationEvent,
    DensificationWarning,
)
from ..sparse.formulas import takes_sparse
from ..sparse.ops_layout import SparseAdd, ToDense
from ..sparse.tensor import make_sparse
from ..tensor import Tensor


def _event(sparse, rule, where, caused_by) -> DensificationEvent:
    data = sparse._data
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


_POLICY_RULES = ("outgrew_dense", "always")  # densified by mg.sparse.config(densify=...)
_told = [False]  # on_densify="once": has the policy's first densification been announced?


def report(event: DensificationEvent, events: list | None) -> None:
    """Record an event, then warn or raise as the policy says."""
    if events is not None:
        events.append(event)
    mode = get_config().on_densify
    if mode == "once" and event.rule in _POLICY_RULES and not _told[0]:
        _told[0] = True
        warnings.warn(event.message + errors.ONCE_HINT, DensificationWarning, stacklevel=4)
    elif mode == "warn":
        warnings.warn(event.message, DensificationWarning, stacklevel=4)
    elif mode == "error":
        raise DensificationError(event.message + errors.DENSIFY_HINT)


def add_gradients(existing, incoming, into, sender=None, events=None, leaf=None):
    """``existing + incoming``: the sum of two gradients of one tensor, never in place.

    Every sum of backward comes here: two gradients that reach the same node output (the
    engine's input buffers), or a gradient added into a leaf's ``.grad``. Two dense ones
    are simply added; everything else follows the table at the top of this module.

    Args:
        existing, incoming: gradient tensors (dense or sparse) of the same shape; existing
            may be None (the first gradient of a leaf).
        into: the node the gradient is for (an op's node, or a leaf's AccumulateGrad).
        sender: the node that produced ``incoming`` (named in events), or None.
        events: a list the events are appended to (the engine's step), or None.
        leaf: the tensor whose ``.grad`` is being accumulated (a leaf, or a non-leaf that
            retains its grad or was given to ``backward(inputs=...)``). The densify policy
            applies to dense tensors (a sparse leaf keeps a sparse gradient of its own
            layout); node buffers follow the algebra only.
    """
    dense = incoming.layout == "strided"
    if dense and (existing is None or existing.layout == "strided"):
        return incoming if existing is None else existing + incoming
    events = [] if events is None else events
    seen = len(events)
    result = _sparse_sum(existing, incoming, _Where(into, leaf), sender, events, leaf)
    new = tuple(e for e in events[seen:] if e.kind == "densified")
    if new and isinstance(into, AccumulateGrad):  # the leaf remembers why (for drawings)
        into.densified = into.densified + new
    return result


class _Where:
    """What a gradient is accumulated into, described only if an event needs the words."""

    def __init__(self, node, tensor=None):
        self.node, self.tensor = node, tensor

    def __str__(self) -> str:
        t = self.tensor
        if t is None and isinstance(self.node, AccumulateGrad):
            t = self.node.variable
        if t is not None:
            label = f"'{t.name}' " if t.name else ""
            kind = "leaf" if t.grad_fn is None else "the .grad of non-leaf"
            return f"{kind} {label}of shape {list(t.shape)}"
        if self.node is None:
            return "a gradient"
        return f"the gradient flowing into {self.node.name()}"


def _sparse_sum(existing, incoming, where, sender, events, leaf):
    """The rules of the table, for sums where at least one gradient is sparse."""
    caused_by = None if sender is None else sender.name()
    count_accumulation(_kind(existing, incoming))
    if existing is None:
        result = incoming
        if leaf is not None and not incoming._requires_grad:  # .grad gets its own values
            result = make_sparse(incoming._data.with_values(incoming._data.values.copy()))
    elif existing.layout != "strided" and incoming.layout != "strided":
        result = SparseAdd.apply(existing, incoming)
    elif existing.layout != "strided":  # sparse .grad, dense incoming: a new dense tensor
        report(_event(existing, "dense_met_sparse", str(where), caused_by), events)
        result = densify(existing) + incoming
    else:  # dense .grad, sparse incoming: scatter-add into a copy
        report(_event(incoming, "dense_met_sparse", str(where), caused_by), events)
        result = existing + densify(incoming)
    if leaf is None or result.layout == "strided":
        return result
    if leaf.layout == "strided":
        return _apply_policy(result, str(where), caused_by, events)
    if result.layout != leaf.layout:  # a CSR/CSC leaf keeps a gradient of its layout
        return result.coalesce().to_sparse(leaf.layout)
    if get_config().coalesce == "eager" and not result._data.is_coalesced:
        return _coalesce(result, str(where), events)
    return result


def _kind(existing, incoming) -> str:
    """``"none+sparse"``, ``"dense+sparse"``, ...: the row of the table (for the report)."""

    def name(t) -> str:
        return "none" if t is None else ("dense" if t.layout == "strided" else "sparse")

    return f"{name(existing)}+{name(incoming)}"


def densify(grad) -> Tensor:
    """The dense form of a sparse gradient: the one function that makes one (every caller is
    in this module, ``tests/sparse/test_seam_ast.py`` checks it).

    A gradient recorded for a second derivative (``create_graph=True``: it requires grad)
    becomes dense through a recorded ``to_dense``, whose backward sends the gradient back
    masked to the sparse pattern, as PyTorch's ``to_dense`` does; so a second derivative
    keeps the path through it.
    """
    if grad._requires_grad:
        return ToDense.apply(grad, masked=True)
    return Tensor._make(grad._data.to_dense(), False, None)


def densify_gradient(grad, rule: str, where: str, events: list | None = None) -> Tensor:
    """A sparse gradient made dense outside backward, on purpose (``rule``: e.g. a dense
    bucket of ``nn.parallel.DistributedDataParallel``), through the policy: a recorded
    :class:`DensificationEvent`, which ``on_densify`` may turn into a warning or an error."""
    report(_event(grad, rule, where, None), events)
    return densify(grad)


def densify_for_formula(node, grads, events=None) -> list:
    """The gradients ``node``'s backward formula gets: each sparse one it has no sparse
    formula for (:mod:`minigrad.sparse.formulas`) is densified first, through the policy,
    as an event of rule ``no_sparse_formula`` naming the node. The engine calls this for
    every node that received a sparse gradient."""
    out = list(grads)
    for nr, g in enumerate(grads):
        if g is not None and g.layout != "strided" and not takes_sparse(node, g):
            report(_event(g, "no_sparse_formula", str(_Where(node)), node.name()), events)
            out[nr] = densify(g)
    return out


def apply_densify_policy(grad, where: str, events: list | None = None):
    """The policy's verdict on a sparse gradient that a dense leaf will hold, arriving from
    outside backward (``nn.parallel.DistributedDataParallel`` after its all-gather): the
    gradient itself, or its dense form with a recorded :class:`DensificationEvent`."""
    return _apply_policy(grad, where, None, events)


def _apply_policy(grad, where, caused_by, events):
    cfg = get_config()
    data = grad._data
    if cfg.densify == "always" or (
        cfg.densify == "auto" and data.nbytes >= data.dense_nbytes and data.nnz > 0
    ):
        rule = "always" if cfg.densify == "always" else "outgrew_dense"
        report(_event(grad, rule, where, caused_by), events)
        return densify(grad)
    if cfg.coalesce == "eager" and not data.is_coalesced:
        return _coalesce(grad, where, events)
    return grad


def _coalesce(grad, where, events):
    """Coalesce a gradient and record it (a step of the lesson, not a cost to warn about)."""
    before = grad._data
    result = grad.coalesce()  # an op: under create_graph its gradient flows back
    after = result._data
    if events is not None:
        events.append(CoalesceEvent(where, before.nnz, after.nnz, before.nbytes, after.nbytes))
    return result
