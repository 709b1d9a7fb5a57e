"""PyTorch as oracle for nn.Transformer, TransformerEncoder(Layer), TransformerDecoder(Layer).

Built after the same seed, minigrad's layers hold PyTorch's parameters (bit for bit); their
reprs and state_dict keys are PyTorch's; outputs and gradients agree (float64 tightly, float32
within a few ulps of the values' scale). Dropout is 0.0 in training mode or the module is in
eval mode, since the dropout draws are not PyTorch's.
"""

import warnings

import numpy as np
import pytest

import minigrad as mg
from minigrad import nn

torch = pytest.importorskip("torch")

pytestmark = pytest.mark.oracle
RNG = np.random.default_rng(27)
TOL = {"float64": 1e-11, "float32": 2e-5}


def built(cls, *args, **kwargs):
    torch.manual_seed(0)
    theirs = getattr(torch.nn, cls)(*args, **kwargs)
    mg.manual_seed(0)
    kw = {
        k: (v.__name__ if k == "activation" and hasattr(v, "__name__") else v)
        for k, v in kwargs.items()
    }
    kw = {k: (str(v).split(".")[-1] if k == "dtype" else v) for k, v in kw.items()}
    return getattr(nn, cls)(*args, **kw), theirs


def same_state(ours, theirs):
    assert repr(ours) == repr(theirs)
    mine, ref = ours.state_dict(), theirs.state_dict()
    assert list(mine) == list(ref)
    for key in ref:
        assert np.array_equal(mine[key].numpy(), ref[key].numpy()), key


def pair(shape, dtype):
    x = RNG.standard_normal(shape).astype(dtype)
    return mg.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)


def same_out_and_grads(out, ref, ours, theirs, leaves, dtype):
    tol = TOL[dtype]
    np.testing.assert_allclose(out.detach().numpy(), ref.detach().numpy(), atol=tol, rtol=tol)
    w = RNG.standard_normal(tuple(ref.shape)).astype(dtype)
    (out * mg.tensor(w)).sum().backward()
    (ref * torch.tensor(w)).sum().backward()
    for a, b in leaves:
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=tol * 10, rtol=tol)
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), atol=tol * 10, err_msg=name)


def masks(n_batch, length, dtype):
    causal = torch.nn.Transformer.generate_square_subsequent_mask(
        length, dtype=getattr(torch, dtype)
    )
    pad = np.zeros((n_batch, length), bool)
    pad[1, length - 2 :] = True
    return (mg.tensor(causal.numpy()), causal), (mg.tensor(pad), torch.tensor(pad))


ENCODER_CASES = [
    {},
    {"norm_first": True, "activation": "gelu"},
    {"batch_first": True, "bias": False},
    {"activation": torch.nn.functional.gelu, "layer_norm_eps": 1e-3},
]


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("kwargs", ENCODER_CASES)
def test_encoder_layer(dtype, kwargs):
    ours, theirs = built(
        "TransformerEncoderLayer", 8, 2, 16, dropout=0.0, dtype=getattr(torch, dtype), **kwargs
    )
    same_state(ours, theirs)
    shape = (3, 5, 8) if kwargs.get("batch_first") else (5, 3, 8)
    (x, xt) = pair(shape, dtype)
    (m, mt), (p, pt) = masks(3, 5, dtype)
    with pytest.warns(UserWarning, match="mismatched src_key_padding_mask and src_mask"):
        out = ours(x, src_mask=m, src_key_padding_mask=p)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a float mask and a bool padding mask: deprecated mix
        ref = theirs(xt, src_mask=mt, src_key_padding_mask=pt)
    same_out_and_grads(out, ref, ours, theirs, [(x, xt)], dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_encoder_stack_eval_with_bool_masks_and_norm(dtype):
    d = getattr(torch, dtype)
    torch.manual_seed(0)
    layer_t = torch.nn.TransformerEncoderLayer(8, 2, 16, dtype=d)
    theirs = torch.nn.TransformerEncoder(
        layer_t, 2, torch.nn.LayerNorm(8, dtype=d), enable_nested_tensor=False
    )
    mg.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dtype=dtype)
    ours = nn.TransformerEncoder(layer, 2, nn.LayerNorm(8, dtype=dtype), enable_nested_tensor=False)
    same_state(ours, theirs)
    ours.eval(), theirs.eval()
    x, xt = pair((5, 3, 8), dtype)
    causal = np.triu(np.ones((5, 5), bool), 1)
    pad = np.zeros((3, 5), bool)
    pad[0, 4] = True
    out = ours(x, mask=mg.tensor(causal), src_key_padding_mask=mg.tensor(pad))
    ref = theirs(xt, mask=torch.tensor(causal), src_key_padding_mask=torch.tensor(pad))
    same_out_and_grads(out, ref, ours, theirs, [(x, xt)], dtype)


@pytest.mark.parametrize("kwargs", [{}, {"norm_first": True, "batch_first": True}])
def test_decoder_layer_and_stack(kwargs):
    dtype = "float64"
    ours, theirs = built(
        "TransformerDecoderLayer", 8, 2, 12, dropout=0.0, dtype=torch.float64, **kwargs
    )
    same_state(ours, theirs)
    ours_stack = nn.TransformerDecoder(ours, 2, nn.LayerNorm(8, dtype=dtype))
    theirs_stack = torch.nn.TransformerDecoder(
        theirs, 2, torch.nn.LayerNorm(8, dtype=torch.float64)
    )
    same_state(ours_stack, theirs_stack)
    first = kwargs.get("batch_first")
    (x, xt), (mem, memt) = (
        pair((3, 4, 8) if first else (4, 3, 8), dtype),
        pair((3, 6, 8) if first else (6, 3, 8), dtype),
    )
    (m, mt), _ = masks(3, 4, dtype)
    _, (p, pt) = masks(3, 6, dtype)
    out = ours_stack(x, mem, tgt_mask=m, memory_key_padding_mask=p)
    ref = theirs_stack(xt, memt, tgt_mask=mt, memory_key_padding_mask=pt)
    same_out_and_grads(out, ref, ours_stack, theirs_stack, [(x, xt), (mem, memt)], dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_transformer_init_forward_backward(dtype):
    ours, theirs = built(
        "Transformer", 8, 2, 2, 1, 16, dropout=0.0, batch_first=True, dtype=getattr(torch, dtype)
    )
    same_state(ours, theirs)
    (src, srct), (tgt, tgtt) = pair((2, 6, 8), dtype), pair((2, 4, 8), dtype)
    mask = ours.generate_square_subsequent_mask(4, dtype=dtype)
    out = ours(src, tgt, tgt_mask=mask, tgt_is_causal=True)
    ref = theirs(srct, tgtt, tgt_mask=torch.tensor(mask.numpy()), tgt_is_causal=True)
    same_out_and_grads(out, ref, ours, theirs, [(src, srct), (tgt, tgtt)], dtype)


def test_unbatched_input_and_load_state_dict():
    ours, theirs = built("TransformerEncoderLayer", 4, 2, 6, dtype=torch.float64)
    mg.manual_seed(1)
    other = nn.TransformerEncoderLayer(4, 2, 6, dtype="float64")
    other.load_state_dict({k: mg.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    other.eval(), theirs.eval()
    x, xt = pair((5, 4), "float64")
    np.testing.assert_allclose(other(x).detach().numpy(), theirs(xt).detach().numpy(), atol=1e-12)


def test_generate_square_subsequent_mask_is_static_and_matches():
    ref = torch.nn.Transformer.generate_square_subsequent_mask(4)
    out = nn.Transformer.generate_square_subsequent_mask(4)
    assert out.dtype == mg.float32
    assert np.array_equal(out.numpy(), ref.numpy())
    assert nn.Transformer.generate_square_subsequent_mask(2, dtype=mg.float64).dtype == mg.float64


def test_errors_as_pytorch():
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        nn.TransformerEncoderLayer(4, 2, activation="tanh")
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        torch.nn.TransformerEncoderLayer(4, 2, activation="tanh")
    layer = nn.TransformerEncoderLayer(4, 2, 6)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        layer(mg.randn(3, 1, 4), is_causal=True)
    with pytest.raises(AssertionError, match="only bool and floating types of src_mask"):
        layer(mg.randn(3, 1, 4), src_mask=mg.zeros(3, 3, dtype=mg.int64))
    model = nn.Transformer(4, 2, 1, 1, 6)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(mg.randn(3, 2, 4), mg.randn(3, 1, 4))
    with pytest.raises(RuntimeError, match="the feature number of src and tgt must be equal"):
        model(mg.randn(3, 2, 4), mg.randn(3, 2, 5))


def test_module_activation_is_a_submodule_and_nested_tensor_flag_is_inert():
    ours, theirs = built("TransformerEncoderLayer", 4, 2, 6, activation="gelu")
    assert "activation" not in dict(ours.named_children())  # a function, as in PyTorch
    assert repr(ours) == repr(theirs)
    ours = nn.TransformerEncoderLayer(4, 2, 6, activation=nn.GELU())
    theirs = torch.nn.TransformerEncoderLayer(4, 2, 6, activation=torch.nn.GELU())
    assert repr(ours) == repr(theirs)
    encoder = nn.TransformerEncoder(ours, 1)
    assert encoder.enable_nested_tensor and not encoder.use_nested_tensor


def test_gradcheck_encoder_and_decoder_layers():
    mg.manual_seed(0)
    enc = nn.TransformerEncoderLayer(4, 2, 6, dropout=0.0, norm_first=True, dtype="float64")
    dec = nn.TransformerDecoderLayer(4, 2, 6, dropout=0.0, activation="gelu", dtype="float64")
    x = mg.randn(3, 2, 4, dtype=mg.float64, requires_grad=True)
    mem = mg.randn(5, 2, 4, dtype=mg.float64, requires_grad=True)
    mask = nn.Transformer.generate_square_subsequent_mask(3, dtype=mg.float64)
    assert mg.autograd.gradcheck(lambda a: enc(a, src_mask=mask), (x,))
    assert mg.autograd.gradcheck(lambda a, m: dec(a, m, tgt_mask=mask), (x, mem))


def test_training_mode_dropout_unbatched_and_custom_encoder():
    mg.manual_seed(0)
    model = nn.Transformer(8, 2, 1, 1, 16, dropout=0.5)
    out = model(mg.randn(5, 2, 8), mg.randn(4, 2, 8))
    assert out.shape == (4, 2, 8) and model.training
    loss = (out * mg.randn(4, 2, 8)).sum()
    loss.backward()
    assert all(p.grad is not None for p in model.parameters())
    assert model.eval()(mg.randn(5, 8), mg.randn(4, 8)).shape == (4, 8)
    encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16), 1)
    custom = nn.Transformer(8, 2, 1, 1, 16, custom_encoder=encoder)
    assert custom.encoder is encoder and custom.encoder.norm is None


def test_a_query_with_every_key_masked_gets_zero_attention_as_pytorch():
    """Left padding under a causal mask leaves the first queries nothing to attend: PyTorch's
    need_weights=False path (scaled_dot_product_attention) gives them zero attention, not NaN."""
    ours, theirs = built("TransformerEncoderLayer", 4, 2, 6, dropout=0.0, dtype=torch.float64)
    x, xt = pair((4, 2, 4), "float64")
    pad = np.zeros((2, 4), bool)
    pad[1, :2] = True  # sequence 1 is left-padded
    causal = np.triu(np.ones((4, 4), bool), 1)
    out = ours(x, src_mask=mg.tensor(causal), src_key_padding_mask=mg.tensor(pad))
    ref = theirs(xt, src_mask=torch.tensor(causal), src_key_padding_mask=torch.tensor(pad))
    assert np.isfinite(out.detach().numpy()).all()
    same_out_and_grads(out, ref, ours, theirs, [(x, xt)], "float64")
