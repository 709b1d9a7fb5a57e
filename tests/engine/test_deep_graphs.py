"""10^5-op chains: no RecursionError anywhere (RELIABILITY.md, "Graph mechanics").

Backward, autograd.grad, freeing the graph, printing it and gradcheck must all be iterative:
the chains here are 100x deeper than Python's default recursion limit, which these tests never
raise.
"""

import math
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import minigrad as mg

N = 100_000
# Each test takes well under 5 s; the guard only catches a quadratic blow-up (10^10 steps), not
# slow machines: a shared 2-core machine at load 10 took 31 s for one of them.
BUDGET_S = 60.0


@pytest.fixture(autouse=True)
def default_recursion_limit():
    limit = sys.getrecursionlimit()
    assert limit <= 1000, "these tests are only meaningful at the default recursion limit"
    start = time.perf_counter()
    yield
    assert sys.getrecursionlimit() == limit
    assert time.perf_counter() - start < BUDGET_S


def chain(x, n=N, factor=1.00001):
    y = x
    for _ in range(n):
        y = y * factor
    return y


def test_backward_through_a_100k_op_chain():
    x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
    y = chain(x)
    y.backward()
    # d/dx (x * c^N) = c^N = (1 + 1e-5)^(1e5), close to e
    assert x.grad.item() == pytest.approx(1.00001**N, rel=1e-9)
    assert x.grad.item() == pytest.approx(math.e, rel=1e-4)


def test_backward_through_a_100k_op_chain_of_saving_ops():
    x = mg.tensor([0.5, -0.25], dtype=mg.float64, requires_grad=True)
    y = x
    for _ in range(N):
        y = y.sin()  # SinBackward0 saves its input
    y.sum().backward()
    # reference: iterate the chain rule in numpy
    v = np.array([0.5, -0.25])
    d = np.ones(2)
    for _ in range(N):
        d *= np.cos(v)
        v = np.sin(v)
    np.testing.assert_allclose(x.grad.numpy(), d, rtol=1e-9)


def test_autograd_grad_through_a_100k_op_chain():
    x = mg.tensor(2.0, dtype=mg.float64, requires_grad=True)
    y = x
    for _ in range(N // 2):
        y = y + 1.0
        y = y - 1.0
    (g,) = mg.autograd.grad(y, x)
    assert g.item() == 1.0


def test_backward_through_a_100k_op_chain_with_a_long_skip_connection():
    x = mg.tensor(1.0, dtype=mg.float64, requires_grad=True)
    y = chain(x) + x  # the leaf is reached by a long and a short path
    y.backward()
    assert x.grad.item() == pytest.approx(1.00001**N + 1.0, rel=1e-9)


def test_repr_of_the_end_of_a_100k_op_chain():
    x = mg.tensor(1.0, requires_grad=True)
    y = chain(x, factor=1.0)
    assert repr(y) == "tensor(1., grad_fn=<MulBackward0>)"
    assert str(y) == repr(y)


def test_freeing_a_100k_op_chain_by_del_in_process():
    x = mg.tensor(1.0, requires_grad=True)
    y = chain(x)
    del y  # no exception here, and the interpreter survives
    y = x
    for _ in range(N // 2):
        y = y.exp() * 0.5  # ops that save tensors (and outputs) make the graph denser
    del y
    assert x.grad is None


_FREE_SCRIPT = textwrap.dedent(
    """
    import sys
    import minigrad as mg
    assert sys.getrecursionlimit() <= 1000
    x = mg.tensor(1.0, requires_grad=True)
    for kind in range(3):
        y = x
        for _ in range(100_000 if kind < 2 else 50_000):
            y = y.sin() if kind == 0 else (y * 1.0 if kind == 1 else y.tanh() + y)
        if kind == 2:
            y.backward()
        del y
    print("ok")
    """
)


def test_freeing_100k_op_chains_prints_no_ignored_exception():
    # exceptions raised while deallocating are not propagated, only printed on stderr,
    # and a C stack overflow kills the process: check both in a fresh interpreter
    proc = subprocess.run(
        [sys.executable, "-c", _FREE_SCRIPT],
        cwd=Path(__file__).resolve().parents[2],  # the project root, so `import minigrad` works
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"
    assert "RecursionError" not in proc.stderr
    assert "Exception ignored" not in proc.stderr


def test_gradcheck_of_a_short_but_deep_chain():
    x = mg.tensor(0.3, dtype=mg.float64, requires_grad=True)
    assert mg.autograd.gradcheck(lambda t: chain(t), (x,))


def test_backward_with_create_graph_through_a_deep_chain():
    x = mg.tensor(0.5, dtype=mg.float64, requires_grad=True)
    y = x
    for _ in range(N // 10):
        y = y * 1.0001
    y = y * y  # y = (c^n x)^2, dy/dx = 2 c^(2n) x, d2y/dx2 = 2 c^(2n)
    (g,) = mg.autograd.grad(y, x, create_graph=True)
    (gg,) = mg.autograd.grad(g, x)
    c2n = 1.0001 ** (2 * (N // 10))
    assert g.item() == pytest.approx(2 * c2n * 0.5, rel=1e-9)
    assert gg.item() == pytest.approx(2 * c2n, rel=1e-9)


def test_step_generator_over_a_deep_chain():
    x = mg.tensor(1.0, requires_grad=True)
    y = chain(x, factor=1.0)
    n = 0
    for _step in mg.autograd.BackwardPass((y,), (mg.tensor(1.0),)):
        n += 1
    assert n == N + 1  # every MulBackward0 plus the AccumulateGrad of x
    assert x.grad.item() == 1.0
