"""Collection rules for the whole test tree."""

# PyTorch-style scripts: data for tests/test_pytorch_style.py, which runs each in a fresh
# process; never imported by pytest (they `import torch`, which CI's `make test` lacks).
collect_ignore = ["pytorch_style"]
