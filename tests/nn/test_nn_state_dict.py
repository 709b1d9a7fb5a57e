"""Module.state_dict / load_state_dict: keys, sharing, errors in PyTorch's format."""

import collections
import pickle

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn


def mlp():
    return nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))


class WithBuffers(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(1, 1)
        self.register_buffer("count", mg.zeros(()))
        self.register_buffer("tmp", mg.zeros(2), persistent=False)
        self.register_buffer("absent", None)


def test_state_dict_keys_order_and_type():
    sd = mlp().state_dict()
    assert isinstance(sd, collections.OrderedDict)
    assert list(sd) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert all(type(v) is mg.Tensor and not v.requires_grad for v in sd.values())


def test_state_dict_values_share_memory_with_parameters():
    model = mlp()
    sd = model.state_dict()
    assert sd["0.weight"]._data is model[0].weight._data
    assert model.state_dict(keep_vars=True)["0.weight"] is model[0].weight


def test_state_dict_persistent_buffers_only():
    # own parameters and buffers first, then the children (PyTorch order)
    assert list(WithBuffers().state_dict()) == ["count", "lin.weight", "lin.bias"]


def test_load_state_dict_roundtrip_copies_in_place():
    mg.manual_seed(0)
    src, dst = mlp(), mlp()
    w = dst[0].weight
    version = w._version
    result = dst.load_state_dict(src.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert result.missing_keys == [] and result.unexpected_keys == []
    assert dst[0].weight is w and w._version == version + 1
    for (k, a), b in zip(src.state_dict().items(), dst.state_dict().values()):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy(), err_msg=k)
        assert a._data is not b._data


def test_load_buffers():
    a, b = WithBuffers(), WithBuffers()
    with mg.no_grad():
        a.count.fill_(7.0)
    b.load_state_dict(a.state_dict())
    assert b.count.item() == 7.0


def test_load_missing_and_unexpected_keys_strict():
    sd = mlp().state_dict()
    del sd["2.bias"]
    sd["3.weight"] = mg.zeros(1)
    with pytest.raises(RuntimeError) as err:
        mlp().load_state_dict(sd)
    assert str(err.value) == (
        "Error(s) in loading state_dict for Sequential:\n"
        '\tMissing key(s) in state_dict: "2.bias". \n'
        '\tUnexpected key(s) in state_dict: "3.weight". '
    )


def test_load_non_strict_reports_keys():
    sd = mlp().state_dict()
    del sd["0.bias"]
    sd["extra"] = mg.zeros(1)
    result = mlp().load_state_dict(sd, strict=False)
    assert result.missing_keys == ["0.bias"] and result.unexpected_keys == ["extra"]
    # printed as PyTorch's (its class is _IncompatibleKeys)
    assert repr(result) == "_IncompatibleKeys(missing_keys=['0.bias'], unexpected_keys=['extra'])"


def test_load_shape_mismatch_is_an_error_even_when_not_strict():
    sd = mlp().state_dict()
    sd["0.weight"] = mg.zeros(4, 2)
    msg = (
        "size mismatch for 0.weight: copying a param with shape minigrad.Size([4, 2]) from "
        "checkpoint, the shape in current model is minigrad.Size([3, 2])."  # as PyTorch's
    )
    for strict in (True, False):
        with pytest.raises(RuntimeError, match=r"Error\(s\) in loading state_dict") as err:
            mlp().load_state_dict(sd, strict=strict)
        assert msg in str(err.value)


def test_load_non_tensor_value_and_non_mapping():
    sd = mlp().state_dict()
    sd["0.bias"] = [0.0, 0.0, 0.0]
    with pytest.raises(RuntimeError, match='While copying the parameter named "0.bias"'):
        mlp().load_state_dict(sd)
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        mlp().load_state_dict([("0.weight", mg.zeros(3, 2))])


def test_load_casts_dtype_and_accepts_one_element_for_scalar():
    model = WithBuffers()
    sd = model.state_dict()
    sd["lin.weight"] = mg.tensor([[2.0]], dtype=mg.float64)
    sd["count"] = mg.tensor([5.0])
    model.load_state_dict(sd)
    assert model.lin.weight.dtype is mg.float32 and model.lin.weight.item() == 2.0
    assert model.count.shape == () and model.count.item() == 5.0


def test_state_dict_survives_pickle():
    mg.manual_seed(3)
    model = mlp()
    model(mg.ones(1, 2)).sum().backward()
    restored = mlp()
    restored.load_state_dict(pickle.loads(pickle.dumps(model.state_dict())))
    np.testing.assert_array_equal(
        restored[2].weight.detach().numpy(), model[2].weight.detach().numpy()
    )


@pytest.mark.oracle
def test_load_state_dict_assign_puts_the_loaded_tensors_in_place_as_pytorch():
    torch = pytest.importorskip("torch")
    for lib in (torch, mg):
        src = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
        src[1].weight.requires_grad_(False)
        sd = {k: v.clone() for k, v in src.state_dict().items()}
        sd["0.weight"] = sd["0.weight"].double()
        dst = lib.nn.Sequential(lib.nn.Linear(2, 3), lib.nn.BatchNorm1d(3))
        dst[1].weight.requires_grad_(False)
        old = dst[0].weight
        assert repr(dst.load_state_dict(sd, assign=True)) == "<All keys matched successfully>"
        w = dst[0].weight
        assert type(w).__name__ == "Parameter" and w is not old and w.requires_grad
        assert w.dtype == lib.float64 and w.data_ptr() == sd["0.weight"].data_ptr()
        assert not dst[1].weight.requires_grad
        assert dst[1].running_mean is sd["1.running_mean"]
        assert dict(dst.named_parameters())["0.weight"] is w
        copied = lib.nn.Linear(2, 3)
        before = copied.weight
        copied.load_state_dict({"weight": sd["0.weight"], "bias": sd["0.bias"]})
        assert copied.weight is before and copied.weight.dtype == lib.float32
        with pytest.raises(RuntimeError, match="size mismatch for weight"):
            lib.nn.Linear(2, 4).load_state_dict(
                {"weight": sd["0.weight"], "bias": sd["0.bias"]}, assign=True
            )
