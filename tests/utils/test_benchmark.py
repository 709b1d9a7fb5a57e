"""utils.benchmark.Timer: what it runs, what it reports, how the summary reads (no speed asserted)."""

import re

import pytest

import minigrad as mg
from minigrad.utils import benchmark


def counting_timer(**kwargs):
    calls = {"stmt": 0, "setup": 0}
    namespace = {"calls": calls, "mg": mg}
    timer = benchmark.Timer(
        stmt="calls['stmt'] += 1", setup="calls['setup'] += 1", globals=namespace, **kwargs
    )
    return timer, calls


def test_timeit_runs_the_statement_number_times_after_one_warm_up():
    timer, calls = counting_timer()
    m = timer.timeit(250)
    assert calls["stmt"] == 1 + 250
    assert m.number_per_run == 250 and len(m.times) == 1 and len(m.raw_times) == 1
    assert m.times[0] == pytest.approx(m.raw_times[0] / 250)
    assert m.mean == m.median == m.times[0] and m.iqr == 0.0


def test_blocked_autorange_measures_blocks_for_at_least_min_run_time():
    timer, _ = counting_timer()
    m = timer.blocked_autorange(min_run_time=0.02)
    assert sum(m.raw_times) >= 0.02
    assert m.number_per_run >= 1 and len(m.times) >= 1
    assert min(m.times) <= m.median <= max(m.times)


def test_summary_reads_like_pytorchs():
    timer = benchmark.Timer(stmt="x.sum()", setup="x = mg.ones(10)", globals={"mg": mg})
    text = repr(timer.timeit(10))
    lines = text.splitlines()
    assert lines[0].startswith("<minigrad.utils.benchmark.Measurement object at 0x")
    assert lines[1:3] == ["x.sum()", "setup: x = mg.ones(10)"]
    assert re.fullmatch(r"  \d+(\.\d+)? (ns|us|ms|s)", lines[3])
    assert lines[4] == "  1 measurement, 10 runs , 1 thread"
    labelled = benchmark.Timer(stmt="pass", label="sum", sub_label="ones", description="small")
    blocks = benchmark.Measurement(5, [1e-5, 2e-5, 3e-5, 4e-5], labelled)
    lines = repr(blocks).splitlines()
    assert lines[1:3] == ["sum: ones", "small"]
    assert lines[3].startswith("  Median: 5.00 us") and lines[4].startswith("  IQR:")
    assert lines[5] == "  4 measurements, 5 runs per measurement, 1 thread"


def test_bad_statement_is_refused():
    with pytest.raises(ValueError, match="stmt must be a string of Python code"):
        benchmark.Timer(stmt=lambda: None)
