"""PyTorch-style scripts run with the import changed (tests/pytorch_style/README.md).

Each script runs in a fresh process: with minigrad in every run of the suite (its own
asserts must hold), and with PyTorch too under ``-m oracle``, where every number it
prints must agree (rtol 1e-5, atol 1e-6) and every non-numeric word must be the same.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).parent / "pytorch_style").glob("*.py"))
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")

# `import torch...` / `from torch... import` become minigrad's: the only change a student makes
_IMPORTS = [
    (re.compile(r"^import torch$", re.M), "import minigrad as torch"),
    (re.compile(r"^import torch\.([\w.]+) as (\w+)$", re.M), r"import minigrad.\1 as \2"),
    (re.compile(r"^from torch(\.[\w.]+)? import ", re.M), r"from minigrad\1 import "),
]


def with_minigrad(source: str) -> str:
    for pattern, replacement in _IMPORTS:
        source = pattern.sub(replacement, source)
    assert not re.search(r"^\s*(import|from) torch\b", source, re.M), "an import left unchanged"
    return source


def run(source: str, tmp_path: Path, name: str) -> str:
    path = tmp_path / name
    path.write_text(source)
    done = subprocess.run(
        [sys.executable, str(path)], capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0, f"{name} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def test_the_import_rewrite():
    src = "import torch\nimport torch.nn as nn\nfrom torch.autograd.functional import hvp\n"
    assert with_minigrad(src) == (
        "import minigrad as torch\nimport minigrad.nn as nn\n"
        "from minigrad.autograd.functional import hvp\n"
    )


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_runs_with_minigrad(script, tmp_path):
    out = run(with_minigrad(script.read_text()), tmp_path, script.name)
    assert out.strip(), f"{script.name} printed nothing"


def _words_and_numbers(out: str):
    lines = out.strip().splitlines()
    return [(_NUMBER.sub("#", line), [float(v) for v in _NUMBER.findall(line)]) for line in lines]


@pytest.mark.oracle
@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs torch")
@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_prints_what_pytorch_prints(script, tmp_path):
    ours = _words_and_numbers(run(with_minigrad(script.read_text()), tmp_path, script.name))
    theirs = _words_and_numbers(run(script.read_text(), tmp_path, "torch_" + script.name))
    assert [w for w, _ in ours] == [w for w, _ in theirs]
    for (words, a), (_, b) in zip(ours, theirs):
        assert len(a) == len(b), words
        assert a == pytest.approx(b, rel=1e-5, abs=1e-6), words
