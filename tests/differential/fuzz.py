"""``make fuzz``: many random programs, the differences counted per class and shrunk.

Runs ``FUZZ_EXAMPLES`` programs (the suite's generator, without hypothesis' shrinking so
the run goes on past a difference), counts the unexplained differences per class (op family
of the statement, kind), then shrinks the first program of each class by deleting statements
while the same class still shows, and saves it as ``<out>/<family>--<kind>.py``, a script
that runs with either library. ``<out>/summary.txt`` holds the counts. Exit status 1 when
anything was found.

    python tests/differential/fuzz.py --examples 20000 --out build/fuzz --seed 0
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from diff_session import replay, run_drawn  # noqa: E402
from diff_table import read_table  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import seed as hseed  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


def collect(examples: int, seed: int, rows):
    """Run the programs; (programs run, Counter of classes, first program of each class)."""
    counts: collections.Counter = collections.Counter()
    first: dict = {}
    ran = [0]

    @settings(
        max_examples=examples,
        phases=[Phase.generate],
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one(data):
        ran[0] += 1
        try:
            session, diff = run_drawn(data, rows)
        except Exception as e:  # noqa: BLE001  (a generator bug: counted, the run goes on)
            counts[("generator", type(e).__name__)] += 1
            first.setdefault(("generator", type(e).__name__), traceback.format_exc())
            return
        if diff is not None:
            counts[diff.key()] += 1
            first.setdefault(diff.key(), list(session.statements))

    hseed(seed)(one)()
    return ran[0], counts, first


def shrink(statements, key, rows):
    """Delete statements while the difference of class ``key`` still shows."""
    best = list(statements)
    changed = True
    while changed:
        changed = False
        for i in range(len(best) - 1, -1, -1):
            trial = best[:i] + best[i + 1 :]
            diff = replay(trial, rows)
            if diff is not None and diff.key() == key:
                best, changed = trial, True
    return replay(best, rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=20000)
    ap.add_argument("--out", type=Path, default=Path("build/fuzz"))
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rows = read_table()
    t0 = time.perf_counter()
    ran, counts, first = collect(args.examples, args.seed, rows)
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.py"):  # a previous run's programs
        old.unlink()
    lines = [f"{ran} programs, seed {args.seed}, {time.perf_counter() - t0:.0f} s"]
    lines.append(f"{sum(counts.values())} with an unexplained difference, {len(counts)} classes")
    for (family, kind), n in counts.most_common():
        if family == "generator":  # a bug of the suite's own: its traceback
            lines.append(f"{n:6d}  generator bug {kind}:\n{first[(family, kind)]}")
            continue
        diff = shrink(first[(family, kind)], (family, kind), rows)
        if diff is None:
            lines.append(f"{n:6d}  {family:15s} {kind:22s} (does not replay)")
            continue
        name = re.sub(r"[^a-z0-9]+", "-", f"{family}--{kind}".lower())
        (args.out / f"{name}.py").write_text(
            "# "
            + "\n# ".join(f"[{family}: {kind}] {diff.where}: {diff.detail}".splitlines())
            + "\n"
            + diff.script
            + "\n",
            encoding="utf-8",
        )
        lines.append(f"{n:6d}  {family:15s} {kind:22s} {name}.py")
    summary = "\n".join(lines)
    (args.out / "summary.txt").write_text(summary + "\n", encoding="utf-8")
    print(summary)
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
