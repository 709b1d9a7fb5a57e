"""Lecture-style scripts, written here, run once with ``import minigrad as torch`` and once
with PyTorch, each in its own process: every printed line must be the same.

They use what PyTorch lectures on language models use: a seeded ``Generator``,
``multinomial`` sampling, ``randint`` minibatches, ``keepdims=``, ``nelement``, ``log10``,
``range`` indices, ``F.one_hot``, f-string formatting of a loss, and a ``cmp`` table of
hand-derived gradients against autograd.
"""

import os
import pathlib
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
    "reinforce.py",
    "vae_reparam.py",
)
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
    differing = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
    assert not differing, differing
