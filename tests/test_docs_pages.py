"""The examples of the pages in docs/ run and print what their comments say, and the tables
say what their benchmarks measure. (The sparse-convolution example is checked by
tests/sparse/test_subm_conv_docs.py, the jaxpr example by tests/func/test_jaxpr.py.)"""

import contextlib
import io
import pathlib
import re

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"


def _run(page: str, marker: str) -> tuple[str, str]:
    """Run the python block of docs/``page`` that contains ``marker``: (its code, its output)."""
    blocks = re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)
    code = next(b for b in blocks if marker in b)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"docs/{page}", "exec"), {})
    return code, out.getvalue()


def test_sparse_memory_report_example_runs():
    _, text = _run("sparse.md", "memory_report")
    assert "leaf [1000000, 64]: sparse_coo, nnz=4" in text and "saving 100.0%" in text


def test_sparse_attention_example_runs():
    _, text = _run("sparse.md", "sparse_attention")
    assert text.strip() == "tensor(True)"


def test_sparse_attention_table_says_what_the_benchmark_measures():
    text = (DOCS / "sparse.md").read_text(encoding="utf-8")
    table = text[text.index("<!-- sparse-attention -->") : text.index("<!-- /sparse-attention -->")]
    assert "| minigrad `sparse_attention`" in table and "<= 64 MB: met" in table


def test_tape_example_runs_and_prints_its_comments():
    code, text = _run("tensorflow-jax.md", "GradientTape() as tape")
    promised = [line.split("# ")[-1] for line in code.splitlines() if line.startswith("print(")]
    assert text.splitlines() == promised
