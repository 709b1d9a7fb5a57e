"""The README: its example prints the output it shows, its figure for the engine's core is the
guide's, and it stays short (the feature tours and benchmark tables live in docs/, whose
examples tests/test_docs_pages.py runs)."""

import contextlib
import io
import pathlib
import re

from tools import engine_guide

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def test_readme_example_prints_the_output_it_shows():
    text = README.read_text(encoding="utf-8")
    code, shown = re.search(
        r"```python\n(.*?)```\n\nprints\n\n```text\n(.*?)```", text, re.S
    ).groups()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == shown


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
