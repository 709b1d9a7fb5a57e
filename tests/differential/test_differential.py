"""minigrad against PyTorch on random programs (issue 26): the differential suite.

Each example is a program of 3-15 statements over about 40 op families (see
``diff_families.FAMILIES``), run with ``lib = minigrad`` and ``lib = torch`` from the same
float64/float32 inputs and compared after every statement (``diff_run``). A difference not in
``docs/differences.md`` fails, printed as a shrunk script that runs with either library.

``make oracle`` runs a fixed, derandomised budget (``DIFF_EXAMPLES``, default 1500, about 25 s on an idle machine); ``make
fuzz`` runs ``tests/differential/fuzz.py`` for many more and saves what it finds.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")

from diff_session import run_drawn  # noqa: E402
from diff_table import read_table  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

pytestmark = pytest.mark.oracle

EXAMPLES = int(os.environ.get("DIFF_EXAMPLES", "1500"))
ROWS = read_table()


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(st.data())
def test_random_programs_match_pytorch(data):
    """Values, shapes, dtypes, layouts, grad metadata, every .grad and exception classes."""
    _, diff = run_drawn(data, ROWS)
    assert diff is None, str(diff)


def test_table_rows_are_well_formed():
    """Every row of the table names a known kind and gives a reason."""
    import diff_run

    kinds = {v for k, v in vars(diff_run).items() if k.isupper() and isinstance(v, str)}
    kinds |= {f"grad {k}" for k in ("shape", "dtype", "layout", "requires_grad", "is_leaf")}
    assert ROWS, "docs/differences.md has no rows"
    for row in ROWS:
        for kind in row.kind.split(" or "):
            assert kind in kinds, f"unknown kind {kind!r} in docs/differences.md"
        assert len(row.reason) > 30, f"row {row} needs a reason a teacher could give"


def test_row_parts_all_match_and_alternatives_any():
    """``a & b or c``: a must occur, and b or c; the family and the kind must match too."""
    from diff_table import Row

    row = Row("*", "value", "signed zero & abs or l1_loss", "a reason long enough to be one")
    assert row.explains("backward", "value", "y = x.abs()\nsigned zero at (0,)")
    assert row.explains("unary", "value", "l1_loss(x, y)\nsigned zero at (0,)")
    assert not row.explains("unary", "value", "y = x.exp()\nsigned zero at (0,)")
    assert not row.explains("unary", "value", "y = x.abs()\nat (0,): 1.0 vs 2.0")
    assert not row.explains("unary", "grad value", "y = x.abs()\nsigned zero at (0,)")
    both = Row("*", "value or grad value", "signed zero", "a reason long enough to be one")
    assert both.explains("backward", "grad value", "signed zero at (0,)")
    assert both.explains("backward", "value", "signed zero at (0,)")
    assert not both.explains("backward", "dtype", "signed zero at (0,)")


def test_comparator_notes_name_pytorchs_memory_sharing_and_only_it():
    """The notes the table's rows for order-dependent in-place reads and aliased ``.grad`` read:
    present where PyTorch's memory is shared, absent otherwise."""
    import torch
    from diff_run import OVERLAP_NOTE, SHARED_GRAD_NOTE, overlap_note, shared_grad_note

    x = torch.ones(4, 3)
    ns = {"x1": x, "v6": x[::2, -1:], "v7": torch.ones(1)}
    assert OVERLAP_NOTE in overlap_note("x1.div_(v6)", ns)
    assert overlap_note("x1.div_(v7)", ns) == "" and overlap_note("v8 = x1 / v6", ns) == ""
    a = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    torch.stack([a, b]).sum().backward()  # PyTorch keeps two 0-d views of one 1 as .grad
    c = torch.tensor(1.0, requires_grad=True)
    (c * 2).backward()
    ns = {"x2": a, "x3": b, "x4": c}
    assert SHARED_GRAD_NOTE in shared_grad_note("x2.grad", ns)
    assert shared_grad_note("x4.grad", ns) == "" and shared_grad_note("x2", ns) == ""
