"""``Module.get_submodule``/``get_parameter``/``get_buffer`` and a checkpoint without
BatchNorm's ``num_batches_tracked``, against PyTorch."""

import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def _model(L):
    L.manual_seed(0)
    return L.nn.Sequential(
        L.nn.Linear(2, 3), L.nn.Sequential(L.nn.BatchNorm1d(3), L.nn.Linear(3, 1, bias=False))
    )


CASES = {
    "submodule": lambda m: repr(m.get_submodule("1.1")),
    "itself": lambda m: type(m.get_submodule("")).__name__,
    "parameter": lambda m: m.get_parameter("1.1.weight").tolist(),
    "buffer": lambda m: m.get_buffer("1.0.running_var").tolist(),
    "no such module": lambda m: m.get_submodule("2"),
    "through a parameter": lambda m: m.get_submodule("0.weight.x"),
    "not a module": lambda m: m.get_submodule("0.weight"),
    "no such parameter": lambda m: m.get_parameter("0.bad"),
    "a module, not a parameter": lambda m: m.get_parameter("1"),
    "a parameter, not a buffer": lambda m: m.get_buffer("0.weight"),
    "a buffer, not a parameter": lambda m: m.get_parameter("1.0.running_mean"),
}


def _outcome(fn, L):
    try:
        return fn(_model(L))
    except AttributeError as e:
        return str(e)


@pytest.mark.parametrize("name", list(CASES))
def test_lookups_as_pytorch(name):
    assert _outcome(CASES[name], mg) == _outcome(CASES[name], torch)


def test_a_checkpoint_without_num_batches_tracked_loads_strictly():
    for L in (mg, torch):
        m = _model(L)
        m.get_buffer("1.0.num_batches_tracked").fill_(5)
        state = {k: v for k, v in m.state_dict().items() if "num_batches" not in k}
        result = m.load_state_dict(state)
        assert result.missing_keys == [] and result.unexpected_keys == []
        assert m.get_buffer("1.0.num_batches_tracked").item() == 5
