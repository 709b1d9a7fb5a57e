"""The README's sparse-attention example runs and prints what its comment says."""

import contextlib
import io
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_sparse_attention_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    code = next(b for b in blocks if "sparse_attention" in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue().strip() == "tensor(True)"


def test_readme_table_says_what_the_benchmark_measures():
    text = README.read_text()
    table = text[text.index("<!-- sparse-attention -->") : text.index("<!-- /sparse-attention -->")]
    assert "| minigrad `sparse_attention`" in table and "<= 64 MB: met" in table
