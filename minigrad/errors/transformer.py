"""Error and warning messages of ``nn.Transformer*`` (PyTorch's wording where it has one)."""

ACTIVATION = "activation should be relu/gelu, not {got}"
MASK_DTYPE = "only bool and floating types of {name} are supported"
MASK_MISMATCH = (
    "Support for mismatched {name} and {other} is deprecated. Use same type for both instead."
)
CAUSAL_NEEDS_MASK = (
    "Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
    "method `generate_square_subsequent_mask` to create this mask."
)
BATCH_MISMATCH = "the batch number of src and tgt must be equal"
FEATURE_MISMATCH = "the feature number of src and tgt must be equal to d_model"
