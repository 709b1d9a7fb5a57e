"""docs/reading-the-engine.md points at the code it describes: every ``path lines A-B, name``
is exactly the span of that function or class (or lies in the module docstring), and its
example runs."""

import ast
import contextlib
import io
import pathlib
import re

import pytest

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
    assert any(path.endswith("sparse/accumulate.py") for path, *_ in _refs())


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
        "1 MulBackward0 [2.0]",
        "2 PowBackward0 [6.0]",
        "3 AccumulateGrad []",
    ]
