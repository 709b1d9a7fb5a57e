"""nn.Module: registration, iteration, modes, bulk changes and repr, as torch.nn.Module."""

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(2, 3)
        self.act = nn.Tanh()
        self.fc2 = nn.Linear(3, 1)
        self.register_buffer("running", mg.zeros(3))
        self.register_buffer("scratch", mg.ones(1), persistent=False)
        self.not_a_buffer = mg.ones(2)  # plain attribute, as in PyTorch

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class Shared(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(2, 2)
        self.b = self.a  # the same module twice
        self.w = nn.Parameter(mg.ones(1))
        self.w_again = self.w


def test_named_parameters_dotted_in_registration_order():
    names = [n for n, _ in Net().named_parameters()]
    assert names == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]


def test_parameters_recurse_false_and_prefix():
    net = Net()
    net.own = nn.Parameter(mg.zeros(1))
    assert [n for n, _ in net.named_parameters(recurse=False)] == ["own"]
    assert [n for n, _ in net.fc1.named_parameters(prefix="x")] == ["x.weight", "x.bias"]


def test_shared_parameters_and_modules_are_listed_once():
    m = Shared()
    assert [n for n, _ in m.named_parameters()] == ["w", "a.weight", "a.bias"]
    assert len(list(m.parameters())) == 3
    all_names = [n for n, _ in m.named_parameters(remove_duplicate=False)]
    assert all_names == ["w", "w_again", "a.weight", "a.bias", "b.weight", "b.bias"]
    assert [n for n, _ in m.named_modules()] == ["", "a"]
    assert [n for n, _ in m.named_children()] == ["a"]


def test_children_and_modules():
    net = Net()
    assert [type(c).__name__ for c in net.children()] == ["Linear", "Tanh", "Linear"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "fc2"]
    assert list(net.modules())[0] is net


def test_buffers_are_registered_but_not_parameters():
    net = Net()
    assert [n for n, _ in net.named_buffers()] == ["running", "scratch"]
    assert all(b is not net.not_a_buffer for b in net.buffers())
    assert "not_a_buffer" not in dict(net.named_parameters())


def test_getattr_finds_registered_members_and_errors_otherwise():
    net = Net()
    assert isinstance(net.fc1.weight, nn.Parameter)
    assert net.running.shape == (3,)
    with pytest.raises(AttributeError, match="'Net' object has no attribute 'nope'"):
        _ = net.nope


def test_reassigning_and_deleting_members():
    net = Net()
    net.fc1 = nn.Sigmoid()
    assert isinstance(net._modules["fc1"], nn.Sigmoid)
    net.running = mg.ones(3)
    assert net._buffers["running"].tolist() == [1.0, 1.0, 1.0]
    net.fc2.bias = None
    assert net.fc2.bias is None
    del net.act
    assert "act" not in net._modules
    with pytest.raises(TypeError, match="cannot assign 'int' as child module 'fc1'"):
        net.fc1 = 3
    with pytest.raises(TypeError, match=r"cannot assign 'minigrad.Tensor' as parameter 'weight'"):
        net.fc2.weight = mg.ones(1, 3)
    with pytest.raises(TypeError, match="cannot assign 'str' as buffer 'running'"):
        net.running = "zero"


def test_assigning_before_init_is_an_error():
    class Forgot(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(mg.ones(1))

    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__"):
        Forgot()


def test_register_errors():
    m = nn.Module()
    with pytest.raises(KeyError, match=r"parameter name can.*contain.*got: a\.b"):
        m.register_parameter("a.b", None)
    with pytest.raises(KeyError, match=r"buffer name can.*be empty string"):
        m.register_buffer("", None)
    with pytest.raises(TypeError, match="parameter name should be a string. Got int"):
        m.register_parameter(1, None)
    with pytest.raises(TypeError, match="cannot assign 'minigrad.Tensor' object to parameter"):
        m.register_parameter("w", mg.ones(1))
    with pytest.raises(TypeError, match="cannot assign 'list' object to buffer 'b'"):
        m.register_buffer("b", [1.0])
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        m.add_module("c", 3)
    m.x = 1
    with pytest.raises(KeyError, match="attribute 'x' already exists"):
        m.register_buffer("x", mg.ones(1))


def test_non_leaf_parameter_is_refused():
    x = mg.ones(2, requires_grad=True)
    p = nn.Parameter(mg.ones(2), requires_grad=False)
    p.mul_(x)  # an in-place op with a tensor that requires grad gives p a history
    with pytest.raises(ValueError, match="Cannot assign non-leaf Tensor to parameter 'w'"):
        nn.Module().register_parameter("w", p)


def test_forward_missing():
    with pytest.raises(
        NotImplementedError, match=r'Module \[Module\] is missing the required "forward"'
    ):
        nn.Module()(mg.ones(1))


def test_train_eval_recurse_and_return_self():
    net = Net()
    assert net.training and net.fc1.training
    assert net.eval() is net
    assert not net.training and not net.fc1.training and not net.act.training
    net.train()
    assert all(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


def test_zero_grad_set_to_none_and_zeroing():
    net = Net()
    net(mg.ones(4, 2)).sum().backward()
    grad = net.fc1.weight.grad
    net.zero_grad(set_to_none=False)
    assert net.fc1.weight.grad is grad and not grad.detach().numpy().any()
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_apply_visits_children_first():
    seen = []
    net = Net()
    assert net.apply(lambda m: seen.append(type(m).__name__)) is net
    assert seen == ["Linear", "Tanh", "Linear", "Net"]


def test_requires_grad_freezes():
    net = Net()
    net.fc1.requires_grad_(False)
    net(mg.ones(1, 2)).sum().backward()
    assert net.fc1.weight.grad is None and net.fc2.weight.grad is not None
    assert [p.requires_grad for p in net.parameters()] == [False, False, True, True]


def test_to_double_keeps_parameter_objects():
    net = Net()
    w = net.fc1.weight
    assert net.double() is net
    assert net.fc1.weight is w and w.dtype is mg.float64 and net.running.dtype is mg.float64
    assert net(mg.ones(1, 2, dtype=mg.float64)).dtype is mg.float64
    net.to(mg.float32)
    assert w.dtype is mg.float32
    assert net.to("cpu", mg.float64) is net and w.dtype is mg.float64
    with pytest.raises(TypeError, match="only accepts floating point dtypes"):
        net.to(mg.int64)
    with pytest.raises(RuntimeError, match="minigrad computes on the CPU only; got device='cuda'"):
        net.to("cuda")


def test_repr_nested_with_extra_repr():
    net = Net()
    assert repr(net) == (
        "Net(\n"
        "  (fc1): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (act): Tanh()\n"
        "  (fc2): Linear(in_features=3, out_features=1, bias=True)\n"
        ")"
    )
    outer = nn.Sequential(nn.Sequential(nn.ReLU()), nn.Linear(1, 1, bias=False))
    assert repr(outer) == (
        "Sequential(\n"
        "  (0): Sequential(\n"
        "    (0): ReLU()\n"
        "  )\n"
        "  (1): Linear(in_features=1, out_features=1, bias=False)\n"
        ")"
    )


def test_custom_module_gradients_match_manual():
    net = Net()
    x = mg.tensor([[0.5, -1.0]])
    net(x).sum().backward()
    h = np.tanh(
        x.detach().numpy() @ net.fc1.weight.detach().numpy().T + net.fc1.bias.detach().numpy()
    )
    np.testing.assert_allclose(net.fc2.weight.grad.numpy(), h, rtol=1e-6)
    np.testing.assert_allclose(net.fc2.bias.grad.numpy(), [1.0])


def test_dir_lists_registered_members_for_tab_completion():
    names = dir(Net())
    assert {"fc1", "fc2", "running", "forward"} <= set(names)
    linear = dir(nn.Linear(1, 1))
    assert "weight" in linear and "bias" in linear
