"""The backward engine: a generator of steps over the graph.

``backward()`` and ``autograd.grad()`` run a :class:`BackwardPass` to the end;
the stepper widget in ``viz`` drives the very same generator one step at a
time, through ``minigrad.trace``. The heart of it, :meth:`BackwardPass._walk`:

1. count, for every node reachable from the roots, how many edges point at it;
2. start from the roots; a node is *ready* when every node that feeds it has
   run (its count reached zero); among ready nodes the most recently created
   runs first (PyTorch's order), with leaf accumulation before everything else;
3. run the ready node's backward on the summed gradient that arrived for it,
   send one gradient along each of its edges, free what it saved, yield a step.

No recursion anywhere, so a 100,000-op chain is fine. Two shortcuts keep the
loop quick without changing that order (a test checks it on random graphs): a
node that becomes ready while no other is waiting runs next without going
through the heap, and a built-in op without hooks runs inline.
"""

from __future__ import annotations

import heapq

from .. import errors
from . import anomaly, grad_mode
from .leaf_grad import _accumulate, _sparse_sum
from .node_checks import _check_custom, _check_nan, _materialize, _run_hooks, _run_pre_hooks
from .steps import Step

_grad = grad_mode.state
_anomaly = anomaly.state
_LEAF_FIRST = float("-inf")
_OP, _LEAF, _CUSTOM = 0, 1, 2  # Node._kind


class BackwardPass:
    """An iterable backward pass. Iterate it for :class:`Step` records.

    With ``inputs`` given (``autograd.grad``), gradients for those tensors are
    collected in :attr:`captured` instead of being accumulated into ``.grad``,
    and only the part of the graph that leads to them runs. With ``store`` (a
    dict), leaf gradients accumulate into ``store[leaf]`` instead of
    ``leaf.grad``, leaving the user's gradients untouched (the stepper uses it).
    """

    def __init__(
        self, roots, grad_roots, retain_graph=False, create_graph=False, inputs=None, store=None
    ):
        self.roots = roots
        self.store = store
        self.grad_roots = grad_roots
        self.retain_graph = retain_graph
        self.create_graph = create_graph
        self.inputs = inputs
        self.captured = None if inputs is None else [None] * len(inputs)
        self._edges = [_root_edge(t, i) for i, t in enumerate(roots)]

    def __iter__(self):
        return self._walk(record=True)

    def run(self) -> None:
        """Run the pass to the end (this is what ``backward()`` does); no Step records."""
        for _ in self._walk(record=False):
            pass

    def _start(self):
        """Dependency counts, what ``autograd.grad`` captures, the roots' gradients, the
        first ready nodes (a heap of ``(priority, order, node)``)."""
        roots = [n for n, _ in self._edges]
        deps = _count_dependencies(roots)
        capture = relevant = None
        if self.inputs is not None:
            capture = {}
            for i, t in enumerate(self.inputs):
                capture.setdefault(t._edge_for_capture(), []).append(i)
            relevant = _relevant_nodes(roots, {n for n, _ in capture})
        buffers: dict = {}
        for (node, nr), g in zip(self._edges, self.grad_roots):
            _add_to_buffer(buffers, node, nr, g)
        ready: list = []
        for node in dict.fromkeys(roots):
            if deps.get(node, 0) == 0:
                heapq.heappush(ready, (_priority(node), len(ready), node))
        return deps, capture, relevant, buffers, ready

    def _walk(self, record: bool):
        """The pass itself: yields a Step per node run if ``record``, else just runs.

        One loop, longer than our functions usually are, on purpose: its body runs once per
        node, and a helper call per node is measurable in ``benchmarks/bench_engine.py``.
        """
        deps, capture, relevant, buffers, ready = self._start()
        order = len(ready)
        index = 0
        heappush, heappop = heapq.heappush, heapq.heappop
        # backward formulas and hooks run with grad mode = create_graph; the caller's
        # mode is back in place whenever a step is handed out, and at the end
        prev = _grad.enabled
        _grad.enabled = self.create_graph
        retain = self.retain_graph
        carry = None  # a node this step made ready while no other was: it runs next, no heap
        inside = True  # False while a step is handed out: closing the pass then changes nothing
        try:
            while carry is not None or ready:
                if carry is not None:
                    node, carry = carry, None
                else:
                    node = heappop(ready)[2]
                grads = buffers.pop(node, None)
                nx = node._next
                if type(nx) is not tuple:  # a single edge (see node.py)
                    nx = (nx, 0)
                step, sent = None, ()
                if grads is not None and (relevant is None or node in relevant):
                    kind, captured = node._kind, False
                    if kind == _LEAF or node._pre_hooks is not None or capture is not None:
                        grads, captured = self._hooks_and_captures(node, grads, capture)
                    if kind == _LEAF:
                        step = self._leaf(node, grads, captured, index, record)
                    else:  # built-in ops (the hot path) and custom Functions
                        if node._freed:
                            raise RuntimeError(errors.BACKWARD_TWICE.format(node=node.name()))
                        if kind == _OP:
                            sent = node.backward(node, *grads)
                            if type(sent) is not tuple:
                                sent = (sent,)
                            if len(sent) != len(nx) >> 1:
                                raise RuntimeError(
                                    errors.WRONG_GRAD_COUNT.format(
                                        node=node.name(), want=len(nx) >> 1, got=len(sent)
                                    )
                                )
                        else:
                            sent = node.backward(*_materialize(node, grads))
                            sent = _check_custom(node, sent if type(sent) is tuple else (sent,))
                        if _anomaly.enabled and _anomaly.check_nan:
                            _check_nan(node, sent)
                        if not retain:
                            node.release()
                        if record:
                            step = Step(index, node, tuple(grads), sent, None, captured)
                for k in range(0, len(nx), 2):
                    nxt = nx[k]
                    if nxt is None or (relevant is not None and nxt not in relevant):
                        continue
                    g = sent[k >> 1] if sent else None
                    if g is not None:
                        slots = buffers.get(nxt)
                        if slots is None:
                            buffers[nxt] = slots = [None] * nxt.n_outputs
                        nr = nx[k + 1]
                        old = slots[nr]
                        if old is None:
                            slots[nr] = g
                        elif old._sparse or g._sparse:  # the sparse module decides, and reports
                            slots[nr] = _sparse_sum(old, g, nxt, node, step)
                        else:
                            slots[nr] = old + g
                    left = deps[nxt] - 1
                    if left:
                        deps[nxt] = left
                        continue
                    del deps[nxt]
                    if carry is None and not ready:  # a chain: the commonest case
                        carry, carry_order = nxt, order
                    else:
                        prio = _LEAF_FIRST if nxt._kind == _LEAF else -nxt._seq
                        heappush(ready, (prio, order, nxt))
                    order += 1
                if carry is not None and ready:  # others are ready too: the heap orders them
                    prio = _LEAF_FIRST if carry._kind == _LEAF else -carry._seq
                    heappush(ready, (prio, carry_order, carry))
                    carry = None
                if step is not None:
                    index += 1
                    _grad.enabled, inside = prev, False
                    yield step
                    prev, inside = _grad.enabled, True
                    _grad.enabled = self.create_graph
        finally:
            if inside:
                _grad.enabled = prev

    # --- around a node ----------------------------------------------------------
    def _hooks_and_captures(self, node, grads, capture):
        """Tensor hooks on the gradient arriving here, then what ``autograd.grad`` takes."""
        if node._pre_hooks is not None:
            grads = _run_pre_hooks(node, grads)
        if node._kind == _LEAF and node.variable._hooks:
            grads = [_run_hooks(node.variable._hooks, grads[0])]
        captured = False
        if capture is not None:
            for nr, g in enumerate(grads):
                for i in capture.get((node, nr), ()):
                    self.captured[i] = g
                    captured = True
        return grads, captured

    def _leaf(self, node, grads, captured, index, record):
        """Accumulate into the leaf's ``.grad`` (unless ``autograd.grad`` captured it)."""
        step = Step(index, node, tuple(grads), (), None, captured) if record else None
        if not captured:
            acc = _accumulate(node, grads[0], self.create_graph, self.store, step)
            if step is not None:
                step.accumulation = acc
        return step


def _priority(node):
    return _LEAF_FIRST if node._kind == _LEAF else -node._seq


def _root_edge(t, i):
    node, nr = t._edge()
    if node is None:
        raise RuntimeError(errors.NO_GRAD_FN.format(i=i))
    return node, nr


def _count_dependencies(roots) -> dict:
    """How many edges point at each node reachable from ``roots`` (iterative DFS)."""
    deps: dict = {}
    stack = list(dict.fromkeys(roots))
    seen = set(stack)
    while stack:
        nx = stack.pop()._next
        if type(nx) is not tuple:  # one edge (see node.py): the chain case, kept short
            deps[nx] = deps.get(nx, 0) + 1
            if nx not in seen:
                seen.add(nx)
                stack.append(nx)
            continue
        for k in range(0, len(nx), 2):
            nxt = nx[k]
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return deps


def _relevant_nodes(roots, targets) -> set:
    """Nodes that are targets or lead to one (post-order walk, no recursion)."""
    relevant: set = set()
    done: set = set()
    for root in dict.fromkeys(roots):
        if root in done:
            continue
        stack = [(root, iter(root._edges()[::2]))]
        done.add(root)
        while stack:
            node, it = stack[-1]
            for nxt in it:
                if nxt is not None and nxt not in done:
                    done.add(nxt)
                    stack.append((nxt, iter(nxt._edges()[::2])))
                    break
            else:
                stack.pop()
                if node in targets or any(n in relevant for n in node._edges()[::2]):
                    relevant.add(node)
    return relevant


def _add_to_buffer(buffers, node, nr, g) -> None:
    slots = buffers.get(node)
    if slots is None:
        slots = [None] * node.n_outputs
        buffers[node] = slots
    old = slots[nr]
    slots[nr] = g if old is None else old + g
