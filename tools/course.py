"""The course's notebooks as a teacher ships them: two static HTML sites, and the course's names.

``make html`` calls this script; the tests call the same functions. (The students' copies,
``make assignments`` and ``make handouts``, are nbgrader's releases: ``tools/assignments.py``.)

* ``html OUT``: ``OUT/student/`` and ``OUT/teacher/``, the course as two static sites that
  work offline, from the committed outputs and widget state (no kernel runs), and
  ``OUT/index.html`` saying which is which (``tools/course_site.py``). ``--deps DIR``: the npm
  packages the sites carry (``make html-deps``; default ``<venv>/share/minigrad-html-deps``).

Usage: ``python tools/course.py html [--out DIR] [--deps DIR] [NOTEBOOK ...]``
(default: every ``notebooks/[0-9][0-9]_*.ipynb``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script (`python tools/course.py`): import as `tools.`
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tools.course_site import MissingAssetError, build_sites  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
NOTEBOOKS = REPO / "notebooks"
# The course (issue 14): these exact names, in this order.
COURSE = (
    "00_course_map.ipynb",
    "01_three_ways_to_differentiate.ipynb",
    "02_graphs_and_the_chain_rule.ipynb",
    "03_beyond_scalars.ipynb",
    "04_read_the_engine.ipynb",
    "05_custom_gradients_and_higher_order.ipynb",
    "06_forward_vs_reverse.ipynb",
    "07_three_styles.ipynb",
    "08_debugging_and_training_tricks.ipynb",
    "09_sparse_storage.ipynb",
    "10_sparse_gradients_and_densification.ipynb",
    "11_sparse_applications.ipynb",
    "12_gradients_across_processes.ipynb",
)
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
HTML_DEPS = Path(sys.prefix) / "share" / "minigrad-html-deps"  # where `make html-deps` unpacks


def notebooks(folder: Path = NOTEBOOKS) -> list:
    """Every numbered notebook of ``folder`` (``NN_name.ipynb``), in course order."""
    return sorted(folder.glob("[0-9][0-9]_*.ipynb"))


def tags(cell) -> list:
    return list(cell.get("metadata", {}).get("tags", []))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("html",))
    parser.add_argument("--out", type=Path, help="output folder (default build/html/)")
    parser.add_argument("--deps", type=Path, default=HTML_DEPS, help=f"default: {HTML_DEPS}")
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: notebooks/NN_*.ipynb")
    args = parser.parse_intermixed_args(argv)  # `html --out DIR a.ipynb b.ipynb`
    sources = args.notebooks or notebooks()
    if not sources:
        print(f"no notebooks/NN_*.ipynb in {NOTEBOOKS}", file=sys.stderr)
        return 1
    try:
        pages = build_sites(sources, args.out or REPO / "build" / "html", args.deps)
    except MissingAssetError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    written = [page for site in pages.values() for page in site]
    for path in written:
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
