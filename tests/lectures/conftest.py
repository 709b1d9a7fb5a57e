"""The lecture scripts are run by test_lectures_oracle.py under each library, never imported
(they start with ``import LIB as torch``)."""

collect_ignore = [
    "bigram.py",
    "mlp.py",
    "backprop_by_hand.py",
    "hooks_and_checkpoints.py",
    "func_transforms.py",
    "forward_ad.py",
    "custom_functions.py",
    "reinforce.py",
    "vae_reparam.py",
]
