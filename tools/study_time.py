"""How long a course notebook takes a student, estimated from what is in it (issue 24).

The model (docs/teaching.md states it for teachers)::

    minutes = words / 150 + code lines / 10 + 4 * exercises + answer lines,
    rounded to the nearest 5

* **words**: the words of the markdown cells outside tables, fenced code and HTML tags; read
  with care at 150 words a minute, about 60 % of the 238 words a minute adults average for
  silent reading of non-fiction (M. Brysbaert, *How many words do we read per minute?*,
  Journal of Memory and Language 109, 2019), because the text is technical and has formulas.
  Tables (the course map, "In PyTorch, TensorFlow and JAX") are looked up, not read through.
* **code lines**: the non-blank lines a student reads and runs, 10 a minute (6 seconds a line,
  output included): every code cell but those tagged ``solution``, ``check`` and ``grading``
  (the reference answer, the self-check's machinery, the teacher's test), plus the lines of
  code blocks in the markdown.
* **exercises**: the ``### Exercise k:`` headings, 4 minutes each to think, on top of reading
  their cells, plus a minute per **answer line**, a line of code the student writes: the
  non-blank, non-comment lines of the reference solutions (cells tagged ``solution``) that
  the exercise cell before them does not already hold (a build-it skeleton gives the
  signature and the scaffolding; only what the student adds counts). A number to find
  costs 5 minutes; writing a 12-line function, 16.

The constants were chosen so that the shorter notebooks (01, 02, 06, 07, 12) stay within 10
minutes of the times they were given by hand before the model; the longer ones, whose times
were low for their length (09-11 were given 40-45 minutes), rise.

Each notebook states its time in three places, which must all equal the model's estimate: the
first cell's ``**Time:** about N minutes``, notebook 00's course map (``| N min |``) and the
course table of docs/teaching.md (``| ~N min |``).

Usage: ``python -m tools.study_time`` prints the counts, the estimate and the three stated
times of every notebook (exit 1 if any disagrees); ``--write`` writes the estimates into the
three places (run it after editing a notebook).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

if __package__ in (None, ""):  # run as a script: import as `tools.`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.course import REPO, notebooks  # noqa: E402

WORDS_PER_MINUTE = 150
CODE_LINES_PER_MINUTE = 10
MINUTES_PER_EXERCISE = 4  # to think, before writing
MINUTES_PER_ANSWER_LINE = 1
ROUND_TO = 5

TEACHING = REPO / "docs" / "teaching.md"
NOT_STUDIED = ("solution", "check", "grading")  # code cells a student does not work through
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.S | re.M)
HTML_TAG = re.compile(r"<[^>\n]+>")
LINK_TARGET = re.compile(r"(?<=\])\([^)]*\)")
EXERCISE = re.compile(r"^### Exercise \d+:", re.M)
# Where a time is stated: group 1 is the notebook's two digits (or absent), group 2 the minutes.
HEADER_TIME = re.compile(r"(\*\*Time:\*\* about )(\d+)( minutes)")
MAP_ROW = re.compile(r"^(\| (\d\d) \|[^|\n]*\|[^|\n]*\| )(\d+)( min \|)", re.M)
GUIDE_ROW = re.compile(r"^(\| \[(\d\d)_[^|\n]*\|[^|\n]*\| ~)(\d+)( min \|)", re.M)


@dataclass(frozen=True)
class Counts:
    """What a notebook asks of a student: words to read, code lines to run, exercises, and
    the lines of code its exercises' answers take to write."""

    words: int
    code_lines: int
    exercises: int
    answer_lines: int

    @property
    def raw_minutes(self) -> float:
        """The model before rounding."""
        return (
            self.words / WORDS_PER_MINUTE
            + self.code_lines / CODE_LINES_PER_MINUTE
            + MINUTES_PER_EXERCISE * self.exercises
            + MINUTES_PER_ANSWER_LINE * self.answer_lines
        )

    @property
    def minutes(self) -> int:
        """The model's estimate, rounded to the nearest 5 minutes (halves up), at least 5."""
        return max(ROUND_TO, int(self.raw_minutes / ROUND_TO + 0.5) * ROUND_TO)


def _nonblank(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip())


def _markdown_counts(source: str) -> tuple:
    """(words outside tables, code lines of fenced blocks) of one markdown cell."""
    code = sum(_nonblank(block) for block in FENCE.findall(source))
    text = HTML_TAG.sub(" ", LINK_TARGET.sub(" ", FENCE.sub(" ", source)))
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("|")]
    words = sum(1 for token in " ".join(lines).split() if re.search(r"\w", token))
    return words, code


def counts(nb) -> Counts:
    """The words, code lines and exercises of a notebook, as the model counts them."""
    words = code_lines = exercises = answer_lines = 0
    given: set = set()  # the code lines of the last exercise cell (the skeleton)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            w, c = _markdown_counts(cell.source)
            words, code_lines = words + w, code_lines + c
            exercises += len(EXERCISE.findall(cell.source))
            continue
        tags = set(cell.get("metadata", {}).get("tags", [])) if cell.cell_type == "code" else set()
        if cell.cell_type != "code" or tags & set(NOT_STUDIED) - {"solution"}:
            continue
        if "solution" in tags:
            written = [line.strip() for line in cell.source.splitlines() if _is_code(line)]
            answer_lines += sum(1 for line in written if line not in given)
        else:
            code_lines += _nonblank(cell.source)
            if "exercise" in tags:
                given = {line.strip() for line in cell.source.splitlines() if _is_code(line)}
    return Counts(words, code_lines, exercises, answer_lines)


def _is_code(line: str) -> bool:
    return bool(line.strip()) and not line.strip().startswith("#")


def estimates(paths: list | None = None) -> dict:
    """``{"03": Counts, ...}`` for every course notebook (or ``paths``)."""
    paths = notebooks() if paths is None else paths
    return {Path(p).name[:2]: counts(nbformat.read(p, as_version=4)) for p in paths}


def _course_map(paths: list) -> Path:
    return next(Path(p) for p in paths if Path(p).name.startswith("00_"))


def stated(paths: list | None = None, guide: Path = TEACHING) -> dict:
    """The minutes each place states: ``{"header": {...}, "course map": {...}, "guide": {...}}``."""
    paths = notebooks() if paths is None else paths
    header = {}
    for p in paths:
        m = HEADER_TIME.search(nbformat.read(p, as_version=4).cells[0].source)
        header[Path(p).name[:2]] = int(m.group(2)) if m else None
    course_map = nbformat.read(_course_map(paths), as_version=4).cells[2].source
    return {
        "header": header,
        "course map": {m.group(2): int(m.group(3)) for m in MAP_ROW.finditer(course_map)},
        "guide": {
            m.group(2): int(m.group(3))
            for m in GUIDE_ROW.finditer(guide.read_text(encoding="utf-8"))
        },
    }


def _set_minutes(pattern: re.Pattern, text: str, minutes: dict) -> str:
    def replace(m: re.Match) -> str:
        number = m.group(2)
        return f"{m.group(1)}{minutes.get(number, m.group(3))}{m.group(4)}"

    return pattern.sub(replace, text)


def write(paths: list | None = None, guide: Path = TEACHING) -> None:
    """Write the model's estimates into every header, the course map and the guide's table."""
    paths = notebooks() if paths is None else paths
    minutes = {number: c.minutes for number, c in estimates(paths).items()}
    for p in paths:
        nb = nbformat.read(p, as_version=4)
        before = [cell.source for cell in nb.cells[:3]]
        number = Path(p).name[:2]
        said = f"\\g<1>{minutes[number]}\\g<3>"
        nb.cells[0].source = HEADER_TIME.sub(said, nb.cells[0].source)
        if number == "00":
            nb.cells[2].source = _set_minutes(MAP_ROW, nb.cells[2].source, minutes)
        if [cell.source for cell in nb.cells[:3]] != before:
            nbformat.write(nb, p)
    text = guide.read_text(encoding="utf-8")
    guide.write_text(_set_minutes(GUIDE_ROW, text, minutes), encoding="utf-8")


def disagreements(paths: list | None = None, guide: Path = TEACHING) -> list:
    """One line per place whose stated time is not the model's estimate (or is missing)."""
    paths = notebooks() if paths is None else paths
    places = stated(paths, guide)
    out = []
    for number, c in estimates(paths).items():
        for place, times in places.items():
            if times.get(number) != c.minutes:
                out.append(
                    f"{number}: the {place} says {times.get(number)} min, the model {c.minutes} "
                    f"({c.words} words, {c.code_lines} code lines, {c.exercises} exercises, "
                    f"{c.answer_lines} answer lines)"
                )
    return out


def main(argv: list | None = None) -> int:
    """Print the table of counts and times (``--write``: write the estimates first)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true", help="write the estimates")
    args = parser.parse_args(argv)
    if args.write:
        write()
    places = stated()
    print("nb  words  code  ex  answer  model -> min  | header map guide")
    for number, c in estimates().items():
        said = " ".join(f"{places[k].get(number)!s:>4}" for k in ("header", "course map", "guide"))
        print(
            f"{number}  {c.words:5d}  {c.code_lines:4d}  {c.exercises:2d}  {c.answer_lines:6d}  "
            f"{c.raw_minutes:6.1f} -> {c.minutes:3d}  | {said}"
        )
    problems = disagreements()
    print("\n".join(problems) if problems else "all times agree with the model")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
