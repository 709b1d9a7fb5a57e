"""The README's example must run and print what its comments say."""

import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_runs():
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert lines[0] == "tensor(8.)"
    assert lines[1].startswith("0 PowBackward0 tensor(1.)")
    assert lines[2].startswith("1 AccumulateGrad tensor(")


def test_readme_sparse_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    code = next(b for b in blocks if "memory_report" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    text = out.getvalue()
    assert "leaf [1000000, 64]: sparse_coo, nnz=4" in text and "saving 100.0%" in text


def test_readme_tape_example_runs_and_prints_its_comments():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    code = next(b for b in blocks if "GradientTape() as tape" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    promised = [line.split("# ")[-1] for line in code.splitlines() if line.startswith("print(")]
    assert out.getvalue().splitlines() == promised
