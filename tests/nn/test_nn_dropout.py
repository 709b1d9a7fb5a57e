"""Dropout: inverted scaling, eval is identity, seeded masks, gradient = mask * scale."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn


def test_kept_values_are_scaled_and_zeroed_fraction_is_p():
    mg.manual_seed(0)
    x = mg.ones(200, 500)
    out = F.dropout(x, p=0.3).numpy()
    assert set(np.unique(out)) == {0.0, np.float32(1 / 0.7)}
    assert abs((out == 0).mean() - 0.3) < 0.01  # 100000 draws: sd of the fraction ~0.0015
    assert abs(out.mean() - 1.0) < 0.02  # inverted dropout keeps the expectation
    assert out.dtype == np.float32


def test_gradient_is_the_mask_times_the_scale():
    mg.manual_seed(1)
    x = mg.randn(50, 40, dtype=mg.float64, requires_grad=True)
    out = F.dropout(x, p=0.6)
    g = mg.randn(50, 40, dtype=mg.float64)
    out.backward(g)
    factor = out.detach().numpy() / x.detach().numpy()  # the scaled mask, elementwise
    assert set(np.round(np.unique(factor), 12)) == {0.0, round(1 / 0.4, 12)}
    np.testing.assert_allclose(x.grad.numpy(), g.numpy() * factor, rtol=1e-12)
    assert out.grad_fn.name() == "MulBackward0"  # as torch's dropout (MulBackward0)


def test_manual_seed_repeats_the_mask_and_calls_differ():
    mg.manual_seed(7)
    a, b = F.dropout(mg.ones(100)), F.dropout(mg.ones(100))
    mg.manual_seed(7)
    a2 = F.dropout(mg.ones(100))
    assert a.tolist() == a2.tolist() and a.tolist() != b.tolist()


def test_eval_p0_and_p1():
    x = mg.randn(3, 4, requires_grad=True)
    assert F.dropout(x, training=False) is x
    assert F.dropout(x, p=0.0) is x  # PyTorch returns the input itself too
    zero = F.dropout(x, p=1.0)
    assert not zero.detach().numpy().any() and not np.isnan(zero.detach().numpy()).any()
    zero.sum().backward()
    assert not x.grad.numpy().any()
    layer = nn.Dropout(0.5)
    assert layer(x) is not x and layer.eval()(x) is x and layer.train()(x) is not x


def test_inplace_overwrites_the_input_and_keeps_the_gradient():
    mg.manual_seed(3)
    x = mg.ones(1000, requires_grad=True)
    h = x * 1.0
    out = nn.Dropout(0.5, inplace=True)(h)
    assert out is h
    out.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), h.detach().numpy())  # grad = mask * 2
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        F.dropout(mg.ones(3, requires_grad=True), inplace=True)


def test_dropout_on_integer_input_in_eval_is_identity_and_in_training_raises():
    t = mg.arange(3)
    assert F.dropout(t, training=False) is t
    with pytest.raises(RuntimeError, match="floating point"):
        F.dropout(t, 0.5)


def test_module_repr_and_bad_p():
    assert repr(nn.Dropout()) == "Dropout(p=0.5, inplace=False)"
    assert repr(nn.Dropout(0.2, inplace=True)) == "Dropout(p=0.2, inplace=True)"
    for p in (1.5, -0.1, 2):
        with pytest.raises(ValueError, match=f"between 0 and 1, but got {p}"):
            F.dropout(mg.ones(2), p)
        with pytest.raises(ValueError, match=f"between 0 and 1, but got {p}"):
            nn.Dropout(p)
    with pytest.raises(TypeError, match="must be Tensor"):
        F.dropout([1.0, 2.0])


def test_dropout_refuses_to_draw_under_jit():
    f = mg.func.jit(lambda x: F.dropout(x, 0.5)) if hasattr(mg.func, "jit") else None
    if f is None:
        pytest.skip("no jit")
    with pytest.raises(RuntimeError, match="random"):
        f(mg.ones(3))


def test_model_train_eval_switches_dropout_inside_containers():
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 4), nn.ModuleList([nn.Dropout(0.9)])[0])
    x = mg.ones(2, 4)
    model.eval()
    assert model(x).tolist() == model[0](x).tolist()
    model.train()
    assert model(x).tolist() != model[0](x).tolist()


@pytest.mark.oracle
def test_statistics_and_errors_match_torch():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    mg.manual_seed(0)
    ours = F.dropout(mg.ones(100000), 0.25).numpy()
    theirs = torch.nn.functional.dropout(torch.ones(100000), 0.25).numpy()
    assert set(np.unique(ours)) == set(np.unique(theirs))  # {0, 1/(1-p)} in both
    assert abs((ours == 0).mean() - (theirs == 0).mean()) < 0.01
    for call in (
        lambda lib: lib.nn.functional.dropout(lib.ones(2), 1.5),
        lambda lib: lib.nn.Dropout(-1),
        lambda lib: lib.nn.functional.dropout(lib.arange(3), 0.5),
    ):
        with pytest.raises(Exception) as err:
            call(torch)
        with pytest.raises(type(err.value)):
            call(mg)
