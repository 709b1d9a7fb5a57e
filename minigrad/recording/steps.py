"""The read-only records a backward pass hands out: one :class:`Step` per node run.

``minigrad.trace.backward_steps`` and the stepper widget in ``viz`` read them;
``backward()`` does not build them at all.
"""

from __future__ import annotations


class Accumulation:
    """What happened to one leaf's ``.grad`` at a step: ``before + incoming = after``."""

    def __init__(self, tensor, before, incoming, after):
        self.tensor, self.before, self.incoming, self.after = tensor, before, incoming, after

    def __repr__(self) -> str:
        verb = "set" if self.before is None else "accumulated into"
        return f"<Accumulation: gradient {verb} leaf of shape {tuple(self.tensor.shape)}>"


class Step:
    """One node run by the backward pass (read-only record).

    Attributes:
        index: position of this step in the pass (0 for the root).
        node: the node that ran (a ``grad_fn`` or an ``AccumulateGrad``).
        grad_outputs: the gradient(s) that arrived at the node, one per output.
        grad_inputs: the gradient(s) it sent, one per edge in ``node.next_functions``.
        accumulation: for an ``AccumulateGrad`` node, an :class:`Accumulation`.
        captured: True when ``autograd.grad`` took the gradient here instead.
        events: engine events at this step (e.g. a densification), in order.
    """

    def __init__(
        self, index, node, grad_outputs, grad_inputs, accumulation=None, captured=False, events=None
    ):
        self.index = index
        self.node = node
        self.grad_outputs = grad_outputs
        self.grad_inputs = grad_inputs
        self.accumulation = accumulation
        self.captured = captured
        self.events = [] if events is None else events

    def __repr__(self) -> str:
        what = self.node.name()
        if self.accumulation is not None:
            acc = self.accumulation
            return f"<Step {self.index}: {what} {'set' if acc.before is None else 'accumulated'} .grad>"
        sent = sum(g is not None for g in self.grad_inputs)
        return f"<Step {self.index}: {what} sent {sent} gradient(s)>"
