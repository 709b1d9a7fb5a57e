"""Typical answers to notebook 07 (three styles): right ones in other forms, and typical mistakes
with the phrase the check's hint must say."""

from tests.course.answers import Exercise

LOOP = """
def per_example_loop(w, b, X, y):
    g_w = mg.func.grad(loss_fn)
    return np.stack([g_w(w, b, X[i], y[i]).numpy() for i in range(X.shape[0])])
"""
VMAP = """
def per_example_vmap(w, b, X, y):
    return mg.func.vmap(mg.func.grad(loss_fn), in_dims=(None, None, 0, 0))(w, b, X, y).numpy()
"""
LOOP_TODO = """
def per_example_loop(w, b, X, y):
    return ...
"""
VMAP_TODO = """
def per_example_vmap(w, b, X, y):
    return ...
"""

# Exercise 3: a tiny tracer (Tracer, sin, exp, trace, evaluate).
_REFERENCE_3 = """from collections import namedtuple

Program = namedtuple("Program", ["inputs", "equations", "outputs"])
NUMPY_OPS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "sin": np.sin, "exp": np.exp}


class Tracer:
    def __init__(self, name, equations):
        self.name = name
        self.equations = equations

    def record(self, op, *args):
        out = f"t{len(self.equations)}"
        written = tuple(arg.name if isinstance(arg, Tracer) else arg for arg in args)
        self.equations.append((out, op, written))
        return Tracer(out, self.equations)

    def __add__(self, other):
        return self.record("add", self, other)

    def __radd__(self, other):
        return self.record("add", other, self)

    def __sub__(self, other):
        return self.record("sub", self, other)

    def __rsub__(self, other):
        return self.record("sub", other, self)

    def __mul__(self, other):
        return self.record("mul", self, other)

    def __rmul__(self, other):
        return self.record("mul", other, self)

    def __bool__(self):
        raise TypeError(f"bool() of the traced value {self.name}: a Tracer has no value")


def sin(x):
    if not isinstance(x, Tracer):
        return np.sin(x)
    return x.record("sin", x)


def exp(x):
    if not isinstance(x, Tracer):
        return np.exp(x)
    return x.record("exp", x)


def trace(f, n_inputs):
    equations = []
    inputs = [Tracer(f"x{i}", equations) for i in range(n_inputs)]
    result = f(*inputs)
    outputs = result if isinstance(result, (tuple, list)) else (result,)
    return Program([t.name for t in inputs], equations, [t.name for t in outputs])


def evaluate(program, *values):
    env = dict(zip(program.inputs, values))

    def value_of(arg):
        return env[arg] if isinstance(arg, str) else arg

    for out, op, args in program.equations:
        env[out] = NUMPY_OPS[op](*(value_of(arg) for arg in args))
    return [env[name] for name in program.outputs]
"""

# A global counter for names, the operator module, the tracer's equations as a plain list
# attribute built by a module-level helper, and evaluate with an if-chain.
_COUNTER_3 = """import itertools
import operator
from collections import namedtuple

Program = namedtuple("Program", ["inputs", "equations", "outputs"])
fresh = itertools.count()


def emit(equations, op, *operands):
    name = f"v{next(fresh)}"
    equations.append((name, op, [o.name if isinstance(o, Tracer) else o for o in operands]))
    return Tracer(name, equations)


class Tracer:
    def __init__(self, name, equations):
        self.name, self.equations = name, equations

    def record(self, op, *args):
        return emit(self.equations, op, *args)

    def __add__(self, other):
        return emit(self.equations, "add", self, other)

    def __radd__(self, other):
        return emit(self.equations, "add", other, self)

    def __sub__(self, other):
        return emit(self.equations, "sub", self, other)

    def __rsub__(self, other):
        return emit(self.equations, "sub", other, self)

    def __mul__(self, other):
        return emit(self.equations, "mul", self, other)

    def __rmul__(self, other):
        return emit(self.equations, "mul", other, self)

    def __bool__(self):
        raise TypeError("this value is traced: it has no True or False yet")


def sin(x):
    return emit(x.equations, "sin", x) if isinstance(x, Tracer) else np.sin(x)


def exp(x):
    return emit(x.equations, "exp", x) if isinstance(x, Tracer) else np.exp(x)


def trace(f, n_inputs):
    eqs = []
    args = [Tracer(f"v{next(fresh)}", eqs) for _ in range(n_inputs)]
    out = f(*args)
    if isinstance(out, Tracer):
        out = [out]
    return Program([a.name for a in args], eqs, [o.name for o in out])


def evaluate(program, *values):
    env = {}
    for name, v in zip(program.inputs, values):
        env[name] = v
    for out, op, args in program.equations:
        vals = [env[a] if isinstance(a, str) else a for a in args]
        if op in ("sin", "exp"):
            env[out] = np.sin(vals[0]) if op == "sin" else np.exp(vals[0])
        else:
            env[out] = {"add": operator.add, "sub": operator.sub, "mul": operator.mul}[op](*vals)
    return [env[o] for o in program.outputs]
"""

# Letters for the inputs, names counted from the inputs, a program held in a dict until the
# end, and a replay over a list of values indexed like the names.
_LETTERS_3 = """from collections import namedtuple

Program = namedtuple("Program", ["inputs", "equations", "outputs"])


class Tracer:
    def __init__(self, name, equations):
        self.name = name
        self.equations = equations

    def record(self, op, *args):
        taken = {eq[0] for eq in self.equations} | {self.name}
        k = len(self.equations)
        while f"r{k}" in taken:
            k += 1
        self.equations.append((f"r{k}", op, tuple(getattr(a, "name", a) for a in args)))
        return Tracer(f"r{k}", self.equations)

    def __add__(self, other):
        return self.record("add", self, other)

    def __radd__(self, other):
        return self.record("add", other, self)

    def __sub__(self, other):
        return self.record("sub", self, other)

    def __rsub__(self, other):
        return self.record("sub", other, self)

    def __mul__(self, other):
        return self.record("mul", self, other)

    def __rmul__(self, other):
        return self.record("mul", other, self)

    def __bool__(self):
        raise TypeError("Tracer has no value: Python control flow on a traced value is not possible")


def sin(x):
    if not isinstance(x, Tracer):
        return np.sin(x)
    return x.record("sin", x)


def exp(x):
    if not isinstance(x, Tracer):
        return np.exp(x)
    return x.record("exp", x)


def trace(f, n_inputs):
    eqs = []
    ins = [Tracer("abcdefghijklmnopq"[i], eqs) for i in range(n_inputs)]
    outs = f(*ins)
    outs = list(outs) if isinstance(outs, tuple) else [outs]
    return Program(inputs=[t.name for t in ins], equations=eqs, outputs=[t.name for t in outs])


def evaluate(program, *values):
    inputs, equations, outputs = program
    env = {name: value for name, value in zip(inputs, values)}
    funcs = {"add": lambda u, v: u + v, "sub": lambda u, v: u - v, "mul": lambda u, v: u * v,
             "sin": np.sin, "exp": np.exp}
    for out, op, args in equations:
        env[out] = funcs[op](*[env[a] if isinstance(a, str) else a for a in args])
    return [env[o] for o in outputs]
"""


_EAGER_3 = _REFERENCE_3.replace(
    '''    def record(self, op, *args):
        out = f"t{len(self.equations)}"''',
    """    value = 1.0
    computed = {}

    def record(self, op, *args):
        out = f"t{len(self.equations)}"
        vals = [a.value if isinstance(a, Tracer) else a for a in args]
        Tracer.computed[out] = NUMPY_OPS[op](*vals)""",
).replace(
    """    return [env[name] for name in program.outputs]""",
    """    return [Tracer.computed.get(name, 1.0) for name in program.outputs]""",
)
_WRONG_3 = (
    (  # the output Tracers themselves instead of their names
        _REFERENCE_3.replace("[t.name for t in outputs])", "list(outputs))"),
        "names of variables (strings), not Tracers",
    ),
    (
        _REFERENCE_3.replace(
            'return self.record("sub", other, self)', 'return self.record("sub", self, other)'
        ),
        "other - self for __rsub__",
    ),
    (  # a constant written as a variable name
        _REFERENCE_3.replace(
            "arg.name if isinstance(arg, Tracer) else arg for",
            "arg.name if isinstance(arg, Tracer) else str(arg) for",
        ),
        "the number is a literal",
    ),
    (
        _REFERENCE_3.replace('out = f"t{len(self.equations)}"', 'out = f"x{len(self.equations)}"'),
        "a variable name is used twice",
    ),
    (
        _REFERENCE_3.replace(
            "for out, op, args in program.equations:",
            "for out, op, args in reversed(program.equations):",
        ),
        "in the order they were recorded",
    ),
    (
        _REFERENCE_3.replace(
            '        raise TypeError(f"bool() of the traced value {self.name}: a Tracer has no value")',
            "        return True",
        ),
        "an if on a Tracer went on",
    ),
    (
        _REFERENCE_3.replace(
            '        raise TypeError(f"bool() of the traced value {self.name}: a Tracer has no value")',
            '        raise TypeError("no")',
        ),
        "should say the value is traced",
    ),
    (_REFERENCE_3.replace('return x.record("sin", x)', "return x"), "records one equation"),
    (_EAGER_3, "evaluate's values differ"),
    (
        _REFERENCE_3.replace(
            "    return [env[name] for name in program.outputs]",
            "    return [env[name] for name in program.outputs[:1]]",
        ),
        "one per output",
    ),
)

EXERCISES = {
    1: Exercise(
        right=(
            'answer_1 = "RuntimeError"',
            'answer_1 = "runtimeerror"',
            "answer_1 = ' RuntimeError '",
            'answer_1 = "Runtime Error"',
            "answer_1 = RuntimeError",
        ),
        wrong=(
            ('answer_1 = "None"', "does the second call return at all"),
            ("answer_1 = None", "does the second call return at all"),
            ('answer_1 = "the same tensor"', "persistent"),
            ('answer_1 = "zeros"', "read what the second call does"),
            ('answer_1 = "KeyError"', "read what the second call does"),
        ),
    ),
    2: Exercise(
        right=(
            "def loss_reg(w, b, X, y):\n"
            "    return loss_fn(w, b, X, y) + 0.01 * (w * w).sum()\n\n\nanswer_2 = 12",
            "answer_2 = 12.0",
            "answer_2 = np.int64(8 + 4)",
            "answer_2 = len(mg.func.make_jaxpr(loss_reg)(w, b, X, y).eqns)",
            "answer_2 = mg.tensor(12)",
        ),
        wrong=(
            ("answer_2 = 11", "one equation short"),
            ("answer_2 = 10", "two ops"),
            ("answer_2 = 4", "the loss's 8 equations"),
            ("answer_2 = 13", "parameter"),
            ("answer_2 = 20", "gradient's program"),
            ('answer_2 = "12"', "drop the quotes"),
        ),
    ),
    3: Exercise(right=(_REFERENCE_3, _COUNTER_3, _LETTERS_3), wrong=_WRONG_3),
    4: Exercise(
        right=(
            LOOP + "\n" + VMAP,
            # a loop with append, numpy array at the end; vmap returning a tensor
            """
def per_example_loop(w, b, X, y):
    rows = []
    for i in range(len(X)):
        rows.append(mg.func.grad(loss_fn, argnums=0)(w, b, X[i], y[i]).numpy())
    return np.array(rows)


def per_example_vmap(w, b, X, y):
    return mg.func.vmap(mg.func.grad(loss_fn), in_dims=(None, None, 0, 0))(w, b, X, y)
""",
            # tensors throughout: mg.stack of the rows; vmap of grad with both argnums, w's part
            """
def per_example_loop(w, b, X, y):
    return mg.stack([mg.func.grad(loss_fn)(w, b, X[i], y[i]) for i in range(X.shape[0])])


def per_example_vmap(w, b, X, y):
    both = mg.func.grad(loss_fn, argnums=(0, 1))
    return mg.func.vmap(both, in_dims=(None, None, 0, 0))(w, b, X, y)[0].numpy()
""",
            # the loop in PyTorch's style: backward() on each example's loss
            """
def per_example_loop(w, b, X, y):
    rows = []
    for i in range(X.shape[0]):
        wi = mg.tensor(w.numpy(), requires_grad=True)
        loss_fn(wi, b, X[i], y[i]).backward()
        rows.append(wi.grad.numpy())
    return np.stack(rows)
"""
            + "\n"
            + VMAP,
        ),
        wrong=(
            (  # the whole batch's gradient in every row
                """
def per_example_loop(w, b, X, y):
    return np.stack([mg.func.grad(loss_fn)(w, b, X, y).numpy() for i in range(X.shape[0])])
"""
                + "\n"
                + VMAP,
                "same row",
            ),
            (  # a pair (dL/dw, dL/db) instead of dL/dw
                LOOP
                + """

def per_example_vmap(w, b, X, y):
    both = mg.func.grad(loss_fn, argnums=(0, 1))
    return mg.func.vmap(both, in_dims=(None, None, 0, 0))(w, b, X, y)
""",
                "returns tuple",
            ),
            (  # the gradient with respect to b
                """
def per_example_loop(w, b, X, y):
    g_b = mg.func.grad(loss_fn, argnums=1)
    return np.stack([g_b(w, b, X[i], y[i]).numpy() for i in range(X.shape[0])])
"""
                + "\n"
                + VMAP,
                "argnums=0",
            ),
            (  # transposed: one column per example
                LOOP.replace("range(X.shape[0])])", "range(X.shape[0])]).T") + "\n" + VMAP,
                "one row per example",
            ),
            (  # sixteen examples written in
                LOOP.replace("range(X.shape[0])", "range(16)") + "\n" + VMAP,
                "per_example_loop raised IndexError",
            ),
            (  # the notebook's w and b instead of the arguments
                LOOP.replace(
                    "g_w(w, b, X[i], y[i])", "g_w(w_init_t, mg.tensor(0.0), X[i], y[i])"
                ).replace("    g_w =", "    w_init_t = mg.tensor(w_init)\n    g_w =")
                + "\n"
                + VMAP,
                "not the slope of example i's own loss",
            ),
            (LOOP + "\n" + VMAP_TODO, "now write per_example_vmap"),
            (LOOP_TODO + "\n" + VMAP, "now write per_example_loop"),
            (  # vmap slices X but not y: each call sees one example against all 16 labels
                LOOP + "\n" + VMAP.replace("(None, None, 0, 0)", "(None, None, 0, None)"),
                "per_example_vmap: row i is not the slope",
            ),
        ),
    ),
}
