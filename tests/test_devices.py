"""Devices: ``mg.device`` and ``device=`` everywhere, CPU only, as ``torch.device`` behaves.

Device-generic PyTorch code must run unchanged (``"cuda" if mg.cuda.is_available() else
"cpu"``, ``.to(device)``, ``device=device``); every other device raises one RuntimeError
with one message, wherever it is handed in. The oracle parts compare with PyTorch.
"""

import pickle

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

CPU_ONLY = "minigrad computes on the CPU only; got device="


@pytest.fixture
def torch():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    return torch


@pytest.fixture(autouse=True)
def _reset_default_device():
    yield
    mg.set_default_device(None)


# --- mg.device -----------------------------------------------------------------------------
GOOD_SPECS = [
    ("cpu",),
    ("cpu:0",),
    ("cpu:1",),
    ("cpu", 0),
    ("cpu", 3),
    ("cpu", None),
    ("cuda",),
    ("cuda:0",),
    ("cuda", 1),
    ("mps",),
    ("meta",),
]
BAD_SPECS = [
    ("gpu",),
    ("CPU",),
    ("cpu:",),
    ("cpu:x",),
    ("cpu:-1",),
    ("cpu:00",),
    ("cpu:01",),
    (" cpu",),
    ("",),
    ("cpu", -1),
    ("cpu:0", 0),
    ("cpu", "0"),
    ("cpu", True),
    ("cpu", 0.5),
    (1.5,),
    (None,),
    (-1,),
]


@pytest.mark.parametrize("spec", GOOD_SPECS, ids=str)
def test_device_attributes(spec):
    d = mg.device(*spec)
    kind, _, number = spec[0].partition(":")
    index = int(number) if number else (spec[1] if len(spec) > 1 else None)
    assert (d.type, d.index) == (kind, index)
    assert str(d) == (kind if index is None else f"{kind}:{index}")
    assert mg.device(d) == d and hash(mg.device(*spec)) == hash(d)
    assert pickle.loads(pickle.dumps(d)) == d


@pytest.mark.oracle
@pytest.mark.parametrize("spec", GOOD_SPECS, ids=str)
def test_device_matches_torch(torch, spec):
    ours, theirs = mg.device(*spec), torch.device(*spec)
    assert (repr(ours), str(ours), ours.type, ours.index) == (
        repr(theirs),
        str(theirs),
        theirs.type,
        theirs.index,
    )


@pytest.mark.oracle
@pytest.mark.parametrize("spec", BAD_SPECS, ids=str)
def test_malformed_devices_raise_as_torch(torch, spec):
    with pytest.raises(Exception) as theirs:
        torch.device(*spec)
    with pytest.raises(theirs.type) as ours:
        mg.device(*spec)
    if theirs.type is RuntimeError and "accelerator" not in str(theirs.value):
        assert str(ours.value) == str(theirs.value)  # PyTorch's own wording


def test_device_equality_and_immutability():
    assert mg.device("cpu") == mg.device("cpu")
    assert mg.device("cpu") != mg.device("cpu:0")  # as in PyTorch: the index counts
    assert mg.device("cpu") != "cpu"  # and a device is not a string
    assert mg.device(type="cpu", index=0) == mg.device("cpu:0")
    with pytest.raises(AttributeError, match="not writable"):
        mg.device("cpu").type = "cuda"


def test_an_integer_device_is_an_accelerator():
    with pytest.raises(RuntimeError, match=CPU_ONLY + "0"):
        mg.device(0)
    with pytest.raises(RuntimeError, match=CPU_ONLY + "0"):
        mg.zeros(2, device=0)


# --- the tensor side ---------------------------------------------------------------------------
def test_tensor_device_properties():
    x = mg.ones(2, 3)
    assert x.device == mg.device("cpu") and x.device.type == "cpu" and x.device.index is None
    assert x.is_cuda is False and x.is_cpu is True and x.get_device() == -1
    assert x.cpu() is x
    s = x.to_sparse()
    assert s.device == mg.device("cpu") and s.to("cpu") is s and not s.is_cuda


@pytest.mark.oracle
def test_tensor_device_properties_match_torch(torch):
    ours, theirs = mg.ones(2), torch.ones(2)
    for name in ("is_cuda", "is_cpu"):
        assert getattr(ours, name) == getattr(theirs, name)
    assert repr(ours.device) == repr(theirs.device)
    assert ours.get_device() == theirs.get_device()


CPU_DEVICES = ["cpu", "cpu:0", "cpu:1", mg.device("cpu"), mg.device("cpu", 0), None]
FACTORIES = {
    "tensor": lambda device: mg.tensor([1.0, 2.0], device=device),
    "as_tensor": lambda device: mg.as_tensor([1.0, 2.0], device=device),
    "zeros": lambda device: mg.zeros(2, 3, device=device),
    "ones": lambda device: mg.ones((2, 3), device=device),
    "empty": lambda device: mg.empty(2, device=device),
    "full": lambda device: mg.full((2,), 1.5, device=device),
    "arange": lambda device: mg.arange(3, device=device),
    "linspace": lambda device: mg.linspace(0, 1, 5, device=device),
    "eye": lambda device: mg.eye(3, device=device),
    "rand": lambda device: mg.rand(2, device=device),
    "randn": lambda device: mg.randn((), device=device),
    "randint": lambda device: mg.randint(10, (4,), device=device),
    "randperm": lambda device: mg.randperm(4, device=device),
    "zeros_like": lambda device: mg.zeros_like(mg.ones(2), device=device),
    "ones_like": lambda device: mg.ones_like(mg.ones(2), device=device),
    "empty_like": lambda device: mg.empty_like(mg.ones(2), device=device),
    "full_like": lambda device: mg.full_like(mg.ones(2), 3.0, device=device),
    "rand_like": lambda device: mg.rand_like(mg.ones(2), device=device),
    "randn_like": lambda device: mg.randn_like(mg.ones(2), device=device),
    "new_zeros": lambda device: mg.ones(2).new_zeros(3, device=device),
    "new_ones": lambda device: mg.ones(2).new_ones((2, 2), device=device),
    "new_full": lambda device: mg.ones(2).new_full((2,), 4.0, device=device),
    "new_empty": lambda device: mg.ones(2).new_empty(2, device=device),
    "new_tensor": lambda device: mg.ones(2).new_tensor([1, 2], device=device),
    "sparse_coo_tensor": lambda device: mg.sparse_coo_tensor([[0]], [1.0], (2,), device=device),
    "sparse_csr_tensor": lambda device: mg.sparse_csr_tensor(
        [0, 1, 1], [0], [1.0], (2, 2), device=device
    ),
    "sparse_csc_tensor": lambda device: mg.sparse_csc_tensor(
        [0, 1, 1], [0], [1.0], (2, 2), device=device
    ),
    "Linear": lambda device: nn.Linear(2, 3, device=device).weight,
    "Embedding": lambda device: nn.Embedding(4, 2, device=device).weight,
    "EmbeddingBag": lambda device: nn.EmbeddingBag(4, 2, device=device).weight,
}


@pytest.mark.parametrize("device", CPU_DEVICES, ids=repr)
@pytest.mark.parametrize("name", FACTORIES)
def test_every_factory_accepts_the_cpu(name, device):
    t = FACTORIES[name](device)
    assert isinstance(t, mg.Tensor) and t.device == mg.device("cpu")


@pytest.mark.parametrize("device", ["cuda", "cuda:0", "mps", mg.device("cuda", 1), "meta"])
@pytest.mark.parametrize("name", FACTORIES)
def test_every_factory_refuses_other_devices_with_one_message(name, device):
    with pytest.raises(RuntimeError) as info:
        FACTORIES[name](device)
    hint = " (minigrad has no meta tensors;" if device == "meta" else ""  # + what to do instead
    assert str(info.value).startswith(f"{CPU_ONLY}'{device}'{hint}")
    assert device == "meta" or str(info.value) == f"{CPU_ONLY}'{device}'"


@pytest.mark.parametrize("name", FACTORIES)
def test_every_factory_rejects_a_malformed_device(name):
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda"):
        FACTORIES[name]("gpu")
    with pytest.raises(TypeError, match="argument 'device' must be a device"):
        FACTORIES[name](mg.float64)


class _TorchLikeDevice:
    """What a torch.device looks like from outside: a ``type`` and an ``index``."""

    def __init__(self, kind, index=None):
        self.type, self.index = kind, index

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"


def test_device_like_objects_are_read_by_type_and_index():
    assert mg.zeros(2, device=_TorchLikeDevice("cpu")).shape == (2,)
    assert mg.ones(2).to(_TorchLikeDevice("cpu", 0)).dtype is mg.float32
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'cuda:1'"):
        mg.zeros(2, device=_TorchLikeDevice("cuda", 1))


@pytest.mark.oracle
def test_a_torch_device_is_accepted(torch):
    assert mg.zeros(2, device=torch.device("cpu")).device == mg.device("cpu")
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'cuda'"):
        mg.ones(2).to(torch.device("cuda"))


# --- Tensor.to ------------------------------------------------------------------------------
def _to_forms(lib, x):
    """Every call form of ``Tensor.to`` PyTorch documents, on ``x`` (float32)."""
    f64 = lib.float64
    return {
        "()": lambda: x.to(),
        "(None)": lambda: x.to(None),
        "('cpu')": lambda: x.to("cpu"),
        "('cpu:0')": lambda: x.to("cpu:0"),
        "(device('cpu'))": lambda: x.to(lib.device("cpu")),
        "(float64)": lambda: x.to(f64),
        "(float32)": lambda: x.to(lib.float32),
        "(float32, copy=True)": lambda: x.to(lib.float32, copy=True),
        "('cpu', float64)": lambda: x.to("cpu", f64),
        "(device, float64, False, True)": lambda: x.to(lib.device("cpu"), f64, False, True),
        "(float64, False, False)": lambda: x.to(f64, False, False),
        "(other int64)": lambda: x.to(lib.zeros(1, dtype=lib.int64)),
        "(other float32, copy=True)": lambda: x.to(lib.zeros(1), copy=True),
        "(device=, dtype=)": lambda: x.to(device="cpu", dtype=lib.float16),
        "(dtype=)": lambda: x.to(dtype=f64),
        "(dtype=None)": lambda: x.to(dtype=None),
        "('cpu', non_blocking=True)": lambda: x.to("cpu", non_blocking=True),
        "(copy=True)": lambda: x.to(copy=True),
        # bad forms
        "('float64')": lambda: x.to("float64"),
        "(float64, 'cpu')": lambda: x.to(f64, "cpu"),
        "('cpu', 'cpu')": lambda: x.to("cpu", "cpu"),
        "(float64, float32)": lambda: x.to(f64, lib.float32),
        "(foo=1)": lambda: x.to(foo=1),
        "(5 positional)": lambda: x.to("cpu", f64, False, False, None),
        "('cuda')": lambda: x.to("cuda"),
        "('gpu')": lambda: x.to("gpu"),
        "(device='cuda:0', dtype=)": lambda: x.to(device="cuda:0", dtype=f64),
        "(1)": lambda: x.to(1),
    }


def _outcome(call, x):
    try:
        y = call()
    except Exception as e:  # noqa: BLE001  (the error type is the outcome)
        return type(e).__name__
    return (str(y.dtype).split(".")[-1], y is x, y.requires_grad)


@pytest.mark.oracle
def test_tensor_to_call_forms_match_torch(torch):
    xm, xt = mg.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    ours, theirs = _to_forms(mg, xm), _to_forms(torch, xt)
    got = {k: _outcome(ours[k], xm) for k in ours}
    want = {k: _outcome(theirs[k], xt) for k in theirs}
    # PyTorch says AssertionError ("not compiled with CUDA") or "no accelerator" for
    # the GPU; minigrad says RuntimeError (CPU only), the same for every GPU spelling
    want.update({k: "RuntimeError" for k in ("('cuda')", "(device='cuda:0', dtype=)", "(1)")})
    # PyTorch copies for "cpu:0" (its index differs from the tensor's "cpu"); minigrad has
    # one CPU and nothing to move, so it returns the tensor itself, as for "cpu"
    assert want.pop("('cpu:0')") == ("float32", False, True)
    assert got.pop("('cpu:0')") == ("float32", True, True)
    assert got == want


def test_tensor_to_keeps_gradients_flowing():
    x = mg.ones(2, requires_grad=True)
    y = x.to("cpu", mg.float64)
    assert y.grad_fn.name() == "ToCopyBackward0"
    y.sum().backward()
    assert x.grad.dtype is mg.float32 and x.grad.tolist() == [1.0, 1.0]
    assert x.to("cpu") is x


def test_tensor_to_refuses_other_devices_with_one_message():
    x = mg.ones(2)
    for call in (lambda: x.to("cuda"), lambda: x.to(device="cuda"), x.cuda):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == CPU_ONLY + "'cuda'"
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'cuda:1'"):
        x.cuda(1)
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'mps'"):
        x.to(mg.device("mps"), mg.float64)


# --- nn.Module.to ---------------------------------------------------------------------------
def test_module_to_call_forms():
    m = nn.Linear(2, 2)
    w = m.weight
    assert m.to("cpu") is m and m.to(mg.device("cpu")) is m and m.cpu() is m
    assert m.to(device="cpu").weight is w and w.dtype is mg.float32
    assert m.to("cpu", mg.float64) is m and w.dtype is mg.float64
    m.to(mg.zeros(1, dtype=mg.float32))
    assert w.dtype is mg.float32
    m.to(dtype=mg.float16, non_blocking=True)
    assert m.weight is w and w.dtype is mg.float16
    with pytest.raises(TypeError, match="only accepts floating point dtypes"):
        m.to(mg.int64)
    for call in (lambda: m.to("cuda"), lambda: m.to(device="cuda"), m.cuda):
        with pytest.raises(RuntimeError) as info:
            call()
        assert str(info.value) == CPU_ONLY + "'cuda'"


@pytest.mark.oracle
def test_module_to_matches_torch(torch):
    for lib in (mg, torch):
        m = lib.nn.Linear(2, 2)
        assert m.to("cpu", lib.float64) is m and m.weight.dtype is lib.float64
        assert m.to(lib.zeros(1, dtype=lib.float32)).weight.dtype is lib.float32
        with pytest.raises(TypeError):
            m.to(lib.int64)
        with pytest.raises(TypeError):
            m.to("cpu", "cpu")


# --- accelerators, defaults -------------------------------------------------------------------
def test_there_is_no_accelerator():
    assert mg.cuda.is_available() is False and mg.cuda.device_count() == 0
    assert mg.accelerator.is_available() is False
    assert mg.accelerator.current_accelerator() is None and mg.accelerator.device_count() == 0
    assert mg.backends.mps.is_available() is False and mg.backends.cudnn.is_available() is False
    mg.cuda.manual_seed_all(0)  # seeding helpers call it; it changes nothing
    before = mg.randn(3)
    mg.manual_seed(0)
    first = mg.randn(3)
    mg.manual_seed(0)
    mg.cuda.manual_seed(1)
    assert mg.randn(3).tolist() == first.tolist() and before.shape == (3,)
    mg.backends.cudnn.deterministic = True  # seeding helpers set it too
    mg.backends.cudnn.deterministic = False


@pytest.mark.oracle
def test_accelerator_answers_match_cpu_only_torch(torch):
    assert mg.cuda.is_available() == torch.cuda.is_available()
    assert mg.accelerator.is_available() == torch.accelerator.is_available()
    assert mg.accelerator.current_accelerator() == torch.accelerator.current_accelerator()
    assert mg.backends.mps.is_available() == torch.backends.mps.is_available()


def test_default_device():
    assert mg.get_default_device() == mg.device("cpu")
    mg.set_default_device("cpu:0")
    assert mg.get_default_device() == mg.device("cpu:0") and mg.zeros(1).device.type == "cpu"
    mg.set_default_device(None)
    assert mg.get_default_device() == mg.device("cpu")
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'cuda'"):
        mg.set_default_device("cuda")
    assert mg.get_default_device() == mg.device("cpu")


def test_device_as_a_context_manager():
    with mg.device("cpu", 0) as d:
        assert mg.get_default_device() == d and mg.ones(1).device == mg.device("cpu")
    assert mg.get_default_device() == mg.device("cpu")
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'cuda'"):
        with mg.device("cuda"):
            pass  # pragma: no cover
    assert mg.get_default_device() == mg.device("cpu")


def test_amp_refuses_other_devices_with_the_same_message():
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'cuda'"):
        mg.autocast("cuda")
    with pytest.raises(RuntimeError, match=CPU_ONLY + "'cuda'"):
        mg.amp.GradScaler("cuda")
    with mg.autocast("cpu"):
        assert (mg.ones(2, 2) @ mg.ones(2, 2)).dtype is mg.float16


def test_device_generic_training_loop():
    """The opening lines of PyTorch's tutorials, unchanged but for the import."""
    device = "cuda" if mg.cuda.is_available() else "cpu"
    device = mg.device(device)
    _ = mg.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)).to(device)
    opt = mg.optim.SGD(model.parameters(), lr=0.1)
    x, y = mg.randn(8, 3, device=device), mg.randn(8, 1, device=device)
    losses = []
    for _ in range(3):
        opt.zero_grad()
        loss = nn.MSELoss()(model(x.to(device)), y.to(device))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0] and np.isfinite(losses).all()
