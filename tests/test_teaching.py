"""The teacher's side: docs/teaching.md and the README name every course notebook, and their
links resolve, and the notebooks' times are the time model's (tools/study_time.py) in all three
places that state them. (That the Binder / conda set-ups install what the notebooks need is
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
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from tools import study_time
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


def test_the_times_agree_between_the_notebooks_the_guide_the_course_map_and_the_model():
    places = study_time.stated()
    model = {number: c.minutes for number, c in study_time.estimates().items()}
    assert len(model) == len(COURSE)
    assert places["header"] == model
    assert places["guide"] == model
    assert places["course map"] == model
    assert study_time.disagreements() == []


def test_the_guide_states_the_time_model_with_the_tools_constants():
    text = " ".join(TEACHING.read_text(encoding="utf-8").split())
    model = (
        f"minutes = words / {study_time.WORDS_PER_MINUTE} + code lines / "
        f"{study_time.CODE_LINES_PER_MINUTE} + {study_time.MINUTES_PER_EXERCISE} × exercises "
        f"+ answer lines"
    )
    assert model in text
    assert study_time.MINUTES_PER_ANSWER_LINE == 1  # "+ answer lines": one minute each
    assert "python -m tools.study_time --write" in text


def _fixture_notebook():
    prose = "Read this.\n\n| a | table | is | not | read |\n|---|---|---|---|---|\n"
    fenced = "```python\nx = 1\n\ny = 2\n```\nthen <b>two</b> words [here](x.md)"
    return new_notebook(
        cells=[
            new_markdown_cell("# 99 · A test\n\n**Time:** about 20 minutes"),
            new_code_cell("import numpy as np\n\nx = 1"),  # 2 lines
            new_markdown_cell(prose + fenced),
            new_markdown_cell("### Exercise 1: Write it\n\nAsk."),
            new_code_cell("answer_1 = ...", metadata={"tags": ["exercise"]}),  # 1 line
            new_code_cell(
                "# Solution to Exercise 1\ndef f():\n    # a comment\n    return 2\n",
                metadata={"tags": ["solution"]},
            ),  # 2 answer lines
            new_code_cell("check(answer_1)\nmore()", metadata={"tags": ["check"]}),
            new_code_cell("assert answer_1", metadata={"tags": ["grading"]}),
            new_code_cell("print(answer_1)", metadata={"tags": ["reveal"]}),  # 1 line
        ]
    )


def test_the_model_counts_prose_code_exercises_and_answer_lines():
    c = study_time.counts(_fixture_notebook())
    # words: 99 A test Time about 20 minutes | Read this then two words here (not the table, the
    # fenced code, the tag or the link target) | Exercise 1 Write it Ask ("#", "·" are no words)
    assert (c.words, c.code_lines, c.exercises, c.answer_lines) == (18, 6, 1, 2)
    raw = 18 / 150 + 6 / 10 + study_time.MINUTES_PER_EXERCISE + 2
    assert c.raw_minutes == pytest.approx(raw)
    assert c.minutes == 5
    assert study_time.Counts(1500, 300, 4, 10).minutes == 65  # 10 + 30 + 16 + 10 = 66
    assert study_time.Counts(0, 0, 0, 0).minutes == 5  # never 0


def test_answer_lines_the_skeleton_already_gives_are_not_counted():
    skeleton = "def f(x):\n    return ...  # your code\n"
    nb = new_notebook(
        cells=[
            new_markdown_cell("### Exercise 1: Build it"),
            new_code_cell(skeleton, metadata={"tags": ["exercise"]}),
            new_code_cell(
                "# Solution to Exercise 1\ndef f(x):\n    y = 2 * x\n    return y + 1\n",
                metadata={"tags": ["solution"]},
            ),
        ]
    )
    # "def f(x):" is given; the student writes the two lines of the body
    assert study_time.counts(nb).answer_lines == 2


def test_write_puts_the_model_in_all_three_places_and_disagreements_see_a_change(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    nb = _fixture_notebook()
    course_map = nbformat.v4.new_notebook(
        cells=[
            new_markdown_cell("# 00 · Map\n\n**Time:** about 20 minutes"),
            new_code_cell("import minigrad"),
            new_markdown_cell(
                "| # | notebook | what | time | assumes |\n|---|---|---|---|---|\n"
                "| 00 | map | this | 20 min | none |\n| 99 | test | that | 20 min | 00 |\n"
            ),
        ]
    )
    nbformat.write(course_map, folder / "00_map.ipynb")
    nbformat.write(nb, folder / "99_test.ipynb")
    guide = tmp_path / "teaching.md"
    guide.write_text(
        "| notebook | covers | time | assumes |\n|---|---|---|---|\n"
        "| [00_map.ipynb](x) | map | ~20 min | - |\n| [99_test.ipynb](y) | test | ~20 min | 00 |\n"
    )
    paths = sorted(folder.glob("*.ipynb"))
    assert len(study_time.disagreements(paths, guide)) == 6  # 2 notebooks x 3 places
    study_time.write(paths, guide)
    assert study_time.disagreements(paths, guide) == []
    assert "| 99 | test | that | 5 min | 00 |" in nbformat.read(paths[0], 4).cells[2].source
    assert "| [99_test.ipynb](y) | test | ~5 min | 00 |" in guide.read_text()
    edited = nbformat.read(paths[1], 4)
    edited.cells[1].source += "\n" + "z = 0\n" * 60  # 6 more minutes to run
    nbformat.write(edited, paths[1])
    assert [line[:2] for line in study_time.disagreements(paths, guide)] == ["99"] * 3
