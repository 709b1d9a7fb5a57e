"""Integer and bool edge cases against PyTorch (found by a dtype sweep of ~3,000 op and dtype
pairs): Python ints out of an integer dtype's range wrap where PyTorch wraps them and are
refused where it refuses them; float16 special functions stay float16; ops without a bool
kernel refuse bool tensors with PyTorch's exception class; ``all``/``any`` keep uint8."""

import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle


def u8(L):
    return L.tensor([0, 3, 250], dtype=L.uint8)


def i8(L):
    return L.tensor([-100, 3, 100], dtype=L.int8)


CASES = {
    "uint8 - 2": lambda L: u8(L) - 2,
    "2 - uint8": lambda L: 2 - u8(L),
    "uint8 * -1": lambda L: u8(L) * -1,
    "uint8.sub(2, alpha=3)": lambda L: u8(L).sub(2, alpha=3),
    "uint8 + 300": lambda L: u8(L) + 300,
    "int8 + 200": lambda L: i8(L) + 200,
    "int8.add(1000)": lambda L: i8(L).add(1000),
    "uint8 > -1": lambda L: u8(L) > -1,
    "uint8 == -1": lambda L: u8(L) == -1,
    "uint8.clamp(-1)": lambda L: u8(L).clamp(-1),
    "uint8.clamp(-5, 300)": lambda L: u8(L).clamp(-5, 300),
    "int8.clamp(-200)": lambda L: i8(L).clamp(-200),
    "uint8.masked_fill(-1)": lambda L: u8(L).masked_fill(u8(L) > 1, -1),
    "full(-1, uint8)": lambda L: L.full((2,), -1, dtype=L.uint8),
    "full(300, uint8)": lambda L: L.full((2,), 300, dtype=L.uint8),
    "full(-129, int8)": lambda L: L.full((1,), -129, dtype=L.int8),
    "full(2**40, int32)": lambda L: L.full((1,), 2**40, dtype=L.int32),
    "uint8.fill_(-1)": lambda L: L.zeros(2, dtype=L.uint8).fill_(-1),
    "uint8.fill_(300)": lambda L: L.zeros(2, dtype=L.uint8).fill_(300),
    "int16.fill_(40000)": lambda L: L.zeros(2, dtype=L.int16).fill_(40000),
    "where(uint8, -1)": lambda L: L.where(u8(L) > 1, u8(L), -1),
    "erf float16": lambda L: L.erf(L.tensor([0.25, 0.5, 1.0], dtype=L.float16)),
    "erfc float16": lambda L: L.erfc(L.tensor([0.25, 0.5, 1.0], dtype=L.float16)),
    "erfinv float16": lambda L: L.erfinv(L.tensor([0.25, 0.5, 0.75], dtype=L.float16)),
    "lgamma float16": lambda L: L.lgamma(L.tensor([0.25, 0.5, 3.0], dtype=L.float16)),
    "sign bool": lambda L: L.sign(L.tensor([True, False])),
    "sgn bool": lambda L: L.sgn(L.tensor([True, False])),
    "abs bool": lambda L: L.tensor([True, False]).abs(),
    "relu bool": lambda L: L.tensor([True, False]).relu(),
    "median bool": lambda L: L.tensor([True, False]).median(),
    "logcumsumexp int64": lambda L: L.tensor([1, 2]).logcumsumexp(0),
    "topk bool": lambda L: L.tensor([True, False]).topk(1),
    "+bool": lambda L: +L.tensor([True, False]),
    "trace bool": lambda L: L.tensor([[True, False]]).trace(),
    "bincount float": lambda L: L.tensor([1.0, 2.0]).bincount(),
    "uint8.all()": lambda L: L.tensor([[0, 3], [2, 4]], dtype=L.uint8).all(),
    "uint8.any(1)": lambda L: L.tensor([[0, 3], [2, 4]], dtype=L.uint8).any(1),
    "int32 ** bool": lambda L: L.tensor([-7, 0, 9], dtype=L.int32) ** L.tensor([True, False, True]),
}


def _outcome(fn, L):
    try:
        out = fn(L)
    except Exception as e:  # noqa: BLE001  (the class is what is compared)
        return type(e)
    if isinstance(out, tuple):
        out = out[0]
    return str(out.dtype).split(".")[-1], out.tolist()


@pytest.mark.parametrize("name", list(CASES))
def test_same_values_dtypes_and_exception_classes_as_pytorch(name):
    got, want = _outcome(CASES[name], mg), _outcome(CASES[name], torch)
    assert got == want


def test_the_overflow_message_names_the_type():
    with pytest.raises(RuntimeError, match="uint8_t without overflow"):
        mg.full((2,), 300, dtype=mg.uint8)
