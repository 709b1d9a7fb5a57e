"""The README: its example prints the output it shows, its figure for the engine's core is the
guide's, and it stays short (the feature tours and benchmark tables live in docs/, whose
examples tests/test_docs_pages.py runs)."""

import contextlib
import io
import pathlib
import re

import pytest

from tools import engine_guide

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def _example() -> tuple[str, str]:
    """The README's example and the output it shows."""
    text = README.read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", text, re.S)
    return found.groups()


def _run(code: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    return out.getvalue()


def test_readme_example_prints_the_output_it_shows():
    code, shown = _example()
    assert _run(code) == shown


@pytest.mark.oracle
def test_the_example_above_its_loop_runs_with_pytorch_as_the_readme_says():
    pytest.importorskip("torch")
    code, shown = _example()
    assert "Everything above the `for` loop runs as it is with `import torch as mg`" in (
        README.read_text(encoding="utf-8")
    )
    above = code.split("\nfor ")[0].replace("import minigrad as mg", "import torch as mg")
    printed = _run(above).splitlines()  # node names included: minigrad's are PyTorch's
    assert len(printed) == above.count("print(") and printed == shown.splitlines()[: len(printed)]


def test_the_readme_gives_the_size_of_the_engines_core_as_the_guide_counts_it():
    lines = engine_guide.core_total()[0]
    promise = f"about {round(lines, -2):,} lines in {len(engine_guide.CORE)} files"
    assert promise in README.read_text(encoding="utf-8"), (
        f"the core is {lines:,} lines now: say {promise!r} in the README"
    )


def test_the_first_screen_opens_three_doors():
    first = README.read_text(encoding="utf-8").split("\n## ", 1)[0]
    for door in ("`make lab`", "(docs/reading-the-engine.md)", "`import minigrad as torch`"):
        assert door in first


def test_the_readme_stays_short():
    # issue 29: 63.7k characters had grown into the README; areas have pages in docs/
    assert len(README.read_text(encoding="utf-8")) < 25_000
