"""Every number a notebook's prose quotes as a result is a number the notebook prints (issue 24).

The rule, checked on the stored outputs of a notebook:

* **Prose** is the text of the markdown cells, without fenced code blocks, inline code spans,
  link targets and HTML tags (code is code, not a claim about a result).
* A prose number is **checked** when it looks like a measured or computed value: it has a
  decimal part (``5.0050``, ``1.5e-8``), or a unit of percent (``33.11 %``) or of bytes
  (``96 B``, ``399,100 bytes``, ``8.0 MiB``), or it is a count of 1,000 or more (``13,824``);
  a duration (``2 s``, ``30 minutes``) only when it has a decimal part.
  A four-digit number from 1900 to 2099 without a thousands separator is read as a year (a
  citation's) and not checked. Signs are ignored.
* A checked number **agrees** with the outputs when some number printed by a code cell of the
  same notebook (stream text, ``text/plain``, ``text/html``, ``text/markdown``) rounds to it at
  the precision the prose gives: ``5.005`` agrees with a printed ``5.0050``, ``5.006`` does not.
  Thousands separators and the space before a unit do not matter (``19,955`` is ``19955``,
  ``33.11 %`` is ``33.11%``). A percentage also agrees with a printed fraction (``0.60 %`` with
  ``0.0060``). A byte size agrees with a printed number of bytes in any unit, converted to the
  prose's unit (``KB`` = 1000 B, ``KiB`` = 1024 B; a printed number without a unit counts as
  bytes): ``399.1 KB`` agrees with a printed ``399,100 B``, ``240 KB`` does not.
* A plain number (no unit) also agrees when the notebook's own code sets it as a literal: a
  parameter such as ``n = 2,000`` for ``graph_like(2_000)`` is a definition, not a result.
  Only lesson code counts (not the cells tagged ``solution``, ``check`` or ``grading``, which
  hold answers).
* Other numbers that are **definitions**, not results (``an int64 is 8 bytes``, machine
  epsilon), are listed in ``ALLOWED`` for their notebook, each with the reason; an entry no
  prose uses any more is itself reported, so the list cannot go stale.

Timings vary from run to run, so a printed duration (``0.529ms``, ``14.74 ms``, ``2 s``) never
counts as a match, and prose that quotes a time with decimals fails by design: say "a few
milliseconds", or point at the printed line.

Usage: ``python -m tools.prose_numbers [NOTEBOOK ...]`` (default: every course notebook) prints
each disagreement and exits 1 if there is one. Point it at executed copies to check them
before committing outputs.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

import nbformat

if __package__ in (None, ""):  # run as a script: import as `tools.`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.course import notebooks  # noqa: E402

# Units of bytes, in bytes; "B" also covers "byte" and "bytes".
BYTE_UNITS = {
    "B": 1,
    "KB": 1000,
    "MB": 1000**2,
    "GB": 1000**3,
    "KiB": 1024,
    "MiB": 1024**2,
    "GiB": 1024**3,
}
NUMBER = re.compile(
    r"(?<![\w.])"  # not inside a name (float32, x2) or after a decimal point
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"  # 19,955 / 19955 / 5.0050
    r"(?P<exp>e[-+]?\d+)?"  # 1.5e-08
    r"(?![\w.]?\d)"  # not a version (2.13.0) nor the start of a longer token
    r"(?:\s?(?P<unit>%|[KMG]i?B|kB|bytes?\b|B\b|[mnµμu]s\b|s\b|seconds?\b|min(?:utes?)?\b))?"
)
TIME_UNITS = {"ms", "ns", "us", "s", "min"}  # a duration: it varies from run to run
FENCE = re.compile(r"```.*?```", re.S)
CODE_SPAN = re.compile(r"`[^`\n]*`")
LINK_TARGET = re.compile(r"(?<=\])\([^)]*\)")
HTML_TAG = re.compile(r"<[^>\n]+>")
OUTPUT_TYPES = ("text/plain", "text/html", "text/markdown")
ANSWER_ROLES = ("solution", "check", "grading")  # code cells whose literals are answers
DIGIT_GROUP = re.compile(r"(?<=\d)_(?=\d)")  # Python's 100_000

# Per notebook (its two-digit number): prose numbers that are definitions, not results.
# Key: the quantity as `Quantity.key` writes it ("8 B", "2.2", "0.01 %"); value: the reason.
ALLOWED: dict = {
    "00": {
        "1.2 s": "the Play button's interval, a setting of the widget",
        "5.2": "a section number of the book the prerequisites link to",
        "5.3": "a section number of the book the prerequisites link to",
        "8 B": "the size of an int64 row index, a definition",
    },
    "01": {
        "2.2": "float64's machine epsilon, 2.2e-16, a definition",
        "1.2": "float32's machine epsilon, 1.2e-7, a definition",
    },
    "05": {"1.8": "the largest float64, about 1.8e308, a definition"},
    "08": {
        "5.005": "the norm of the gradient the same sentence gives, sqrt(25.05), to 3 decimals",
        "65504": "float16's largest value, a definition",
    },
    "09": {
        "27278": "MovieLens 20M's number of movies (GroupLens), a cited fact",
        "138493": "MovieLens 20M's number of users (GroupLens), a cited fact",
        "0.53 %": "MovieLens 20M's density, 20 million / (27,278 x 138,493), a cited fact",
        "16 MB": "2,000 squared times 4 bytes, n² · 4 bytes at the n the sentence gives",
        "400 KB": "2,000 rows x 10 entries x 20 bytes, the arithmetic the sentence gives",
        "8 B": "the size of an int64 index, a definition",
        "20 B": "one COO entry of a matrix: two int64 indices and a float32 value, a definition",
        "7.7 %": "2 / 26, the COO formula on the same line for a float16 grid (Exercise 4's "
        "answer; the run before the check prints the bytes on both sides of it)",
    },
    "10": {
        "1.6 GB": "20,000 squared times 4 bytes, the arithmetic is in the sentence",
        "30 %": "the upper end of the fixed 20-30 % rule of thumb the section weighs",
    },
    "11": {
        "136 B": "8 + 128 bytes, the arithmetic is in the sentence (the printed 278,528 bytes "
        "are 2,048 such rows)",
    },
    "12": {
        "4096": "the global batch of the recommender benchmark in docs/distributed.md (a "
        "parameter of benchmarks/bench_distributed.py)",
        "25 MB": "DDP's default bucket_cap_mb, a definition (PyTorch's default too)",
    },
}


@dataclass(frozen=True)
class Quantity:
    """A number with its precision and unit, as written in prose or printed by a cell."""

    value: Decimal
    unit: str | None  # "%", a key of BYTE_UNITS, one of TIME_UNITS, or None
    separated: bool = False  # written with thousands separators (so never a year)

    @property
    def key(self) -> str:
        """How the quantity is named in ``ALLOWED`` and in reports, e.g. ``"399100 B"``."""
        text = format(self.value, "f") if abs(self.value.adjusted()) < 12 else str(self.value)
        return text if self.unit is None else f"{text} {self.unit}"

    @property
    def tolerance(self) -> Decimal:
        """Half a unit in the last place written: what rounding to this precision allows."""
        return Decimal(5).scaleb(self.value.as_tuple().exponent - 1)

    def checked(self) -> bool:
        """Whether the prose must not say this number unless a cell prints it."""
        if self.value.as_tuple().exponent < 0:
            return True
        if self.unit is not None and self.unit not in TIME_UNITS:
            return True
        is_year = 1900 <= self.value <= 2099
        return self.value >= 1000 and not (is_year and not self.separated)


def _unit(text: str | None) -> str | None:
    if text is None:
        return None
    if text.startswith("byte"):
        return "B"
    if text in ("µs", "μs"):
        return "us"
    if text.startswith("sec"):
        return "s"
    if text.startswith("min"):
        return "min"
    return "KB" if text == "kB" else text


def quantities(text: str) -> list:
    """Every number in ``text``, as Quantities (separators dropped, units normalised)."""
    found = []
    for m in NUMBER.finditer(text):
        digits = m.group("num").replace(",", "") + (m.group("exp") or "")
        q = Quantity(Decimal(digits), _unit(m.group("unit")), "," in m.group("num"))
        found.append(q)
    return found


def prose(markdown: str) -> str:
    """A markdown cell's text without code (fenced or inline), link targets and HTML tags."""
    for pattern in (FENCE, CODE_SPAN, LINK_TARGET, HTML_TAG):
        markdown = pattern.sub(" ", markdown)
    return markdown


def printed(nb) -> list:
    """Every number the notebook's code cells print, from their stored outputs."""
    texts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            if out.get("output_type") == "stream":
                texts.append(out.get("text", ""))
            data = out.get("data", {})
            texts.extend(_as_text(data[kind]) for kind in OUTPUT_TYPES if kind in data)
    found = [q for text in texts for q in quantities(text)]
    return [q for q in found if q.unit not in TIME_UNITS]  # timings never match a claim


def literals(nb) -> list:
    """Every number written in the notebook's lesson code (``100_000`` read as 100000)."""
    found = []
    for cell in nb.cells:
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.cell_type == "code" and not set(tags) & set(ANSWER_ROLES):
            found += quantities(DIGIT_GROUP.sub("", cell.source))
    return found


def _as_text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def _candidates(q: Quantity, out: Quantity) -> list:
    """The printed ``out`` read in ``q``'s unit: the values it may stand for."""
    if q.unit == "%":
        return [out.value, out.value * 100] if out.unit in (None, "%") else []
    if q.unit in BYTE_UNITS:
        if out.unit not in (None, *BYTE_UNITS):
            return []
        size = out.value * BYTE_UNITS[out.unit or "B"]
        return [size / BYTE_UNITS[q.unit]]
    return [out.value]


def agrees(q: Quantity, outputs: list) -> bool:
    """Whether a printed quantity rounds to ``q`` at the precision ``q`` is written in."""
    tol = q.tolerance
    return any(abs(v - q.value) <= tol for out in outputs for v in _candidates(q, out))


def disagreements(nb, allowed: dict | None = None) -> list:
    """What is wrong with a notebook's prose numbers: one line per number no output prints
    (with its cell index) and per ``allowed`` entry that no prose uses."""
    allowed = allowed or {}
    outputs = printed(nb)
    set_in_code = {q.value for q in literals(nb) if q.unit is None}
    problems, used = [], set()
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "markdown":
            continue
        for q in quantities(prose(cell.source)):
            used.add(q.key)
            if not q.checked() or agrees(q, outputs):
                continue
            if q.unit is None and q.value in set_in_code:
                continue
            line = f"cell {i}: the prose says {q.key}, which no output prints"
            if q.key not in allowed and line not in problems:
                problems.append(line)
    problems += [f"ALLOWED entry {key!r} is not in the prose" for key in allowed if key not in used]
    return problems


def check(path: Path) -> list:
    """``disagreements`` of the notebook at ``path``, with its ``ALLOWED`` entries."""
    nb = nbformat.read(path, as_version=4)
    return disagreements(nb, ALLOWED.get(Path(path).name[:2], {}))


def main(argv: list | None = None) -> int:
    """Print each notebook's disagreements; return 1 if there is any."""
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)] or notebooks()
    bad = 0
    for path in paths:
        for line in check(path):
            print(f"{path.name}: {line}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
