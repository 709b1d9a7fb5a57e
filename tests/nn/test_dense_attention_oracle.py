"""PyTorch as oracle for ``F.scaled_dot_product_attention`` and ``nn.MultiheadAttention``
(issue 27): values, gradients of every input and parameter, PyTorch's init under the same
seed, ``repr``, masks of both kinds, batch_first, unbatched input."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

RNG = np.random.default_rng(0)
BOOL_MASK = RNG.random((4, 6)) > 0.3
BOOL_MASK[:, 0] = True  # every query may attend somewhere


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"is_causal": True},
        {"attn_mask": BOOL_MASK},
        {"attn_mask": RNG.standard_normal((4, 6))},
        {"scale": 0.3},
    ],
    ids=["plain", "causal", "bool mask", "float mask", "scale"],
)
def test_scaled_dot_product_attention_matches_pytorch(kwargs):
    arrays = [RNG.standard_normal(s) for s in ((2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 2))]
    results = []
    for lib in (torch, mg):
        q, k, v = (lib.tensor(a, requires_grad=True) for a in arrays)
        kw = {n: lib.tensor(a) if isinstance(a, np.ndarray) else a for n, a in kwargs.items()}
        out = lib.nn.functional.scaled_dot_product_attention(q, k, v, **kw)
        out.backward(lib.tensor(np.linspace(-1, 1, out.numel()).reshape(tuple(out.shape))))
        results.append([out.detach().numpy()] + [t.grad.numpy() for t in (q, k, v)])
    for ours, theirs in zip(results[1], results[0], strict=True):
        np.testing.assert_allclose(ours, theirs, rtol=1e-10, atol=1e-13)


def _mha(lib, kwargs, q, kv, call, dtype):
    lib.manual_seed(0)
    layer = lib.nn.MultiheadAttention(**kwargs).to(getattr(lib, dtype))
    qq, kk = (
        lib.tensor(q.astype(dtype), requires_grad=True),
        lib.tensor(kv.astype(dtype), requires_grad=True),
    )
    call = {n: _mask(lib, a, dtype) if isinstance(a, np.ndarray) else a for n, a in call.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out, weights = layer(qq, kk, kk, **call)
    loss = out.sum() if weights is None else out.sum() + (weights * weights).sum()
    loss.backward()
    params = [(n, p.detach().numpy(), p.grad.numpy()) for n, p in layer.named_parameters()]
    got = [out.detach().numpy(), qq.grad.numpy(), kk.grad.numpy()]
    return repr(layer), got, None if weights is None else weights.detach().numpy(), params


def _mask(lib, a, dtype):
    return lib.tensor(a if a.dtype == bool else a.astype(dtype))


PAD = np.array([[False, False, False, True], [False] * 4, [True, False, False, False]])
MHA_CASES = [
    ({"embed_dim": 8, "num_heads": 2}, (5, 3, 8), (4, 3, 8), {}),
    (
        {"embed_dim": 8, "num_heads": 2, "batch_first": True},
        (3, 5, 8),
        (3, 4, 8),
        {"key_padding_mask": PAD},
    ),
    (
        {"embed_dim": 6, "num_heads": 3, "bias": False},
        (5, 6),
        (5, 6),
        {"attn_mask": np.triu(np.ones((5, 5), bool), 1), "average_attn_weights": False},
    ),
    ({"embed_dim": 8, "num_heads": 4}, (5, 3, 8), (4, 3, 8), {"need_weights": False}),
    (
        {"embed_dim": 4, "num_heads": 1},
        (3, 2, 4),
        (3, 2, 4),
        {"attn_mask": RNG.standard_normal((3, 3))},
    ),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("case", MHA_CASES, ids=range(len(MHA_CASES)))
def test_multihead_attention_matches_pytorch(case, dtype):
    kwargs, sq, skv, call = case
    q, kv = RNG.standard_normal(sq), RNG.standard_normal(skv)
    ours, theirs = _mha(mg, kwargs, q, kv, call, dtype), _mha(torch, kwargs, q, kv, call, dtype)
    tol = {"rtol": 2e-5, "atol": 1e-5} if dtype == "float32" else {"rtol": 1e-9, "atol": 1e-12}
    assert ours[0] == theirs[0]
    for a, b in zip(ours[1], theirs[1], strict=True):
        np.testing.assert_allclose(a, b, **tol)
    assert (ours[2] is None) == (theirs[2] is None)
    if ours[2] is not None:
        np.testing.assert_allclose(ours[2], theirs[2], **tol)
    assert [p[0] for p in ours[3]] == [p[0] for p in theirs[3]]
    for (_, w, g), (_, tw, tg) in zip(ours[3], theirs[3], strict=True):
        np.testing.assert_array_equal(w, tw)  # PyTorch's init, draw for draw
        np.testing.assert_allclose(g, tg, **tol)


def test_multihead_attention_refuses_what_it_lacks():
    with pytest.raises(NotImplementedError):
        mg.nn.MultiheadAttention(4, 2, kdim=3)
    with pytest.raises(AssertionError):
        mg.nn.MultiheadAttention(6, 4)
    mha, x = mg.nn.MultiheadAttention(4, 2), mg.ones(3, 1, 4)
    with pytest.raises(RuntimeError, match="float mask"):
        mha(x, x, x, attn_mask=mg.zeros(3, 3, dtype=mg.float64))
    with pytest.raises(RuntimeError):
        q = mg.ones(1, 2, 3)
        mg.nn.functional.scaled_dot_product_attention(q, q, q, mg.ones(2, 2), is_causal=True)
