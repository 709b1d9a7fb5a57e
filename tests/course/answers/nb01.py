"""Answers to the exercises of notebook 01 (three ways to differentiate)."""

from tests.course.answers import Exercise

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = np.finfo(np.float64).eps ** (1 / 3)",
            "answer_1 = 1e-5",
            "answer_1 = 3e-6",
            "answer_1 = 1e-6",
            "answer_1 = np.float32(2e-5)",
            "answer_1 = mg.tensor(1e-5)",
        ),
        wrong=(
            ("answer_1 = 1e-8", "forward differences"),
            ("answer_1 = np.sqrt(np.finfo(np.float64).eps)", "forward differences"),
            ("answer_1 = 1e-15", "round-off"),
            ("answer_1 = np.finfo(np.float64).eps", "round-off"),
            ("answer_1 = 1e-3", "truncation"),
            ("answer_1 = -1e-5", "positive number"),
            ("answer_1 = 0", "positive number"),
        ),
    ),
    2: Exercise(
        right=(
            "answer_2 = 179",
            "answer_2 = 179.0",
            "answer_2 = np.int64(179)",
            "answer_2 = 2 * 10**2 - 2 * 10 - 1",
            "answer_2 = sp.count_ops(sp.diff(product(10), x))",
        ),
        wrong=(
            ("answer_2 = 170", "additions that join them"),
            ("answer_2 = 180", "n - 1 additions, not n"),
            ("answer_2 = 189", "n - 2 multiplications"),
            ("answer_2 = 19", "p_10 itself"),
            ("answer_2 = 90", "count operations, not factors"),
            ("answer_2 = 100", "one term is a product"),
        ),
    ),
    3: Exercise(
        right=(
            "def dg_by_hand(x):\n    return np.exp(-(x**2)) * (1 - 2 * x**2)",
            "def dg_by_hand(x):\n    return (1 - 2 * x * x) * np.exp(-x * x)",
            "def dg_by_hand(x):\n    return np.exp(-(x**2)) - 2 * x**2 * np.exp(-(x**2))",
            "import math\n\n\ndef dg_by_hand(x):\n    return math.exp(-(x**2)) * (1 - 2 * x**2)",
        ),
        wrong=(
            ("def dg_by_hand(x):\n    return -2 * x**2 * np.exp(-(x**2))", "product rule"),
            ("def dg_by_hand(x):\n    return np.exp(-(x**2)) * (1 + 2 * x**2)", "chain rule"),
            ("def dg_by_hand(x):\n    return np.exp(-(x**2))", "chain rule"),
            ("def dg_by_hand(x):\n    return x * np.exp(-(x**2))", "g(x) itself"),
            ("def dg_by_hand(x):\n    return np.exp(-(y**2))", "raised NameError"),
        ),
    ),
}

_GRADCHECK = (
    "\n\n\ndef my_gradcheck(f, x, eps=1e-6, atol=1e-5, rtol=1e-3):\n"
    "    t = mg.tensor(x, requires_grad=True)\n"
    "    f(t).backward()\n"
    "    return bool(np.allclose(t.grad.numpy(), numerical_grad(f, x, eps), rtol=rtol, atol=atol))"
)
_NUMERICAL = (
    "def numerical_grad(f, x, eps=1e-6):\n"
    "    grad = np.zeros_like(x)\n"
    "    for i in np.ndindex(x.shape):\n"
    "        old = x[i]\n"
    "        x[i] = old + eps\n"
    "        f_plus = f(mg.tensor(x)).item()\n"
    "        x[i] = old - eps\n"
    "        f_minus = f(mg.tensor(x)).item()\n"
    "        x[i] = old\n"
    "        grad[i] = (f_plus - f_minus) / (2 * eps)\n"
    "    return grad"
)


def _numerical(body: str) -> str:
    """A numerical_grad whose loop body is ``body`` (indented 8), with the right gradcheck."""
    return (
        "def numerical_grad(f, x, eps=1e-6):\n"
        "    grad = np.zeros_like(x)\n"
        "    for i in np.ndindex(x.shape):\n" + body + "    return grad" + _GRADCHECK
    )


def _gradcheck(body: str) -> str:
    """The right numerical_grad with a my_gradcheck whose body is ``body`` (indented 4)."""
    return _NUMERICAL + "\n\n\ndef my_gradcheck(f, x, eps=1e-6, atol=1e-5, rtol=1e-3):\n" + body


EXERCISES[4] = Exercise(
    right=(
        _NUMERICAL + _GRADCHECK,
        # copies instead of changing x, an explicit tolerance test, autograd.grad
        "def numerical_grad(f, x, eps=1e-6):\n"
        "    out = np.empty(x.shape)\n"
        "    for idx in np.ndindex(*x.shape):\n"
        "        up, down = x.copy(), x.copy()\n"
        "        up[idx] += eps\n"
        "        down[idx] -= eps\n"
        "        out[idx] = (float(f(mg.tensor(up))) - float(f(mg.tensor(down)))) / (2 * eps)\n"
        "    return out\n\n\n"
        "def my_gradcheck(f, x, eps=1e-6, atol=1e-5, rtol=1e-3):\n"
        "    t = mg.tensor(x, dtype=mg.float64, requires_grad=True)\n"
        "    (g,) = mg.autograd.grad(f(t), t)\n"
        "    n = numerical_grad(f, x, eps)\n"
        "    return bool(np.all(np.abs(g.numpy() - n) <= atol + rtol * np.abs(n)))",
        # a flat loop over a view of x, a loop in my_gradcheck
        "def numerical_grad(f, x, eps=1e-6):\n"
        "    flat = x.reshape(-1)  # a view: writing to it writes to x\n"
        "    grads = []\n"
        "    for k in range(flat.size):\n"
        "        saved = flat[k].copy()\n"
        "        flat[k] = saved + eps\n"
        "        hi = f(mg.tensor(x)).item()\n"
        "        flat[k] = saved - eps\n"
        "        lo = f(mg.tensor(x)).item()\n"
        "        flat[k] = saved\n"
        "        grads.append((hi - lo) / eps / 2)\n"
        "    return np.array(grads).reshape(x.shape)\n\n\n"
        "def my_gradcheck(f, x, eps=1e-6, atol=1e-5, rtol=1e-3):\n"
        "    xt = mg.tensor(x.copy(), requires_grad=True)\n"
        "    f(xt).backward()\n"
        "    num = numerical_grad(f, x, eps).ravel()\n"
        "    for a, n in zip(xt.grad.numpy().ravel(), num):\n"
        "        if abs(a - n) > atol + rtol * abs(n):\n"
        "            return False\n"
        "    return True",
    ),
    wrong=(
        (
            _numerical(
                "        f0 = f(mg.tensor(x)).item()\n"
                "        old = x[i]\n"
                "        x[i] = old + eps\n"
                "        grad[i] = (f(mg.tensor(x)).item() - f0) / eps\n"
                "        x[i] = old\n"
            ),
            "forward difference",
        ),
        (
            _numerical(
                "        old = x[i]\n"
                "        x[i] = old + eps\n"
                "        f_plus = f(mg.tensor(x)).item()\n"
                "        x[i] = old - eps\n"
                "        f_minus = f(mg.tensor(x)).item()\n"
                "        x[i] = old\n"
                "        grad[i] = (f_plus - f_minus) / eps\n"
            ),
            "2 * eps apart",
        ),
        (
            _numerical(
                "        x[i] += eps\n"
                "        f_plus = f(mg.tensor(x)).item()\n"
                "        x[i] -= 2 * eps\n"
                "        f_minus = f(mg.tensor(x)).item()\n"
                "        grad[i] = (f_plus - f_minus) / (2 * eps)\n"
            ),
            "changed x",
        ),
        (
            _numerical(
                "        x[i] += eps\n"
                "        f_plus = f(mg.tensor(x)).item()\n"
                "        x[i] -= 2 * eps\n"
                "        f_minus = f(mg.tensor(x)).item()\n"
                "        x[i] += eps\n"
                "        grad[i] = (f_plus - f_minus) / (2 * eps)\n"
            ),
            "not exactly as it was",
        ),
        (
            _numerical(
                "        f_plus = f(mg.tensor(x + eps)).item()\n"
                "        f_minus = f(mg.tensor(x - eps)).item()\n"
                "        grad[i] = (f_plus - f_minus) / (2 * eps)\n"
            ),
            "one element x[i] at a time",
        ),
        (
            "def numerical_grad(f, x, eps=1e-6):\n"
            "    t = mg.tensor(x, requires_grad=True)\n"
            "    f(t).backward()\n"
            "    return t.grad.numpy()" + _GRADCHECK,
            "may only call f",
        ),
        (_gradcheck("    return True"), "forgot the 2 of the power rule"),
        (
            _gradcheck(
                "    t = mg.tensor(x, requires_grad=True)\n"
                "    f(t).backward()\n"
                "    return bool(np.array_equal(t.grad.numpy(), numerical_grad(f, x, eps)))"
            ),
            "finite differences are approximate",
        ),
        (
            _gradcheck(
                "    t = mg.tensor(x, requires_grad=True)\n"
                "    f(t).backward()\n"
                "    return bool(np.allclose(t.grad.numpy(), numerical_grad(f, x, eps)))"
            ),
            "use the atol and rtol passed",
        ),
        (
            _gradcheck(
                "    t = mg.tensor(x, requires_grad=True)\n"
                "    return mg.autograd.gradcheck(f, (t,), eps=eps, atol=atol, rtol=rtol,\n"
                "                                 raise_exception=False)"
            ),
            "do not call mg.autograd.gradcheck",
        ),
        (
            _gradcheck(
                "    t = mg.tensor(x, requires_grad=True)\n"
                "    f(t).backward()\n"
                "    return np.abs(t.grad.numpy() - numerical_grad(f, x, eps)).max()"
            ),
            "return True or False",
        ),
    ),
)
