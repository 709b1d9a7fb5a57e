"""PyTorch as oracle for the recurrent layers: with torch's weights copied in, outputs, final
states and the gradients of every parameter, of the input and of the initial state agree in
float64; bad input raises torch's exception type."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle
TOL = {"rtol": 1e-9, "atol": 1e-12}


def twin(name, *args, **kwargs):
    """A torch module in float64 and a minigrad one holding the same weights (names checked)."""
    ours = getattr(nn, name)(*args, **kwargs, dtype=mg.float64)
    theirs = getattr(torch.nn, name)(*args, **kwargs, dtype=torch.float64)
    ours_shapes = [(n, tuple(p.shape)) for n, p in ours.named_parameters()]
    assert ours_shapes == [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    with mg.no_grad():
        for p, q in zip(ours.parameters(), theirs.parameters()):
            p.copy_(mg.tensor(q.detach().numpy()))
    return ours, theirs


def flat(out):
    """The tensors of an (output, state) result, in order."""
    if isinstance(out, tuple | list):
        return [t for item in out for t in flat(item)]
    return [out]


def run(lib, module, x, hx):
    """Forward, then backward of a fixed random weighting of every result; values and grads."""
    leaves = [lib.tensor(x, dtype=lib.float64, requires_grad=True)]
    state = None
    if hx is not None:
        state = [lib.tensor(h, dtype=lib.float64, requires_grad=True) for h in hx]
        leaves += state
        state = tuple(state) if len(state) == 2 else state[0]
    results = flat(module(leaves[0], state))
    rng = np.random.default_rng(7)
    loss = sum((r * lib.tensor(rng.standard_normal(r.shape))).sum() for r in results)
    params = list(module.parameters())
    grads = lib.autograd.grad(loss, leaves + params)
    return [r.detach().numpy() for r in results], [g.numpy() for g in grads]


def compare(ours, theirs, x, hx=None):
    values, grads = run(mg, ours, x, hx)
    want_values, want_grads = run(torch, theirs, x, hx)
    assert [v.shape for v in values] == [v.shape for v in want_values]
    for got, want in zip(values + grads, want_values + want_grads):
        np.testing.assert_allclose(got, want, **TOL)


CELLS = [
    ("RNNCell", {}),
    ("RNNCell", {"nonlinearity": "relu"}),
    ("RNNCell", {"bias": False}),
    ("LSTMCell", {}),
    ("LSTMCell", {"bias": False}),
    ("GRUCell", {}),
    ("GRUCell", {"bias": False}),
]


@pytest.mark.parametrize("with_state", [False, True])
@pytest.mark.parametrize("batch", [(3,), ()], ids=["batched", "unbatched"])
@pytest.mark.parametrize(("name", "kw"), CELLS)
def test_cells_match_torch(name, kw, batch, with_state):
    rng = np.random.default_rng(1)
    ours, theirs = twin(name, 4, 5, **kw)
    x = rng.standard_normal((*batch, 4))
    count = 2 if name == "LSTMCell" else 1
    hx = [rng.standard_normal((*batch, 5)) for _ in range(count)] if with_state else None
    compare(ours, theirs, x, hx)


LAYERS = [
    {},
    {"num_layers": 2},
    {"bidirectional": True},
    {"batch_first": True},
    {"num_layers": 2, "bidirectional": True, "batch_first": True},
    {"bias": False, "num_layers": 2},
]


@pytest.mark.parametrize("with_state", [False, True])
@pytest.mark.parametrize("unbatched", [False, True])
@pytest.mark.parametrize("kw", LAYERS)
@pytest.mark.parametrize("name", ["RNN", "LSTM", "GRU"])
def test_layers_match_torch(name, kw, unbatched, with_state):
    rng = np.random.default_rng(2)
    ours, theirs = twin(name, 3, 4, **kw)
    seq, batch = 6, 2
    if unbatched:
        x = rng.standard_normal((seq, 3))
    else:
        x = rng.standard_normal((batch, seq, 3) if kw.get("batch_first") else (seq, batch, 3))
    layers = kw.get("num_layers", 1) * (2 if kw.get("bidirectional") else 1)
    h_shape = (layers, 4) if unbatched else (layers, batch, 4)
    count = 2 if name == "LSTM" else 1
    hx = [rng.standard_normal(h_shape) for _ in range(count)] if with_state else None
    compare(ours, theirs, x, hx)


def test_relu_rnn_matches_torch():
    ours, theirs = twin("RNN", 3, 4, 2, "relu", bidirectional=True)
    compare(ours, theirs, np.random.default_rng(3).standard_normal((5, 2, 3)))


def test_dropout_in_eval_mode_matches_torch():
    ours, theirs = twin("LSTM", 3, 4, 2, dropout=0.4)
    ours.eval()
    theirs.eval()
    compare(ours, theirs, np.random.default_rng(4).standard_normal((5, 2, 3)))


def test_state_dict_loads_into_torch():
    ours = nn.GRU(3, 4, 2, bidirectional=True)
    theirs = torch.nn.GRU(3, 4, 2, bidirectional=True)
    state = {k: torch.tensor(v.numpy()) for k, v in ours.state_dict().items()}
    theirs.load_state_dict(state)
    x = np.random.default_rng(5).standard_normal((4, 1, 3)).astype(np.float32)
    with mg.no_grad():
        got = ours(mg.tensor(x))[0].numpy()
    np.testing.assert_allclose(got, theirs(torch.tensor(x))[0].detach().numpy(), atol=1e-6)


def test_reprs_equal_torch():
    for name, args, kw in [
        ("RNNCell", (3, 4), {"bias": False, "nonlinearity": "relu"}),
        ("LSTMCell", (3, 4), {}),
        ("GRUCell", (3, 4), {"bias": False}),
        ("RNN", (3, 4, 2, "relu"), {"bidirectional": True}),
        ("LSTM", (3, 4, 2), {"batch_first": True, "dropout": 0.5, "bidirectional": True}),
        ("GRU", (3, 4), {"bias": False}),
    ]:
        assert repr(getattr(nn, name)(*args, **kw)) == repr(getattr(torch.nn, name)(*args, **kw))


def _bad_calls(lib):
    """Misuses of the recurrent modules, each a function of the library."""
    z = lib.zeros
    return [
        lambda: lib.nn.LSTMCell(3, 4)(z(2, 5)),
        lambda: lib.nn.LSTMCell(3, 4)(z(2, 2, 3)),
        lambda: lib.nn.LSTMCell(3, 4)(z(2, 3), (z(3, 4), z(3, 4))),
        lambda: lib.nn.LSTMCell(3, 4)(z(2, 3), (z(2, 4), z(2, 5))),
        lambda: lib.nn.GRUCell(3, 4)(z(2, 3), z(3, 4)),
        lambda: lib.nn.RNNCell(3, 4)(z(2, 3), z(2, 5)),
        lambda: lib.nn.LSTM(3, 4, 2)(z(5, 2, 7)),
        lambda: lib.nn.LSTM(3, 4, 2)(z(5, 2, 3, 1)),
        lambda: lib.nn.LSTM(3, 4, 2)(z(5, 2, 3), (z(2, 3, 4), z(2, 2, 4))),
        lambda: lib.nn.LSTM(3, 4, 2)(z(5, 2, 3), (z(2, 2, 4), z(1, 2, 4))),
        lambda: lib.nn.LSTM(3, 4, 2)(z(5, 3), (z(2, 2, 4), z(2, 2, 4))),
        lambda: lib.nn.RNN(3, 4, 2)(z(5, 2, 3), z(1, 2, 4)),
        lambda: lib.nn.RNN(3, 4, 2)(z(5, 3), z(2, 2, 4)),
        lambda: lib.nn.GRU(3, 4, bidirectional=True)(z(5, 2, 3), z(1, 2, 4)),
        lambda: lib.nn.RNN(3, 4)(z(0, 2, 3)),
        lambda: lib.nn.LSTM(3, 4)(z(5, 2, 3, dtype=lib.float64)),
        lambda: lib.nn.RNN(3, 4)(z(5, 2, 3, dtype=lib.int64)),
        lambda: lib.nn.GRUCell(3, 4)(z(2, 3, dtype=lib.float64)),
        lambda: lib.nn.RNN(3, 4, nonlinearity="gelu"),
        lambda: lib.nn.LSTM(3, 0),
        lambda: lib.nn.LSTM(3, 4, 0),
        lambda: lib.nn.LSTM(3, 4, 2.0),
        lambda: lib.nn.LSTM(3, 4, dropout=1.5),
        lambda: lib.nn.GRU(3, 4, proj_size=2),
    ]


@pytest.mark.parametrize("k", range(len(_bad_calls(mg))))
def test_bad_input_raises_torch_exception_type(k):
    with pytest.raises(Exception) as theirs:
        _bad_calls(torch)[k]()
    with pytest.raises(theirs.type) as ours:
        _bad_calls(mg)[k]()
    assert ours.type is theirs.type, (str(ours.value), str(theirs.value))
