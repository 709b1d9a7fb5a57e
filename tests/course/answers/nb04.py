"""Typical answers to notebook 04's exercises (see ``tests/course/answers/__init__.py``)."""

from tests.course.answers import Exercise

_BACKWARD = """def backward(root):
    root.grad = 1.0
{}
"""
_LOOP = """    for v in reversed(topo_order(root)):
        for parent, local in v.parents:
            parent.grad += local * v.grad"""

EXERCISES = {
    1: Exercise(
        right=(
            'answer_1 = {"y": 0, "u": 2, "x": 2, "w": 1}',
            'answer_1 = {"y": 0.0, "u": 2.0, "x": 2.0, "w": 1.0}',
            'answer_1 = {"w": np.int64(1), "x": 2, "u": mg.tensor(2), "y": 0}',
            "answer_1 = dict(Y=0, U=2, X=2, W=1)",
        ),
        wrong=(
            ('answer_1 = {"y": 1, "u": 2, "x": 2, "w": 1}', "no edge points at the root"),
            ('answer_1 = {"y": 0, "u": 2, "x": 1, "w": 1}', "x is an input of two ops"),
            ('answer_1 = {"y": 0, "u": 1, "x": 2, "w": 1}', "u is an input of two ops"),
            ('answer_1 = {"y": 0, "u": 1, "x": 1, "w": 1}', "u and x are each used twice"),
            ('answer_1 = {"y": 2, "u": 2, "x": 0, "w": 0}', "edges going out of it"),
            ('answer_1 = {"y": 0, "u": 2, "x": 2, "w": 2}', "count, for each node, the ops"),
        ),
    ),
    2: Exercise(
        right=(
            """def topo_order(root):
    order, seen = [], set()

    def visit(v):
        if v in seen:
            return
        seen.add(v)
        for parent, _ in v.parents:
            visit(parent)
        order.append(v)

    visit(root)
    return order
""",
            """def topo_order(root):
    # iterative post-order: a Var is appended when all its parents are done
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        v, parents_done = stack.pop()
        if parents_done:
            order.append(v)
        elif v not in seen:
            seen.add(v)
            stack.append((v, True))
            stack.extend((p, False) for p, _ in v.parents if p not in seen)
    return order
""",
            """def topo_order(root):
    # Kahn's algorithm from the root, then reversed
    users, stack, seen = {}, [root], {root}
    while stack:
        for p, _ in stack.pop().parents:
            users[p] = users.get(p, 0) + 1
            if p not in seen:
                seen.add(p)
                stack.append(p)
    order, ready = [], [root]
    while ready:
        v = ready.pop()
        order.append(v)
        for p, _ in v.parents:
            users[p] -= 1
            if users[p] == 0:
                ready.append(p)
    return order[::-1]
""",
            """def topo_order(root, order=None, seen=None):
    order = [] if order is None else order
    seen = set() if seen is None else seen
    if root not in seen:
        seen.add(root)
        for parent, _ in root.parents:
            topo_order(parent, order, seen)
        order.append(root)
    return tuple(order)
""",
        ),
        wrong=(
            (
                """def topo_order(root):
    order = []

    def visit(v):
        for parent, _ in v.parents:
            visit(parent)
        order.append(v)

    visit(root)
    return order
""",
                "a Var appears twice",
            ),
            (
                """def topo_order(root):
    order, seen = [], set()

    def visit(v):
        if v in seen:
            return
        seen.add(v)
        order.append(v)
        for parent, _ in v.parents:
            visit(parent)

    visit(root)
    return order
""",
                "append a Var",
            ),
            (
                """def topo_order(root):
    order, seen = [], set()

    def visit(v):
        if v in seen:
            return
        seen.add(v)
        for parent, _ in v.parents:
            visit(parent)
        order.append(v)

    visit(root)
    return order[::-1]
""",
                "puts the root first",
            ),
            (
                """def topo_order(root):
    order, seen = [], set()

    def visit(v):
        for parent, _ in v.parents:
            if parent not in seen:
                seen.add(parent)
                visit(parent)
                order.append(parent)

    visit(root)
    return order
""",
                "append the root too",
            ),
            (
                """def topo_order(root):
    order, seen = [], set()

    def visit(v):
        if v in seen:
            return
        seen.add(v)
        for parent, _ in v.parents:
            visit(parent)
        order.append(v.value)

    visit(root)
    return order
""",
                "not their values",
            ),
            (
                """def topo_order(root):
    seen, stack = set(), [root]
    while stack:
        v = stack.pop()
        seen.add(v)
        stack.extend(p for p, _ in v.parents)
    return seen
""",
                "should return a list, not set",
            ),
        ),
    ),
    3: Exercise(
        right=(
            _BACKWARD.format(_LOOP),
            _BACKWARD.format(
                _LOOP + "\n    return ...  # delete this line when your loop is written"
            ),
            _BACKWARD.format(
                """    for v in topo_order(root)[::-1]:
        for parent, local in v.parents:
            parent.grad = parent.grad + local * v.grad"""
            ),
            _BACKWARD.format(
                """    order = list(topo_order(root))
    while order:
        v = order.pop()
        for parent, local in v.parents:
            parent.grad += v.grad * local"""
            ),
        ),
        wrong=(
            (
                _BACKWARD.format(
                    """    for v in topo_order(root):
        for parent, local in v.parents:
            parent.grad += local * v.grad"""
                ),
                "walk the order backwards",
            ),
            (
                _BACKWARD.format(
                    """    for v in reversed(topo_order(root)):
        for parent, local in v.parents:
            parent.grad = local * v.grad"""
                ),
                "(+=)",
            ),
            (
                _BACKWARD.format(
                    """    for v in reversed(topo_order(root)):
        for parent, local in v.parents:
            v.grad += local * parent.grad"""
                ),
                "each Var v sends local * v.grad",
            ),
            (
                _BACKWARD.format(
                    """    for v in reversed(topo_order(root)):
        for parent, local in v.parents:
            parent.grad += local"""
                ),
                "each Var v sends local * v.grad",
            ),
            (
                _BACKWARD.format(
                    """    for v in reversed(topo_order(root)):
        for parent, local in v.parent:
            parent.grad += local * v.grad"""
                ),
                "raised AttributeError",
            ),
        ),
    ),
    4: Exercise(
        right=(
            """def my_backward(loss):
    root = loss.grad_fn
    # 1. Count the edges pointing at each node: a walk over next_functions that follows each
    #    node's edges once (the walk of count_dependencies in section 2).
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:  # an input that needs no gradient: no edge
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    # 2. Seed: d loss / d loss = 1, a tensor of loss's shape. Nothing points at the root, so
    #    it is ready at once.
    buffers = {root: mg.ones_like(loss)}
    ready, grads = [root], {}
    # 3. Run ready nodes, each once, on the sum that arrived for it. A node becomes ready when
    #    every edge into it has delivered, so its buffer holds the whole sum (fan-out) by then.
    with mg.no_grad():  # plain gradients, as backward() without create_graph
        while ready:
            node = ready.pop()
            g = buffers.pop(node, None)
            if hasattr(node, "variable"):  # a leaf's AccumulateGrad: the end of a path
                grads[node.variable] = g
                continue
            sent = input_grads(node, g) if g is not None else [None] * len(node.next_functions)
            for (nxt, _), g_in in zip(node.next_functions, sent):
                if nxt is None:
                    continue
                if g_in is not None:  # add, do not replace: several paths meet here
                    buffers[nxt] = g_in if nxt not in buffers else buffers[nxt] + g_in
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return grads
""",
            """import heapq
from collections import defaultdict


def my_backward(loss):
    # Kahn's algorithm with a heap keyed by creation order, as the engine's schedule does
    pending = defaultdict(int)
    todo, visited = [loss.grad_fn], {loss.grad_fn}
    while todo:
        n = todo.pop()
        for child, _ in n.next_functions:
            if child is not None:
                pending[child] += 1
                if child not in visited:
                    visited.add(child)
                    todo.append(child)
    inbox = {loss.grad_fn: mg.ones_like(loss)}
    heap = [(0, id(loss.grad_fn), loss.grad_fn)]
    result = {}
    while heap:
        _, _, n = heapq.heappop(heap)
        grad = inbox.pop(n, None)
        if n.name() == "AccumulateGrad":
            result[n.variable] = grad
            continue
        outs = n(grad)
        if not isinstance(outs, tuple):
            outs = (outs,)
        for (child, _), gc in zip(n.next_functions, outs):
            if child is None:
                continue
            if gc is not None:
                inbox[child] = inbox[child] + gc if child in inbox else gc
            pending[child] -= 1
            if pending[child] == 0:
                heapq.heappush(heap, (-getattr(child, "sequence_nr", 0), id(child), child))
    return result
""",
            """def my_backward(loss):
    # a topological order by depth-first post-order (as topo_order in Exercise 3), walked backwards
    order, seen = [], set()

    def visit(node):
        if node in seen:
            return
        seen.add(node)
        for nxt, _ in node.next_functions:
            if nxt is not None:
                visit(nxt)
        order.append(node)

    visit(loss.grad_fn)
    grad_of = {loss.grad_fn: mg.ones_like(loss)}
    grads = {}
    for node in reversed(order):
        g = grad_of.get(node)
        if g is None:
            continue
        if hasattr(node, "variable"):
            grads[node.variable] = g.detach()
            continue
        for (nxt, _), piece in zip(node.next_functions, input_grads(node, g)):
            if nxt is not None and piece is not None:
                grad_of[nxt] = grad_of[nxt] + piece if nxt in grad_of else piece
    return grads
""",
        ),
        wrong=(
            (
                """def my_backward(loss):
    root = loss.grad_fn
    # 1. Count the edges pointing at each node: a walk over next_functions that follows each
    #    node's edges once (the walk of count_dependencies in section 2).
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:  # an input that needs no gradient: no edge
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    # 2. Seed: d loss / d loss = 1, a tensor of loss's shape. Nothing points at the root, so
    #    it is ready at once.
    buffers = {root: mg.ones_like(loss)}
    ready, grads = [root], {}
    # 3. Run ready nodes, each once, on the sum that arrived for it. A node becomes ready when
    #    every edge into it has delivered, so its buffer holds the whole sum (fan-out) by then.
    with mg.no_grad():  # plain gradients, as backward() without create_graph
        while ready:
            node = ready.pop()
            g = buffers.pop(node, None)
            if hasattr(node, "variable"):  # a leaf's AccumulateGrad: the end of a path
                grads[node.variable] = g
                continue
            sent = input_grads(node, g) if g is not None else [None] * len(node.next_functions)
            for (nxt, _), g_in in zip(node.next_functions, sent):
                if nxt is None:
                    continue
                if g_in is not None:  # add, do not replace: several paths meet here
                    buffers[nxt] = g_in
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return grads
""",
                "add them: buffer = buffer + new",
            ),
            (
                """def my_backward(loss):
    # depth-first from the root, each node run when first reached (no counts)
    buffers = {loss.grad_fn: mg.ones_like(loss)}
    grads, seen = {}, set()

    def run(node):
        if node in seen:
            return
        seen.add(node)
        g = buffers[node]
        if hasattr(node, "variable"):
            grads[node.variable] = g
            return
        for (nxt, _), g_in in zip(node.next_functions, input_grads(node, g)):
            if nxt is not None:
                buffers[nxt] = buffers[nxt] + g_in if nxt in buffers else g_in
        for nxt, _ in node.next_functions:
            if nxt is not None:
                run(nxt)

    run(loss.grad_fn)
    return grads
""",
                "a node is ready only when every edge into it has delivered",
            ),
            (
                """def my_backward(loss):
    # send every piece on as soon as it arrives (no buffers): right sums, but nodes run many times
    grads = {}

    def send(node, g):
        if hasattr(node, "variable"):
            grads[node.variable] = grads[node.variable] + g if node.variable in grads else g
            return
        for (nxt, _), g_in in zip(node.next_functions, input_grads(node, g)):
            if nxt is not None:
                send(nxt, g_in)

    send(loss.grad_fn, mg.ones_like(loss))
    return grads
""",
                "run each node once",
            ),
            (
                """def my_backward(loss):
    root = loss.grad_fn
    # 1. Count the edges pointing at each node: a walk over next_functions that follows each
    #    node's edges once (the walk of count_dependencies in section 2).
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:  # an input that needs no gradient: no edge
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    # 2. Seed: d loss / d loss = 1, a tensor of loss's shape. Nothing points at the root, so
    #    it is ready at once.
    buffers = {root: mg.zeros_like(loss)}
    ready, grads = [root], {}
    # 3. Run ready nodes, each once, on the sum that arrived for it. A node becomes ready when
    #    every edge into it has delivered, so its buffer holds the whole sum (fan-out) by then.
    with mg.no_grad():  # plain gradients, as backward() without create_graph
        while ready:
            node = ready.pop()
            g = buffers.pop(node, None)
            if hasattr(node, "variable"):  # a leaf's AccumulateGrad: the end of a path
                grads[node.variable] = g
                continue
            sent = input_grads(node, g) if g is not None else [None] * len(node.next_functions)
            for (nxt, _), g_in in zip(node.next_functions, sent):
                if nxt is None:
                    continue
                if g_in is not None:  # add, do not replace: several paths meet here
                    buffers[nxt] = g_in if nxt not in buffers else buffers[nxt] + g_in
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return grads
""",
                "seed the root with ones",
            ),
            (
                """def my_backward(loss):
    root = loss.grad_fn
    # 1. Count the edges pointing at each node: a walk over next_functions that follows each
    #    node's edges once (the walk of count_dependencies in section 2).
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:  # an input that needs no gradient: no edge
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    # 2. Seed: d loss / d loss = 1, a tensor of loss's shape. Nothing points at the root, so
    #    it is ready at once.
    buffers = {root: mg.ones_like(loss)}
    ready, grads = [root], {}
    # 3. Run ready nodes, each once, on the sum that arrived for it. A node becomes ready when
    #    every edge into it has delivered, so its buffer holds the whole sum (fan-out) by then.
    with mg.no_grad():  # plain gradients, as backward() without create_graph
        while ready:
            node = ready.pop()
            g = buffers.pop(node, None)
            if hasattr(node, "variable"):  # a leaf's AccumulateGrad: the end of a path
                grads[node.variable] = g
                return grads
            sent = input_grads(node, g) if g is not None else [None] * len(node.next_functions)
            for (nxt, _), g_in in zip(node.next_functions, sent):
                if nxt is None:
                    continue
                if g_in is not None:  # add, do not replace: several paths meet here
                    buffers[nxt] = g_in if nxt not in buffers else buffers[nxt] + g_in
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return grads
""",
                "do not return at the first AccumulateGrad",
            ),
            (
                """def my_backward(loss):
    root = loss.grad_fn
    # 1. Count the edges pointing at each node: a walk over next_functions that follows each
    #    node's edges once (the walk of count_dependencies in section 2).
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:  # an input that needs no gradient: no edge
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    # 2. Seed: d loss / d loss = 1, a tensor of loss's shape. Nothing points at the root, so
    #    it is ready at once.
    buffers = {root: mg.ones_like(loss)}
    ready, grads = [root], {}
    # 3. Run ready nodes, each once, on the sum that arrived for it. A node becomes ready when
    #    every edge into it has delivered, so its buffer holds the whole sum (fan-out) by then.
    with mg.no_grad():  # plain gradients, as backward() without create_graph
        while ready:
            node = ready.pop()
            g = buffers.pop(node, None)
            if hasattr(node, "variable"):  # a leaf's AccumulateGrad: the end of a path
                grads[node.variable] = g
                continue
            sent = input_grads(node, g) if g is not None else [None] * len(node.next_functions)
            for (nxt, _), g_in in zip(node.next_functions, sent):
                if g_in is not None:  # add, do not replace: several paths meet here
                    buffers[nxt] = g_in if nxt not in buffers else buffers[nxt] + g_in
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return grads
""",
                "An edge (None, 0) points at no node",
            ),
            (
                """def my_backward(loss):
    root = loss.grad_fn
    # 1. Count the edges pointing at each node: a walk over next_functions that follows each
    #    node's edges once (the walk of count_dependencies in section 2).
    deps, stack, seen = {}, [root], {root}
    while stack:
        for nxt, _ in stack.pop().next_functions:
            if nxt is None:  # an input that needs no gradient: no edge
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    # 2. Seed: d loss / d loss = 1, a tensor of loss's shape. Nothing points at the root, so
    #    it is ready at once.
    buffers = {root: mg.ones_like(loss)}
    ready, grads = [root], {}
    # 3. Run ready nodes, each once, on the sum that arrived for it. A node becomes ready when
    #    every edge into it has delivered, so its buffer holds the whole sum (fan-out) by then.
    with mg.no_grad():  # plain gradients, as backward() without create_graph
        while ready:
            node = ready.pop()
            g = buffers.pop(node, None)
            if hasattr(node, "variable"):  # a leaf's AccumulateGrad: the end of a path
                grads[node] = g
                continue
            sent = input_grads(node, g) if g is not None else [None] * len(node.next_functions)
            for (nxt, _), g_in in zip(node.next_functions, sent):
                if nxt is None:
                    continue
                if g_in is not None:  # add, do not replace: several paths meet here
                    buffers[nxt] = g_in if nxt not in buffers else buffers[nxt] + g_in
                deps[nxt] -= 1
                if deps[nxt] == 0:
                    ready.append(nxt)
    return grads
""",
                "not by its AccumulateGrad node",
            ),
            (
                """def my_backward(loss):
    leaves = []
    stack = [loss.grad_fn]
    while stack:
        node = stack.pop()
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions if n is not None)
    loss.backward()
    return {t: t.grad for t in leaves}
""",
                "called .backward()",
            ),
        ),
    ),
}
