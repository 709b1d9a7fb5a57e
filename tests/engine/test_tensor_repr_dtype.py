"""Printing tensors like PyTorch, dtype inference of mg.tensor, set_default_dtype, bad data.

Expected strings are what PyTorch 2.x prints with ``torch.`` replaced by ``minigrad.`` (node
names are PyTorch's, overload digit included: ``AddBackward0``).
"""

import warnings

import numpy as np
import pytest

import minigrad as mg


@pytest.fixture
def float64_default():
    mg.set_default_dtype(mg.float64)
    try:
        yield
    finally:
        mg.set_default_dtype(mg.float32)


# --- repr ------------------------------------------------------------------------------------------

REPRS = [
    (lambda: mg.tensor([1.0, 2.0], requires_grad=True), "tensor([1., 2.], requires_grad=True)"),
    (lambda: mg.tensor(3.0, requires_grad=True), "tensor(3., requires_grad=True)"),
    (lambda: mg.tensor([1.0, 2.0], dtype=mg.float64), "tensor([1., 2.], dtype=minigrad.float64)"),
    (lambda: mg.tensor([1.0, 2.0], dtype=mg.float16), "tensor([1., 2.], dtype=minigrad.float16)"),
    (
        lambda: mg.tensor([0.1, 0.2], dtype=mg.float64, requires_grad=True),
        "tensor([0.1000, 0.2000], dtype=minigrad.float64, requires_grad=True)",
    ),
    (lambda: mg.tensor([1, 2]), "tensor([1, 2])"),
    (lambda: mg.tensor([1, 2], dtype=mg.int32), "tensor([1, 2], dtype=minigrad.int32)"),
    (lambda: mg.tensor(3, dtype=mg.uint8), "tensor(3, dtype=minigrad.uint8)"),
    (lambda: mg.tensor([True, False]), "tensor([ True, False])"),
    (lambda: mg.tensor(2.5), "tensor(2.5000)"),
    (lambda: mg.tensor(-0.0), "tensor(-0.)"),
    (lambda: mg.tensor([1.5, 2.25]), "tensor([1.5000, 2.2500])"),
    (lambda: mg.tensor([1.0, -2.0]), "tensor([ 1., -2.])"),
    (lambda: mg.tensor([1.123456789]), "tensor([1.1235])"),
    (lambda: mg.tensor([[1.0, 2.0], [3.0, 4.0]]), "tensor([[1., 2.],\n        [3., 4.]])"),
    (lambda: mg.tensor([1e-5, 1.0]), "tensor([1.0000e-05, 1.0000e+00])"),
    (lambda: mg.tensor([1e9, 1.0]), "tensor([1.0000e+09, 1.0000e+00])"),
    (lambda: mg.tensor([1.5, 1000.0]), "tensor([   1.5000, 1000.0000])"),
    (lambda: mg.tensor([]), "tensor([])"),
    (lambda: mg.zeros(0, 3), "tensor([], size=(0, 3))"),
    (lambda: mg.tensor([[1, 2], [3, 4]]), "tensor([[1, 2],\n        [3, 4]])"),
]


@pytest.mark.parametrize("make, want", REPRS, ids=[w for _, w in REPRS])
def test_repr_matches_pytorch(make, want):
    assert repr(make()) == want


def test_repr_of_results_shows_grad_fn():
    x = mg.tensor(3.0, requires_grad=True)
    y = x**2 + 2 * x
    assert repr(y) == "tensor(15., grad_fn=<AddBackward0>)"
    a = mg.tensor([1.0, 2.0], dtype=mg.float64, requires_grad=True)
    assert repr(a * a) == "tensor([1., 4.], dtype=minigrad.float64, grad_fn=<MulBackward0>)"
    y.backward()
    assert repr(x.grad) == "tensor(8.)"  # gradients carry no history


def test_repr_under_no_grad_and_after_detach():
    x = mg.tensor([1.0], requires_grad=True)
    with mg.no_grad():
        assert repr(x * 2.0) == "tensor([2.])"
    assert repr((x * 2.0).detach()) == "tensor([2.])"


def test_repr_of_dtypes():
    assert repr(mg.float32) == "minigrad.float32"
    assert repr(mg.int64) == "minigrad.int64"
    assert repr(mg.bool) == "minigrad.bool"
    assert mg.float is mg.float32 and mg.double is mg.float64 and mg.long is mg.int64


@pytest.mark.usefixtures("float64_default")
def test_repr_dtype_suffix_follows_the_default_dtype():
    assert repr(mg.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(mg.tensor([1.5], dtype=mg.float32)) == "tensor([1.5000], dtype=minigrad.float32)"


def test_repr_of_float16_emits_no_warning():
    t = mg.tensor([1.0, 2.5], dtype=mg.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert repr(t) == "tensor([1.0000, 2.5000], dtype=minigrad.float16)"


@pytest.mark.parametrize(
    "data, want",
    [
        ([1.0, 2000.0], "tensor([1.0000e+00, 2.0000e+03])"),
        ([0.001, 100.0], "tensor([1.0000e-03, 1.0000e+02])"),
    ],
)
def test_repr_switches_to_scientific_notation_for_wide_ranges(data, want):
    assert repr(mg.tensor(data)) == want


def test_repr_with_nan_and_inf():
    assert repr(mg.tensor([float("nan"), float("inf"), 1.0])) == "tensor([nan, inf, 1.])"


PRINT_RULES = [
    ([0.0001, 1.0], None, "tensor([1.0000e-04, 1.0000e+00])"),
    ([123456789.0, 1.0], None, "tensor([1.2346e+08, 1.0000e+00])"),
    ([1.0, 1000.0], None, "tensor([   1., 1000.])"),  # a ratio of exactly 1000 stays fixed
    ([-0.0, 1.0], None, "tensor([-0., 1.])"),
    ([float("nan"), 1.5], None, "tensor([   nan, 1.5000])"),
    (
        [[1.5, float("nan")], [float("-inf"), 2e5]],
        None,
        "tensor([[1.5000e+00,        nan],\n        [      -inf, 2.0000e+05]])",
    ),
    ([0.0, 0.0], None, "tensor([0., 0.])"),
    ([], "int64", "tensor([], dtype=minigrad.int64)"),  # empty: every non-default dtype shown
    ([], "bool", "tensor([], dtype=minigrad.bool)"),
    ([[True], [False]], None, "tensor([[ True],\n        [False]])"),
    ([65504.0, 1e-7], "float16", "tensor([6.5504e+04, 1.1921e-07], dtype=minigrad.float16)"),
]


@pytest.mark.parametrize("data, dtype, want", PRINT_RULES, ids=[w for *_, w in PRINT_RULES])
def test_repr_follows_pytorchs_printing_rules(data, dtype, want):
    t = mg.tensor(data, dtype=None if dtype is None else getattr(mg, dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert repr(t) == want


def test_repr_summarises_large_tensors_with_edge_items():
    assert repr(mg.arange(2000)) == "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"
    text = repr(mg.arange(1200.0).reshape(30, 40))
    lines = text.split("\n")
    assert lines[0] == "tensor([[0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 3.7000e+01, 3.8000e+01,"
    assert lines[1] == "         3.9000e+01],"
    assert lines[6] == "        ...,"
    assert len(lines) == 13 and lines[-1] == "         1.1990e+03]])"


def test_repr_of_1000_elements_is_not_summarised():
    text = repr(mg.arange(1000))
    assert "..." not in text and text.endswith(" 999])")
    assert "..." in repr(mg.arange(1001))


def test_repr_wraps_suffixes_that_would_pass_80_columns():
    # PyTorch's rule (_add_suffixes): a suffix that would push the last line past 80
    # characters starts a new line, indented under the values. "minigrad." is 3 characters
    # longer than "torch.", so here the dtype wraps where PyTorch's still fits.
    # PyTorch: "... 3.2857], dtype=torch.float64,\n       requires_grad=True)".
    t = (mg.arange(24.0, dtype=mg.float64) / 7).requires_grad_()
    lines = repr(t).split("\n")
    assert lines[2] == "        2.5714, 2.7143, 2.8571, 3.0000, 3.1429, 3.2857],"
    assert lines[3:] == ["       dtype=minigrad.float64, requires_grad=True)"]
    assert max(len(line) for line in lines) <= 80


# --- repr against PyTorch (oracle) ----------------------------------------------------------------

_RNG = np.random.default_rng(0)
ORACLE_REPRS = [
    # (id, data, dtype name or None for float32/int64/bool, requires_grad)
    ("sci-ratio", [1.0, 2000.0], None, False),
    ("sci-small", [0.0001, 1.0], None, False),
    ("sci-tiny", [1e-5, 1.0], None, False),
    ("sci-big", [123456789.0, 1.0], None, False),
    ("fixed", [1.5, 2.25], None, False),
    ("integral", [1.0, 2.0], None, False),
    ("0d", 2.5, None, False),
    ("0d-integral", 3.0, None, True),
    ("0d-int", 7, None, False),
    ("neg-zero", -0.0, None, False),
    ("neg-zero-vec", [-0.0, 1.0], None, False),
    ("nan-inf-int", [float("nan"), float("inf"), 1.0], None, False),
    ("nan-inf-only", [float("nan"), float("inf"), float("-inf")], None, False),
    ("nan-fixed", [float("nan"), 1.5], None, False),
    ("nan-sci", [float("nan"), 1e-5, 1.0], None, False),
    ("zeros", [0.0, 0.0], None, False),
    ("long-wraps", np.arange(100.0) / 3, None, False),
    ("long-int", np.arange(50), None, False),
    ("summary-1d", np.arange(2000.0), None, False),
    ("summary-1001", np.arange(1001), None, False),
    ("summary-2d", np.arange(1200.0).reshape(30, 40), None, False),
    ("summary-3d", np.arange(1e6).reshape(100, 100, 100), None, False),
    ("summary-randn", _RNG.standard_normal(1500), None, False),
    ("2d-align", [[1.5, -2.0], [3.0, 400.0]], None, False),
    ("2d-int", [[1, -20], [300, 4]], None, False),
    ("3d", np.arange(24.0).reshape(2, 3, 4) / 7, None, False),
    ("randn-2d", _RNG.standard_normal((5, 7)), None, True),
    ("bool", [True, False], None, False),
    ("bool-2d", [[True], [False]], None, False),
    ("empty", [], None, False),
    ("empty-2d", np.zeros((0, 3)), None, False),
    ("empty-3d", np.zeros((2, 0, 3)), None, False),
    ("empty-int64", [], "int64", False),
    ("empty-int32-2d", np.zeros((0, 2)), "int32", False),
    ("empty-float64-grad", [], "float64", True),
    ("float64", [1.0, 2.0], "float64", False),
    ("float64-grad", [0.1, 0.2], "float64", True),
    ("float64-long", np.arange(20.0) / 3, "float64", False),
    ("float64-huge", [1e300, 1.0], "float64", False),
    ("float64-subnormal", [5e-324], "float64", False),
    ("float16", [1.0, 2.5], "float16", False),
    ("float16-max", [65504.0, 1.0], "float16", False),
    ("float16-tiny", [1e-7, 1.0], "float16", False),
    ("int32", [1, 2], "int32", False),
    ("uint8-0d", 3, "uint8", False),
    ("int8", [-1, 2], "int8", False),
    ("int16", [1, 300], "int16", False),
]


def _pair(data, dtype):
    """The same data as a minigrad tensor and a torch tensor (from one numpy array)."""
    torch = pytest.importorskip("torch")
    arr = np.array(data, dtype=np.float32 if dtype is None and np.ndim(data) else None)
    if dtype is not None:
        arr = arr.astype(dtype)
    elif arr.dtype == np.float64:  # Python floats: the default dtype in both libraries
        arr = arr.astype(np.float32)
    return mg.tensor(arr), torch.from_numpy(arr.copy())


def _as_minigrad_text(torch_repr: str) -> str:
    """PyTorch's repr with our module name: ``torch.`` -> ``minigrad.`` (node names are the same)."""
    return torch_repr.replace("torch.", "minigrad.")


@pytest.mark.oracle
@pytest.mark.parametrize(
    "data, dtype, requires_grad", [c[1:] for c in ORACLE_REPRS], ids=[c[0] for c in ORACLE_REPRS]
)
def test_repr_is_pytorchs(data, dtype, requires_grad):
    ours, theirs = _pair(data, dtype)
    if requires_grad:
        ours.requires_grad_()
        theirs.requires_grad_()
    assert repr(ours) == _as_minigrad_text(repr(theirs))
    assert max(len(line) for line in repr(ours).split("\n")) <= 80


@pytest.mark.oracle
@pytest.mark.parametrize(
    "data",
    [3.0, [1.0, 2.0], [[0.5, 1.0], [1.5, 2.0]], np.arange(30.0)],
    ids=["0d", "1d", "2d", "long"],
)
def test_repr_with_grad_fn_is_pytorchs(data):
    ours, theirs = _pair(data, None)
    ours, theirs = ours.requires_grad_(), theirs.requires_grad_()
    ours, theirs = ours * ours, theirs * theirs
    assert repr(ours) == _as_minigrad_text(repr(theirs))


# --- dtype inference ----------------------------------------------------------------------------------

INFERENCE = [
    (1.0, mg.float32),
    (1, mg.int64),
    (True, mg.bool),
    ([1, 2.5], mg.float32),
    ([True, 2], mg.int64),
    ([[1, 2], [3, 4]], mg.int64),
    ([], mg.float32),
    (np.float64(1.0), mg.float64),
    ([np.float64(1.0)], mg.float64),
    (np.float32(2.5), mg.float32),
    (np.array([1.0]), mg.float64),
    (np.array([1.0], dtype=np.float32), mg.float32),
    (np.array([1, 2], dtype=np.int32), mg.int32),
    (np.array(3, dtype=np.int16), mg.int16),
    (np.array([True]), mg.bool),
]


@pytest.mark.parametrize("data, want", INFERENCE, ids=[repr(d) for d, _ in INFERENCE])
def test_tensor_infers_dtype_like_pytorch(data, want):
    assert mg.tensor(data).dtype is want


def test_tensor_from_a_list_of_zero_dim_tensors_and_from_a_tensor():
    t = mg.tensor([mg.tensor(1.0), mg.tensor(2.0)])
    assert t.dtype is mg.float32 and t.tolist() == [1.0, 2.0]
    src = mg.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        copy = mg.tensor(src)
    assert copy.is_leaf and not copy.requires_grad
    copy.numpy()[0] = 5.0
    assert src.detach().numpy()[0] == 1.0  # tensor() always copies


@pytest.mark.parametrize(
    "make",
    [
        lambda: mg.tensor([1.0, 2.0], dtype=mg.float64),
        lambda: mg.tensor(1.0, dtype=mg.float64),
        lambda: mg.tensor([1, 2], dtype=mg.int32),
    ],
    ids=["float64", "float64-0d", "int32"],
)
def test_tensor_of_a_tensor_keeps_its_dtype(make):
    src = make()
    with pytest.warns(UserWarning, match=r"sourceTensor\.detach\(\)\.clone\(\)"):
        copy = mg.tensor(src)
    assert copy.dtype is src.dtype
    assert copy.shape == src.shape and copy.tolist() == src.tolist()


def test_explicit_dtype_wins():
    assert mg.tensor([1, 2], dtype=mg.float64).dtype is mg.float64
    assert mg.tensor(np.float64(1.5), dtype=mg.float32).dtype is mg.float32


@pytest.mark.parametrize(
    "value, want",
    [(np.int32(3), mg.int32), (np.int16(3), mg.int16), (np.uint8(3), mg.uint8)],
    ids=["int32", "int16", "uint8"],
)
def test_numpy_integer_scalars_keep_their_dtype(value, want):
    assert mg.tensor(value).dtype is want
    assert mg.tensor([value, value]).dtype is want


def test_list_mixing_numpy_float64_and_python_float_is_float64():
    assert mg.tensor([np.float64(1.0), 2.0]).dtype is mg.float64


# Each case builds its data with `lib` = minigrad or torch (same names), so one table serves
# the plain test and the oracle. Rule (PyTorch's infer_scalar_type): every element asks for a
# dtype (numpy scalars and 0-d tensors their own, bool bool, int int64, float the default) and
# the list gets their promotion.
MIXED_INFERENCE = [
    ("np.float16", lambda lib: np.float16(1.5), "float16"),
    ("np.bool_", lambda lib: np.bool_(True), "bool"),
    ("np.int8", lambda lib: np.int8(3), "int8"),
    ("float64-then-float", lambda lib: [np.float64(1.0), 2.0], "float64"),
    ("float-then-float64", lambda lib: [2.0, np.float64(1.0)], "float64"),
    ("np.float32-and-float", lambda lib: [np.float32(1.0), 2.0], "float32"),
    ("np.float32-and-np.float64", lambda lib: [np.float32(1.0), np.float64(2.0)], "float64"),
    ("np.float16-and-np.float32", lambda lib: [np.float16(1.0), np.float32(2.0)], "float32"),
    ("np.float16-list", lambda lib: [np.float16(1.0)], "float16"),
    ("np.int32-and-int", lambda lib: [np.int32(1), 2], "int64"),
    ("np.int32-and-np.int16", lambda lib: [np.int32(1), np.int16(1)], "int32"),
    ("np.uint8-and-np.int8", lambda lib: [np.uint8(1), np.int8(1)], "int16"),
    ("np.int32-and-float", lambda lib: [np.int32(1), 2.5], "float32"),
    ("np.int64-and-np.float16", lambda lib: [np.int64(1), np.float16(2.5)], "float16"),
    ("bool-and-np.int32", lambda lib: [True, np.int32(2)], "int32"),
    ("np.float64-and-bool", lambda lib: [np.float64(1.0), True], "float64"),
    ("empty-rows", lambda lib: [[], []], "float32"),
    ("t64-and-float", lambda lib: [lib.tensor(1.0, dtype=lib.float64), 2.0], "float64"),
    ("t16", lambda lib: [lib.tensor(1.0, dtype=lib.float16)], "float16"),
    ("t16-and-float", lambda lib: [lib.tensor(1.0, dtype=lib.float16), 2.0], "float32"),
    (
        "t16-and-t64",
        lambda lib: [lib.tensor(1.0, dtype=lib.float16), lib.tensor(2.0, dtype=lib.float64)],
        "float64",
    ),
    ("t32i", lambda lib: [lib.tensor(1, dtype=lib.int32)], "int32"),
    ("t32i-and-int", lambda lib: [lib.tensor(1, dtype=lib.int32), 2], "int64"),
    ("t32i-and-float", lambda lib: [lib.tensor(1, dtype=lib.int32), 2.5], "float32"),
    (
        "tu8-and-ti8",
        lambda lib: [lib.tensor(1, dtype=lib.uint8), lib.tensor(1, dtype=lib.int8)],
        "int16",
    ),
    ("tbool", lambda lib: [lib.tensor(True)], "bool"),
    ("tbool-and-int", lambda lib: [lib.tensor(True), 2], "int64"),
    ("nested-t64", lambda lib: [[lib.tensor(1.0, dtype=lib.float64)], [2.0]], "float64"),
    (
        "t32i-and-np.float32",
        lambda lib: [lib.tensor(1, dtype=lib.int32), np.float32(1.0)],
        "float32",
    ),
    ("one-element-1d-t64", lambda lib: [lib.tensor([1.0], dtype=lib.float64)], "float64"),
]


@pytest.mark.parametrize(
    "make, want", [c[1:] for c in MIXED_INFERENCE], ids=[c[0] for c in MIXED_INFERENCE]
)
def test_tensor_promotes_the_dtypes_of_its_elements(make, want):
    assert mg.tensor(make(mg)).dtype is getattr(mg, want)


@pytest.mark.oracle
@pytest.mark.parametrize(
    "make, want", [c[1:] for c in MIXED_INFERENCE], ids=[c[0] for c in MIXED_INFERENCE]
)
def test_tensor_dtype_inference_is_pytorchs(make, want):
    torch = pytest.importorskip("torch")
    theirs = torch.tensor(make(torch))
    ours = mg.tensor(make(mg))
    assert repr(ours.dtype) == repr(theirs.dtype).replace("torch.", "minigrad.")
    assert ours.shape == tuple(theirs.shape) and ours.tolist() == theirs.tolist()


def test_tensor_keeps_the_values_of_wide_elements():
    assert mg.tensor([np.float64(0.1), 2.0]).numpy()[0] == 0.1  # not rounded through float32
    assert mg.tensor([np.int64(2**62 + 1), 1]).tolist() == [2**62 + 1, 1]
    t = mg.tensor([[mg.tensor(1.5, dtype=mg.float64)], [mg.tensor([2], dtype=mg.int32)]])
    assert t.dtype is mg.float64 and t.tolist() == [[1.5], [2.0]]


@pytest.mark.usefixtures("float64_default")
def test_python_floats_in_a_mixed_list_follow_the_default_dtype():
    assert mg.tensor([np.float32(1.0), 2.0]).dtype is mg.float64
    assert mg.tensor([np.float32(1.0)]).dtype is mg.float32
    assert mg.tensor([mg.tensor(1.0, dtype=mg.float16), 2.0]).dtype is mg.float64


def test_tensor_of_a_tensor_copies_and_detaches():
    src = mg.tensor([1, 2], dtype=mg.uint8)
    with pytest.warns(UserWarning, match="rather than minigrad.tensor\\(sourceTensor\\)"):
        copy = mg.tensor(src, dtype=mg.float64)
    assert copy.dtype is mg.float64 and copy.tolist() == [1.0, 2.0]
    copy.numpy()[0] = 7
    assert src.tolist() == [1, 2]


def test_as_tensor_converts_a_tensor_without_copy_warning():
    src = mg.tensor([1.0, 2.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mg.as_tensor(src) is src
        assert mg.as_tensor(src, dtype=mg.float32) is src
        wide = mg.as_tensor(src, dtype=mg.float64)
    assert wide.dtype is mg.float64 and wide.grad_fn is not None  # as torch: differentiable


def test_as_tensor_shares_a_numpy_array_as_pytorch():
    a = np.array([1.0, 2.0])
    t = mg.as_tensor(a)
    t.add_(1)  # the numpy bridge of PyTorch's tutorial: one memory, two views of it
    assert a.tolist() == [2.0, 3.0] and t.dtype is mg.float64
    assert mg.as_tensor(a, dtype=mg.float64).data_ptr() == a.ctypes.data
    other = mg.as_tensor(a, dtype=mg.float32)  # another dtype: a converted copy
    other.add_(1)
    assert a.tolist() == [2.0, 3.0] and other.tolist() == [3.0, 4.0]
    assert mg.as_tensor([1, 2]).tolist() == [1, 2]  # a list is copied, as always


def test_factories_take_size_as_a_keyword_as_pytorch():
    # a textbook draws a scalar weight with torch.randn(size=(), requires_grad=True)
    w = mg.randn(size=(), requires_grad=True)
    assert w.shape == () and w.requires_grad and w.is_leaf
    for make in (mg.zeros, mg.ones, mg.empty, mg.rand, mg.randn):
        assert make(size=(2, 3)).shape == make(2, 3).shape == make([2, 3]).shape == (2, 3)
        assert make(size=4).shape == (4,)
        with pytest.raises(TypeError, match="got multiple values for argument 'size'"):
            make(2, size=(2,))


def test_from_numpy_names_what_it_takes():
    with pytest.raises(TypeError, match=r"from_numpy\(\): expected np.ndarray \(got list\)"):
        mg.from_numpy([1, 2])


def test_numpy_force_reads_a_tensor_that_requires_grad():
    x = mg.ones(2, requires_grad=True)
    n = x.numpy(force=True)
    assert np.shares_memory(n, x._data) and n.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="detach"):
        x.numpy()


def test_memory_introspection_as_pytorch():
    x = mg.arange(12.0).view(3, 4)
    assert x.data_ptr() == x.view(12).data_ptr() == x.numpy().ctypes.data
    assert x[1:].storage_offset() == 4 and x[:, 2].storage_offset() == 2
    assert x.t()[1].storage_offset() == 1 and x.clone().storage_offset() == 0
    assert x[1:].data_ptr() - x.data_ptr() == 4 * x.itemsize
    assert (x.itemsize, x.nbytes, x.ndimension()) == (4, 48, 2)
    assert mg.ones(3, dtype=mg.float16).nbytes == 6


@pytest.mark.oracle
def test_memory_introspection_matches_torch():
    torch = pytest.importorskip("torch")
    got = []
    for lib in (mg, torch):
        x = lib.arange(24.0).view(2, 3, 4)
        views = (x, x[1], x[:, 1:], x.transpose(0, 2)[2], x[..., 3], x.view(6, 4)[5:])
        got.append(
            [(v.storage_offset(), v.data_ptr() - x.data_ptr(), v.nbytes, v.itemsize) for v in views]
        )
    assert got[0] == got[1]


# --- set_default_dtype --------------------------------------------------------------------------------


@pytest.mark.usefixtures("float64_default")
def test_set_default_dtype_changes_what_python_floats_become():
    assert mg.get_default_dtype() is mg.float64
    assert mg.tensor(1.0).dtype is mg.float64
    assert mg.tensor([1, 2.5]).dtype is mg.float64
    assert mg.zeros(2).dtype is mg.float64
    assert mg.arange(3.0).dtype is mg.float64
    assert mg.tensor(1).dtype is mg.int64  # integers are unaffected
    assert mg.tensor(np.float32(1.0)).dtype is mg.float32  # numpy scalars keep their dtype
    assert (mg.tensor(2) * 2.5).dtype is mg.float64


def test_default_dtype_is_float32():
    assert mg.get_default_dtype() is mg.float32


@pytest.mark.parametrize("bad", [mg.int64, mg.bool, mg.uint8])
def test_set_default_dtype_rejects_non_float_dtypes(bad):
    with pytest.raises(TypeError, match="only supports floating point dtypes"):
        mg.set_default_dtype(bad)
    assert mg.get_default_dtype() is mg.float32


# --- bad data ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, detail",
    [
        ([[1, 2], [3]], "expected length 2 at depth 1, got 1"),
        ([[1, 2], 3], "got int"),
        ([[[1], [2]], [[3], [4, 5]]], "at depth 2"),
    ],
    ids=["short-row", "mixed-depth", "deep"],
)
def test_ragged_lists_raise_value_error_naming_the_depth(data, detail):
    with pytest.raises(ValueError, match="expected a rectangular nested list") as info:
        mg.tensor(data)
    assert detail in str(info.value)


@pytest.mark.parametrize(
    "data, what",
    [
        ("abc", "str"),
        (["a", "b"], "list of non-numbers"),
        (None, "NoneType"),
        ([1, None], "list of non-numbers"),
        ({1: 2}, "dict"),
        (1 + 2j, "complex"),
    ],
    ids=["str", "list-of-str", "None", "list-with-None", "dict", "complex"],
)
def test_non_numeric_data_raises_type_error_saying_what_is_accepted(data, what):
    with pytest.raises(TypeError) as info:
        mg.tensor(data)
    msg = str(info.value)
    assert what in msg
    assert "pass a number, a (nested) list or a numpy array" in msg


@pytest.mark.parametrize(
    "arr, name",
    [
        (np.array([1], dtype=np.uint16), "uint16"),
        (np.array([1 + 2j]), "complex128"),
        (np.array(["a"]), "<U1"),
    ],
)
def test_unsupported_numpy_dtypes_are_named(arr, name):
    with pytest.raises(TypeError) as info:
        mg.tensor(arr)
    msg = str(info.value)
    assert f"unsupported dtype {name}" in msg and "float64" in msg  # and what is supported


@pytest.mark.parametrize(
    "data",
    [np.uint16(3), [np.uint16(3), 1], np.uint32(1), np.complex64(1)],
    ids=["uint16", "list-of-uint16", "uint32", "complex64"],
)
def test_unsupported_numpy_scalars_are_rejected_not_coerced(data):
    with pytest.raises(TypeError, match=r"unsupported dtype (uint16|uint32|complex64); minigrad"):
        mg.tensor(data)


def test_numpy_strings_in_a_list_are_non_numbers():
    with pytest.raises(TypeError, match="list of non-numbers"):
        mg.tensor([np.str_("a"), 1])


def test_object_arrays_are_rejected():
    with pytest.raises(TypeError, match="data of dtype object is not supported"):
        mg.tensor(np.array([1, "a"], dtype=object))


def test_nested_multi_element_tensor_is_rejected():
    with pytest.raises(ValueError, match="only one-element tensors can be nested"):
        mg.tensor([mg.tensor([1.0, 2.0]), mg.tensor([3.0, 4.0])])
