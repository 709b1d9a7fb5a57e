"""Dual tensors against ``torch.autograd.forward_ad`` 2.13: tangents, reverse mode through them,
custom Function ``jvp``, and the errors of levels and ``make_dual`` (same type, PyTorch's
sentence first in ours)."""

from __future__ import annotations

import numpy as np
import pytest
from test_forward_oracle import FUNCS, V, X

import minigrad as mg
import minigrad.replaying.forward_ad as mg_fwad

torch = pytest.importorskip("torch")
torch_fwad = pytest.importorskip("torch.autograd.forward_ad")
pytestmark = pytest.mark.oracle
LIBS = {"minigrad": (mg, mg_fwad), "torch": (torch, torch_fwad)}


def t64(m, a, requires_grad=False):
    return m.tensor(np.asarray(a, dtype=np.float64), requires_grad=requires_grad)


def numpy(t):
    return np.asarray(t.detach().numpy())


@pytest.mark.parametrize("name", list(FUNCS))
def test_tangents_match_torch(name):
    results = {}
    for lib, (m, fw) in LIBS.items():
        with fw.dual_level():
            out = FUNCS[name](m, fw.make_dual(t64(m, X), t64(m, V)))
            primal, tangent = fw.unpack_dual(out)
            results[lib] = (numpy(primal), numpy(tangent))
    np.testing.assert_allclose(results["minigrad"][0], results["torch"][0], rtol=1e-12)
    np.testing.assert_allclose(results["minigrad"][1], results["torch"][1], rtol=1e-10, atol=1e-12)


# (softmax and logsumexp are left out: torch's own backward through their dual tensors
# fails with retain_graph, "modified by an inplace operation")
@pytest.mark.parametrize("name", ["tanh-matmul", "pow-div", "reshape-transpose", "select-where"])
def test_reverse_mode_through_dual_tensors_matches_torch(name):
    """x.grad from backward through dual ops, and the gradient of the tangent (x and v)."""
    results = {}
    for lib, (m, fw) in LIBS.items():
        x, v = t64(m, X, True), t64(m, V, True)
        with fw.dual_level():
            out = FUNCS[name](m, fw.make_dual(x, v)).sum()
            tangent = fw.unpack_dual(out).tangent
            out.backward(retain_graph=True)
            gx, gv = (numpy(g) for g in m.autograd.grad(tangent, (x, v)))
        results[lib] = (numpy(x.grad), gx, gv)
    for ours, theirs in zip(results["minigrad"], results["torch"]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-12)


def make_cube(m):
    """One custom Function, written once for either library."""

    class Cube(m.autograd.Function):
        @staticmethod
        def forward(ctx, x, scale):
            ctx.save_for_forward(x)
            ctx.save_for_backward(x)
            ctx.scale = scale
            return x**3 * scale, x * 2.0

        @staticmethod
        def backward(ctx, g, h):
            (x,) = ctx.saved_tensors
            return g * 3 * x**2 * ctx.scale + h * 2.0, None

        @staticmethod
        def jvp(ctx, tx, tscale):
            (x,) = ctx.saved_tensors
            assert tscale is None  # a Python number gets None
            return tx * 3 * x**2 * ctx.scale, tx * 2.0

    return Cube


def test_custom_function_jvp_matches_torch():
    results = {}
    for lib, (m, fw) in LIBS.items():
        cube = make_cube(m)
        x = t64(m, X, True)
        with fw.dual_level():
            a, b = cube.apply(fw.make_dual(x, t64(m, V)), 0.5)
            ta, tb = fw.unpack_dual(a).tangent, fw.unpack_dual(b).tangent
            (a.sum() + b.sum()).backward()
        results[lib] = (numpy(a), numpy(ta), numpy(tb), numpy(x.grad))
    for ours, theirs in zip(results["minigrad"], results["torch"]):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def make_no_jvp(m):
    class Twice(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    return Twice


def make_bad_count(m):
    class BadCount(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, t):
            return t, t

    return BadCount


def make_bad_shape(m):
    class BadShape(m.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, t):
            return t.sum()

    return BadShape


def in_level(fn):
    """Run ``fn(m, fw, x, v)`` inside a dual level of the library."""

    def run(m, fw):
        with fw.dual_level():
            return fn(m, fw, m.tensor([1.0, 2.0]), m.tensor([1.0, 0.5]))

    return run


# scenario -> fn(m, fw); both libraries must raise the same type, ours starting with torch's text
SCENARIOS = {
    "make_dual outside a level": lambda m, fw: fw.make_dual(m.ones(2), m.ones(2)),
    "exit without a level": lambda m, fw: fw.exit_dual_level(),
    "exit level 0 without a level": lambda m, fw: fw.exit_dual_level(level=0),
    "nested dual_level": in_level(lambda m, fw, x, v: fw.enter_dual_level()),
    "func.jvp inside a dual_level": in_level(lambda m, fw, x, v: m.func.jvp(m.sin, (x,), (v,))),
    "dual_level inside func.jvp": lambda m, fw: m.func.jvp(
        lambda a: fw.dual_level().__enter__(), (m.ones(2),), (m.ones(2),)
    ),
    "exit another level": in_level(lambda m, fw, x, v: fw.exit_dual_level(level=4)),
    "tangent of another size": in_level(lambda m, fw, x, v: fw.make_dual(x, m.ones(3))),
    "tangent that would broadcast": in_level(lambda m, fw, x, v: fw.make_dual(x, m.ones(1))),
    "integer primal": in_level(lambda m, fw, x, v: fw.make_dual(m.tensor([1, 2]), v)),
    "integer tangent": in_level(lambda m, fw, x, v: fw.make_dual(x, m.tensor([1, 2]))),
    "dual of a dual": in_level(lambda m, fw, x, v: fw.make_dual(fw.make_dual(x, v), v)),
    "Function without jvp": in_level(lambda m, fw, x, v: make_no_jvp(m).apply(fw.make_dual(x, v))),
    "jvp returns two tangents": in_level(
        lambda m, fw, x, v: make_bad_count(m).apply(fw.make_dual(x, v))
    ),
    "jvp returns a wrong shape": in_level(
        lambda m, fw, x, v: make_bad_shape(m).apply(fw.make_dual(x, v))
    ),
}


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_errors_match_torch(name):
    caught = {}
    for lib, (m, fw) in LIBS.items():
        with pytest.raises(Exception) as info:
            SCENARIOS[name](m, fw)
        caught[lib] = info.value
        if lib == "torch":  # a failed enter inside a level left torch's level state alone
            while torch_fwad._current_level >= 0:
                torch_fwad.exit_dual_level()
    ours, theirs = caught["minigrad"], caught["torch"]
    assert type(ours) is type(theirs), (ours, theirs)
    sentence = str(theirs).split(" Tensor is of size")[0].replace("torch.", "minigrad.")
    assert str(ours).startswith(sentence), (str(ours), str(theirs))


def test_the_same_cases_succeed_in_both():
    """A plain tensor in a level unpacks to a view with no tangent; outside, to itself."""
    for m, fw in LIBS.values():
        x = m.tensor([1.0, 2.0])
        assert fw.unpack_dual(x).primal is x and fw.unpack_dual(x).tangent is None
        with fw.dual_level() as level:
            assert level == 0
            u = fw.unpack_dual(x)
            assert u.primal is not x and u.tangent is None
            assert fw.unpack_dual(fw.make_dual(x, x) > 1.5).tangent is None  # bool result
            assert fw.unpack_dual(fw.make_dual(x, x).detach()).tangent is None
