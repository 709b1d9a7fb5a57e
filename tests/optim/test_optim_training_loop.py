"""The seed example: a PyTorch-style training loop with gradient clipping learns its task."""

import numpy as np

import minigrad as mg
from minigrad import nn


def xor_data():
    x = mg.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = mg.tensor([0, 1, 1, 0])
    return x, y


def train(model, opt, loss_fn, x, y, steps):
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        opt.step()
        losses.append(loss.item())
    return losses


def test_seed_example_xor_with_adam_and_clipping():
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2))
    opt = mg.optim.Adam(model.parameters(), lr=0.05)
    x, y = xor_data()
    losses = train(model, opt, nn.CrossEntropyLoss(), x, y, steps=300)
    assert all(isinstance(v, float) for v in losses)
    assert losses[-1] < 0.05 < losses[0]
    with mg.no_grad():
        pred = model(x).argmax(dim=1)
    assert pred.tolist() == y.tolist()


def test_regression_with_sgd_momentum_and_mse():
    mg.manual_seed(1)
    x = mg.linspace(-1, 1, 32).reshape(32, 1)
    y = 3.0 * x - 0.5
    model = nn.Linear(1, 1)
    opt = mg.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    losses = train(model, opt, nn.MSELoss(), x, y, steps=150)
    assert losses[-1] < 1e-6
    np.testing.assert_allclose(model.weight.item(), 3.0, rtol=1e-3)
    np.testing.assert_allclose(model.bias.item(), -0.5, atol=1e-3)


def test_training_is_deterministic_under_manual_seed():
    runs = []
    for _ in range(2):
        mg.manual_seed(3)
        model = nn.Sequential(nn.Linear(2, 4), nn.ReLU(), nn.Linear(4, 2))
        opt = mg.optim.AdamW(model.parameters(), lr=0.01)
        runs.append(train(model, opt, nn.CrossEntropyLoss(), *xor_data(), steps=20))
    assert runs[0] == runs[1]


def test_eval_mode_and_no_grad_inference_leave_grads_alone():
    mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 2))
    model.eval()
    with mg.no_grad():
        out = model(mg.ones(5, 2))
    assert not out.requires_grad and all(p.grad is None for p in model.parameters())
