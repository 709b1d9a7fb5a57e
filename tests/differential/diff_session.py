"""One program, drawn and run with both libraries statement by statement.

:func:`run_drawn` draws the program as it runs (each statement from the variables so far);
:func:`replay` runs a fixed list of statements again (``make fuzz`` shrinks with it). Both
return the first difference the table of deliberate differences does not explain.
"""

from __future__ import annotations

import hypothesis.strategies as st
import torch
from diff_families import FAMILIES
from diff_programs import Env, Statement, draw_input
from diff_run import (
    Difference,
    builtin_class,
    compare_namespaces,
    compare_outcomes,
    overlap_note,
    run_statement,
    script,
    shared_grad_note,
    sync_values,
    variables,
)
from diff_table import explained

import minigrad

FAMILY_NAMES = sorted(FAMILIES)


class Session:
    """The two namespaces of one program and the statements run so far."""

    def __init__(self, rows):
        self.rows = rows
        self.mg_ns, self.pt_ns = {"lib": minigrad}, {"lib": torch}
        self.statements: list[Statement] = []
        self.env = Env()

    def step(self, code: str, family: str) -> Difference | None:
        """Run one statement in both namespaces; the difference it shows, if unexplained.

        An explained difference ends the program (``StopProgram``): what follows would differ
        for the same, deliberate, reason.
        """
        stmt = Statement(code, family)
        self.statements.append(stmt)
        mg_exc, pt_exc = run_statement(code, self.mg_ns), run_statement(code, self.pt_ns)
        found = compare_outcomes(mg_exc, pt_exc)
        where = "the statement"
        if found is None and pt_exc is not None:
            stmt.error = _catchable(pt_exc)
        if found is None:
            found3 = compare_namespaces(self.mg_ns, self.pt_ns)
            if found3 is not None:
                kind, where, detail = found3
                notes = overlap_note(code, self.pt_ns) + shared_grad_note(where, self.pt_ns)
                found = (kind, detail + notes)
        self.env.values = variables(self.pt_ns)
        if found is None:
            sync_values(self.mg_ns, self.pt_ns)
            return None
        kind, detail = found
        program = "\n".join(s.code for s in self.statements)
        if explained(self.rows, family, kind, f"{program}\n{detail}"):
            raise StopProgram
        return Difference(kind, family, where, detail, script(self.statements))


class StopProgram(Exception):
    """An explained difference: the rest of the program would only repeat it."""


def _catchable(exc) -> str:
    """The name of a builtin exception class both libraries' errors derive from."""
    return builtin_class(exc).__name__


def run_drawn(data, rows, max_statements: int = 12) -> tuple[Session, Difference | None]:
    """Draw and run a program of inputs then up to ``max_statements`` statements."""
    s = Session(rows)
    draw = data.draw
    try:
        for _ in range(draw(st.integers(1, 3), label="inputs")):
            diff = s.step(draw_input(draw, s.env), "input")
            if diff:
                return s, diff
        for _ in range(draw(st.integers(1, max_statements), label="statements")):
            family = draw(st.sampled_from(FAMILY_NAMES), label="family")
            code = FAMILIES[family](draw, s.env)
            if code is None:
                continue
            diff = s.step(code, family)
            if diff:
                return s, diff
    except StopProgram:
        pass
    return s, None


def replay(statements, rows) -> Difference | None:
    """Run fixed statements again; the first unexplained difference, or None."""
    s = Session(rows)
    try:
        for stmt in statements:
            diff = s.step(stmt.code, stmt.family)
            if diff:
                return diff
    except StopProgram:
        pass
    return None
