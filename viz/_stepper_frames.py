"""What the backward stepper shows at each step, as small frozen records.

:func:`record` runs ``minigrad.trace.backward_steps`` once (graph retained, gradients into a
private ``store``) and turns every :class:`minigrad.trace.Step` into a :class:`StepFrame`: plain
strings and numbers, formatted while the step happens (an accumulation may later change the
tensors in place), so every frame is deterministic and cheap to draw.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from minigrad import trace

from . import _errors as errors
from ._model import fmt, fmt_bytes, fmt_shape

SMALL = 6  # a dense gradient with at most this many elements is shown in full
MAX_ENTRIES = 8  # sparse entries listed in the panel


@dataclass(frozen=True)
class GradInfo:
    """A gradient, summarised: layout, shape, bytes, a short text, and sparse details.

    ``entries`` are ``(index text, value text, duplicate?)`` for the first stored entries of a
    COO gradient (duplicates, i.e. an index stored more than once, are flagged).
    """

    layout: str
    shape: tuple
    nbytes: int
    short: str
    nnz: int | None = None
    density: float | None = None
    duplicates: int = 0
    entries: tuple = ()

    @property
    def sparse(self) -> bool:
        return self.layout != "strided"


@dataclass(frozen=True)
class StepFrame:
    """One step of the backward pass, as the stepper shows it.

    Attributes:
        index: 0-based step index (``BackwardStepper.step``); reprs count from 1.
        num_steps: steps in the whole pass.
        node_id: the node's trace id (``n<node_id>`` in the drawing).
        node_name: e.g. ``"MulBackward"`` or ``"AccumulateGrad"``.
        leaf_name: for an AccumulateGrad, the leaf's name (``"leaf n<id>"`` when unnamed).
        arrived: the gradient(s) that arrived (:class:`GradInfo` or None), one per output.
        sent: ``(destination node id, destination name, GradInfo)`` per gradient sent.
        accumulation: ``(before, incoming, after)`` GradInfos for a leaf (before may be None).
        events: the engine's events at this step (e.g. ``DensificationEvent``).
        live_bytes: bytes of all live gradients after this step (leaf grads + in flight).
        local: for an elementwise op, ``(destination node id, text)`` per input: the local
            derivative d(out)/d(input) that the upstream gradient was multiplied by; empty
            for other nodes (``elementwise`` tells which).
        elementwise: whether the node is an elementwise op.
    """

    index: int
    num_steps: int
    node_id: int
    node_name: str
    leaf_name: str | None
    arrived: tuple
    sent: tuple
    accumulation: tuple | None
    events: tuple
    live_bytes: int
    local: tuple = ()
    elementwise: bool = False

    def __repr__(self) -> str:
        head = f"<step {self.index + 1}/{self.num_steps}: {self.node_name}"
        if self.accumulation is not None:
            before, incoming, after = self.accumulation
            was = "None" if before is None else before.short
            body = f": {self.leaf_name}.grad = {after.short} (before {was} + incoming {incoming.short})"
        elif self.sent:
            body = " sent " + ", ".join(_sent_text(g, name, i) for i, name, g in self.sent)
        else:
            body = " sent no gradient"
        tail = "".join(f"; {event_headline(e)}" for e in self.events)
        return head + body + tail + ">"


def _sent_text(g: GradInfo, name: str, node_id: int) -> str:
    if g.sparse:
        what = f"a {g.layout} gradient (nnz={g.nnz}, {fmt_bytes(g.nbytes)})"
    else:
        what = g.short
    return f"{what} to n{node_id} {name}"


def event_headline(event) -> str:
    """``densified: dense_met_sparse (96 B -> 160 B)`` for a densification, else ``str(event)``."""
    if getattr(event, "kind", None) == "coalesced":
        return f"coalesced: nnz {event.nnz_before} -> {event.nnz_after}"
    rule = getattr(event, "rule", None)
    if rule is None:
        return str(event)
    return f"densified: {rule} ({fmt_bytes(event.bytes_before)} -> {fmt_bytes(event.bytes_after)})"


def event_message(event) -> str:
    return getattr(event, "message", None) or str(event)


def _dense_text(a: np.ndarray) -> str:
    if a.size <= SMALL:
        if a.ndim == 0:
            return fmt(a)
        text = np.array2string(
            a, separator=", ", formatter={"all": fmt}, max_line_width=10_000, threshold=SMALL
        )
        return " ".join(text.split())
    return (
        f"{fmt_shape(a.shape)} min={fmt(a.min())} max={fmt(a.max())} "
        f"norm={fmt(np.linalg.norm(a.ravel()))}"
    )


def _coo_entries(data) -> tuple:
    idx = np.asarray(data.indices)
    vals = np.asarray(data.values, dtype=np.float64)
    keys = [tuple(int(k) for k in idx[:, j]) for j in range(idx.shape[1])]
    counts = Counter(keys)
    out = []
    for key, v in zip(keys[:MAX_ENTRIES], vals[:MAX_ENTRIES]):
        out.append((fmt_shape(key).replace(",)", ")"), _dense_text(v), counts[key] > 1))
    duplicates = sum(c - 1 for c in counts.values())
    return tuple(out), duplicates


def grad_info(g) -> GradInfo | None:
    """Summarise a gradient tensor (dense or sparse); None stays None."""
    if g is None:
        return None
    shape = tuple(g.shape)
    if g.layout == "strided":
        a = np.asarray(g.numpy(), dtype=np.float64)
        return GradInfo("strided", shape, int(a.nbytes), _dense_text(a))
    data = g.data
    entries, duplicates = (), 0
    if hasattr(data, "indices"):  # COO: list the stored entries, duplicates flagged
        entries, duplicates = _coo_entries(data)
    short = f"{g.layout} {fmt_shape(shape)} nnz={data.nnz} density={fmt(data.density)}"
    return GradInfo(
        g.layout, shape, int(data.nbytes), short, data.nnz, float(data.density), duplicates, entries
    )


def _nbytes(g) -> int:
    return int(g.data.nbytes)


def record(root, gradient=None) -> tuple:
    """Run the backward pass into a private store and return ``(graph, frames)``.

    The graph is retained and leaf gradients go to a private ``store``, so the user's graph and
    ``.grad`` stay exactly as they were.
    """
    roots = tuple(root) if isinstance(root, (tuple, list)) else (root,)
    g = trace.graph(*roots)
    if not len(g):
        raise ValueError(errors.NO_GRAD_FN)
    steps = trace.backward_steps(root, gradient, retain_graph=True, store={})
    inflight: dict = {}
    leaves: dict = {}
    raw = []
    for step in steps:
        nid = g.id_of(step.node)
        inflight.pop(nid, None)
        sent = []
        for (nxt, _), grad in zip(step.node.next_functions, step.grad_inputs):
            if nxt is not None and grad is not None:
                dst = g.id_of(nxt)
                inflight[dst] = inflight.get(dst, 0) + _nbytes(grad)
                sent.append((dst, g.nodes[dst].name, grad_info(grad)))
        acc = None
        if step.accumulation is not None:
            a = step.accumulation
            acc = (grad_info(a.before), grad_info(a.incoming), grad_info(a.after))
            if a.after is not None:
                leaves[nid] = _nbytes(a.after)
        info = g.nodes[nid]
        local = trace.local_derivatives(step.node)
        local_texts = ()
        if local is not None:
            dests = [g.id_of(n) if n is not None else None for n, _ in step.node.next_functions]
            local_texts = tuple(
                (dst, _dense_text(np.asarray(d, dtype=np.float64)))
                for dst, d in zip(dests, local)
                if dst is not None and d is not None
            )
        raw.append(
            dict(
                index=step.index,
                node_id=nid,
                node_name=info.name,
                leaf_name=(info.leaf_name or f"leaf n{nid}") if info.kind == "leaf" else None,
                arrived=tuple(grad_info(x) for x in step.grad_outputs),
                sent=tuple(sent),
                accumulation=acc,
                events=tuple(step.events),
                live_bytes=sum(leaves.values()) + sum(inflight.values()),
                local=local_texts,
                elementwise=local is not None,
            )
        )
    frames = tuple(StepFrame(num_steps=len(raw), **r) for r in raw)
    return g, frames
