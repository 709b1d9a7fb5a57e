"""Layers: Linear (shapes, init, seeding), activations, Sequential, loss modules."""

import math
from collections import OrderedDict

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F
from minigrad import nn


# --- Linear -----------------------------------------------------------------------------
def test_linear_shapes_dtype_and_forward():
    layer = nn.Linear(4, 3)
    assert layer.weight.shape == (3, 4) and layer.bias.shape == (3,)
    assert layer.weight.dtype is mg.float32
    x = mg.randn(5, 4)
    expected = x.detach().numpy() @ layer.weight.detach().numpy().T + layer.bias.detach().numpy()
    np.testing.assert_allclose(layer(x).detach().numpy(), expected, rtol=1e-6)
    assert layer(mg.randn(4)).shape == (3,)
    assert layer(mg.randn(2, 7, 4)).shape == (2, 7, 3)


def test_linear_float64_and_no_bias():
    layer = nn.Linear(2, 2, bias=False, dtype=mg.float64)
    assert layer.bias is None and layer.weight.dtype is mg.float64
    assert "bias" in layer._parameters
    assert repr(layer) == "Linear(in_features=2, out_features=2, bias=False)"


@pytest.mark.parametrize("fan_in", [1, 4, 100])
def test_linear_init_bound_is_one_over_sqrt_fan_in(fan_in):
    mg.manual_seed(1)
    layer = nn.Linear(fan_in, 200)
    bound = 1 / math.sqrt(fan_in)
    for p in (layer.weight, layer.bias):
        assert np.abs(p.detach().numpy()).max() <= bound
        assert np.abs(p.detach().numpy()).max() > 0.9 * bound  # the whole range is used
        assert abs(p.detach().numpy().mean()) < 0.2 * bound


def test_linear_init_is_seeded_and_drawn_as_pytorchs_kaiming_uniform():
    mg.manual_seed(5)
    a = nn.Linear(3, 2)
    # PyTorch's kaiming_uniform_(a=sqrt(5)): bound = sqrt(3) * gain / sqrt(fan_in), gain = sqrt(2 / 6)
    bound = math.sqrt(3.0) * (math.sqrt(2.0 / (1 + math.sqrt(5) ** 2)) / math.sqrt(3))
    mg.manual_seed(5)
    w = mg.empty(2, 3).uniform_(-bound, bound)
    b = mg.empty(2).uniform_(-1 / math.sqrt(3), 1 / math.sqrt(3))
    np.testing.assert_array_equal(a.weight.detach().numpy(), w.numpy())
    np.testing.assert_array_equal(a.bias.detach().numpy(), b.numpy())
    assert np.abs(a.weight.detach().numpy()).max() <= 1 / math.sqrt(3)
    mg.manual_seed(5)
    np.testing.assert_array_equal(
        nn.Linear(3, 2).weight.detach().numpy(), a.weight.detach().numpy()
    )


def test_linear_zero_in_features():
    layer = nn.Linear(0, 2)
    assert layer.weight.shape == (2, 0) and not layer.bias.detach().numpy().any()
    assert layer(mg.zeros(3, 0)).shape == (3, 2)


def test_linear_wrong_input_size_names_shapes():
    with pytest.raises(
        RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(5x3 and 4x2\)"
    ):
        nn.Linear(4, 2)(mg.ones(5, 3))


def test_linear_gradients():
    layer = nn.Linear(3, 2, dtype=mg.float64)
    x = mg.randn(4, 3, dtype=mg.float64)
    layer(x).sum().backward()
    np.testing.assert_allclose(
        layer.weight.grad.numpy(), np.tile(x.detach().numpy().sum(0), (2, 1))
    )
    np.testing.assert_allclose(layer.bias.grad.numpy(), [4.0, 4.0])


# --- activations ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "module, fn",
    [
        (nn.ReLU(), lambda a: np.maximum(a, 0)),
        (nn.Tanh(), np.tanh),
        (nn.Sigmoid(), lambda a: 1 / (1 + np.exp(-a))),
        (nn.SiLU(), lambda a: a / (1 + np.exp(-a))),
        (nn.LogSigmoid(), lambda a: -np.log1p(np.exp(-a))),
        (nn.ReLU6(), lambda a: np.clip(a, 0, 6)),
        (nn.Softsign(), lambda a: a / (1 + np.abs(a))),
    ],
)
def test_activation_modules(module, fn):
    x = mg.tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
    np.testing.assert_allclose(module(x).detach().numpy(), fn(x.detach().numpy()), rtol=1e-6)
    assert repr(module) == type(module).__name__ + "()"


def test_relu_inplace_overwrites_input_and_keeps_gradient():
    x = mg.tensor([-1.0, 2.0, 0.0], requires_grad=True)
    h = x * 1.0
    out = nn.ReLU(inplace=True)(h)
    assert out is h and h.tolist() == [0.0, 2.0, 0.0]
    out.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 0.0]
    assert repr(nn.ReLU(inplace=True)) == "ReLU(inplace=True)"
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        F.relu(mg.ones(1, requires_grad=True), inplace=True)


@pytest.mark.parametrize(
    ("module", "text", "fn"),
    [
        (nn.LeakyReLU(), "LeakyReLU(negative_slope=0.01)", lambda a: np.where(a > 0, a, a / 100)),
        (nn.LeakyReLU(0.2, True), "LeakyReLU(negative_slope=0.2, inplace=True)", None),
        (nn.SiLU(inplace=True), "SiLU(inplace=True)", None),
        (nn.GELU(), "GELU(approximate='none')", None),
        (nn.GELU("tanh"), "GELU(approximate='tanh')", None),
        (nn.ELU(), "ELU(alpha=1.0)", lambda a: np.where(a > 0, a, np.expm1(a))),
        (nn.ELU(0.5, inplace=True), "ELU(alpha=0.5, inplace=True)", None),
        (nn.Softplus(), "Softplus(beta=1.0, threshold=20.0)", lambda a: np.log1p(np.exp(a))),
        (nn.Softplus(2, 10), "Softplus(beta=2, threshold=10)", None),
        (nn.Hardtanh(), "Hardtanh(min_val=-1.0, max_val=1.0)", lambda a: np.clip(a, -1, 1)),
        (nn.Hardtanh(-2, 2, True), "Hardtanh(min_val=-2, max_val=2, inplace=True)", None),
        (nn.ReLU6(True), "ReLU6(inplace=True)", None),
    ],
)
def test_parametrized_activation_modules(module, text, fn):
    """The repr shows the settings as PyTorch's does; the module calls its functional form."""
    assert repr(module) == text
    x = mg.tensor([-2.0, -0.5, 0.0, 0.5, 2.0])
    if fn is not None:
        np.testing.assert_allclose(module(x).numpy(), fn(x.numpy()), rtol=1e-6)


def test_activation_module_settings():
    assert isinstance(nn.ReLU6(), nn.Hardtanh)
    assert (nn.ReLU6().min_val, nn.ReLU6().max_val, nn.ReLU6().inplace) == (0.0, 6.0, False)
    assert nn.LeakyReLU(0.3).negative_slope == 0.3 and nn.ELU(2.0).alpha == 2.0
    with pytest.raises(AssertionError, match=r"max_val \(1\) must be greater than min_val \(2\)"):
        nn.Hardtanh(2, 1)  # as PyTorch's (F.hardtanh itself allows equal bounds)
    bad = nn.GELU("exact")  # accepted here, refused when called: as PyTorch
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        bad(mg.ones(2))
    h = mg.tensor([-1.0, 2.0], requires_grad=True) * 1.0
    assert nn.LeakyReLU(0.5, inplace=True)(h) is h and h.tolist() == [-0.5, 2.0]


# --- Sequential -------------------------------------------------------------------------
def test_sequential_forward_is_composition():
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1))
    x = mg.randn(4, 2)
    manual = model[2](model[1](model[0](x)))
    np.testing.assert_array_equal(model(x).detach().numpy(), manual.detach().numpy())


def test_sequential_len_iter_index_slice_append():
    a, b, c = nn.ReLU(), nn.Tanh(), nn.Sigmoid()
    model = nn.Sequential(a, b)
    assert len(model) == 2 and list(model) == [a, b]
    assert model[0] is a and model[-1] is b
    assert model.append(c) is model and model[2] is c
    tail = model[1:]
    assert isinstance(tail, nn.Sequential) and list(tail) == [b, c]
    assert [n for n, _ in tail.named_children()] == ["1", "2"]  # names kept, as PyTorch
    with pytest.raises(IndexError, match="index 3 is out of range"):
        model[3]


def test_sequential_setitem_delitem_extend_ordereddict():
    model = nn.Sequential(OrderedDict([("first", nn.ReLU()), ("second", nn.Tanh())]))
    assert [n for n, _ in model.named_children()] == ["first", "second"]
    model[0] = nn.Sigmoid()
    assert isinstance(model.first, nn.Sigmoid)
    del model[0]
    assert [n for n, _ in model.named_children()] == ["0"]
    model.extend([nn.ReLU(), nn.ReLU()])
    assert len(model) == 3


def test_empty_sequential_is_identity():
    x = mg.ones(2)
    assert nn.Sequential()(x) is x and repr(nn.Sequential()) == "Sequential()"


# --- loss modules -------------------------------------------------------------------------
def test_loss_modules_match_functional():
    x = mg.randn(4, 3)
    y = mg.tensor([0, 2, 1, 2])
    w = mg.tensor([1.0, 2.0, 0.5])
    ce = nn.CrossEntropyLoss(weight=w, ignore_index=1, reduction="sum", label_smoothing=0.1)
    expected = F.cross_entropy(x, y, w, ignore_index=1, reduction="sum", label_smoothing=0.1)
    assert ce(x, y).item() == expected.item()
    logp = F.log_softmax(x, 1)
    assert nn.NLLLoss(w)(logp, y).item() == F.nll_loss(logp, y, w).item()
    t = mg.rand(4, 3)
    assert nn.MSELoss(reduction="none")(x, t).shape == (4, 3)
    bce = nn.BCEWithLogitsLoss(pos_weight=mg.tensor([2.0, 1.0, 1.0]))
    pw = mg.tensor([2.0, 1.0, 1.0])
    assert bce(x, t).item() == F.binary_cross_entropy_with_logits(x, t, pos_weight=pw).item()


def test_loss_weight_is_a_buffer_in_state_dict():
    ce = nn.CrossEntropyLoss(weight=mg.tensor([1.0, 2.0]))
    assert list(ce.state_dict()) == ["weight"] and repr(ce) == "CrossEntropyLoss()"
    assert list(nn.CrossEntropyLoss().state_dict()) == []


def test_loss_module_bad_reduction_and_legacy_flags():
    with pytest.raises(ValueError, match="avg is not a valid value for reduction"):
        nn.MSELoss(reduction="avg")
    with pytest.warns(UserWarning, match="please use reduction='sum' instead"):
        loss = nn.MSELoss(size_average=False)
    assert loss.reduction == "sum"


def test_model_with_loss_trains_parameters_only():
    model = nn.Sequential(nn.Linear(2, 2), nn.CrossEntropyLoss(weight=mg.ones(2)))
    assert len(list(model.parameters())) == 2 and len(list(model.buffers())) == 1
