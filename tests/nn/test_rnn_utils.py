"""PyTorch as oracle for nn.utils.rnn (pad_sequence, pack_padded_sequence, pad_packed_sequence,
pack_sequence, unpad/unpack, PackedSequence) and RNN/LSTM/GRU on packed input."""

import numpy as np
import pytest

import minigrad as mg
from minigrad.nn.utils import rnn as MR

torch = pytest.importorskip("torch")
TR = torch.nn.utils.rnn

pytestmark = pytest.mark.oracle
RNG = np.random.default_rng(2)
LENGTHS = [3, 5, 2, 5]  # a tie: the packed order must be PyTorch's


def sequences(lengths=LENGTHS, features=3):
    arrays = [RNG.standard_normal((n, features)) for n in lengths]
    return [mg.tensor(a, requires_grad=True) for a in arrays], [
        torch.tensor(a, requires_grad=True) for a in arrays
    ]


def same_packed(mine, ref):
    np.testing.assert_array_equal(mine.data.detach().numpy(), ref.data.detach().numpy())
    np.testing.assert_array_equal(mine.batch_sizes.numpy(), ref.batch_sizes.numpy())
    assert mine.batch_sizes.dtype == mg.int64
    for a, b in (
        (mine.sorted_indices, ref.sorted_indices),
        (mine.unsorted_indices, ref.unsorted_indices),
    ):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_array_equal(a.numpy(), b.numpy())


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_pad_sequence(batch_first, side):
    ms, ts = sequences()
    out = MR.pad_sequence(ms, batch_first=batch_first, padding_value=-1.5, padding_side=side)
    ref = TR.pad_sequence(ts, batch_first=batch_first, padding_value=-1.5, padding_side=side)
    np.testing.assert_array_equal(out.detach().numpy(), ref.detach().numpy())
    w = RNG.standard_normal(tuple(ref.shape))
    (out * mg.tensor(w)).sum().backward()
    (ref * torch.tensor(w)).sum().backward()
    for a, b in zip(ms, ts):
        np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())


@pytest.mark.parametrize("enforce_sorted", [True, False])
@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_and_unpack_round_trip(enforce_sorted, batch_first):
    lengths = sorted(LENGTHS, reverse=True) if enforce_sorted else LENGTHS
    ms, ts = sequences(lengths)
    padded_m = MR.pad_sequence(ms, batch_first=batch_first)
    padded_t = TR.pad_sequence(ts, batch_first=batch_first)
    mine = MR.pack_padded_sequence(padded_m, mg.tensor(lengths), batch_first, enforce_sorted)
    ref = TR.pack_padded_sequence(padded_t, torch.tensor(lengths), batch_first, enforce_sorted)
    same_packed(mine, ref)
    out, out_len = MR.pad_packed_sequence(mine, batch_first, padding_value=9.0, total_length=6)
    back, back_len = TR.pad_packed_sequence(ref, batch_first, padding_value=9.0, total_length=6)
    np.testing.assert_array_equal(out.detach().numpy(), back.detach().numpy())
    np.testing.assert_array_equal(out_len.numpy(), back_len.numpy())
    w = RNG.standard_normal(tuple(back.shape))
    (out * mg.tensor(w)).sum().backward()
    (back * torch.tensor(w)).sum().backward()
    for a, b in zip(ms, ts):
        np.testing.assert_array_equal(a.grad.numpy(), b.grad.numpy())


def test_pack_sequence_unpack_sequence_and_packed_sequence_fields():
    ms, ts = sequences()
    mine, ref = (
        MR.pack_sequence(ms, enforce_sorted=False),
        TR.pack_sequence(ts, enforce_sorted=False),
    )
    same_packed(mine, ref)
    for a, b in zip(MR.unpack_sequence(mine), TR.unpack_sequence(ref)):
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy())
    data, batch_sizes, sorted_indices, unsorted_indices = mine  # a named tuple, as PyTorch's
    assert mine._fields == ref._fields
    assert MR.PackedSequence(data, batch_sizes, sorted_indices).unsorted_indices is not None
    assert mine.float().data.dtype == mg.float32 and mine.double().data.dtype == mg.float64
    assert not mine.is_cuda


@pytest.mark.parametrize("cls", ["RNN", "LSTM", "GRU"])
@pytest.mark.parametrize(
    "kwargs", [{}, {"num_layers": 2, "bidirectional": True, "batch_first": True}]
)
def test_recurrent_layers_on_packed_input(cls, kwargs):
    torch.manual_seed(0)
    theirs = getattr(torch.nn, cls)(3, 4, dtype=torch.float64, **kwargs)
    mg.manual_seed(0)
    ours = getattr(mg.nn, cls)(3, 4, dtype="float64", **kwargs)
    ms, ts = sequences()
    layers = (2 if kwargs else 1) * kwargs.get("num_layers", 1)
    h0 = RNG.standard_normal((layers, len(LENGTHS), 4))
    hm, ht = mg.tensor(h0), torch.tensor(h0)
    if cls == "LSTM":
        hm, ht = (hm, hm * 0.5), (ht, ht * 0.5)
    out, h_n = ours(MR.pack_sequence(ms, enforce_sorted=False), hm)
    ref, h_ref = theirs(TR.pack_sequence(ts, enforce_sorted=False), ht)
    assert isinstance(out, MR.PackedSequence)
    np.testing.assert_allclose(out.data.detach().numpy(), ref.data.detach().numpy(), atol=1e-14)
    h_n, h_ref = (h_n[1], h_ref[1]) if cls == "LSTM" else (h_n, h_ref)
    np.testing.assert_allclose(h_n.detach().numpy(), h_ref.detach().numpy(), atol=1e-14)
    padded, _ = MR.pad_packed_sequence(out)
    padded_ref, _ = TR.pad_packed_sequence(ref)
    w, v = RNG.standard_normal(tuple(padded_ref.shape)), RNG.standard_normal(tuple(h_ref.shape))
    ((padded * mg.tensor(w)).sum() + (h_n * mg.tensor(v)).sum()).backward()
    ((padded_ref * torch.tensor(w)).sum() + (h_ref * torch.tensor(v)).sum()).backward()
    for a, b in zip(ms, ts):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-13)
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=1e-13, err_msg=name)


def test_errors_as_pytorch():
    ms, ts = sequences([2, 3])
    cases = [
        (lambda R, s: R.pad_sequence([]), RuntimeError, "received an empty list of sequences"),
        (lambda R, s: R.pad_sequence(s, padding_side="mid"), RuntimeError, "padding_side"),
        (lambda R, s: R.pack_sequence(s), RuntimeError, "sorted in decreasing order"),
        (
            lambda R, s: R.pack_padded_sequence(R.pad_sequence(s), [3, 0]),
            RuntimeError,
            "greater than 0",
        ),
        (
            lambda R, s: R.pad_packed_sequence(R.pack_sequence(s[::-1]), total_length=2),
            ValueError,
            "total_length=2 and max sequence length being 3",
        ),
    ]
    for call, error, match in cases:
        for R, s in ((MR, ms), (TR, ts)):
            with pytest.raises(error, match=match):
                call(R, s)
    with pytest.raises(RuntimeError, match="same trailing dims"):
        MR.pad_sequence([mg.zeros(2, 3), mg.zeros(2, 4)])
    with pytest.raises(RuntimeError, match="only 3 time steps"):
        MR.pack_padded_sequence(mg.zeros(3, 2), [4, 3])
