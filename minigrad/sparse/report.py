"""A memory report for one backward pass, usable from a notebook in one line::

    print(mg.sparse.memory_report(loss))

It runs ``loss.backward()`` through the step generator and measures:

* peak gradient bytes: the largest total, over the steps, of the gradients in
  flight (sent by a node, not yet consumed) plus the leaves' ``.grad``;
* for every leaf with a sparse gradient, its bytes against the dense
  equivalent, and the memory saving rate ``1 - sparse / dense``;
* conversion overhead: seconds spent in format conversions (coalesce,
  to_dense, COO <-> CSR/CSC) during the pass;
* accumulation work: how many gradient sums of each kind the engine did, and
  every densification event;
* saved tensors: bytes the graph kept for backward (``saved_bytes``; activation
  checkpointing, ``mg.utils.checkpoint``, removes most of them).
"""

from __future__ import annotations

import dataclasses
import time

from . import counters


def grad_nbytes(t) -> int:
    """Bytes a gradient takes in its own layout."""
    return t._data.nbytes


def dense_nbytes(t) -> int:
    """Bytes the gradient would take dense."""
    return t._data.dense_nbytes if t.layout != "strided" else t._data.nbytes


@dataclasses.dataclass
class MemoryReport:
    """What one backward pass cost in gradient memory (see the module docstring)."""

    peak_grad_bytes: int
    leaf_grads: list  # (description, layout, nnz or None, bytes, dense bytes)
    conversion_seconds: float
    conversions: int
    backward_seconds: float
    accumulations: dict
    densifications: list
    saved_bytes: int = 0  # tensors the graph kept for backward (mg.utils.checkpoint cuts it)

    @property
    def sparse_bytes(self) -> int:
        """Bytes of the leaves' sparse gradients."""
        return sum(b for _, layout, _, b, _ in self.leaf_grads if layout != "strided")

    @property
    def dense_equivalent_bytes(self) -> int:
        """What those sparse gradients would take dense."""
        return sum(d for _, layout, _, _, d in self.leaf_grads if layout != "strided")

    @property
    def saving_rate(self) -> float:
        """1 - sparse bytes / dense bytes over the sparse gradients (0 when there are none)."""
        dense = self.dense_equivalent_bytes
        return 1 - self.sparse_bytes / dense if dense else 0.0

    @property
    def conversion_overhead(self) -> float:
        """Share of the backward time spent converting formats."""
        return self.conversion_seconds / self.backward_seconds if self.backward_seconds else 0.0

    def __str__(self) -> str:
        lines = [
            f"backward: {self.backward_seconds * 1e3:.2f} ms, "
            f"peak gradient memory {_b(self.peak_grad_bytes)}"
        ]
        for desc, layout, nnz, nbytes, dense in self.leaf_grads:
            extra = f", nnz={nnz}" if nnz is not None else ""
            lines.append(f"  {desc}: {layout}{extra}, {_b(nbytes)} (dense {_b(dense)})")
        if self.dense_equivalent_bytes:
            lines.append(
                f"sparse gradients: {_b(self.sparse_bytes)} instead of "
                f"{_b(self.dense_equivalent_bytes)} dense, saving "
                f"{self.saving_rate:.1%}"
            )
        lines.append(
            f"format conversions: {self.conversions}, "
            f"{self.conversion_seconds * 1e3:.2f} ms "
            f"({self.conversion_overhead:.1%} of backward)"
        )
        acc = ", ".join(f"{k} {v}" for k, v in sorted(self.accumulations.items())) or "none"
        lines.append(f"gradient sums: {acc}")
        lines.append(f"densifications: {len(self.densifications)}")
        lines += [f"  - {e.message}" for e in self.densifications]
        lines.append(f"saved tensors: {_b(self.saved_bytes)}")
        return "\n".join(lines)


def _b(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n} bytes" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    return str(n)  # pragma: no cover


def memory_report(loss, gradient=None, retain_graph=None) -> MemoryReport:
    """Run ``loss.backward(gradient)`` and report its gradient memory (see module docstring).

    Example:
        >>> import minigrad as mg
        >>> rows = mg.sparse_coo_tensor([[1, 5]], mg.ones(2, 8), (1000, 8), requires_grad=True)
        >>> r = mg.sparse.memory_report((rows.to_dense() * 3.0).sum())
        >>> r.leaf_grads[0][1], r.leaf_grads[0][2], f"{r.saving_rate:.2%}"
        ('sparse_coo', 2, '99.75%')
    """
    from .. import trace  # upward, layer 5 -> 8 (tests/test_layering.py): drives a backward pass
    from ..utils.checkpoint import saved_tensor_bytes  # upward, layer 5 -> 8: reads trace.graph

    saved = saved_tensor_bytes(loss)  # before backward frees them
    counts = counters.Counters()
    counters.active.append(counts)
    inflight: dict = {}
    leaves: dict = {}
    peak = 0
    events = []
    start = time.perf_counter()
    try:
        for step in trace.backward_steps(loss, gradient, retain_graph=retain_graph):
            inflight.pop(step.node, None)
            for (nxt, _), g in zip(step.node.next_functions, step.grad_inputs):
                if nxt is not None and g is not None:
                    inflight[nxt] = inflight.get(nxt, 0) + grad_nbytes(g)
            if step.accumulation is not None:
                leaves[id(step.accumulation.tensor)] = step.accumulation.tensor
            events += [e for e in step.events if e.kind == "densified"]
            held = sum(grad_nbytes(t.grad) for t in leaves.values() if t.grad is not None)
            peak = max(peak, held + sum(inflight.values()))
    finally:
        elapsed = time.perf_counter() - start
        counters.active.remove(counts)
    grads = [
        (
            _describe(t),
            t.grad.layout,
            t.grad._data.nnz if t.grad.layout != "strided" else None,
            grad_nbytes(t.grad),
            dense_nbytes(t.grad),
        )
        for t in leaves.values()
        if t.grad is not None
    ]
    return MemoryReport(
        peak,
        grads,
        counts.conversion_seconds,
        counts.conversions,
        elapsed,
        counts.accumulations,
        events,
        saved,
    )


def _describe(t) -> str:
    label = f"'{t.name}' " if t.name else ""
    return f"leaf {label}{list(t.shape)}"
