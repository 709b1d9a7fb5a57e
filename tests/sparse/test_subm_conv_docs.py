"""The sparse-convolution example of docs/sparse.md runs and prints what its comment says."""

import contextlib
import io
import pathlib
import re

PAGE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "sparse.md"


def test_docs_sparse_conv_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S)
    code = next(b for b in blocks if "SubMConv2d" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/sparse.md", "exec"), {})
    printed = out.getvalue().strip()
    assert printed == "RuleBook(window=(3, 3), sites=3, offsets=9, pairs=5, 80 bytes)"
    assert f"# {printed}" in code
