"""Typical answers to notebook 06's exercises (see ``tests/course/answers/__init__.py``)."""

from tests.course.answers import Exercise

_JAC = """def jacobian_by_columns(f, x):
{}
"""
_SOLUTION = """    columns = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        _, column = mg.func.jvp(f, (x,), (e_j,))
        columns.append(column)
    return mg.stack(columns, dim=1)"""
_ANSWER_3 = 'answer_3 = {{"a": "{}", "b": "{}", "c": "{}"}}'

# Exercise 4: a Dual class with its operations, sin, exp, log, and jacfwd built on it.
_DUAL_4 = '''class Dual:
    """primal + tangent·ε with ε² = 0: a value and its derivative along one direction."""

    def __init__(self, primal, tangent=0.0):
        self.primal, self.tangent = primal, tangent

    def __repr__(self):
        return f"Dual({self.primal}, {self.tangent})"

    def __add__(self, other):
        other = lift(other)
        return Dual(self.primal + other.primal, self.tangent + other.tangent)

    def __radd__(self, other):
        return lift(other) + self

    def __sub__(self, other):
        other = lift(other)
        return Dual(self.primal - other.primal, self.tangent - other.tangent)

    def __rsub__(self, other):
        return lift(other) - self

    def __mul__(self, other):
        other = lift(other)
        return Dual(self.primal * other.primal, self.tangent * other.primal + self.primal * other.tangent)

    def __rmul__(self, other):
        return lift(other) * self

    def __truediv__(self, other):
        other = lift(other)
        return Dual(
            self.primal / other.primal,
            (self.tangent * other.primal - self.primal * other.tangent) / other.primal**2,
        )

    def __rtruediv__(self, other):
        return lift(other) / self

    def __pow__(self, c):
        return Dual(self.primal**c, c * self.primal ** (c - 1) * self.tangent)


def lift(x):
    return x if isinstance(x, Dual) else Dual(x, 0.0)


def sin(x):
    return Dual(np.sin(x.primal), np.cos(x.primal) * x.tangent)


def exp(x):
    return Dual(np.exp(x.primal), np.exp(x.primal) * x.tangent)


def log(x):
    return Dual(np.log(x.primal), x.tangent / x.primal)

'''
_JACFWD_4 = """
def jacfwd(f, x):
    columns = []
    for j in range(len(x)):
        outputs = f([Dual(x_i, 1.0 if i == j else 0.0) for i, x_i in enumerate(x)])
        columns.append([out.tangent for out in outputs])
    return np.array(columns, dtype=float).T
"""
_REFERENCE_4 = _DUAL_4 + _JACFWD_4

# Another style: subtraction through negation, division through the reciprocal, math's
# functions, and a jacfwd that fills a preallocated matrix column by column from np.eye.
_OTHER_4 = """import math


class Dual:
    def __init__(self, primal, tangent=0.0):
        self.primal = primal
        self.tangent = tangent

    def __add__(self, other):
        if isinstance(other, Dual):
            return Dual(self.primal + other.primal, self.tangent + other.tangent)
        return Dual(self.primal + other, self.tangent)

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.primal, -self.tangent)

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __mul__(self, other):
        if isinstance(other, Dual):
            p, t = other.primal, other.tangent
            return Dual(self.primal * p, self.primal * t + p * self.tangent)
        return Dual(self.primal * other, self.tangent * other)

    __rmul__ = __mul__

    def reciprocal(self):
        return Dual(1.0 / self.primal, -self.tangent / self.primal**2)

    def __truediv__(self, other):
        return self * (other.reciprocal() if isinstance(other, Dual) else 1.0 / other)

    def __rtruediv__(self, other):
        return self.reciprocal() * other

    def __pow__(self, c):
        return Dual(self.primal**c, c * self.primal ** (c - 1) * self.tangent)


def sin(x):
    return Dual(math.sin(x.primal), math.cos(x.primal) * x.tangent)


def exp(x):
    e = math.exp(x.primal)
    return Dual(e, e * x.tangent)


def log(x):
    return Dual(math.log(x.primal), x.tangent / x.primal)


def jacfwd(f, x):
    n = len(x)
    J = None
    for j, direction in enumerate(np.eye(n)):
        out = f([Dual(float(p), float(t)) for p, t in zip(x, direction)])
        if J is None:
            J = np.zeros((len(out), n))
        J[:, j] = [o.tangent for o in out]
    return J
"""

# Tangents as the dunder methods' own pair unpacking, and a jacfwd that stacks columns with
# np.stack(axis=1)
_THIRD_4 = (
    _DUAL_4.replace(
        """    def __mul__(self, other):
        other = lift(other)
        return Dual(self.primal * other.primal, self.tangent * other.primal + self.primal * other.tangent)""",
        """    def __mul__(self, other):
        (a, da), (b, db) = (self.primal, self.tangent), (lift(other).primal, lift(other).tangent)
        return Dual(a * b, da * b + a * db)""",
    )
    + """
def jacfwd(f, x):
    n = len(x)
    columns = []
    for j in range(n):
        tangents = np.zeros(n)
        tangents[j] = 1.0
        outputs = f([Dual(p, t) for p, t in zip(x, tangents)])
        columns.append(np.array([o.tangent for o in outputs]))
    return np.stack(columns, axis=1)
"""
)


_PRODUCT_4 = "self.tangent * other.primal + self.primal * other.tangent)"
_WRONG_4 = (
    (
        _REFERENCE_4.replace(_PRODUCT_4, "self.tangent * other.primal)"),
        "the product rule has two terms",
    ),
    (
        _REFERENCE_4.replace(
            "(self.tangent * other.primal - self.primal",
            "(self.tangent * other.primal + self.primal",
        ),
        "the quotient rule has a minus",
    ),
    (
        _REFERENCE_4.replace("return lift(other) - self", "return self - lift(other)"),
        "__rsub__ is other - self",
    ),
    (
        _REFERENCE_4.replace("return lift(other) / self", "return self / lift(other)"),
        "__rtruediv__ is other / self",
    ),
    (
        _REFERENCE_4.replace("np.cos(x.primal) * x.tangent", "np.cos(x.primal)"),
        "multiply cos(u) by the input's tangent",
    ),
    (
        _REFERENCE_4.replace(
            "c * self.primal ** (c - 1) * self.tangent", "c * self.primal ** (c - 1)"
        ),
        "the chain rule: (u**c)'",
    ),
    (
        _REFERENCE_4.replace("x.tangent / x.primal", "1 / x.primal"),
        "multiply 1/u by the input's tangent",
    ),
    (
        _DUAL_4
        + """
def jacfwd(f, x):
    tangents = np.zeros(len(x))
    columns = []
    for j in range(len(x)):
        tangents[j] = 1.0
        outputs = f([Dual(p, t) for p, t in zip(x, tangents)])
        columns.append([o.tangent for o in outputs])
    return np.array(columns).T
""",
        "not reset between passes",
    ),
    (
        _REFERENCE_4.replace("np.array(columns, dtype=float).T", "np.array(columns, dtype=float)"),
        "yours puts it in row j",
    ),
    (  # finite differences on plain numbers: not forward mode
        _DUAL_4
        + """
def jacfwd(f, x, h=1e-6):
    columns = []
    for j in range(len(x)):
        step = h * np.eye(len(x))[j]
        columns.append((np.array(f(list(x + step))) - np.array(f(list(x - step)))) / (2 * h))
    return np.array(columns).T
""",
        "call f on a list of n Duals",
    ),
    (_REFERENCE_4.replace(_JACFWD_4, "\ndef jacfwd(f, x):\n    return ...\n"), "now write jacfwd"),
)

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = [4 * 3 + 4 * (-1), 1 * 3 + np.cos(1.0) * (-1)]",
            "answer_1 = [8.0, 2.4597]",
            "answer_1 = (8, 2.46)",
            "answer_1 = np.array([8, 3 - np.cos(1)])",
            """answer_1 = mg.func.jvp(
    lambda x: mg.stack([x[0] ** 2 * x[1], x[0] + mg.sin(x[1])]),
    (mg.tensor([2.0, 1.0], dtype=mg.float64),),
    (mg.tensor([3.0, -1.0], dtype=mg.float64),),
)[1]""",
        ),
        wrong=(
            ("answer_1 = [11.0, 12 - np.cos(1.0)]  # v^T J", "that is v^T J"),
            ("answer_1 = [2 * 3 + 4 * (-1), 3 - np.cos(1.0)]", "power rule"),
            ("answer_1 = [11.0, 3 - np.cos(2.0)]  # the old point", "at x = (1, 2)"),
            ("answer_1 = [[4.0, 4.0], [1.0, np.cos(1.0)]]", "the Jacobian J itself"),
            ("answer_1 = [8.0, 3 - np.sin(1.0)]", "write the four partial derivatives"),
        ),
    ),
    2: Exercise(
        right=(
            _JAC.format(_SOLUTION),
            _JAC.format(
                """    n = x.shape[0]
    columns = [mg.func.jvp(f, (x,), (mg.tensor(np.eye(n)[j]),))[1].numpy() for j in range(n)]
    return np.stack(columns, axis=1)"""
            ),
            _JAC.format(
                """    rows = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        rows.append(mg.func.jvp(f, (x,), (e_j,))[1])
    return mg.stack(rows).T"""
            ),
            _JAC.format(
                """    fwAD = mg.autograd.forward_ad
    columns = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        with fwAD.dual_level():
            columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, e_j)))[1])
    return mg.stack(columns, dim=1)"""
            ),
        ),
        wrong=(
            (_JAC.format(_SOLUTION.replace("dim=1", "dim=0")), "not one under the other"),
            (
                _JAC.format(
                    """    columns = []
    e = mg.zeros_like(x)
    for j in range(x.shape[0]):
        e[j] = 1.0
        _, column = mg.func.jvp(f, (x,), (e,))
        columns.append(column)
    return mg.stack(columns, dim=1)"""
                ),
                "make a fresh one for every j",
            ),
            (
                _JAC.format(_SOLUTION.replace("mg.zeros_like(x)", "mg.zeros(x.shape[0])")),
                "must match its primal",
            ),
            (_JAC.format("    return mg.func.jacfwd(f)(x)"), "not with jacfwd or jacrev"),
            (
                _JAC.format(
                    """    columns = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        _, column = mg.func.jvp(f, (x,), (e_j,))
        columns.append(column * x[j])
    return mg.stack(columns, dim=1)"""
                ),
                "column j is the JVP of g at x along e_j",
            ),
            (_JAC.format("    return jacobian_helper(f, x)"), "raised NameError"),
        ),
    ),
    3: Exercise(
        right=(
            _ANSWER_3.format("jacrev", "jacfwd", "jacrev"),
            _ANSWER_3.format("JACREV", "Jacfwd", "jacrev"),
            _ANSWER_3.format("reverse", "forward", "reverse"),
            'answer_3 = dict(c="rev", b="fwd", a="rev")',
        ),
        wrong=(
            (_ANSWER_3.format("jacfwd", "jacrev", "jacfwd"), "all three are swapped"),
            (_ANSWER_3.format("jacrev", "jacrev", "jacrev"), "look at (b)"),
            (_ANSWER_3.format("jacfwd", "jacfwd", "jacfwd"), "look at (a) and (c)"),
            (_ANSWER_3.format("jacrev", "jacfwd", "jacfwd"), "(c) has 100 inputs"),
            (
                _ANSWER_3.format("jacrev", "jacrev", "jacfwd"),
                "count the inputs (n) and outputs (m)",
            ),
        ),
    ),
    4: Exercise(right=(_REFERENCE_4, _OTHER_4, _THIRD_4), wrong=_WRONG_4),
}
