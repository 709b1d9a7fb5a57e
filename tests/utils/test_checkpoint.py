"""Activation checkpointing: same gradients, fewer saved bytes, RNG restored, bad input."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.utils.checkpoint import checkpoint, saved_tensor_bytes


def _mlp(seed=0):
    mg.manual_seed(seed)
    return mg.nn.Sequential(
        mg.nn.Linear(6, 16), mg.nn.Tanh(), mg.nn.Linear(16, 16), mg.nn.ReLU(), mg.nn.Linear(16, 3)
    ).double()


def _grads(model, x):
    return [p.grad.numpy().copy() for p in model.parameters()] + [x.grad.numpy().copy()]


def _run(use_checkpoint, **kwargs):
    model = _mlp()
    mg.manual_seed(1)
    x = mg.randn(5, 6, dtype=mg.float64, requires_grad=True)
    h = checkpoint(model, x, **kwargs) if use_checkpoint else model(x)
    loss = (h * h).sum()
    return loss, model, x


@pytest.mark.parametrize("use_reentrant", [False, True])
def test_gradients_identical_to_unchecked_float64(use_reentrant):
    loss, model, x = _run(False)
    loss.backward()
    expected = _grads(model, x)
    loss_c, model_c, x_c = _run(True, use_reentrant=use_reentrant)
    assert loss_c.item() == loss.item()
    loss_c.backward()
    for got, want in zip(_grads(model_c, x_c), expected):
        np.testing.assert_array_equal(got, want)  # exact: same ops on the same inputs


def test_checkpoint_reduces_saved_tensor_bytes():
    plain, _, _ = _run(False)
    checked, _, x = _run(True)
    assert saved_tensor_bytes(checked) < saved_tensor_bytes(plain)
    # what remains: the checkpoint node keeps x, and the final h*h keeps h twice
    names = [n.name for n in mg.trace.graph(checked).nodes if n.kind == "op"]
    assert names.count("CheckpointFunctionBackward") == 1
    assert not any(n.startswith(("AddmmBackward0", "MmBackward0", "TanhBackward0")) for n in names)
    assert saved_tensor_bytes(checked) == x._data.nbytes + 2 * 5 * 3 * 8


def test_saved_tensor_bytes_counts_each_saved_tensor():
    x = mg.ones(10, requires_grad=True)
    assert saved_tensor_bytes((x * x).sum()) == 2 * 40
    assert saved_tensor_bytes(x.sum()) == 0


def test_rng_state_restored_for_recomputation():
    w = mg.randn(4, 4, dtype=mg.float64, requires_grad=True)

    def block(t):
        mask = (mg.rand(*t.shape, dtype=mg.float64) > 0.5).double()  # dropout-like
        return (t @ w).tanh() * mask * 2.0

    def grads(use_checkpoint):
        w.grad = None
        mg.manual_seed(7)
        x = mg.randn(3, 4, dtype=mg.float64, requires_grad=True)
        y = checkpoint(block, x) if use_checkpoint else block(x)
        mg.rand(100)  # the generator moves on before backward
        y.sum().backward()
        return x.grad.numpy().copy(), w.grad.numpy().copy(), y.detach().numpy().copy()

    for got, want in zip(grads(True), grads(False)):
        np.testing.assert_array_equal(got, want)


def test_rng_not_preserved_gives_different_mask_and_rng_continues():
    x = mg.ones(50, dtype=mg.float64, requires_grad=True)

    def block(t):
        return t * (mg.rand(50, dtype=mg.float64) > 0.5).double()

    mg.manual_seed(3)
    y = checkpoint(block, x, preserve_rng_state=False)
    y.sum().backward()
    assert not np.array_equal(x.grad.numpy(), y.detach().numpy())  # recomputed with another mask
    # with preservation the mask used in backward is the forward one, and backward
    # leaves the generator where it was
    x.grad = None
    mg.manual_seed(3)
    y = checkpoint(block, x)
    state = mg.get_rng_state().tolist()
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())
    assert mg.get_rng_state().tolist() == state


def test_nested_and_multiple_checkpoints():
    mg.manual_seed(0)
    a = mg.nn.Linear(4, 4).double()
    b = mg.nn.Linear(4, 4).double()
    x = mg.randn(2, 4, dtype=mg.float64, requires_grad=True)

    def inner(t):
        return a(t).tanh()

    def outer(t):
        return b(checkpoint(inner, t)).relu()

    def grads(f):
        for p in (*a.parameters(), *b.parameters(), x):
            p.grad = None
        f(x).pow(2).sum().backward()
        return [p.grad.numpy().copy() for p in (*a.parameters(), *b.parameters(), x)]

    want = grads(lambda t: b(a(t).tanh()).relu())
    for f in (lambda t: checkpoint(outer, t), lambda t: checkpoint(b, checkpoint(inner, t)).relu()):
        for got, w in zip(grads(f), want):
            np.testing.assert_array_equal(got, w)


def test_tuple_outputs_and_non_tensor_args():
    x = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    y = mg.tensor([3.0, 4.0], dtype=mg.float64, requires_grad=True)
    s, d = checkpoint(lambda p, q, k: (p * q * k, p - q), x, y, 2.0)
    (s.sum() + 3 * d.sum()).backward()
    np.testing.assert_array_equal(x.grad.numpy(), [2 * 3 + 3, 2 * 4 + 3])
    np.testing.assert_array_equal(y.grad.numpy(), [2 * 1 - 3, 2 * 2 - 3])


def test_not_callable_raises():
    with pytest.raises(TypeError, match="must be callable, got Tensor"):
        checkpoint(mg.ones(2), mg.ones(2))


def test_reentrant_without_grad_inputs_warns_like_torch():
    lin = mg.nn.Linear(2, 2)
    with pytest.warns(UserWarning, match="None of the inputs have requires_grad=True"):
        out = checkpoint(lin, mg.ones(1, 2), use_reentrant=True)
    assert not out.requires_grad and lin.weight.grad is None


def test_non_reentrant_without_grad_inputs_still_reaches_parameters():
    lin = mg.nn.Linear(2, 2)
    out = checkpoint(lin, mg.ones(1, 2))
    out.sum().backward()
    np.testing.assert_array_equal(lin.weight.grad.numpy(), np.ones((2, 2)))


def test_keyword_arguments_reach_function_unless_reentrant():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    checkpoint(lambda t, scale: t * scale, x, scale=3.0).sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [3.0, 3.0])
    with pytest.raises(ValueError, match="Unexpected keyword arguments: foo"):
        checkpoint(lambda t, foo: t, x, foo=1, use_reentrant=True)


def test_memory_report_shows_saved_bytes_removed():
    plain, _, _ = _run(False)
    checked, _, _ = _run(True)
    want_plain, want_checked = saved_tensor_bytes(plain), saved_tensor_bytes(checked)
    r_plain, r_checked = mg.sparse.memory_report(plain), mg.sparse.memory_report(checked)
    assert (r_plain.saved_bytes, r_checked.saved_bytes) == (want_plain, want_checked)
    assert r_checked.saved_bytes < r_plain.saved_bytes
    assert "saved tensors: " in str(r_checked)


def test_recomputation_runs_under_the_forward_autocast_state():
    mg.manual_seed(0)
    lin = mg.nn.Linear(4, 4)
    x = mg.randn(3, 4, requires_grad=True)

    def grads(use_checkpoint):
        lin.zero_grad()
        x.grad = None
        with mg.autocast(dtype=mg.float16):
            h = checkpoint(lin, x) if use_checkpoint else lin(x)
            assert h.dtype is mg.float16
            loss = h.tanh().sum()
        loss.backward()  # outside the region: the recomputation still uses float16
        return [t.grad.numpy().copy() for t in (lin.weight, lin.bias, x)]

    for got, want in zip(grads(True), grads(False)):
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, want)
