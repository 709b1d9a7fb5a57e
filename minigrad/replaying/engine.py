"""The backward engine: a generator of steps over the graph.

``backward()`` and ``autograd.grad()`` run a :class:`BackwardPass` to the end; the stepper
widget in ``viz`` drives the very same generator one step at a time, through
``minigrad.trace``. The heart of it, :meth:`BackwardPass._walk`:

1. take the next ready node (:func:`schedule`: a node is ready when every node that feeds
   it has run; among ready nodes the lowest ``node.run_order`` goes first: leaf
   accumulation, then the most recently created op, PyTorch's order);
2. run it on the summed gradient that arrived for it: an op's backward formula
   (:meth:`BackwardPass._backward`; a sparse gradient that formula has no sparse form for
   is densified first, as an event: ``minigrad.sparse.formulas``), or for a leaf, adding
   it into ``.grad`` (:meth:`BackwardPass._accumulate`);
3. send each gradient it returns along its edge, into the buffer of the node that edge
   points at, where gradients arriving from several paths are summed
   (:meth:`InputBuffers.add`); then yield the step.

No recursion anywhere, so a 100,000-op chain is fine.
"""

from __future__ import annotations

import heapq
import itertools

from .. import errors
from ..accumulation.accumulate import add_gradients, densify_for_formula
from ..recording import anomaly, grad_mode
from ..recording.node import AccumulateGrad, gradient_edge
from ..recording.node_checks import check_nan, retained, run_hooks, run_pre_hooks
from ..recording.node_hooks import run_node_hooks
from ..recording.steps import Step
from ..sparse.formulas import elementwise_backward
from ..sparse.tensor import SparseTensor
from .leaf_grad import accumulate

_grad = grad_mode.state
_anomaly = anomaly.state


# --- the order backward runs in ----------------------------------------------------------------
def count_dependencies(roots, keep=None) -> dict:
    """How many edges point at each node reachable from ``roots`` (iterative DFS); with
    ``keep`` (a set), only edges between nodes in it count."""
    deps: dict = {}
    stack = [r for r in dict.fromkeys(roots) if keep is None or r in keep]
    seen = set(stack)
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None or (keep is not None and nxt not in keep):
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def schedule(roots, keep=None):
    """The nodes reachable from ``roots``, in the order backward runs them (Kahn's algorithm).

    A node is yielded once every edge into it has been followed; the caller does its work
    on it before asking for the next one. ``keep`` (a set) limits the walk to those nodes.
    ``trace.graph`` numbers the nodes by this same order.
    """
    deps = count_dependencies(roots, keep)
    ready: list = []  # a heap of (node.run_order, sequence_nr to break ties, node)
    for node in dict.fromkeys(roots):
        if node not in deps and (keep is None or node in keep):
            heapq.heappush(ready, (node.run_order, node.sequence_nr, node))
    while ready:
        node = heapq.heappop(ready)[2]
        yield node
        for nxt, _ in node.next_functions:
            if nxt is None or (keep is not None and nxt not in keep):
                continue
            deps[nxt] -= 1
            if deps[nxt] == 0:
                heapq.heappush(ready, (nxt.run_order, nxt.sequence_nr, nxt))


# --- where gradients wait for their node -------------------------------------------------------
class InputBuffers:
    """The gradients sent to each node that has not run yet, one slot per node output.

    :meth:`add` is the one place where two gradients for the same tensor are summed; the sum
    itself is ``minigrad.accumulation.accumulate.add_gradients`` (dense + dense first, and every
    rule involving a sparse gradient, with its densification events).
    """

    def __init__(self):
        self._slots: dict = {}

    def add(self, node, nr: int, g, sender=None, events=None) -> None:
        slots = self._slots.get(node)
        if slots is None:
            slots = self._slots[node] = [None] * node.n_outputs
        old = slots[nr]
        slots[nr] = g if old is None else add_gradients(old, g, node, sender, events)

    def pop(self, node):
        """The summed gradients for ``node`` (None if none reached it)."""
        return self._slots.pop(node, None)


class _GradModeWhileRunning:
    """Backward formulas run with grad mode = ``create_graph``; the caller's own mode is
    back whenever a step is handed out, and when the pass ends or is closed."""

    def __init__(self, create_graph: bool):
        self.caller, self.running = _grad.enabled, True
        _grad.enabled = create_graph
        self.create_graph = create_graph

    def hand_out(self, step):
        """Yield ``step`` with the caller's mode on (a pass closed here changes nothing)."""
        _grad.enabled, self.running = self.caller, False
        yield step
        self.caller, self.running = _grad.enabled, True
        _grad.enabled = self.create_graph

    def end(self) -> None:
        if self.running:
            _grad.enabled = self.caller


class BackwardPass:
    """An iterable backward pass. Iterate it for :class:`Step` records.

    With ``inputs`` given (``autograd.grad``), gradients for those tensors are
    collected in :attr:`captured` instead of being accumulated into ``.grad``,
    and only the part of the graph that leads to them runs. With ``only`` given
    (``backward(inputs=...)``), only those tensors accumulate, and only the part of
    the graph that leads to them runs: a leaf through its AccumulateGrad as in a full
    pass (its hooks and post-accumulate hooks run), a non-leaf as ``retain_grad``
    does. With ``store`` (a dict), gradients accumulate into ``store[tensor]``
    instead of ``tensor.grad``, leaving the user's gradients untouched (the stepper
    uses it). With ``within`` (a predicate on nodes, used with ``inputs``), the pass
    goes only through the nodes it accepts: ``tape.GradientTape`` passes "recorded by
    this tape".
    """

    def __init__(
        self,
        roots,
        grad_roots,
        retain_graph=False,
        create_graph=False,
        inputs=None,
        store=None,
        within=None,
        only=None,
    ):
        self.store = store
        self.within = within
        self.grad_roots = grad_roots
        self.retain_graph = retain_graph
        self.create_graph = create_graph
        self.captured = None if inputs is None else [None] * len(inputs)
        self._root_edges = [_root_edge(t, i) for i, t in enumerate(roots)]
        self._targets = _capture_map(inputs if only is None else only)  # None: every leaf
        self._only = only

    def __iter__(self):
        return self._walk(record=True)

    def run(self) -> None:
        """Run the pass to the end (this is what ``backward()`` does); no Step records."""
        for _ in self._walk(record=False):
            pass

    def _walk(self, record: bool):
        """The pass itself: yields a Step per node run if ``record``, else just runs."""
        roots = [node for node, _ in self._root_edges]
        keep = None if self._targets is None else _leading_to(roots, self._targets, self.within)
        buffers = InputBuffers()
        for (node, nr), g in zip(self._root_edges, self.grad_roots):
            if keep is None or node in keep:
                buffers.add(node, nr, g)
        mode, steps = _GradModeWhileRunning(self.create_graph), itertools.count()
        try:
            for node in schedule(roots, keep):
                grads = buffers.pop(node)
                if grads is None:  # nothing reached it: it sends nothing either
                    continue
                index = next(steps) if record else None
                if isinstance(node, AccumulateGrad):  # a leaf: add into its .grad
                    step, sent = self._accumulate(node, grads, index), ()
                else:
                    step, sent = self._backward(node, grads, index)
                for (nxt, nr), g in zip(node.next_functions, sent):
                    if g is not None and nxt is not None and (keep is None or nxt in keep):
                        buffers.add(nxt, nr, g, node, None if step is None else step.events)
                if step is not None:
                    yield from mode.hand_out(step)
        finally:
            mode.end()

    def _backward(self, node, grads, index):
        """An op's node: its output hooks, what ``autograd.grad`` takes here, then its backward
        formula, one gradient per edge (a sparse gradient the formula has no sparse form for
        is densified first, as an event). Returns ``(step or None, gradients sent)``."""
        events = None  # of this step, when it is recorded: retain_grad's, the guard's
        if node._pre_hooks is not None:  # register_hook / retain_grad on its outputs
            events = None if index is None else []
            grads = self._output_hooks(node, grads, events)
        if node._node_hooks is not None:  # grad_fn.register_prehook's
            grads = run_node_hooks(node, "pre", grads)
        captured = self._targets is not None and self._take(node, grads, events)
        step = (
            None if index is None else Step(index, node, tuple(grads), (), None, captured, events)
        )
        sent = None
        for g in grads:  # rare: a sparse gradient (see minigrad/sparse/formulas.py)
            if type(g) is SparseTensor:
                sent = elementwise_backward(node, grads)
                if sent is None:
                    grads = densify_for_formula(node, grads, None if step is None else step.events)
                break
        if sent is None:
            sent = node.run_backward(grads)
        if node._node_hooks is not None:  # grad_fn.register_hook's
            sent = run_node_hooks(node, "post", sent, tuple(grads))
        if _anomaly.enabled and _anomaly.check_nan:
            check_nan(node, sent)
        if not self.retain_graph:
            node.release()
        if step is not None:
            step.grad_inputs = sent
        return step, sent

    def _output_hooks(self, node, grads, events):
        """The hooks on an op's outputs: ``register_hook`` ones first, then ``retain_grad``'s,
        which adds the gradient into the tensor's ``.grad`` as for a leaf."""
        grads = run_pre_hooks(node, grads)
        for t, g in retained(node, grads):
            accumulate(t, node, g, self.create_graph, self.store, events)
        return grads

    def _accumulate(self, node, grads, index):
        """A leaf's AccumulateGrad: the leaf's hooks, then its gradient added into ``.grad``
        (or taken by ``autograd.grad`` instead). Returns the step or None."""
        if node.variable._hooks:
            grads = [run_hooks(node.variable._hooks, grads[0])]
        if node._node_hooks is not None:  # grad_fn.register_prehook's, on a leaf's node
            grads = list(run_node_hooks(node, "pre", grads))
        captured = self._targets is not None and self._take(node, grads, None)
        step = None if index is None else Step(index, node, tuple(grads), (), None, captured)
        if not captured:
            events = [] if step is None else step.events
            acc = accumulate(node.variable, node, grads[0], self.create_graph, self.store, events)
            if step is not None:
                step.accumulation = acc
            if self.store is None and node.variable._post_accumulate_hooks:
                for hook in tuple(node.variable._post_accumulate_hooks):
                    hook(node.variable)
        return step

    def _take(self, node, grads, events) -> bool:
        """At a node the pass was asked about: ``autograd.grad`` keeps the gradients (True:
        taken here, not accumulated); ``backward(inputs=...)`` adds a non-leaf input's
        gradient into its ``.grad``, unless its ``retain_grad`` does (a leaf's own
        AccumulateGrad does that for a leaf)."""
        captured = False
        for nr, g in enumerate(grads):
            for i in self._targets.get((node, nr), ()):
                if self._only is None:
                    self.captured[i] = g
                    captured = True
                elif g is not None and not isinstance(node, AccumulateGrad):
                    t = self._only[i]
                    if not t.retains_grad:
                        accumulate(t, node, g, self.create_graph, self.store, events)
        return captured


def _root_edge(t, i):
    node, nr = gradient_edge(t)
    if node is None:
        raise RuntimeError(errors.NO_GRAD_FN.format(i=i))
    return node, nr


def _capture_map(inputs) -> dict | None:
    """``{(node, output_nr): [positions in inputs]}`` for the tensors ``autograd.grad`` or
    ``backward(inputs=...)`` asks about (None when it asks about none: a full pass)."""
    if inputs is None:
        return None
    capture: dict = {}
    for i, t in enumerate(inputs):
        capture.setdefault(gradient_edge(t), []).append(i)
    return capture


def _leading_to(roots, capture, within=None) -> set:
    """Nodes that are a capture target or lead to one (post-order walk, no recursion), going
    only through the nodes ``within`` accepts, if given."""
    targets = {node for node, _ in capture}
    relevant: set = set()
    done: set = set()
    for root in dict.fromkeys(roots):
        if root in done or (within is not None and not within(root)):
            continue
        done.add(root)
        stack = [(root, iter(root.next_functions))]
        while stack:
            node, edges = stack[-1]
            for nxt, _ in edges:
                if nxt is not None and nxt not in done and (within is None or within(nxt)):
                    done.add(nxt)
                    stack.append((nxt, iter(nxt.next_functions)))
                    break
            else:
                stack.pop()
                if node in targets or any(n in relevant for n, _ in node.next_functions):
                    relevant.add(node)
    return relevant
