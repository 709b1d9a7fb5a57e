"""Every number a notebook's prose quotes as a result is a number the notebook prints (issue 24).

The rule (``tools/prose_numbers.py``): in markdown, numbers with decimals, percentages, byte
sizes and counts of 1,000 or more must agree with a number some code cell of the same notebook
prints (at the precision the prose writes, separators and unit spacing aside), or be a literal
the notebook's lesson code sets, or be one of the few definitions in ``ALLOWED`` (each with its
reason). It reads the stored outputs, so it holds for the committed, executed notebooks;
``python -m tools.prose_numbers PATH ...`` runs it on executed copies. The fixture tests below
show each part of the rule deciding both ways, so the notebook test is not one that cannot fail.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from tools.course import COURSE, notebooks
from tools.prose_numbers import ALLOWED, Quantity, check, disagreements, main, prose, quantities


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: p.name[:2])
def test_every_number_the_prose_quotes_is_printed(path):
    assert check(path) == []


def test_every_allowance_names_a_course_notebook_and_a_reason():
    numbers = {name[:2] for name in COURSE}
    assert set(ALLOWED) <= numbers
    for entries in ALLOWED.values():
        assert all(
            isinstance(reason, str) and len(reason.split()) >= 3 for reason in entries.values()
        )


def _nb(prose_text: str, printed: str = "", code: str = "print(...)", tags=()) -> object:
    """A notebook of one markdown cell and one code cell that printed ``printed``."""
    cell = new_code_cell(code, metadata={"tags": list(tags)} if tags else {})
    if printed:
        cell.outputs = [new_output("stream", name="stdout", text=printed)]
    return new_notebook(cells=[new_markdown_cell(prose_text), cell])


@pytest.mark.parametrize(
    "says, prints",
    [
        ("the norm is about 5.005", "norm 5.0050"),  # prose rounds what is printed
        ("CSR saves 33.11 % of the bytes", "saving 33.11%"),  # the space before % aside
        ("nnz 19,955 entries", "nnz=19955"),  # separators aside
        ("19955 entries", "nnz = 19,955"),
        ("about 399.1 KB as COO", "COO: 399,100 B"),  # converted to the prose's unit
        ("0.4 MB", "399100 bytes"),
        ("8.0 MiB", "8,388,608 bytes"),
        ("a density of 0.60 %", "density 0.0060"),  # a percentage printed as a fraction
        ("the error is 1.5e-08", "error 1.5e-08"),
        ("about 13,824 operations", "[2, 21, 82, 264, 768, 2096, 5472, 13824]"),
    ],
)
def test_a_number_the_outputs_print_agrees(says, prints):
    assert disagreements(_nb(says, prints)) == []


@pytest.mark.parametrize(
    "says, prints",
    [
        ("the norm is about 5.006", "norm 5.0050"),  # issue 24's nb08
        ("CSR saves 33.2 % of the bytes", "saving 33.11%"),  # issue 24's nb09
        ("240 KB as COO", "COO: 399,100 B (nnz 19,955 x 20 B)"),  # issue 24's nb09
        ("13,825 operations", "13824"),
        ("the loss is 0.318", ""),  # nothing printed at all
        ("a 14 MB gradient", "14 %"),  # a percentage is not a size
        ("the step takes 14.74 ms", "14.74 ms per step"),  # a timing is never a match
        ("a density of 0.529", "dense -> COO 0.529ms"),  # not even for another number
    ],
)
def test_a_number_no_output_prints_is_reported(says, prints):
    problems = disagreements(_nb(says, prints))
    assert len(problems) == 1
    assert problems[0].startswith("cell 0: the prose says ")


@pytest.mark.parametrize(
    "says",
    [
        "Take x = 2 and 3 layers of 64 units",  # small counts without a unit are not checked
        "Baydin et al., JMLR 2018",  # a year
        "float32 and fp16 and version 2.13.0",  # names and versions are not numbers
        "the cell runs `mg.tensor(10.0)` and\n```python\nx = 0.25\n```\n",  # code is not prose
        "see [the guide](docs/v1.5/teaching.md) or <img width='3.5'>",  # link targets, tags
    ],
)
def test_what_is_not_a_claimed_result_is_not_checked(says):
    assert disagreements(_nb(says)) == []


def test_a_literal_of_the_lesson_code_is_a_definition_but_not_an_answer():
    says = "a 2,000 x 2,000 matrix with a density of 0.25"
    assert disagreements(_nb(says, code="W = graph_like(2_000, density=0.25)")) == []
    solution = _nb(says, code="answer = graph_like(2_000, density=0.25)", tags=["solution"])
    assert [p.split("says ")[1] for p in disagreements(solution)] == [
        "2000, which no output prints",
        "0.25, which no output prints",
    ]
    # a size or a percentage is never taken from the code: it must be printed
    assert len(disagreements(_nb("a 30 % rule", code="ax.axvspan(20, 30)"))) == 1


def test_an_allowance_excuses_its_number_and_is_reported_once_unused():
    nb = _nb("an int64 index is 8 bytes")
    assert len(disagreements(nb)) == 1
    assert disagreements(nb, {"8 B": "the size of an int64, a definition"}) == []
    stale = disagreements(nb, {"8 B": "an int64", "4 B": "a float32"})
    assert stale == ["ALLOWED entry '4 B' is not in the prose"]
    # an entry stays in use while the prose says it, whatever an output happens to print
    assert disagreements(_nb("8 bytes", "8 B"), {"8 B": "an int64"}) == []


def test_a_time_in_prose_is_checked_only_with_decimals():
    assert disagreements(_nb("about 30 minutes, a few ms, 2 s")) == []
    assert [p.split("says ")[1] for p in disagreements(_nb("one step every 1.2 s"))] == [
        "1.2 s, which no output prints"
    ]


def test_quantities_read_separators_units_and_precision():
    (q,) = quantities("399,100 bytes")
    assert q == Quantity(Decimal("399100"), "B", separated=True) and q.key == "399100 B"
    (q,) = quantities("33.11 %")
    assert q.unit == "%" and q.tolerance == Decimal("0.005")
    (q,) = quantities("2.0 KiB")
    assert q.unit == "KiB" and q.checked()
    assert [q.checked() for q in quantities("1999 2099 2,024 9999 999")] == [
        False,
        False,
        True,
        True,
        False,
    ]
    assert prose("a `0.5` b ```\n1.5\n``` c [x](y/2.5) <b>3.5</b>").split() == [
        "a",
        "b",
        "c",
        "[x]",
        "3.5",
    ]


def test_the_command_line_reports_and_exits_1(tmp_path: Path, capsys):
    bad = tmp_path / "xx_bad.ipynb"
    nbformat.write(_nb("the loss falls to 0.318", "loss 0.302"), bad)
    assert main([str(bad)]) == 1
    assert "xx_bad.ipynb: cell 0: the prose says 0.318" in capsys.readouterr().out
    good = tmp_path / "xx_good.ipynb"
    nbformat.write(_nb("the loss falls to 0.30", "loss 0.302"), good)
    assert main([str(good)]) == 0
