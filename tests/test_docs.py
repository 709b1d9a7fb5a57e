"""docs/reading-the-engine.md points at the code it describes: every ``path lines A-B, name``
is exactly the span of that function or class (or lies in the module docstring), its example
runs, and its tables of the core files, of the files to skip and of the layers are what
``tools/engine_guide.py`` generates. In the README and every page of docs/, each relative link
(and its anchor) resolves and each repository path named in backticks exists."""

import ast
import contextlib
import io
import pathlib
import re

import pytest

from tools import engine_guide

ROOT = pathlib.Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "reading-the-engine.md"
REF = re.compile(r"`(minigrad/[\w/]+\.py)` lines (\d+)-(\d+), (?:`([\w.]+)`|the module docstring)")


def _refs():
    return REF.findall(GUIDE.read_text(encoding="utf-8"))


def _span(path: pathlib.Path, qualname: str) -> tuple[int, int]:
    node = ast.parse(path.read_text(encoding="utf-8"))
    for part in qualname.split("."):
        node = next(
            n
            for n in ast.iter_child_nodes(node)
            if isinstance(n, (ast.FunctionDef, ast.ClassDef)) and n.name == part
        )
    return min([node.lineno] + [d.lineno for d in node.decorator_list]), node.end_lineno


def test_the_guide_names_the_heart_of_backward_an_op_and_the_accumulation_table():
    names = {name for *_, name in _refs()}
    assert {"BackwardPass._walk", "Tanh", "schedule"} <= names
    assert any(path.endswith("accumulation/accumulate.py") for path, *_ in _refs())


@pytest.mark.parametrize("path, start, end, name", _refs(), ids=lambda x: str(x))
def test_line_ranges_point_at_what_they_name(path, start, end, name):
    file = ROOT / path
    if name:
        assert _span(file, name) == (int(start), int(end)), (
            f"update the lines of {name} in {GUIDE.name}"
        )
    else:
        doc = ast.parse(file.read_text(encoding="utf-8")).body[0]
        assert isinstance(doc, ast.Expr) and doc.lineno <= int(start) <= int(end) <= doc.end_lineno


def test_the_guide_example_runs():
    code = re.search(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(GUIDE), "exec"), {})
    assert out.getvalue().splitlines() == [
        "0 AddBackward0 [1.0, 1.0]",
        "1 MulBackward0 [2.0, None]",  # 2 * x: the number is an edge (None, 0), as in PyTorch
        "2 PowBackward0 [6.0]",
        "3 AccumulateGrad []",
    ]


# --- the guide's generated tables (tools/engine_guide.py) ---------------------------------------


def test_the_guide_tables_are_what_the_tool_generates():
    stale = engine_guide.stale(GUIDE.read_text(encoding="utf-8"))
    assert stale == [], (
        f"blocks {stale} of {GUIDE.name} are out of date: python -m tools.engine_guide"
    )


def test_the_staleness_check_sees_a_changed_count():
    text = GUIDE.read_text(encoding="utf-8")
    lines = f"{engine_guide.core_total()[0]:,}"
    assert f"**{lines}**" in text
    assert engine_guide.stale(text.replace(f"**{lines}**", "**1**")) == ["core-files"]
    assert engine_guide.stale(engine_guide.update(text.replace(f"**{lines}**", "**1**"))) == []


def test_a_backward_pass_runs_only_core_files_and_files_the_guide_says_to_skip():
    uncovered, unused = engine_guide.uncovered_and_unused()
    assert uncovered == [], (
        f"a backward pass runs {uncovered}, neither core nor listed to skip: add each to CORE "
        "or SKIP in tools/engine_guide.py, then run python -m tools.engine_guide"
    )
    assert unused == [], f"SKIP entries that backward no longer reaches: {unused}"


def test_the_tour_names_every_core_file():
    tour = GUIDE.read_text(encoding="utf-8").split("## The tour", 1)[1]
    assert [path for path in engine_guide.CORE if path not in tour] == []


def test_line_counts_leave_out_blank_lines_comments_and_docstrings(tmp_path):
    source = tmp_path / "example.py"
    source.write_text(
        '"""Module docstring,\non two lines."""\n'
        "\n"
        "# a comment\n"
        "def f(x):\n"
        '    """Docstring."""\n'
        "    return (x +  # a trailing comment\n"
        "            1)\n"
    )
    assert engine_guide.count_lines(source) == (8, 3)


def test_every_folder_of_minigrad_says_what_it_holds():
    folders = {p.name + "/" for p in (ROOT / "minigrad").iterdir() if (p / "__init__.py").exists()}
    assert set(engine_guide.FOLDERS) == folders


def test_the_folder_table_has_every_folder_once_bottom_to_top():
    rows = engine_guide.folder_table().splitlines()[2:]
    layers = [int(row.split(" | ")[0].strip("| ")) for row in rows]
    assert layers == sorted(layers)
    named = [f for row in rows for f in re.findall(r"`(\w+/)`", row.split(" | ")[1])]
    assert sorted(named) == sorted(engine_guide.FOLDERS)


def test_the_layer_table_has_every_layer_of_the_layering_test():
    table = engine_guide.layer_table()
    names = [name for name, _ in engine_guide.layers()]
    assert [row.split(" | ")[1] for row in table.splitlines()[2:]] == names


# --- links and paths in the README and docs/ ----------------------------------------------------

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
PATH = re.compile(
    r"`((?:minigrad|viz|benchmarks|tests|tools|notebooks|docs|deploy|binder|\.ci)/[\w./*-]*)`"
)


def _anchors(doc: pathlib.Path) -> set:
    """GitHub's anchors of a markdown file's headings (fenced code left out)."""
    seen, out = {}, set()
    for heading in re.findall(r"^#+ (.*)$", FENCE.sub("", doc.read_text(encoding="utf-8")), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def test_anchors_are_githubs():
    doc = ROOT / "README.md"
    assert {"what-still-differs-from-pytorch", "set-up-two-commands", "the-course"} <= _anchors(doc)


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_relative_link_and_anchor_resolves(doc):
    bad = []
    for link in LINK.findall(FENCE.sub("", doc.read_text(encoding="utf-8"))):
        if "://" in link or link.startswith("mailto:"):
            continue
        target, _, anchor = link.partition("#")
        file = (doc.parent / target).resolve() if target else doc
        if not file.exists():
            bad.append(f"{link} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            bad.append(f"{link} (no such heading)")
    assert bad == [], f"{doc.name}: {bad}"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_path_named_in_backticks_exists(doc):
    missing = []
    for path in PATH.findall(doc.read_text(encoding="utf-8")):
        path = path.rstrip("/")
        if not (any(ROOT.glob(path)) if "*" in path else (ROOT / path).exists()):
            missing.append(path)
    assert missing == [], f"{doc.name} names files that are not there: {missing}"
