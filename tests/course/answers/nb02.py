"""Answers to the exercises of notebook 02 (graphs and the chain rule)."""

from tests.course.answers import Exercise

EXERCISES = {
    1: Exercise(
        right=(
            'answer_1 = ["ExpBackward0", "AddBackward0", "MulBackward0", "AccumulateGrad"]',
            'answer_1 = {"AccumulateGrad", "MulBackward0", "AddBackward0", "ExpBackward0"}',
            'answer_1 = ("MulBackward0", "AddBackward0", "ExpBackward0", "AccumulateGrad")',
            'answer_1 = ["expbackward0", "addbackward0", "mulbackward0", "accumulategrad"]',
            # the names without PyTorch's overload digit (minigrad's before it had them)
            'answer_1 = ["ExpBackward", "AddBackward", "MulBackward", "AccumulateGrad"]',
        ),
        wrong=(
            (
                'answer_1 = ["ExpBackward0", "AddBackward0", "MulBackward0", "AccumulateGrad", '
                '"AccumulateGrad"]',
                "however often it is used",
            ),
            ('answer_1 = ["ExpBackward0", "AddBackward0", "MulBackward0"]', "AccumulateGrad node"),
            ('answer_1 = ["Exp", "Add", "Mul", "AccumulateGrad"]', "then 'Backward' and a digit"),
            (
                'answer_1 = ["ExpBackward0", "AddBackward0", "AccumulateGrad"]',
                "one node per operation",
            ),
        ),
    ),
    2: Exercise(
        right=(
            "answer_2 = (np.exp(0.5 * 2) * 2 + 1, np.exp(0.5 * 2) * 0.5)",
            "answer_2 = (6.4366, 1.3591)",
            "answer_2 = [2 * np.e + 1, np.e / 2]",
            "answer_2 = np.array([6.43656, 1.35914])",
            "answer_2 = (6.4365, 1.3591)",
            "answer_2 = mg.tensor([2 * np.e + 1, np.e / 2])",
        ),
        wrong=(
            ("answer_2 = (2 * np.e, np.e / 2)", "x is used twice"),
            ("answer_2 = (np.e / 2, 2 * np.e + 1)", "swapped"),
            ("answer_2 = (np.e + 1, np.e)", "multiplies it by y"),
            ("answer_2 = (2 * np.e + 1, np.e / 2 + 1)", "y is used once"),
            ("answer_2 = (6.4, 1.4)", "start with h_bar = 1"),
            ("answer_2 = 2 * np.e + 1", "a pair of numbers"),
        ),
    ),
    3: Exercise(
        right=(
            'answer_3 = {"a", "c"}',
            'answer_3 = ["c", "a"]',
            'answer_3 = ("a", "c")',
            'answer_3 = {"A", "C"}',
        ),
        wrong=(
            ('answer_3 = {"a"}', "retain_grad()"),
            ('answer_3 = {"a", "c", "e"}', "intermediate result"),
            ('answer_3 = {"a", "c", "d"}', "detach"),
            ('answer_3 = {"a", "b", "c"}', "b is data"),
            ('answer_3 = {"c"}', "a is a leaf"),
            ('answer_3 = {"a", "b", "c", "d", "e"}', "does it require grad?"),
        ),
    ),
}

# Exercise 4: the class Value, assembled from parts so that each wrong answer changes one part.
_HEAD = """import math


class Value:
    def __init__(self, data, _parents=()):
        self.data = float(data)
        self.grad = 0.0
        self._parents = tuple(_parents)
        self._backward = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other))

        def _backward():
{add}
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other))

        def _backward():
{mul}
        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,))

        def _backward():
{tanh}
        out._backward = _backward
        return out
{reflected}
    def backward(self):
{backward}
"""
_ADD = "            self.grad += out.grad\n            other.grad += out.grad\n"
_MUL = (
    "            self.grad += other.data * out.grad\n"
    "            other.grad += self.data * out.grad\n"
)
_TANH = "            self.grad += (1 - t**2) * out.grad\n"
_REFLECTED = """
    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other
"""
_BACKWARD = """        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for p in v._parents:
                    visit(p)
                order.append(v)

        visit(self)
        self.grad = 1.0
        for v in reversed(order):
            v._backward()"""


def _value(**parts) -> str:
    """The reference class with some of its parts replaced."""
    base = {
        "add": _ADD,
        "mul": _MUL,
        "tanh": _TANH,
        "reflected": _REFLECTED,
        "backward": _BACKWARD,
    }
    return _HEAD.format(**{**base, **parts})


EXERCISES[4] = Exercise(
    right=(
        _value(),
        # an explicit stack instead of recursion, tanh from exp, other names
        """import math


class Value:
    def __init__(self, data, _parents=()):
        self.data = float(data)
        self.grad = 0.0
        self._parents = tuple(_parents)
        self._backward = lambda: None

    def _wrap(self, x):
        return x if isinstance(x, Value) else Value(x)

    def __add__(self, other):
        rhs = self._wrap(other)
        result = Value(self.data + rhs.data, (self, rhs))

        def step():
            self.grad = self.grad + result.grad
            rhs.grad = rhs.grad + result.grad

        result._backward = step
        return result

    __radd__ = __add__

    def __mul__(self, other):
        rhs = self._wrap(other)
        result = Value(self.data * rhs.data, (self, rhs))

        def step():
            self.grad += rhs.data * result.grad
            rhs.grad += self.data * result.grad

        result._backward = step
        return result

    __rmul__ = __mul__

    def tanh(self):
        e = math.exp(2 * self.data)
        t = (e - 1) / (e + 1)
        result = Value(t, (self,))

        def step():
            self.grad += (1 - t * t) * result.grad

        result._backward = step
        return result

    def backward(self):
        topo, done, stack = [], set(), [(self, False)]
        while stack:
            v, parents_done = stack.pop()
            if parents_done:
                topo.append(v)
            elif v not in done:
                done.add(v)
                stack.append((v, True))
                stack.extend((p, False) for p in v._parents if p not in done)
        self.grad = 1.0
        for v in topo[::-1]:
            v._backward()
""",
        # dependency counting (Kahn's algorithm) instead of a depth-first walk
        _value(
            backward="""        users, seen, stack = {}, {self}, [self]
        while stack:
            v = stack.pop()
            for p in v._parents:
                users[p] = users.get(p, 0) + 1
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        self.grad = 1.0
        ready = [self]
        while ready:
            v = ready.pop()
            v._backward()
            for p in v._parents:
                users[p] -= 1
                if users[p] == 0:
                    ready.append(p)"""
        ),
    ),
    wrong=(
        (
            _value(
                add="            self.grad = out.grad\n            other.grad = out.grad\n",
                mul=(
                    "            self.grad = other.data * out.grad\n"
                    "            other.grad = self.data * out.grad\n"
                ),
                tanh="            self.grad = (1 - t**2) * out.grad\n",
            ),
            "(+=) instead of overwriting (=)",
        ),
        (
            _value(
                backward="""        self.grad = 1.0
        queue, seen = [self], {self}
        while queue:
            v = queue.pop(0)
            v._backward()
            for p in v._parents:
                if p not in seen:
                    seen.add(p)
                    queue.append(p)"""
            ),
            "reversed topological order",
        ),
        (
            _value(
                backward="""        self.grad = 1.0

        def go(v):
            v._backward()
            for p in v._parents:
                go(p)

        go(self)"""
            ),
            "reversed topological order",
        ),
        (_value(tanh="            self.grad += out.grad\n"), "passes out.grad on unchanged"),
        (
            _value(tanh="            self.grad += (1 - self.data**2) * out.grad\n"),
            "not x itself",
        ),
        (_value(backward=_BACKWARD.replace("        self.grad = 1.0\n", "")), "self.grad = 1.0"),
        (
            _value(
                mul=(
                    "            self.grad += self.data * out.grad\n"
                    "            other.grad += other.data * out.grad\n"
                )
            ),
            "the other factor",
        ),
        (_value(reflected=""), "__radd__"),
    ),
)
