"""Containers: ModuleList, ModuleDict, ParameterList, ParameterDict and Identity.

Registration (parameters, state_dict names, train/eval, dtype casts), the list and
dict protocols, PyTorch's reprs, and the errors for misuse; then PyTorch as oracle.
"""

from collections import OrderedDict

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


class Stack(nn.Module):
    """A model that keeps its layers in a ModuleList, as PyTorch tutorials do."""

    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(2, 3), nn.Linear(3, 1)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


# --- ModuleList -------------------------------------------------------------------------
def test_module_list_registers_children_for_parameters_state_dict_and_modes():
    model = Stack()
    assert list(model.state_dict()) == [
        "layers.0.weight",
        "layers.0.bias",
        "layers.1.weight",
        "layers.1.bias",
    ]
    assert len(list(model.parameters())) == 4
    model.eval()
    assert not model.layers.training and not model.layers[1].training
    model.double()
    assert all(p.dtype is mg.float64 for p in model.parameters())
    assert model(mg.ones(4, 2, dtype=mg.float64)).shape == (4, 1)


def test_module_list_list_protocol():
    a, b, c, d = nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.Identity()
    ml = nn.ModuleList([a, b])
    assert len(ml) == 2 and list(ml) == [a, b] and ml[-1] is b
    assert ml.append(c) is ml and ml[2] is c
    ml += [d]
    assert list(ml) == [a, b, c, d]
    tail = ml[1:3]
    assert isinstance(tail, nn.ModuleList) and list(tail) == [b, c]
    assert [n for n, _ in tail.named_children()] == ["0", "1"]  # renamed, as PyTorch's slice
    ml[0] = d
    assert ml[0] is d
    del ml[0]
    assert list(ml) == [b, c, d] and list(ml._modules) == ["0", "1", "2"]
    ml.insert(1, a)
    assert list(ml) == [b, a, c, d] and list(ml._modules) == ["0", "1", "2", "3"]
    assert ml.pop(0) is b and list(ml) == [a, c, d] and list(ml._modules) == ["0", "1", "2"]
    both = ml + nn.ModuleList([b])
    assert isinstance(both, nn.ModuleList) and list(both) == [a, c, d, b] and len(ml) == 3
    del ml[1:]
    assert list(ml) == [a]
    assert ml.extend(nn.Sequential(b, c)) is ml and list(ml) == [a, b, c]


def test_module_list_repr_folds_repeated_entries():
    mg.manual_seed(0)
    ml = nn.ModuleList([nn.Linear(2, 2), nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 2)])
    assert repr(ml) == (
        "ModuleList(\n"
        "  (0-1): 2 x Linear(in_features=2, out_features=2, bias=True)\n"
        "  (2): ReLU()\n"
        "  (3): Linear(in_features=2, out_features=2, bias=True)\n"
        ")"
    )
    assert repr(nn.ModuleList()) == "ModuleList()"


def test_module_list_errors():
    ml = nn.ModuleList([nn.ReLU()])
    with pytest.raises(IndexError, match="index 3 is out of range"):
        ml[3]
    with pytest.raises(IndexError, match="index -2 is out of range"):
        ml[-2] = nn.ReLU()
    with pytest.raises(TypeError, match="ModuleList indices must be integers or slices, not str"):
        ml["a"]
    with pytest.raises(TypeError, match="ModuleList.extend should be called with an iterable"):
        ml.extend(nn.ReLU())
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        ml.append(3)
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        ml.insert(0, 3)
    with pytest.raises(NotImplementedError, match=r"Module \[ModuleList\] is missing"):
        ml(mg.ones(1))


def test_module_list_shares_a_module_once_in_parameters():
    layer = nn.Linear(2, 2)
    ml = nn.ModuleList([layer, layer])
    assert len(list(ml.parameters())) == 2
    assert list(ml.state_dict()) == ["0.weight", "0.bias", "1.weight", "1.bias"]


# --- ModuleDict -------------------------------------------------------------------------
def test_module_dict_mapping_protocol_and_state_dict():
    mg.manual_seed(0)
    md = nn.ModuleDict({"enc": nn.Linear(2, 3), "act": nn.ReLU()})
    assert list(md) == ["enc", "act"] and list(md.keys()) == ["enc", "act"]  # insertion order
    assert "enc" in md and "dec" not in md and len(md) == 2
    assert list(md.state_dict()) == ["enc.weight", "enc.bias"]
    md["dec"] = nn.Linear(3, 2)
    assert [k for k, _ in md.items()] == ["enc", "act", "dec"]
    assert md.pop("act").__class__ is nn.ReLU and list(md) == ["enc", "dec"]
    del md["dec"]
    md.update([("head", nn.Tanh())])
    md.update(OrderedDict(tail=nn.Sigmoid()))
    assert list(md) == ["enc", "head", "tail"] and list(md.values())[1].__class__ is nn.Tanh
    assert repr(md).startswith("ModuleDict(\n  (enc): Linear(in_features=2")
    other = nn.ModuleDict(md)  # from another ModuleDict: the same modules, same order
    assert list(other.items()) == list(md.items())
    md.clear()
    assert len(md) == 0 and repr(md) == "ModuleDict()" and len(other) == 3


def test_module_dict_errors():
    md = nn.ModuleDict({"a": nn.ReLU()})
    with pytest.raises(KeyError, match="b"):
        md["b"]
    with pytest.raises(TypeError, match="ModuleDict.update should be called with an iterable"):
        nn.ModuleDict(3)
    with pytest.raises(ValueError, match="element #0 has length 3; 2 is required"):
        nn.ModuleDict([("a", nn.ReLU(), 1)])
    with pytest.raises(KeyError, match="contain"):
        md["a.b"] = nn.ReLU()
    with pytest.raises(TypeError, match="is not a Module subclass"):
        md["c"] = 1.0


# --- ParameterList / ParameterDict -------------------------------------------------------
def test_parameter_list_wraps_tensors_and_registers_them():
    t = mg.zeros(2, 3)
    pl = nn.ParameterList([t, nn.Parameter(mg.ones(3, dtype=mg.float64))])
    assert isinstance(pl[0], nn.Parameter) and pl[0].requires_grad
    assert np.shares_memory(pl[0].detach().numpy(), t.numpy())  # wrapped, not copied, as PyTorch
    assert [n for n, _ in pl.named_parameters()] == ["0", "1"]
    pl.append(mg.ones(1))
    pl += [mg.ones(2)]
    assert len(pl) == 4 and list(pl.state_dict()) == ["0", "1", "2", "3"]
    assert isinstance(pl[1:], nn.ParameterList) and len(pl[1:]) == 3 and pl[1:][0] is pl[1]
    pl[0] = mg.full((2,), 5.0)
    assert pl[0].tolist() == [5.0, 5.0] and isinstance(pl[0], nn.Parameter)
    assert [p.shape for p in pl] == [(2,), (3,), (1,), (2,)]
    assert repr(pl[1:3]) == (
        "ParameterList(\n"
        "    (0): Parameter containing: [minigrad.float64 of size 3]\n"
        "    (1): Parameter containing: [minigrad.float32 of size 1]\n"
        ")"
    )


def test_parameter_list_inside_a_model_trains_and_casts():
    class Weights(nn.Module):
        def __init__(self):
            super().__init__()
            self.ws = nn.ParameterList([mg.ones(2), mg.ones(2)])

        def forward(self, x):
            return x * self.ws[0] + self.ws[1]

    model = Weights()
    assert list(model.state_dict()) == ["ws.0", "ws.1"]
    model(mg.tensor([1.0, 2.0])).sum().backward()
    assert model.ws[0].grad.tolist() == [1.0, 2.0] and model.ws[1].grad.tolist() == [1.0, 1.0]
    model.double()
    assert model.ws[0].dtype is mg.float64
    with pytest.raises(RuntimeError, match="ParameterList should not be called."):
        model.ws(1)
    with pytest.raises(IndexError, match="index 2 is out of range"):
        model.ws[2]


def test_parameter_dict_mapping_protocol():
    pd = nn.ParameterDict({"shift": mg.zeros(2), "scale": mg.ones(2)})
    assert list(pd) == ["scale", "shift"]  # a plain dict is taken sorted, as PyTorch
    assert list(pd.state_dict()) == ["scale", "shift"] and isinstance(pd["scale"], nn.Parameter)
    pd["bias"] = mg.zeros(1)
    assert list(pd.keys()) == ["scale", "shift", "bias"] and "bias" in pd and len(pd) == 3
    assert pd.get("nope") is None and pd.get("bias") is pd["bias"]
    assert pd.pop("shift").shape == (2,) and "shift" not in pd
    assert [k for k, _ in pd.items()] == ["scale", "bias"] and len(pd.values()) == 2
    pd.update(OrderedDict([("z", mg.ones(1)), ("a", mg.ones(1))]))
    assert list(pd) == ["scale", "bias", "z", "a"]
    # PyTorch prints the legacy type name here (x.type()), and the dtype in ParameterList
    assert repr(nn.ParameterDict({"w": mg.zeros(2, 3)})) == (
        "ParameterDict(  (w): Parameter containing: [minigrad.FloatTensor of size 2x3])"
    )
    pd.clear()
    assert len(pd) == 0 and list(pd.parameters()) == []


def test_parameter_dict_errors():
    pd = nn.ParameterDict({"a": mg.zeros(1)})
    with pytest.raises(TypeError, match="not a string"):
        pd[1] = mg.zeros(1)
    with pytest.raises(KeyError, match="contain"):
        pd["a.b"] = mg.zeros(1)
    with pytest.raises(AttributeError, match="has no key 'b'"):
        pd["b"]
    with pytest.raises(RuntimeError, match="ParameterDict should not be called."):
        pd()


# --- Identity ---------------------------------------------------------------------------
def test_identity_returns_its_input_and_ignores_arguments():
    x = mg.ones(3, requires_grad=True)
    layer = nn.Identity(54, unused_argument1=0.1)
    assert layer(x) is x and repr(layer) == "Identity()" and list(layer.parameters()) == []


# --- PyTorch as oracle ------------------------------------------------------------------
@pytest.mark.oracle
def test_container_state_dict_keys_reprs_and_values_match_torch():
    torch = pytest.importorskip("torch")

    def build(lib):
        tnn = lib.nn
        return tnn.ModuleDict(
            {
                "blocks": tnn.ModuleList([tnn.Linear(3, 3), tnn.Linear(3, 3), tnn.Identity()]),
                "head": tnn.Sequential(tnn.Linear(3, 2), tnn.ReLU()),
            }
        )

    mg.manual_seed(0)
    ours, theirs = build(mg), build(torch)
    extra = nn.ParameterDict({"gain": mg.rand(2), "bias": mg.rand(2)})
    tx = torch.nn.ParameterDict({"gain": torch.zeros(2), "bias": torch.zeros(2)})
    ours["extra"], theirs["extra"] = extra, tx
    ours.double()
    theirs.double()
    theirs.load_state_dict({k: torch.tensor(v.numpy()) for k, v in ours.state_dict().items()})
    assert list(ours.state_dict()) == list(theirs.state_dict())
    assert [n for n, _ in ours.named_parameters()] == [n for n, _ in theirs.named_parameters()]
    assert repr(ours["blocks"]) == repr(theirs["blocks"])
    assert repr(ours["head"]) == repr(theirs["head"])

    x = np.random.default_rng(0).standard_normal((4, 3))

    def run(model, lib):
        h = lib.tensor(x)
        for block in model["blocks"]:
            h = block(h)
        out = model["head"](h) * model["extra"]["gain"] + model["extra"]["bias"]
        out.sum().backward()
        return out.detach().numpy(), [p.grad.numpy() for p in model.parameters()]

    (a, grads_a), (b, grads_b) = run(ours, mg), run(theirs, torch)
    np.testing.assert_allclose(a, b, rtol=1e-12)
    for ga, gb in zip(grads_a, grads_b):
        np.testing.assert_allclose(ga, gb, rtol=1e-12, atol=1e-15)


@pytest.mark.oracle
def test_container_errors_match_torch_types():
    torch = pytest.importorskip("torch")
    calls = [
        lambda lib: lib.nn.ModuleList([lib.nn.ReLU()])[3],
        lambda lib: lib.nn.ModuleList().extend(lib.nn.ReLU()),
        lambda lib: lib.nn.ModuleList().append(3),
        lambda lib: lib.nn.ModuleDict({"a": lib.nn.ReLU()})["b"],
        lambda lib: lib.nn.ModuleDict(3),
        lambda lib: lib.nn.ModuleDict([("a", lib.nn.ReLU(), 1)]),
        lambda lib: lib.nn.ParameterList([lib.zeros(1)])[4],
        lambda lib: lib.nn.ParameterList([lib.zeros(1)])(1),
        lambda lib: lib.nn.ParameterDict({"a": lib.zeros(1)})["b"],
        lambda lib: lib.nn.ParameterDict({1: lib.zeros(1)}),
    ]
    for call in calls:
        with pytest.raises(Exception) as theirs:
            call(torch)
        with pytest.raises(type(theirs.value)):
            call(mg)
    one = [torch.nn.Parameter(torch.zeros(2, 3)), torch.nn.Parameter(torch.zeros(2).double())]
    ours = nn.ParameterList([mg.zeros(2, 3), mg.zeros(2, dtype=mg.float64)])
    assert repr(ours).replace("minigrad", "torch") == repr(torch.nn.ParameterList(one))
