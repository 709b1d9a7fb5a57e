"""The teacher's side: docs/teaching.md and the README name every course notebook, and their
links resolve. (That the Binder / conda set-ups install what the notebooks need is
tests/test_setup_recipes.py's part.)

The link test checks every relative link of both files against the working tree, the course
notebooks included: on a branch that has only some of the thirteen, it fails for the others,
which is what it is for (the merged course has them all).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tools.course import COURSE, notebooks

ROOT = Path(__file__).resolve().parents[1]
TEACHING = ROOT / "docs" / "teaching.md"
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def _links(doc: Path) -> list:
    """Relative links of a markdown file (no URLs, no in-page anchors)."""
    return [m for m in LINK.findall(doc.read_text(encoding="utf-8")) if "://" not in m]


@pytest.mark.parametrize("doc", [TEACHING, README], ids=lambda p: p.name)
def test_every_course_notebook_present_is_named(doc):
    text = doc.read_text(encoding="utf-8")
    present = [p.name for p in notebooks() if p.name in COURSE]
    assert [n for n in present if n not in text] == []


@pytest.mark.parametrize("doc", [TEACHING, README], ids=lambda p: p.name)
def test_the_course_is_linked_in_order(doc):
    linked = [Path(link).name for link in _links(doc) if Path(link).name in COURSE]
    assert linked == list(COURSE)


@pytest.mark.parametrize("doc", [TEACHING, README], ids=lambda p: p.name)
def test_every_relative_link_resolves(doc):
    missing = [link for link in _links(doc) if not (doc.parent / link).exists()]
    assert missing == [], f"{doc.name} links to files that do not exist: {missing}"


def test_the_readme_links_the_teachers_guide():
    assert "docs/teaching.md" in _links(README)


def test_the_notebook_benchmark_table_is_in_the_guide():
    text = TEACHING.read_text(encoding="utf-8")
    table = text.split("<!-- bench-notebooks -->")[1].split("<!-- /bench-notebooks -->")[0]
    assert "| notebook | wall time | peak memory (kernel RSS) |" in table
    assert re.search(r"\| all \d+, one after another \| [\d.]+ s \| \d+ MiB at most \|", table)


def _minutes_per_notebook(text: str, row: str) -> dict:
    """{"03": 45, ...} from the table rows of a course map (``row`` finds number and minutes)."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(row, text, re.M)}


def test_the_times_agree_between_the_notebooks_the_guide_and_the_course_map():
    own = {}
    for path in notebooks():
        first = nbformat.read(path, as_version=4).cells[0].source
        own[path.name[:2]] = int(re.search(r"\*\*Time:\*\* about (\d+) minutes", first).group(1))
    guide = _minutes_per_notebook(
        TEACHING.read_text(encoding="utf-8"), r"^\| \[(\d\d)_[^|]*\|[^|]*\| ~(\d+) min \|"
    )
    course_map = nbformat.read(notebooks()[0], as_version=4).cells[2].source
    in_map = _minutes_per_notebook(course_map, r"^\| (\d\d) \|[^|]*\|[^|]*\| (\d+) min \|")
    assert len(own) == len(COURSE)
    assert guide == own
    assert in_map == own
