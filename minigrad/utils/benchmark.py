"""Timing a statement as ``torch.utils.benchmark`` does: ``Timer``, ``Measurement``.

``Timer(stmt, setup, globals).timeit(number)`` runs ``setup`` once, then ``stmt`` ``number``
times, and returns a :class:`Measurement` of the time per run. ``blocked_autorange`` first
finds a block size (runs per measurement) long enough for the clock, then measures blocks
until ``min_run_time`` seconds have passed, and reports their median and interquartile
range. The summary prints as PyTorch's does, so a tutorial comparing two ways of computing
a Jacobian reads the same. minigrad runs on one thread: ``num_threads`` is recorded only.

Example:
    >>> import minigrad as mg
    >>> from minigrad.utils import benchmark
    >>> timer = benchmark.Timer(stmt="x.sum()", setup="x = mg.randn(100)", globals={"mg": mg})
    >>> m = timer.timeit(100)
    >>> m.number_per_run, len(m.times), m.mean > 0
    (100, 1, True)
"""

from __future__ import annotations

import statistics
import textwrap
import time
import timeit as _timeit


class Measurement:
    """Times per run of one statement, in seconds, one entry per measured block.

    Attributes:
        number_per_run: how many times the statement ran in each block.
        raw_times: each block's total time.
        times: each block's time per run (``raw_times / number_per_run``).
    """

    def __init__(self, number_per_run: int, raw_times: list[float], timer: Timer):
        self.number_per_run = number_per_run
        self.raw_times = list(raw_times)
        self.times = [t / number_per_run for t in raw_times]
        self.stmt, self.setup = timer.stmt, timer.setup
        self.label, self.sub_label, self.description = (
            timer.label,
            timer.sub_label,
            timer.description,
        )
        self.num_threads = timer.num_threads

    @property
    def mean(self) -> float:
        return statistics.fmean(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def iqr(self) -> float:
        """Interquartile range of the times per run (0 for fewer than two blocks)."""
        if len(self.times) < 2:
            return 0.0
        q1, _, q3 = statistics.quantiles(self.times, n=4, method="inclusive")
        return q3 - q1

    @property
    def title(self) -> str:
        if self.label is not None:
            return f"{self.label}: {self.sub_label or self.stmt}"
        return self.stmt

    def __repr__(self) -> str:
        lines = [f"<{type(self).__module__}.Measurement object at {id(self):#x}>", self.title]
        if self.description:
            lines.append(self.description)
        if self.setup.strip() not in ("", "pass"):
            setup = textwrap.indent(self.setup.strip(), "       ").lstrip()
            lines.append(f"setup: {setup}")
        threads = f"{self.num_threads} thread" + ("s" if self.num_threads != 1 else "")
        if len(self.times) == 1:
            lines.append(f"  {_human(self.median)}")
            lines.append(f"  1 measurement, {self.number_per_run} runs , {threads}")
        else:
            q1, _, q3 = statistics.quantiles(self.times, n=4, method="inclusive")
            unit, scale = _unit(self.median)
            lines.append(f"  Median: {_digits(self.median * scale)} {unit}")
            lines.append(
                f"  IQR:    {_digits(self.iqr * scale)} {unit} "
                f"({_digits(q1 * scale)} to {_digits(q3 * scale)})"
            )
            lines.append(
                f"  {len(self.times)} measurements, {self.number_per_run} runs per measurement, {threads}"
            )
        return "\n".join(lines)


class Timer:
    """Time ``stmt`` after ``setup`` (``torch.utils.benchmark.Timer``).

    Args:
        stmt: the statement to time (a string of Python code).
        setup: run once before timing (a string of Python code).
        globals: the names ``stmt`` and ``setup`` may use.
        label, sub_label, description: shown in the measurement's summary.
        num_threads: recorded in the summary (minigrad always computes on one thread).
        timer: the clock (``time.perf_counter``).
    """

    def __init__(
        self,
        stmt: str = "pass",
        setup: str = "pass",
        global_setup: str = "",
        timer=time.perf_counter,
        globals: dict | None = None,  # noqa: A002  (PyTorch's name)
        label: str | None = None,
        sub_label: str | None = None,
        description: str | None = None,
        env: str | None = None,
        num_threads: int = 1,
    ):
        for name, code in (("stmt", stmt), ("setup", setup)):
            if not isinstance(code, str):
                raise ValueError(
                    f"Timer: {name} must be a string of Python code, got {type(code).__name__}"
                )
        self.stmt, self.setup = stmt, setup
        self.label, self.sub_label, self.description = label, sub_label, description
        self.num_threads = num_threads
        namespace = dict(globals or {})
        if global_setup:
            exec(global_setup, namespace)  # noqa: S102  (the caller's own set-up code)
        self._timer = _timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=namespace)

    def timeit(self, number: int = 1000000) -> Measurement:
        """Run ``stmt`` ``number`` times (after one warm-up run) and measure the total."""
        self._timer.timeit(number=1)  # warm-up: first-call costs are not what is asked
        return Measurement(number, [self._timer.timeit(number=number)], self)

    def blocked_autorange(self, callback=None, min_run_time: float = 0.2) -> Measurement:
        """Blocks of runs, each long enough to time well, until ``min_run_time`` seconds."""
        number = self._block_size()
        raw, total = [], 0.0
        while total < min_run_time or not raw:
            elapsed = self._timer.timeit(number=number)
            raw.append(elapsed)
            total += elapsed
            if callback is not None:
                callback(number, elapsed)
        return Measurement(number, raw, self)

    def adaptive_autorange(
        self,
        threshold: float = 0.1,
        *,
        min_run_time: float = 0.01,
        max_run_time: float = 10.0,
        callback=None,
    ) -> Measurement:
        """Blocks until the IQR is below ``threshold`` of the median (or ``max_run_time``)."""
        number = self._block_size()
        raw, total = [], 0.0
        while total < max_run_time:
            elapsed = self._timer.timeit(number=number)
            raw.append(elapsed)
            total += elapsed
            m = Measurement(number, raw, self)
            if total >= min_run_time and len(raw) >= 3 and m.iqr <= threshold * m.median:
                break
        return Measurement(number, raw, self)

    def _block_size(self, block_time: float = 1e-3) -> int:
        """The smallest power of 10 runs that takes at least ``block_time`` seconds."""
        number = 1
        while self._timer.timeit(number=number) < block_time and number < 10**9:
            number *= 10
        return number


def _unit(seconds: float) -> tuple[str, float]:
    for unit, scale in (("ns", 1e9), ("us", 1e6), ("ms", 1e3)):
        if abs(seconds) * scale < 1000:
            return unit, scale
    return "s", 1.0


def _digits(x: float) -> str:
    """Three significant figures, as a summary needs."""
    decimals = 0 if abs(x) >= 100 else 1 if abs(x) >= 10 else 2 if abs(x) >= 1 else 3
    return f"{x:.{decimals}f}"


def _human(seconds: float) -> str:
    unit, scale = _unit(seconds)
    return f"{_digits(seconds * scale)} {unit}"
