"""Saved-tensor hooks (autograd.graph.saved_tensors_hooks, save_on_cpu,
disable_saved_tensors_hooks), grad_fn._saved_<name> and grad_fn._raw_saved_<name>.

PyTorch 2.13 is the oracle where it has the case. Where minigrad checks more on purpose
(an unpacked tensor of another shape or dtype; an in-place change of a tensor a hook kept as
it is), the test says so and shows what PyTorch does.
"""

import weakref

import numpy as np
import pytest

import minigrad as mg
from minigrad.recording.graph import (
    SavedTensor,
    disable_saved_tensors_hooks,
    save_on_cpu,
    saved_tensors_hooks,
)

BACKWARD_TWICE_START = "Trying to backward through the graph a second time"


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


def _logging_hooks(log):
    """Hooks that pack each tensor into a numbered store and log every call."""
    store = []

    def pack(t):
        store.append(t)
        log.append(("pack", len(store) - 1, tuple(t.shape)))
        return len(store) - 1

    def unpack(i):
        log.append(("unpack", i))
        return store[i]

    return pack, unpack


def _mlp_step(lib):
    """A small program: matmul, tanh, mul, exp; the log of every pack and unpack."""
    log = []
    x = lib.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
    w = lib.tensor([[1.0, 2.0], [3.0, -1.0]], requires_grad=True)
    with lib.autograd.graph.saved_tensors_hooks(*_logging_hooks(log)):
        h = (x @ w).tanh()
        loss = (h * x).exp().sum()
    after_forward = list(log)
    loss.backward()
    return after_forward, log, np.asarray(x.grad.detach()), np.asarray(w.grad.detach())


# --- pack and unpack: when, how often, in which order ---------------------------------------
def test_pack_gets_each_saved_tensor_itself_and_unpack_runs_when_backward_reads_it():
    log = []
    x = mg.tensor([0.5, 1.0, 2.0], requires_grad=True)

    def pack(t):
        log.append(("pack", t))
        return t

    def unpack(t):
        log.append(("unpack", t))
        return t

    with saved_tensors_hooks(pack, unpack):
        y = x * x  # Mul saves both operands
        z = y.exp()  # Exp saves its output
    assert [kind for kind, _ in log] == ["pack"] * 3
    assert log[0][1] is x and log[1][1] is x and log[2][1] is z
    z.sum().backward()
    assert [kind for kind, _ in log] == ["pack"] * 3 + ["unpack"] * 3
    np.testing.assert_allclose(x.grad.detach().numpy(), 2 * x.detach().numpy() * z.detach().numpy())


def test_ops_run_outside_the_context_are_not_packed():
    log = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(*_logging_hooks(log)):
        y = x.sin()
    z = y.cos()
    assert len(log) == 1
    z.sum().backward()
    assert [e[0] for e in log] == ["pack", "unpack"]


@pytest.mark.oracle
def test_packs_unpacks_their_order_and_gradients_match_pytorch(torch):
    ours, theirs = _mlp_step(mg), _mlp_step(torch)
    assert ours[0] == theirs[0]  # six packs, in the same order, of the same shapes
    assert ours[1] == theirs[1]  # and backward unpacks them in the same order
    np.testing.assert_allclose(ours[2], theirs[2], rtol=1e-5)
    np.testing.assert_allclose(ours[3], theirs[3], rtol=1e-5)


def test_the_hooks_give_the_same_gradients_as_no_hooks():
    def run(hooks):
        x = mg.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=mg.float64, requires_grad=True)
        with hooks:
            loss = (x.sigmoid() @ x.T).logsumexp(1).sum() + x.abs().sqrt().mean()
        loss.backward()
        return x.grad.detach().numpy()

    plain = run(_NoHooks())
    np.testing.assert_array_equal(run(saved_tensors_hooks(lambda t: t, lambda t: t)), plain)
    copying = saved_tensors_hooks(lambda t: t.detach().numpy().copy(), lambda a: mg.tensor(a))
    np.testing.assert_array_equal(run(copying), plain)


class _NoHooks:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_pack_runs_with_grad_mode_off_and_unpack_runs_in_backwards_mode():
    modes = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    hooks = saved_tensors_hooks(
        lambda t: modes.append(("pack", mg.is_grad_enabled())) or t,
        lambda t: modes.append(("unpack", mg.is_grad_enabled())) or t,
    )
    with hooks:
        y = x.sin()
    y.sum().backward()
    assert modes == [("pack", False), ("unpack", False)]  # as in PyTorch


# --- nesting, and the context itself ---------------------------------------------------------
def test_nested_contexts_the_innermost_pair_applies():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    outer = saved_tensors_hooks(lambda t: seen.append("outer") or t, lambda t: t)
    inner = saved_tensors_hooks(lambda t: seen.append("inner") or t, lambda t: t)
    with outer:
        with inner:
            x.sin()
        x.cos()
    x.exp()
    assert seen == ["inner", "outer"]


def test_a_tensor_is_unpacked_by_the_hooks_it_was_saved_with():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda t: seen.append("first") or t):
        y = x.sin()
    with saved_tensors_hooks(lambda t: t, lambda t: seen.append("second") or t):
        y.sum().backward()
    assert seen == ["first"]


def test_hooks_are_off_again_after_the_block_even_when_it_raises():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(ValueError, match="inside"):
        with saved_tensors_hooks(lambda t: seen.append(1) or t, lambda t: t):
            raise ValueError("inside")
    x.sin()
    assert seen == []


def test_one_context_object_can_be_entered_again():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    hooks = saved_tensors_hooks(lambda t: seen.append(1) or t, lambda t: t)
    for _ in range(2):
        with hooks:
            x.sin()
    assert seen == [1, 1]


@pytest.mark.oracle
def test_hooks_active_during_a_create_graph_backward_pack_the_new_nodes_like_pytorch(torch):
    def run(lib):
        log = []
        x = lib.tensor([0.5, 1.0], requires_grad=True)
        y = x.tanh()
        with lib.autograd.graph.saved_tensors_hooks(*_logging_hooks(log)):
            lib.autograd.grad(y.sum(), x, create_graph=True)
        return log

    assert run(mg) == run(torch) == [("pack", 0, (2,)), ("pack", 1, (2,))]


# --- save_on_cpu -------------------------------------------------------------------------------
def test_save_on_cpu_is_a_saved_tensors_hooks_and_gives_the_same_gradients():
    assert issubclass(save_on_cpu, saved_tensors_hooks)
    for pin in (False, True):
        x = mg.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
        with save_on_cpu(pin_memory=pin):
            loss = (x @ x).tanh().sum()
        loss.backward()
        x2 = mg.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
        (x2 @ x2).tanh().sum().backward()
        np.testing.assert_array_equal(x.grad.detach().numpy(), x2.grad.detach().numpy())


def test_save_on_cpu_pin_memory_keeps_a_copy_and_accepts_device_type():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with save_on_cpu(pin_memory=True, device_type="cuda"):
        y = x.sin()
    device, copy = y.grad_fn._packed[0].value  # what the pack hook returned (internals)
    assert device == mg.device("cpu") and copy is not x
    assert not np.shares_memory(copy.numpy(), x.detach().numpy())
    with save_on_cpu():
        z = x.sin()
    assert z.grad_fn._packed[0].value[1] is x  # nothing to move: kept as it is


@pytest.mark.oracle
def test_save_on_cpu_pin_memory_an_in_place_change_after_saving_does_not_matter(torch):
    def run(lib):
        a = lib.tensor([0.5, 1.0], requires_grad=True)
        b = a * 1
        with lib.autograd.graph.save_on_cpu(pin_memory=True):
            c = b.sin()
        b.add_(1.0)  # the copy was saved, so the gradient is still cos(a)
        c.sum().backward()
        return np.asarray(a.grad.detach())

    np.testing.assert_allclose(run(mg), run(torch), rtol=1e-6)
    np.testing.assert_allclose(run(mg), np.cos([0.5, 1.0]), rtol=1e-6)


def test_save_on_cpu_with_a_sparse_operand():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    grads = []
    for hooks in (_NoHooks(), save_on_cpu(pin_memory=True), save_on_cpu()):
        s = mg.tensor([[1.0, 0.0], [0.0, 2.0]]).to_sparse().requires_grad_()
        with hooks:
            loss = mg.sparse.mm(s, x).sum()
        loss.backward()
        grads.append(s.grad.to_dense().numpy())
    np.testing.assert_array_equal(grads[0], grads[1])
    np.testing.assert_array_equal(grads[0], grads[2])


# --- custom Function ---------------------------------------------------------------------------
class _ScaledMul(mg.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        out = a * b
        ctx.save_for_backward(a, out, None)
        return out

    @staticmethod
    def backward(ctx, g):
        a, out, none = ctx.saved_tensors
        assert none is None
        return g * out / a, g * a


def test_custom_function_save_for_backward_goes_through_the_hooks():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: seen.append(t) or t, lambda t: seen.append("u") or t):
        out = _ScaledMul.apply(x, w)
    assert len(seen) == 2  # the None is not packed
    assert seen[0] is x and seen[1] is out and seen[1].grad_fn is out.grad_fn
    out.sum().backward()
    assert seen[2:] == ["u", "u"]
    np.testing.assert_allclose(x.grad.detach().numpy(), [3.0, 4.0])
    np.testing.assert_allclose(w.grad.detach().numpy(), [1.0, 2.0])


@pytest.mark.oracle
def test_custom_function_unpack_returning_a_non_tensor_raises_like_pytorch(torch):
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class OurTwice(mg.autograd.Function):
        forward = staticmethod(Twice.forward)
        backward = staticmethod(Twice.backward)

    for lib, fn in ((torch, Twice), (mg, OurTwice)):
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: 1):
            out = fn.apply(lib.tensor([1.0], requires_grad=True))
        with pytest.raises(TypeError, match="unpack_hook expected to be a Tensor .* type int"):
            _ = out.grad_fn.saved_tensors


def test_custom_function_raw_saved_tensors_register_hooks():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    w = mg.tensor([3.0, 4.0])
    out = _ScaledMul.apply(x, w)
    raw = out.grad_fn._raw_saved_tensors
    assert len(raw) == 3 and all(isinstance(r, SavedTensor) for r in raw)
    raw[1].register_hooks(lambda t: seen.append("p") or t.detach().numpy(), lambda a: mg.tensor(a))
    assert seen == ["p"]
    with pytest.raises(RuntimeError, match="with value None is forbidden"):
        raw[2].register_hooks(lambda t: t, lambda t: t)
    out.sum().backward()
    np.testing.assert_allclose(x.grad.detach().numpy(), [3.0, 4.0])


# --- retain_graph and double backward ----------------------------------------------------------
def test_retain_graph_unpacks_again_and_the_third_backward_raises():
    log = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(*_logging_hooks(log)):
        y = x.sin()
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert [e[0] for e in log] == ["pack", "unpack", "unpack"]
    np.testing.assert_allclose(x.grad.detach().numpy(), 2 * np.cos([1.0, 2.0]), rtol=1e-6)
    with pytest.raises(RuntimeError, match=BACKWARD_TWICE_START):
        y.sum().backward()


@pytest.mark.oracle
def test_double_backward_with_hooks_matches_pytorch(torch):
    def run(lib):
        log = []
        x = lib.tensor([0.5, 1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(*_logging_hooks(log)):
            y = x.tanh()
            (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
            g.sum().backward()
        return log, np.asarray(x.grad.detach())

    (ours, our_grad), (theirs, their_grad) = run(mg), run(torch)
    assert ours == theirs  # pack 1, unpack 1, pack 2 (TanhBackwardBackward0), unpack 3
    np.testing.assert_allclose(our_grad, their_grad, rtol=1e-6)


@pytest.mark.oracle
def test_double_backward_through_detached_copies_reaches_the_saved_tensors_history(torch):
    def run(lib):
        x = lib.tensor([0.5, 1.0, 2.0], dtype=lib.float64, requires_grad=True)
        w = lib.tensor([1.5, -1.0, 0.5], dtype=lib.float64, requires_grad=True)
        detaching = lib.autograd.graph.saved_tensors_hooks(
            lambda t: t.detach().clone(), lambda p: p
        )
        with detaching:
            y = (x * w * x).sum() + (x * w).exp().sum()
        gx, gw = lib.autograd.grad(y, (x, w), create_graph=True)
        (gx.sum() + (gw * gw).sum()).backward()
        return np.asarray(x.grad.detach()), np.asarray(w.grad.detach())

    for ours, theirs in zip(run(mg), run(torch)):
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_the_unpacked_tensor_takes_the_saved_tensors_place_in_the_graph():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t.detach().clone(), lambda p: p):
        y = x * x
        z = y.exp()
    s = y.grad_fn._saved_self  # a leaf again, accumulating into x (PyTorch: the same)
    assert s is not x and s.requires_grad and s.is_leaf
    r = z.grad_fn._saved_result
    assert r.requires_grad and r.grad_fn is z.grad_fn
    np.testing.assert_array_equal(r.detach().numpy(), z.detach().numpy())


# --- errors ------------------------------------------------------------------------------------
@pytest.mark.oracle
@pytest.mark.parametrize("bad, name", [(3, "int"), (None, "NoneType"), ("x", "str")])
def test_unpack_must_return_a_tensor_as_in_pytorch(torch, bad, name):
    for lib in (torch, mg):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: bad):
            y = x.exp()
        message = f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type {name}"
        with pytest.raises(TypeError, match=message):
            y.sum().backward()
        with pytest.raises(TypeError, match=message):
            _ = y.grad_fn._saved_result


@pytest.mark.oracle
def test_unpack_returning_another_shape_or_dtype_is_refused_here(torch):
    # PyTorch does not check: a (1,) tensor for a (3,) one broadcasts into a wrong gradient,
    # and a float64 one is computed with and cast back. minigrad names the mismatch instead.
    for wrong in (mg.ones(1), mg.ones(5), mg.ones(3, dtype=mg.float64)):
        x = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
        with saved_tensors_hooks(lambda t: t, lambda p, wrong=wrong: wrong):
            y = x.sin()
        with pytest.raises(
            RuntimeError, match="unpack_hook returned a tensor of shape .* SinBackward0"
        ):
            y.sum().backward()
    xt = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: torch.ones(1)):
        yt = xt.sin()
    yt.sum().backward()  # no error in PyTorch: every element got cos(1)
    np.testing.assert_allclose(xt.grad.numpy(), np.cos([1.0, 1.0, 1.0]), rtol=1e-6)


@pytest.mark.oracle
def test_a_pack_hook_that_modifies_its_input_in_place_raises_like_pytorch(torch):
    for lib in (torch, mg):
        b = lib.tensor([1.0, 2.0], requires_grad=True) * 1
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t.add_(1), lambda p: p):
            with pytest.raises(
                RuntimeError, match="A saved tensor pack hook is modifying its input in place"
            ):
                b.sin()


def test_a_pack_hook_error_propagates():
    x = mg.tensor([1.0, 2.0], requires_grad=True)

    def fail(t):
        raise ValueError("cannot pack")

    with saved_tensors_hooks(fail, lambda p: p):
        with pytest.raises(ValueError, match="cannot pack"):
            x.sin()


@pytest.mark.parametrize(
    "pack, unpack, which", [(1, print, "pack_hook"), (print, "u", "unpack_hook")]
)
def test_hooks_must_be_callable(pack, unpack, which):
    with pytest.raises(TypeError, match=f"saved_tensors_hooks: {which} must be callable"):
        saved_tensors_hooks(pack, unpack)
    y = mg.tensor([1.0], requires_grad=True).sin()
    with pytest.raises(TypeError, match=f"register_hooks\\(\\): {which} must be callable"):
        y.grad_fn._raw_saved_self.register_hooks(pack, unpack)


@pytest.mark.oracle
def test_disable_saved_tensors_hooks_refuses_hooks_in_both_orders_like_pytorch(torch):
    for lib in (torch, mg):
        graph = lib.autograd.graph
        with graph.disable_saved_tensors_hooks("no hooks here"):
            with pytest.raises(RuntimeError, match="no hooks here"):
                with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    pass
            x = lib.tensor([1.0], requires_grad=True)
            x.sin().sum().backward()  # saving without hooks is fine
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            with pytest.raises(RuntimeError, match="msg"):
                with graph.disable_saved_tensors_hooks("msg"):
                    pass
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass  # allowed again afterwards


def test_disable_saved_tensors_hooks_nests_and_works_as_a_decorator():
    with disable_saved_tensors_hooks("outer"):
        with disable_saved_tensors_hooks("inner"):
            with pytest.raises(RuntimeError, match="inner"):
                saved_tensors_hooks(print, print).__enter__()
        with pytest.raises(RuntimeError, match="outer"):
            saved_tensors_hooks(print, print).__enter__()

    @disable_saved_tensors_hooks("decorated")
    def f():
        saved_tensors_hooks(print, print).__enter__()

    with pytest.raises(RuntimeError, match="decorated"):
        f()
    with saved_tensors_hooks(print, print):
        pass
    with pytest.raises(TypeError, match="error_message must be a str, got int"):
        with disable_saved_tensors_hooks(3):
            pass


# --- in-place changes and version counters -----------------------------------------------------
def test_without_hooks_an_in_place_change_is_still_caught():
    b = mg.tensor([0.5, 1.0], requires_grad=True) * 1
    c = b.sin()
    b.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


@pytest.mark.oracle
@pytest.mark.parametrize("keep", ["itself", "detach", "save_on_cpu"])
def test_an_in_place_change_to_a_tensor_the_hook_kept_as_it_is_is_caught_here(torch, keep):
    # PyTorch checks no versions through hooks: it silently gives the gradient of the new
    # values, cos(a + 1). minigrad raises its in-place error while the memory is shared.
    def hooks(lib):
        if keep == "save_on_cpu":
            return lib.autograd.graph.save_on_cpu()
        pack = (lambda t: t) if keep == "itself" else (lambda t: t.detach())
        return lib.autograd.graph.saved_tensors_hooks(pack, lambda p: p)

    a = torch.tensor([0.5, 1.0], requires_grad=True)
    b = a * 1
    with hooks(torch):
        c = b.sin()
    b.add_(1.0)
    c.sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), np.cos([1.5, 2.0]), rtol=1e-6)

    b = mg.tensor([0.5, 1.0], requires_grad=True) * 1
    with hooks(mg):
        c = b.sin()
    b.add_(1.0)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        c.sum().backward()


def test_an_in_place_change_to_a_saved_output_kept_as_it_is_is_caught():
    x = mg.tensor([0.5, 1.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t, lambda p: p):
        y = (x * 1).exp()
    y.mul_(2.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()


def test_a_hook_that_copied_is_not_affected_by_a_later_in_place_change():
    a = mg.tensor([0.5, 1.0], requires_grad=True)
    b = a * 1
    with saved_tensors_hooks(lambda t: t.detach().clone(), lambda p: p):
        c = b.sin()
        d = b.exp()
    b.add_(1.0)
    d.mul_(3.0)
    (c.sum() + d.sum()).backward()  # the copies hold the values at save time
    want = np.cos([0.5, 1.0]) + 3.0 * np.exp([0.5, 1.0])
    np.testing.assert_allclose(a.grad.detach().numpy(), want, rtol=1e-6)


# --- grad_fn._saved_<name> ---------------------------------------------------------------------
_X = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
_Y = np.array([[1.0, 2.0, -0.5], [0.5, -2.0, 3.0]])
_M = np.array([[1.0, 0.5], [-1.0, 2.0], [0.25, 1.0]])

# op -> the _saved_ names a tutorial would poke at (PyTorch's, all present in both libraries)
SAVED_CASES = {
    "mul": (lambda x, y, m: x * y, {"self", "other"}),
    "div": (lambda x, y, m: x / y, {"self", "other"}),
    "add": (lambda x, y, m: x + y, {"alpha"}),
    "sub": (lambda x, y, m: x - y, {"alpha"}),
    "mul_number": (lambda x, y, m: x * 2.0, {"self", "other"}),
    "mul_int": (lambda x, y, m: x * 3, {"self", "other"}),
    "div_number": (lambda x, y, m: x / 4.0, {"self", "other"}),
    "pow_number": (lambda x, y, m: x**2, {"self", "exponent"}),
    "pow_float": (lambda x, y, m: x.abs() ** 2.5, {"self", "exponent"}),
    "pow_tensor": (lambda x, y, m: x.abs() ** y, {"self", "exponent", "result"}),
    "rpow": (lambda x, y, m: 2.0**x, {"self", "result"}),
    "exp": (lambda x, y, m: x.exp(), {"result"}),
    "log": (lambda x, y, m: x.abs().log(), {"self"}),
    "sqrt": (lambda x, y, m: x.abs().sqrt(), {"result"}),
    "sin": (lambda x, y, m: x.sin(), {"self"}),
    "cos": (lambda x, y, m: x.cos(), {"self"}),
    "tanh": (lambda x, y, m: x.tanh(), {"result"}),
    "sigmoid": (lambda x, y, m: x.sigmoid(), {"result"}),
    "relu": (lambda x, y, m: x.relu(), {"result"}),
    "abs": (lambda x, y, m: x.abs(), {"self"}),
    "clamp": (lambda x, y, m: x.clamp(min=0.0, max=1.0), {"self", "min", "max"}),
    "sum_dim": (lambda x, y, m: x.sum(1), {"dim", "keepdim", "self_sym_sizes"}),
    "sum_keepdim": (lambda x, y, m: x.sum((0, 1), keepdim=True), {"dim", "keepdim"}),
    "mean_dim": (lambda x, y, m: x.mean(0), {"dim", "keepdim", "self_sym_sizes", "self_sym_numel"}),
    "max_all": (lambda x, y, m: x.max(), {"self", "result"}),
    "max_dim": (lambda x, y, m: x.max(1)[0], {"dim", "keepdim", "indices", "self_sym_sizes"}),
    "amax": (lambda x, y, m: x.amax(1), {"self", "result", "dim", "keepdim"}),
    "var_dim": (lambda x, y, m: x.var(1), {"self", "dim", "keepdim", "correction"}),
    "var_correction": (lambda x, y, m: x.var(0, correction=0), {"correction"}),
    "logsumexp": (lambda x, y, m: x.logsumexp(1), {"self", "result", "dim", "keepdim"}),
    "softmax": (lambda x, y, m: x.softmax(1), {"result", "dim"}),
    "log_softmax": (lambda x, y, m: x.log_softmax(0), {"result", "dim"}),
    "mm": (lambda x, y, m: x.mm(m), {"self", "mat2"}),
    "matmul": (lambda x, y, m: x @ m, {"self", "mat2"}),
    "reshape": (lambda x, y, m: x.reshape(3, 2), {"self_sym_sizes"}),
    "expand": (lambda x, y, m: x[0].expand(2, 3), {"self_sym_sizes"}),
    "permute": (lambda x, y, m: x.permute(1, 0), {"dims"}),
}
# the few where minigrad keeps another tensor than PyTorch (so those names differ)
_ONLY_TORCH = {"rpow": {"exponent"}}


def _plain(v):
    """A saved value in a form both libraries' values compare in."""
    if hasattr(v, "detach") and hasattr(v, "shape"):
        return (
            "tensor",
            tuple(v.shape),
            v.dtype.__repr__().split(".")[-1],
            np.asarray(v.detach()).tolist(),
        )
    if isinstance(v, tuple):
        return tuple(v)
    return v


@pytest.mark.oracle
@pytest.mark.parametrize("case", sorted(SAVED_CASES))
def test_saved_attributes_have_pytorchs_names_and_values(torch, case):
    fn, names = SAVED_CASES[case]
    nodes = []
    for lib in (torch, mg):
        x, y, m = (lib.tensor(a, requires_grad=True) for a in (_X, _Y, _M))
        nodes.append(fn(x, y, m).grad_fn)
    theirs, ours = nodes
    for name in names - _ONLY_TORCH.get(case, set()):
        got = _plain(getattr(ours, "_saved_" + name))
        want = _plain(getattr(theirs, "_saved_" + name))
        if isinstance(want, tuple) and want[:1] == ("tensor",):
            assert got[:3] == want[:3], name  # shape and dtype
            np.testing.assert_allclose(got[3], want[3], rtol=1e-6, err_msg=name)
        else:
            assert got == want, name
    torch_names = {a for a in dir(theirs) if a.startswith("_saved_")}
    our_names = {a for a in dir(ours) if a.startswith("_saved_")}
    missing = {n for n in torch_names - our_names if "sym_strides" not in n and "mat2_sym" not in n}
    missing -= {"_saved_self_sym_sizes"} if case in ("mm", "matmul") else set()
    assert missing == {"_saved_" + n for n in _ONLY_TORCH.get(case, set())}


def test_saved_input_is_the_tensor_itself_and_saved_result_equals_the_output():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    assert y.grad_fn._saved_self is x and y.grad_fn._saved_exponent == 2
    z = x.exp()
    r = z.grad_fn._saved_result
    np.testing.assert_array_equal(r.detach().numpy(), z.detach().numpy())
    assert r.grad_fn is z.grad_fn


def test_saved_attributes_go_through_the_hooks_and_the_version_check():
    seen = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    with saved_tensors_hooks(lambda t: t.detach().clone(), lambda p: seen.append(1) or p):
        y = x.sin()
    _ = y.grad_fn._saved_self
    _ = y.grad_fn._saved_self
    assert seen == [1, 1]  # each read unpacks, as in PyTorch
    b = x * 1
    c = b.cos()
    b.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        _ = c.grad_fn._saved_self


@pytest.mark.oracle
def test_after_backward_saved_tensors_raise_and_other_values_stay_like_pytorch(torch):
    for lib in (torch, mg):
        x = lib.tensor(_X, requires_grad=True)
        y = (x * x).sum(1)
        y.sum().backward()
        with pytest.raises(RuntimeError, match=BACKWARD_TWICE_START):
            _ = y.grad_fn.next_functions[0][0]._saved_self
        assert tuple(y.grad_fn._saved_dim) == (1,)
        assert tuple(y.grad_fn._saved_self_sym_sizes) == (2, 3)


def test_unknown_saved_names_are_attribute_errors():
    y = mg.tensor([1.0], requires_grad=True).exp()
    for name in ("_saved_foo", "_raw_saved_foo", "_raw_saved_dim"):
        with pytest.raises(AttributeError, match=name):
            getattr(y.grad_fn, name)


# --- grad_fn._raw_saved_<name>.register_hooks --------------------------------------------------
def test_register_hooks_packs_at_once_and_unpacks_when_read():
    log = []
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self
    assert isinstance(raw, SavedTensor)
    raw.register_hooks(
        lambda t: log.append("pack") or t.tolist(), lambda p: log.append(p) or mg.tensor(p)
    )
    assert log == ["pack"]
    y.sum().backward()
    assert log == ["pack", [1.0, 2.0]]
    np.testing.assert_array_equal(x.grad.detach().numpy(), [2.0, 4.0])


def test_register_hooks_on_a_saved_output():
    log = []
    x = mg.tensor([0.5, 1.0], requires_grad=True)
    y = x.tanh()
    y.grad_fn._raw_saved_result.register_hooks(
        lambda t: log.append("pack") or t.detach().numpy().copy(),
        lambda a: log.append("u") or mg.tensor(a),
    )
    y.sum().backward()
    assert log == ["pack", "u"]
    np.testing.assert_allclose(x.grad.detach().numpy(), 1 - np.tanh([0.5, 1.0]) ** 2, rtol=1e-6)


@pytest.mark.oracle
def test_register_hooks_errors_match_pytorch(torch):
    for lib in (torch, mg):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x.sin()
        raw = y.grad_fn._raw_saved_self
        raw.register_hooks(lambda t: t, lambda t: t)
        with pytest.raises(RuntimeError, match="whose hooks have already been set"):
            raw.register_hooks(lambda t: t, lambda t: t)
        with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            z = x.cos()
        with pytest.raises(RuntimeError, match="whose hooks have already been set"):
            z.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
        y.sum().backward()
        with pytest.raises(
            RuntimeError, match="Calling register_hooks on a saved tensor after it has been freed"
        ):
            y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)
        with pytest.raises(RuntimeError, match=BACKWARD_TWICE_START):
            _ = y.grad_fn._saved_self


# --- memory and introspection ------------------------------------------------------------------
class _Box:
    """Something a pack hook returns, that can be watched with a weak reference."""

    def __init__(self, t):
        self.t = t.detach().clone()


def test_what_pack_returned_is_released_after_backward(no_gc):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    packed = []

    def pack(t):
        box = _Box(t)
        packed.append(weakref.ref(box))
        return box

    with saved_tensors_hooks(pack, lambda b: b.t):
        loss = (x * x).exp().sum()
    assert all(ref() is not None for ref in packed) and len(packed) == 3
    loss.backward()
    assert all(ref() is None for ref in packed)


def test_trace_describes_packed_tensors_without_unpacking_them():
    unpacked = []
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with saved_tensors_hooks(lambda t: t.detach().clone(), lambda p: unpacked.append(1) or p):
        loss = (x.tanh() * x).sum()
    saved = {n.name: [(s.shape, s.dtype) for s in n.saved] for n in mg.trace.graph(loss).nodes}
    assert saved["MulBackward0"] == [((2, 2), "float32")] * 2
    assert saved["TanhBackward0"] == [((2, 2), "float32")]
    assert unpacked == []


def test_register_hooks_after_an_in_place_change_still_reports_it():
    b = mg.tensor([0.5, 1.0], requires_grad=True) * 1
    c = b.sin()
    b.add_(1.0)  # modified after Sin saved it, before the hooks were registered
    c.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda p: p)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        c.sum().backward()


@pytest.mark.parametrize("keep", ["copy", "itself"])
def test_gradcheck_and_gradgradcheck_pass_with_hooks_on(keep):
    pack = (lambda t: t.detach().clone()) if keep == "copy" else (lambda t: t)
    x = mg.tensor([[0.5, -1.0], [2.0, 0.25]], dtype=mg.float64, requires_grad=True)
    w = mg.tensor([[1.0, 0.5], [-0.5, 2.0]], dtype=mg.float64, requires_grad=True)

    def f(x, w):
        return ((x @ w).tanh() * x).exp().sum(1) + (x / w).sigmoid().logsumexp(0)

    with saved_tensors_hooks(pack, lambda p: p):
        assert mg.autograd.gradcheck(f, (x, w))
        assert mg.autograd.gradgradcheck(f, (x, w))
