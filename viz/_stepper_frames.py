"""What the backward stepper shows at each step, as small frozen records.

:func:`record` runs ``minigrad.trace.backward_steps`` once (graph retained, gradients into a
private ``store``) and turns every :class:`minigrad.trace.Step` into a :class:`StepFrame`: plain
strings and numbers, formatted while the step happens (an accumulation may later change the
tensors in place), so every frame is deterministic and cheap to draw.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np

from minigrad import trace

from . import _errors as errors
from ._model import fmt, fmt_bytes, fmt_shape, leaf_name, node_key, tensor_nbytes
from ._source import roots_of

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
        step: the step number, 1-based (``BackwardStepper.step``, the slider, "step k/N").
        num_steps: steps in the whole pass.
        node: the node's name in the drawing, ``"n<k>"`` (see ``viz._model.node_key``).
        node_name: e.g. ``"MulBackward0"`` or ``"AccumulateGrad"``.
        leaf_name: for an AccumulateGrad, the leaf's ``name`` (its node, ``"n<k>"``, when unnamed).
        arrived: the gradient(s) that arrived (:class:`GradInfo` or None), one per output.
        sent: ``(destination node, destination name, GradInfo)`` per gradient sent.
        accumulation: ``(before, incoming, after)`` GradInfos for a leaf (before may be None).
        events: the engine's events at this step (e.g. ``DensificationEvent``).
        live_bytes: bytes of all live gradients after this step (leaf grads + in flight).
        local: for an elementwise op, ``(destination node, text)`` per input: the local
            derivative d(out)/d(input) that the upstream gradient was multiplied by; empty
            for other nodes (``elementwise`` tells which).
        elementwise: whether the node is an elementwise op.
    """

    step: int
    num_steps: int
    node: str
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
        head = f"<step {self.step}/{self.num_steps}: {self.node} {self.node_name}"
        if self.accumulation is not None:
            before, incoming, after = self.accumulation
            was = "None" if before is None else before.short
            body = f": {self.leaf_name}.grad = {after.short} (before {was} + incoming {incoming.short})"
        elif self.sent:
            body = " sent " + ", ".join(_sent_text(g, name, key) for key, name, g in self.sent)
        else:
            body = " sent no gradient"
        tail = "".join(f"; {event_headline(e)}" for e in self.events)
        return head + body + tail + ">"


def _sent_text(g: GradInfo, name: str, key: str) -> str:
    if g.sparse:
        what = f"a {g.layout} gradient (nnz={g.nnz}, {fmt_bytes(g.nbytes)})"
    else:
        what = g.short
    return f"{what} to {key} {name}"


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


def event_rules(event) -> str:
    """Which densification rule fired and why the other one did not (or would have too).

    Two rules can densify a sparse gradient of a dense tensor: ``dense_met_sparse`` (a dense
    gradient was added to it: the sum is dense whatever the sizes) and ``outgrew_dense``
    (``densify="auto"``: the sparse form takes at least the bytes of the dense one). Students
    see one rule named; this says what the sizes alone would have decided.
    """
    rule = getattr(event, "rule", None)
    if rule is None:
        return ""
    sparse, dense = fmt_bytes(event.bytes_before), fmt_bytes(event.bytes_after)
    smaller = event.bytes_before < event.bytes_after
    if rule == "dense_met_sparse":
        if smaller:
            return (
                f"Rule dense_met_sparse fired: a dense gradient met this sparse one. By size "
                f"alone it would have stayed sparse ({sparse} sparse < {dense} dense)."
            )
        return (
            f"Rule dense_met_sparse fired: a dense gradient met this sparse one. By size alone "
            f"it would have been densified too ({sparse} sparse >= {dense} dense, rule outgrew_dense)."
        )
    if rule == "outgrew_dense":
        return (
            f"Rule outgrew_dense fired: no dense gradient met it, but its sparse form ({sparse}) "
            f"takes at least the bytes of the dense one ({dense})."
        )
    return f"Rule {rule} fired ({sparse} sparse, {dense} dense)."


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
        a = np.asarray(g.numpy(), dtype=np.float64)  # for the text only; bytes are g's own
        return GradInfo("strided", shape, tensor_nbytes(g), _dense_text(a))
    data = trace.storage(g)
    entries, duplicates = (), 0
    if hasattr(data, "indices"):  # COO: list the stored entries, duplicates flagged
        entries, duplicates = _coo_entries(data)
    short = f"{g.layout} {fmt_shape(shape)} nnz={data.nnz} density={fmt(data.density)}"
    return GradInfo(
        g.layout, shape, tensor_nbytes(g), short, data.nnz, float(data.density), duplicates, entries
    )


def _local_texts(step, g) -> tuple:
    """``(destination node, local derivative text)`` for an elementwise op, else ``()``."""
    local = trace.local_derivatives(step.node)
    if local is None:
        return None
    dests = [None if n is None else node_key(g.id_of(n)) for n, _ in step.node.next_functions]
    return tuple(
        (dst, _dense_text(np.asarray(d, dtype=np.float64)))
        for dst, d in zip(dests, local)
        if dst is not None and d is not None
    )


class _LiveBytes:
    """Bytes of the live gradients: each leaf's current ``.grad`` plus gradients in flight
    (sent to a node that has not run yet), the measure ``memory_report`` takes its peak of."""

    def __init__(self):
        self.inflight: dict = {}
        self.leaves: dict = {}
        self.total = 0

    def ran(self, nid) -> None:
        self.total -= self.inflight.pop(nid, 0)

    def sent(self, nid, nbytes: int) -> None:
        self.inflight[nid] = self.inflight.get(nid, 0) + nbytes
        self.total += nbytes

    def leaf(self, nid, nbytes: int) -> None:
        self.total += nbytes - self.leaves.get(nid, 0)
        self.leaves[nid] = nbytes


def _frame(step, g, live: _LiveBytes, num_steps: int, names=None) -> StepFrame:
    nid = g.id_of(step.node)
    live.ran(nid)
    sent = []
    for (nxt, _), grad in zip(step.node.next_functions, step.grad_inputs):
        if nxt is not None and grad is not None:
            dst = g.id_of(nxt)
            live.sent(dst, tensor_nbytes(grad))
            sent.append((node_key(dst), g.nodes[dst].name, grad_info(grad)))
    acc = None
    if step.accumulation is not None:
        a = step.accumulation
        acc = (grad_info(a.before), grad_info(a.incoming), grad_info(a.after))
        if a.after is not None:
            live.leaf(nid, tensor_nbytes(a.after))
    info, key = g.nodes[nid], node_key(nid)
    local = _local_texts(step, g)
    return StepFrame(
        step=step.index + 1,
        num_steps=num_steps,
        node=key,
        node_name=info.name,
        leaf_name=(leaf_name(info, names) or key) if info.kind == "leaf" else None,
        arrived=tuple(grad_info(x) for x in step.grad_outputs),
        sent=tuple(sent),
        accumulation=acc,
        events=tuple(step.events),
        live_bytes=live.total,
        local=local or (),
        elementwise=local is not None,
    )


def record(root, gradient=None, max_steps: int | None = None, names=None) -> tuple:
    """Run the backward pass into a private store and return ``(graph, frames)``.

    The graph is retained and leaf gradients go to a private ``store``, so the user's graph and
    ``.grad`` stay exactly as they were. A pass with more than ``max_steps`` nodes is refused
    before anything runs (each step becomes a frame), with a message that says how to narrow it;
    so is a graph whose saved tensors an earlier backward freed, with what to do instead.
    ``root`` may be PyTorch's: then torch's own pass runs (``viz._torch_steps``).
    ``names``: ``id(leaf) -> name`` (``params=``).
    """
    names = names or {}
    kind, roots = roots_of(root, "BackwardStepper")
    if kind == "torch":
        g, steps = _torch_steps(roots, gradient, max_steps, names)
    else:
        g = trace.graph(*roots)
        _check_size(len(g), max_steps)
        _check_alive(g)
        steps = trace.backward_steps(root, gradient, retain_graph=True, store={})
    live = _LiveBytes()
    try:
        frames = [_frame(step, g, live, 0, names) for step in steps]
    except RuntimeError as e:  # freed without saving anything (the engine still refuses)
        if "second time" not in str(e):
            raise
        node = re.search(r"\(node: (\w+)\)", str(e))
        where = node.group(1) if node else "a node"
        raise RuntimeError(errors.GRAPH_FREED.format(fn="BackwardStepper", node=where)) from e
    return g, tuple(dataclasses.replace(f, num_steps=len(frames)) for f in frames)


def _check_size(n: int, max_steps) -> None:
    if not n:
        raise ValueError(errors.NO_GRAD_FN)
    if max_steps is not None and n > max_steps:
        raise ValueError(errors.TOO_MANY_STEPS.format(n=n, max_steps=max_steps))


def _check_alive(g) -> None:
    """A graph an earlier ``backward()`` freed cannot be run again: say what to do."""
    for i in range(len(g)):
        info = g.nodes[i]
        if any(s.freed for s in info.saved):
            raise RuntimeError(errors.GRAPH_FREED.format(fn="BackwardStepper", node=info.name))


def _torch_steps(roots, gradient, max_steps, names) -> tuple:
    from ._torch_graph import TorchGraph
    from ._torch_steps import backward_steps

    graph = TorchGraph(roots, names)
    _check_size(len(graph), max_steps)
    return backward_steps(roots, gradient, names, graph)
