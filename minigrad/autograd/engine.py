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

import numpy as np

from .. import errors
from . import anomaly, grad_mode
from . import function as _fn

_grad = grad_mode.state
_anomaly = anomaly.state
_LEAF_FIRST = float("-inf")
_OP, _LEAF, _CUSTOM = 0, 1, 2  # Node._kind


class Accumulation:
    """What happened to one leaf's ``.grad`` at a step: ``before + incoming = after``."""

    __slots__ = ("tensor", "before", "incoming", "after")

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
        events: extra engine events at this step (e.g. densification).
    """

    __slots__ = (
        "index",
        "node",
        "grad_outputs",
        "grad_inputs",
        "accumulation",
        "captured",
        "events",
    )

    def __init__(self, index, node, grad_outputs, grad_inputs, accumulation=None, captured=False):
        self.index = index
        self.node = node
        self.grad_outputs = grad_outputs
        self.grad_inputs = grad_inputs
        self.accumulation = accumulation
        self.captured = captured
        self.events = ()

    def __repr__(self) -> str:
        what = self.node.name()
        if self.accumulation is not None:
            acc = self.accumulation
            return f"<Step {self.index}: {what} {'set' if acc.before is None else 'accumulated'} .grad>"
        sent = sum(g is not None for g in self.grad_inputs)
        return f"<Step {self.index}: {what} sent {sent} gradient(s)>"


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

    def _walk(self, record: bool):
        deps = _count_dependencies([n for n, _ in self._edges])
        capture = None
        relevant = None
        if self.inputs is not None:
            capture = {}
            for i, t in enumerate(self.inputs):
                capture.setdefault(t._edge_for_capture(), []).append(i)
            relevant = _relevant_nodes([n for n, _ in self._edges], {n for n, _ in capture})
        buffers: dict = {}
        for (node, nr), g in zip(self._edges, self.grad_roots):
            _add_to_buffer(buffers, node, nr, g)
        ready: list = []
        order = 0
        for node in dict.fromkeys(n for n, _ in self._edges):
            if deps.get(node, 0) == 0:
                heapq.heappush(ready, (_priority(node), order, node))
                order += 1
        index = 0
        heappush, heappop = heapq.heappush, heapq.heappop
        # backward formulas and hooks run with grad mode = create_graph; the caller's
        # mode is back in place whenever a step is handed out, and at the end
        prev = _grad.enabled
        _grad.enabled = self.create_graph
        retain = self.retain_graph
        carry = None  # a node this step made ready while no other was: it runs next, no heap
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
                step = None
                if grads is None or (relevant is not None and node not in relevant):
                    sent = ()
                elif node._kind == _OP and node._pre_hooks is None and capture is None:
                    # the common case, written out here: a built-in op, no hooks
                    if node._freed:
                        raise RuntimeError(errors.BACKWARD_TWICE.format(node=node.name()))
                    sent = node.backward(node, *grads)
                    if type(sent) is not tuple:
                        sent = (sent,)
                    if len(sent) != len(nx) >> 1:
                        raise RuntimeError(
                            errors.WRONG_GRAD_COUNT.format(
                                node=node.name(), want=len(nx) >> 1, got=len(sent)
                            )
                        )
                    if _anomaly.enabled and _anomaly.check_nan:
                        _check_nan(node, sent)
                    if not retain:
                        node.release()
                    if record:
                        step = Step(index, node, tuple(grads), sent, None, False)
                else:  # leaves, custom Functions, hooks, autograd.grad's captures
                    sent, step = self._run_node(node, grads, capture, relevant, index, record)
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
                    _grad.enabled = prev
                    yield step
                    prev = _grad.enabled
                    _grad.enabled = self.create_graph
        finally:
            _grad.enabled = prev

    # --- one node -----------------------------------------------------------------
    def _run_node(self, node, grads, capture, relevant, index, record):
        """Run one node; returns the gradients it sends and, if ``record``, its Step."""
        kind = node._kind
        if node._pre_hooks is not None:
            grads = _run_pre_hooks(node, grads)
        if kind == _LEAF and node.variable._hooks:
            grads = [_run_hooks(node.variable._hooks, grads[0])]
        captured = False
        if capture is not None:
            for nr, g in enumerate(grads):
                for i in capture.get((node, nr), ()):
                    self.captured[i] = g
                    captured = True
        if kind == _LEAF:
            if captured:
                return (), (Step(index, node, tuple(grads), (), None, True) if record else None)
            if not record:
                _accumulate(node, grads[0], self.create_graph, self.store, None)
                return (), None
            step = Step(index, node, tuple(grads), (), None)
            step.accumulation = _accumulate(node, grads[0], self.create_graph, self.store, step)
            return (), step
        if relevant is not None and node not in relevant:
            return (), (Step(index, node, tuple(grads), (), None, captured) if record else None)
        if node._freed:
            raise RuntimeError(errors.BACKWARD_TWICE.format(node=node.name()))
        if kind == _OP:
            out = node.backward(node, *grads)
        else:
            out = node.backward(*_materialize(node, grads))
        if type(out) is not tuple:
            out = (out,)
        if kind == _CUSTOM:
            out = _check_custom(node, out)
        elif len(out) != len(node._edges()) >> 1:
            raise RuntimeError(
                errors.WRONG_GRAD_COUNT.format(
                    node=node.name(), want=len(node._edges()) >> 1, got=len(out)
                )
            )
        if _anomaly.enabled and _anomaly.check_nan:
            _check_nan(node, out)
        if not self.retain_graph:
            node.release()
        return out, (Step(index, node, tuple(grads), out, None, captured) if record else None)


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


def _run_pre_hooks(node, grads):
    """Tensor hooks on a non-leaf output (``register_hook``, ``retain_grad``)."""
    grads = list(grads)
    for nr, fns in node._pre_hooks.items():
        if grads[nr] is not None:
            grads[nr] = _run_hooks(fns, grads[nr])
    return grads


def _run_hooks(fns, g):
    """Call each hook on the gradient; a hook may return a replacement of the same shape."""
    for fn in fns:
        result = fn(g)
        if result is None:
            continue
        if not hasattr(result, "data") or result.shape != g.shape or result.dtype is not g.dtype:
            got = getattr(result, "shape", type(result).__name__)
            raise RuntimeError(
                errors.HOOK_CHANGED.format(
                    name=getattr(fn, "__name__", repr(fn)), got=got, shape=g.shape, dtype=g.dtype
                )
            )
        g = result
    return g


def _accumulate(node, g, create_graph, store=None, step=None) -> Accumulation:
    """Add ``g`` into the leaf's ``.grad`` (PyTorch's AccumulateGrad), or into ``store``."""
    leaf = node.variable
    if g.shape != leaf.shape or g.dtype is not leaf.dtype:
        raise RuntimeError(
            f"internal error: gradient of shape {g.shape} and dtype {g.dtype} for a leaf of "
            f"shape {leaf.shape} and dtype {leaf.dtype}"
        )
    before = leaf._grad if store is None else store.get(leaf)
    if g._sparse or (before is not None and before._sparse):
        after = _sparse_sum(before, g, node, None, step, leaf=leaf)
    elif store is not None or create_graph:
        after = g if before is None else before + g
    elif before is None:
        after = _fn._Tensor._make(np.array(g.data, copy=True), False, None)
    else:  # in place for the user's tensor object, out of place for its array
        old = before.data
        before.data = old + g.data  # the old array stays valid as the step's "before"
        before._bump_version()
        return Accumulation(leaf, _fn._Tensor._make(old, False, None), g, before)
    if store is not None:
        store[leaf] = after
    else:
        leaf._grad = after
    return Accumulation(leaf, before, g, after)


def _describe_target(node) -> str:
    if node._kind == _LEAF:
        t = node.variable
        label = f"'{t.name}' " if t.name else ""
        return f"leaf {label}of shape {list(t.shape)}"
    return f"the gradient flowing into {node.name()}"


def _sparse_sum(old, g, target, sender, step, leaf=None):
    """Accumulate when a gradient is sparse: minigrad.sparse decides and records events."""
    from ..sparse.accumulate import accumulate

    events = [] if step is None else _events_of(step)
    before = len(events)
    result = accumulate(
        old,
        g,
        where=_describe_target(target),
        events=events,
        leaf=leaf,
        caused_by=None if sender is None else sender.name(),
    )
    new = [e for e in events[before:] if e.kind == "densified"]
    if target._kind == _LEAF and new:  # the leaf remembers why (for drawings)
        target.densified = target.densified + tuple(new)
    return result


def _events_of(step) -> list:
    if not step.events:
        step.events = []
    return step.events


def _materialize(node, grads):
    """Custom Functions get zeros for outputs that received no gradient."""
    if not node.materialize_grads or all(g is not None for g in grads):
        return grads
    from ..factory import zeros

    return [
        zeros(*shape, dtype=dtype) if g is None else g
        for g, (shape, dtype) in zip(grads, node._output_meta)
    ]


def _check_custom(node, out):
    """Validate a custom Function's gradients against its inputs, then keep the tensor ones."""
    from ..tensor import Tensor

    is_tensor = node._arg_is_tensor
    if len(out) < len(is_tensor) or any(g is not None for g in out[len(is_tensor) :]):
        raise RuntimeError(
            errors.WRONG_GRAD_COUNT.format(node=node.name(), want=len(is_tensor), got=len(out))
        )
    kept = []
    for i, (g, flag) in enumerate(zip(out, is_tensor)):
        if not flag:
            if g is not None:
                raise RuntimeError(errors.GRAD_FOR_NON_TENSOR.format(node=node.name(), i=i + 1))
            continue
        if g is not None and not isinstance(g, Tensor):
            raise TypeError(errors.WRONG_GRAD_TYPE.format(node=node.name(), i=i, got=type(g)))
        kept.append((i, g))
    for (i, g), (shape, dtype) in zip(kept, node._input_meta):
        if g is not None and g.shape != shape:
            raise RuntimeError(
                errors.WRONG_GRAD_SHAPE.format(
                    node=node.name(),
                    i=i,
                    got=f"[{', '.join(map(str, g.shape))}]",
                    want=f"[{', '.join(map(str, shape))}]",
                )
            )
        if g is not None and g.dtype is not dtype:
            raise RuntimeError(
                f"Function {node.name()} returned a gradient of dtype {g.dtype} at index {i} "
                f"for an input of dtype {dtype}; return the input's dtype"
            )
    return tuple(g for _, g in kept)


def _check_nan(node, out) -> None:
    for i, g in enumerate(out):
        if g is not None and g.dtype.is_floating_point and np.isnan(g.data).any():
            msg = errors.ANOMALY_NAN.format(node=node.name(), i=i)
            if node._anomaly_trace:
                msg += (
                    "\n\nTraceback of forward call that caused the error:\n" + node._anomaly_trace
                )
            raise RuntimeError(msg)
