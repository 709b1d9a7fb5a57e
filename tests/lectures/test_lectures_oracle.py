"""Lecture-style scripts, written here, run once with ``import minigrad as torch`` and once
with PyTorch, each in its own process: every printed line must be the same.

They use what PyTorch lectures on language models use: a seeded ``Generator``,
``multinomial`` sampling, ``randint`` minibatches, ``keepdims=``, ``nelement``, ``log10``,
``range`` indices, ``F.one_hot``, f-string formatting of a loss, and a ``cmp`` table of
hand-derived gradients against autograd; and what PyTorch's beginner tutorials, a scalar
autograd engine built live and a textbook's "from scratch" chapters use (the scripts'
docstrings list it).

Every line must be the same, except in ``FLOAT32_TOLERANCE``'s scripts, whose numbers must
agree within rtol 1e-5, atol 1e-6 (as ``tests/test_pytorch_style.py``'s) with every other
character the same: there a float32 matrix product (numpy's BLAS and PyTorch's kernels add
a dot product's terms in different orders, and PyTorch's ``addmm`` fuses the bias into it)
moves a printed loss by one unit in its 6th digit. The row names the line.
"""

import os
import pathlib
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

HERE = pathlib.Path(__file__).parent
SCRIPTS = (
    "bigram.py",
    "mlp.py",
    "backprop_by_hand.py",
    "hooks_and_checkpoints.py",
    "func_transforms.py",
    "forward_ad.py",
    "custom_functions.py",
    "basics_tensors.py",
    "basics_training.py",
    "blitz.py",
    "scalar_engine.py",
    "batchnorm_by_hand.py",
    "wavenet.py",
    "d2l_scratch.py",
    "nn_really.py",
    "autograd_walkthrough.py",
    "activations.py",
    "quickstart.py",
    "with_examples.py",
    "d2l_preliminaries.py",
    "reinforce.py",
    "vae_reparam.py",
    "ntk.py",
    "double_backward.py",
    "fused_conv_bn.py",
    "d2l_classification.py",
    "recipes.py",
    "d2l_builders.py",
    "d2l_cnn.py",
)
FLOAT32_TOLERANCE = {
    "basics_training.py": "a training loss after 3 epochs of nn.Linear products: 1.403373 / 1.403372",
    "batchnorm_by_hand.py": "a running std of embcat @ W1 + b1: 16.001511 / 16.001513",
    "d2l_scratch.py": "an MSE loss of nn.Linear(2, 1) (PyTorch's addmm): 0.248132 / 0.248131",
    "activations.py": "a grad:data ratio after 30 steps of products: 1.074613e-02 / 1.074614e-02",
}
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
ROOT = HERE.parents[1]


def run(script: str, lib: str) -> list[str]:
    source = (HERE / script).read_text().replace("LIB", lib)
    prelude = "import torch\ntorch.set_num_threads(1)\n" if lib == "torch" else ""
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", prelude + source],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, f"{script} under {lib} failed:\n{done.stderr}"
    return done.stdout.splitlines()


def normalise(line: str, lib: str) -> str:
    """Only the library's own name differs, in printed dtypes (``torch.int64``)."""
    return line.replace(f"{lib}.", "LIB.")


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_script_prints_pytorchs_lines(script):
    ours = [normalise(line, "minigrad") for line in run(script, "minigrad")]
    theirs = [normalise(line, "torch") for line in run(script, "torch")]
    assert len(ours) == len(theirs), (ours, theirs)
    if script in FLOAT32_TOLERANCE:
        ours, theirs = [_split(line) for line in ours], [_split(line) for line in theirs]
    differing = [(a, b) for a, b in zip(ours, theirs, strict=True) if not _same(a, b)]
    assert not differing, differing


def _split(line: str):
    """The line's words (numbers replaced by #) and its numbers."""
    return _NUMBER.sub("#", line), [float(v) for v in _NUMBER.findall(line)]


def _same(a, b) -> bool:
    if isinstance(a, str):
        return a == b
    return a[0] == b[0] and a[1] == pytest.approx(b[1], rel=1e-5, abs=1e-6)


def test_the_tolerance_is_needed_and_narrow():
    """A line that differs only within float32 tolerance passes, another fails."""
    assert _same(_split("loss: 1.403373  [   48/   64]"), _split("loss: 1.403372  [   48/   64]"))
    assert not _same(
        _split("loss: 1.403473  [   48/   64]"), _split("loss: 1.403372  [   48/   64]")
    )
    assert not _same(_split("loss 1.40 True"), _split("loss 1.40 False"))
