"""The table of deliberate differences, read from ``docs/differences.md``.

Each row of the table's markdown (between the ``<!-- differences -->`` markers) names an op
family (``*`` for any), a kind of difference (``diff_run``'s kinds, alternatives joined by
`` or ``), text the program (its
statements so far) or the difference's detail must contain (empty: any) and the reason. The
text is parts joined by `` & `` (all must occur), each part alternatives joined by `` or ``
(one must occur). A difference matching a row is a design decision; any other fails the
suite.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

TABLE = Path(__file__).resolve().parents[2] / "docs" / "differences.md"
START, END = "<!-- differences -->", "<!-- /differences -->"


@dataclass(frozen=True)
class Row:
    family: str
    kind: str
    contains: str
    reason: str

    def explains(self, family: str, kind: str, text: str) -> bool:
        """Whether this row covers a difference; ``text`` is the program and the detail."""
        return (
            self.family in ("*", family)
            and kind in self.kind.split(" or ")
            and all(
                any(alt in text for alt in part.split(" or "))
                for part in self.contains.split(" & ")
                if part
            )
        )


def read_table(path: Path = TABLE) -> list[Row]:
    """The rows of the table (a ValueError naming the line for a malformed one)."""
    text = path.read_text(encoding="utf-8")
    body = text.split(START, 1)[1].split(END, 1)[0]
    rows = []
    for n, line in enumerate(body.strip().splitlines()[2:], start=1):  # past header + rule
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[3]:
            raise ValueError(f"{path.name}: table row {n} needs 4 cells and a reason: {line!r}")
        rows.append(Row(*cells))
    return rows


def explained(rows: list[Row], family: str, kind: str, text: str) -> Row | None:
    """The row that makes this difference deliberate, or None."""
    return next((r for r in rows if r.explains(family, kind, text)), None)
