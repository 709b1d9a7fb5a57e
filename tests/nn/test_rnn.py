"""nn.RNNCell / LSTMCell / GRUCell and nn.RNN / LSTM / GRU without PyTorch: shapes, names,
init, reprs, gradcheck, long sequences and bad input (PyTorch's oracle: test_rnn_oracle.py)."""

import math
import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn
from minigrad.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(0)


def t64(*shape, grad=False):
    return mg.tensor(RNG.standard_normal(shape), dtype=mg.float64, requires_grad=grad)


@pytest.mark.parametrize(("cls", "gates"), [(nn.RNNCell, 1), (nn.LSTMCell, 4), (nn.GRUCell, 3)])
def test_cell_parameter_names_shapes_and_init_bound(cls, gates):
    mg.manual_seed(0)
    cell = cls(3, 16)
    shapes = [(n, p.shape) for n, p in cell.named_parameters()]
    rows = gates * 16
    assert shapes == [
        ("weight_ih", (rows, 3)),
        ("weight_hh", (rows, 16)),
        ("bias_ih", (rows,)),
        ("bias_hh", (rows,)),
    ]
    bound = 1 / math.sqrt(16)
    for p in cell.parameters():
        assert p.dtype == mg.float32
        assert np.abs(p.detach().numpy()).max() <= bound
        assert np.abs(p.detach().numpy()).max() > 0.8 * bound  # spread over the whole interval
    no_bias = cls(3, 16, bias=False)
    assert [n for n, _ in no_bias.named_parameters()] == ["weight_ih", "weight_hh"]
    assert no_bias.bias_ih is None


def test_init_is_seeded_and_in_parameter_order():
    mg.manual_seed(3)
    a = nn.LSTM(2, 3, num_layers=2)
    mg.manual_seed(3)
    b = nn.LSTM(2, 3, num_layers=2)
    mg.manual_seed(3)
    first = mg.rand(12, 2) * (2 / math.sqrt(3)) - 1 / math.sqrt(3)
    np.testing.assert_allclose(a.weight_ih_l0.detach().numpy(), first.numpy(), rtol=1e-6)
    for p, q in zip(a.parameters(), b.parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())


def test_reprs_follow_pytorch():
    assert repr(nn.RNNCell(3, 4)) == "RNNCell(3, 4)"
    assert (
        repr(nn.RNNCell(3, 4, bias=False, nonlinearity="relu"))
        == "RNNCell(3, 4, bias=False, nonlinearity=relu)"
    )
    assert repr(nn.LSTMCell(3, 4)) == "LSTMCell(3, 4)"
    assert repr(nn.GRUCell(3, 4, bias=False)) == "GRUCell(3, 4, bias=False)"
    assert repr(nn.RNN(3, 4, nonlinearity="relu")) == "RNN(3, 4)"
    assert repr(nn.GRU(3, 4, bias=False)) == "GRU(3, 4, bias=False)"
    lstm = nn.LSTM(3, 4, 2, batch_first=True, dropout=0.5, bidirectional=True)
    assert (
        repr(lstm) == "LSTM(3, 4, num_layers=2, batch_first=True, dropout=0.5, bidirectional=True)"
    )


@pytest.mark.parametrize("cls", [nn.RNNCell, nn.LSTMCell, nn.GRUCell])
def test_cell_shapes_batched_unbatched_and_zero_state(cls):
    cell = cls(3, 4, dtype=mg.float64)
    x = t64(2, 3)
    out = cell(x)
    zero = mg.zeros(2, 4, dtype=mg.float64)
    given = cell(x, (zero, zero) if cls is nn.LSTMCell else zero)
    first = out[0] if cls is nn.LSTMCell else out
    np.testing.assert_array_equal(
        first.detach().numpy(), (given[0] if cls is nn.LSTMCell else given).detach().numpy()
    )
    assert first.shape == (2, 4) and first.dtype == mg.float64
    single = cell(x[0])
    single = single[0] if cls is nn.LSTMCell else single
    assert single.shape == (4,)
    np.testing.assert_allclose(single.detach().numpy(), first.detach().numpy()[0], rtol=1e-12)


def test_lstm_cell_gradcheck_float64():
    cell = nn.LSTMCell(2, 3, dtype=mg.float64)
    x, h, c = t64(2, 2, grad=True), t64(2, 3, grad=True), t64(2, 3, grad=True)

    # the parameters are inputs too: gradcheck moves their entries in place, the cell reads them
    def f(x, h, c, *_params):
        return cell(x, (h, c))

    assert gradcheck(f, (x, h, c, *cell.parameters()))


def test_gru_and_bidirectional_rnn_gradgradcheck_float64():
    gru = nn.GRUCell(2, 2, dtype=mg.float64)
    x, h = t64(1, 2, grad=True), t64(1, 2, grad=True)
    assert gradgradcheck(lambda x, h, *_params: gru(x, h), (x, h, *gru.parameters()))
    rnn = nn.RNN(2, 2, bidirectional=True, dtype=mg.float64)
    seq = t64(3, 1, 2, grad=True)
    assert gradgradcheck(lambda seq, *_params: rnn(seq)[0], (seq, *rnn.parameters()))


@pytest.mark.parametrize(
    ("kw", "out_shape", "h_shape"),
    [
        ({}, (5, 2, 4), (1, 2, 4)),
        ({"num_layers": 2}, (5, 2, 4), (2, 2, 4)),
        ({"bidirectional": True}, (5, 2, 8), (2, 2, 4)),
        ({"batch_first": True, "num_layers": 2, "bidirectional": True}, (2, 5, 8), (4, 2, 4)),
        ({"bias": False, "num_layers": 2}, (5, 2, 4), (2, 2, 4)),
    ],
)
@pytest.mark.parametrize("cls", [nn.RNN, nn.LSTM, nn.GRU])
def test_layer_shapes(cls, kw, out_shape, h_shape):
    layer = cls(3, 4, **kw)
    x = mg.ones(*((2, 5, 3) if kw.get("batch_first") else (5, 2, 3)))
    out, h = layer(x)
    hs = h if cls is nn.LSTM else (h,)
    assert out.shape == out_shape
    assert all(s.shape == h_shape for s in hs)
    out1, h1 = layer(mg.ones(5, 3))  # unbatched: no batch dim anywhere
    assert out1.shape == (5, out_shape[-1])
    assert (h1[0] if cls is nn.LSTM else h1).shape == (h_shape[0], 4)


def test_long_sequence_backward_has_no_recursion_limit():
    lstm = nn.LSTM(2, 3)
    x = mg.randn(200, 1, 2, requires_grad=True)
    out, (h, c) = lstm(x)
    (out.sum() + c.sum()).backward()
    assert x.grad.shape == (200, 1, 2)
    assert np.isfinite(lstm.weight_hh_l0.grad.numpy()).all()


def test_dropout_between_layers_only_in_training():
    mg.manual_seed(0)
    gru = nn.GRU(3, 4, num_layers=2, dropout=0.5)
    x = mg.ones(4, 2, 3)
    eval_out = gru.eval()(x)[0].detach().numpy()
    np.testing.assert_array_equal(gru(x)[0].detach().numpy(), eval_out)
    assert not np.allclose(gru.train()(x)[0].detach().numpy(), eval_out)


def test_dropout_with_one_layer_warns():
    with pytest.warns(UserWarning, match="num_layers greater than 1"):
        nn.LSTM(3, 4, dropout=0.2)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.LSTM(3, 4, num_layers=2, dropout=0.2)


@pytest.mark.parametrize(
    ("make", "exc", "match"),
    [
        (lambda: nn.RNNCell(3, 4, nonlinearity="sigmoid"), ValueError, "Select from 'tanh'"),
        (lambda: nn.RNN(3, 4, nonlinearity="gelu"), ValueError, "Unknown nonlinearity 'gelu'"),
        (lambda: nn.LSTM(3, 0), ValueError, "hidden_size must be greater than zero"),
        (lambda: nn.GRU(3, 4, 0), ValueError, "num_layers must be greater than zero"),
        (lambda: nn.LSTM(3, 4, 2.0), TypeError, "'num_layers' must be int, not float"),
        (lambda: nn.LSTM(3, 4, dropout=1.5), ValueError, "range \\[0, 1\\]"),
        (lambda: nn.LSTM(3, 4, proj_size=2), NotImplementedError, "only proj_size=0"),
        (lambda: nn.GRU(3, 4, proj_size=2), ValueError, "only supported for LSTM"),
    ],
)
def test_bad_constructor_arguments(make, exc, match):
    with pytest.raises(exc, match=match):
        make()


def test_bad_cell_input_names_the_shapes():
    cell = nn.LSTMCell(3, 4)
    with pytest.raises(RuntimeError, match="inconsistent input_size: got 5 expected 3"):
        cell(mg.ones(2, 5))
    with pytest.raises(ValueError, match="Expected input to be 1D or 2D, got 3D"):
        cell(mg.ones(2, 2, 3))
    with pytest.raises(RuntimeError, match="batch size 2 doesn't match hidden0 batch size 3"):
        cell(mg.ones(2, 3), (mg.ones(3, 4), mg.ones(3, 4)))
    with pytest.raises(
        RuntimeError, match=r"hidden1 has inconsistent hidden_size: got 5, expected 4"
    ):
        cell(mg.ones(2, 3), (mg.ones(2, 4), mg.ones(2, 5)))
    with pytest.raises(
        RuntimeError, match=r"unbatched 1-D input, hidden0 should be 1-D .*\(2, 4\)"
    ):
        cell(mg.ones(3), (mg.ones(2, 4), mg.ones(2, 4)))


def test_bad_layer_input_names_the_shapes():
    lstm = nn.LSTM(3, 4, 2)
    with pytest.raises(RuntimeError, match="Expected 3, got 7"):
        lstm(mg.ones(5, 2, 7))
    with pytest.raises(ValueError, match="Expected input to be 2D or 3D, got 4D"):
        lstm(mg.ones(5, 2, 3, 1))
    with pytest.raises(
        RuntimeError, match=r"Expected hidden\[1\] size \(2, 2, 4\), got \[1, 2, 4\]"
    ):
        lstm(mg.ones(5, 2, 3), (mg.zeros(2, 2, 4), mg.zeros(1, 2, 4)))
    with pytest.raises(RuntimeError, match=r"hx and cx should also be 2-D but got \(3-D, 3-D\)"):
        lstm(mg.ones(5, 3), (mg.zeros(2, 2, 4), mg.zeros(2, 2, 4)))
    rnn = nn.RNN(3, 4, 2)
    with pytest.raises(RuntimeError, match=r"Expected hidden size \(2, 2, 4\), got \[1, 2, 4\]"):
        rnn(mg.ones(5, 2, 3), mg.zeros(1, 2, 4))
    with pytest.raises(ValueError, match=r"input dtype \(minigrad.float64\) does not match"):
        rnn(mg.ones(5, 2, 3, dtype=mg.float64))
    with pytest.raises(RuntimeError, match="sequence length to be larger than 0"):
        rnn(mg.ones(0, 2, 3))


def test_all_weights_and_flatten_parameters():
    lstm = nn.LSTM(3, 4, 2, bidirectional=True)
    lstm.flatten_parameters()  # a no-op, there for PyTorch code that calls it
    groups = lstm.all_weights
    assert len(groups) == 4 and all(len(g) == 4 for g in groups)
    assert groups[1][0] is lstm.weight_ih_l0_reverse
    assert groups[2][0].shape == (16, 8)
    assert [len(g) for g in nn.GRU(3, 4, bias=False).all_weights] == [2]
