"""Typical answers to notebook 04's exercises (see ``tests/course/answers/__init__.py``)."""

from tests.course.answers import Exercise

_TANH = "def tanh_derivative(t):\n    return {}\n"
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
            _TANH.format("1.0 - t * t"),
            _TANH.format("1 - t**2"),
            _TANH.format("(1 - t) * (1 + t)"),
            _TANH.format("1 / np.cosh(np.arctanh(t)) ** 2"),
            _TANH.format("np.float32(1 - t * t)"),
        ),
        wrong=(
            (_TANH.format("t * (1 - t)"), "derivative of the sigmoid"),
            (_TANH.format("1 - np.tanh(t) ** 2"), "t is already tanh(a)"),
            (_TANH.format("1 / np.cosh(t) ** 2"), "t is already tanh(a)"),
            (_TANH.format("1 + t**2"), "check the sign"),
            (_TANH.format("-2 * t * (1 - t**2)"), "second derivative"),
            (_TANH.format("1 - t"), "quotient rule"),
            (_TANH.format("1 - tt**2"), "raised NameError"),
        ),
    ),
    3: Exercise(
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
    4: Exercise(
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
}
