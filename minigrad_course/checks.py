"""Answer checks for the course's exercises, written so that neither the check nor its output
shows the answer.

A value answer (a number, a list, a set of names, a choice) is compared through its *digest*:
the answer is first brought to a canonical form, so that ``5``, ``5.0``, ``np.int64(5)`` and
``mg.tensor(5.)`` are the same answer, then hashed. The check cell holds only the digest of the
right answer (and digests of typical wrong ones, each with its hint), so a student who reads the
check learns the hint for a mistake they made, never the answer.

Code answers (a function the student writes) are checked by running them: ``check_code`` calls a
test and turns what happens into one line, whatever the student's code does (raises, returns
``...``, loops for ever).

Every check prints exactly one line, starting ``Correct.``, ``Not yet:`` or ``<name> is not
answered yet``, and never raises: "Run All" goes on past it.
"""

from __future__ import annotations

import hashlib
import json
import math
import numbers
import signal
import threading
from collections.abc import Callable, Mapping


class NotAnswered(Exception):
    """Raised inside a check when the student has not replaced the ``...`` placeholder yet."""


# --------------------------------------------------------------------------------------------
# Canonical form and digest
# --------------------------------------------------------------------------------------------
def canonical(value, *, decimals: int | None = None, ordered: bool = True, case: bool = False):
    """``value`` as plain JSON data that compares equal for equal answers.

    * numbers (Python, numpy, a one-element tensor) become floats, rounded to ``decimals``
      places when given (``-0.0`` is ``0.0``; NaN and infinities are the strings ``"nan"``,
      ``"inf"``, ``"-inf"``); ``True``/``False`` stay booleans;
    * arrays and tensors (anything with ``tolist()``) become nested lists;
    * strings are stripped of spaces and quotes and, unless ``case``, lower-cased;
    * lists and tuples keep their order unless ``ordered=False``; sets never do;
    * dicts keep their keys (as strings) and canonicalise their values.

    Raises:
        NotAnswered: ``value`` is ``...`` (or holds one), the exercise's placeholder.
        TypeError: ``value`` is of a kind no answer has (a function, a module, ...).
    """
    opts = {"decimals": decimals, "ordered": ordered, "case": case}
    if value is Ellipsis:
        raise NotAnswered
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = _detached(value).tolist()
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, numbers.Real):
        return _number(float(value), decimals)
    if isinstance(value, str):
        text = value.strip().strip("'\"").strip()
        return text if case else text.casefold()
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [canonical(v, **opts) for v in value]
        if not ordered or isinstance(value, (set, frozenset)):
            items.sort(key=lambda item: json.dumps(item, sort_keys=True))
        return items
    if isinstance(value, Mapping):
        return {str(canonical(k, **opts)): canonical(v, **opts) for k, v in value.items()}
    raise TypeError(f"an answer cannot be a {type(value).__name__}")


def _detached(value):
    """A tensor that requires grad has to be detached before ``tolist`` in some libraries."""
    detach = getattr(value, "detach", None)
    return detach() if callable(detach) else value


def _number(x: float, decimals: int | None):
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if decimals is not None:
        x = round(x, decimals)
    return x + 0.0  # -0.0 + 0.0 is 0.0


def digest(value, **options) -> str:
    """A 16-hex-digit digest of ``canonical(value, **options)``: what a check cell stores.

    With ``decimals``, the value must not sit on a rounding boundary (where a right answer
    computed another way could round the other way): choose other ``decimals`` then.

    Example:
        >>> digest(96) == digest(96.0) == digest([96][0])
        True
        >>> digest({"a", "c"}) == digest(["c", "a"], ordered=False)
        True
    """
    if options.get("decimals") is not None:
        _refuse_boundary(value, options["decimals"])
    return _digest_unchecked(value, **options)


def _refuse_boundary(value, decimals: int) -> None:
    """ValueError if a number in ``value`` lies within a tenth of a unit of the last kept
    digit from a rounding boundary (``round(x, decimals)`` would be fragile there)."""
    flat = value.tolist() if hasattr(value, "tolist") else value
    stack = [flat]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, Mapping):
            stack.extend(item.values())
        elif isinstance(item, numbers.Real) and not isinstance(item, bool):
            scaled = float(item) * 10**decimals
            if math.isfinite(scaled) and abs(abs(scaled - math.floor(scaled)) - 0.5) < 0.1:
                raise ValueError(
                    f"{item} is too close to a rounding boundary at {decimals} decimals; "
                    "choose other decimals for this answer"
                )


def is_right(answer, right: str | tuple, **options) -> bool:
    """Whether ``answer``'s digest is ``right`` (or one of ``right``); False if unanswered or
    of a kind no answer has. For hidden tests: ``assert is_right(answer_1, "…")``."""
    rights = (right,) if isinstance(right, str) else tuple(right)
    try:
        return _digest_unchecked(answer, **options) in rights
    except (NotAnswered, TypeError, ValueError):
        return False


def _digest_unchecked(value, **options) -> str:
    """The digest without the boundary check: a student's answer may sit anywhere."""
    text = json.dumps(canonical(value, **options), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# --------------------------------------------------------------------------------------------
# Value answers
# --------------------------------------------------------------------------------------------
def verdict(
    name: str,
    answer,
    right: str | tuple,
    *,
    expect: str,
    wrong: Mapping[str, str] | None = None,
    hint: str | None = None,
    praise: str | None = None,
    size: int | None = None,
    **options,
) -> str:
    """The one-line verdict on a value answer (``check`` prints it).

    Args:
        name: the answer's variable, as the student sees it (``"answer_1"``).
        answer: what the student wrote.
        right: the digest of the right answer, or a tuple of digests of right answers.
        expect: what kind of answer is asked for, in words ("a list of three floats").
        wrong: digests of typical wrong answers, each with the hint that names that mistake.
        hint: the hint for any other wrong answer.
        praise: said after ``Correct.``; it must not restate the answer.
        size: the number of items a list answer has (checked before the value).
        **options: ``decimals``, ``ordered``, ``case``, as for ``canonical``.
    """
    try:
        form = canonical(answer, **options)
        if size is not None and (not isinstance(form, list) or len(form) != size):
            found = f"{len(form)} items" if isinstance(form, list) else _kind(answer)
            return f"Not yet: {name} should be {expect} ({size} items); yours is {found}."
        found = _digest_unchecked(answer, **options)
    except NotAnswered:
        return f"{name} is not answered yet: set it to {expect}."
    except Exception:  # noqa: BLE001 - a check never raises
        return f"Not yet: {name} should be {expect}; yours is {_kind(answer)}."
    rights = (right,) if isinstance(right, str) else tuple(right)
    if found in rights:
        return "Correct." + (f" {praise}" if praise else "")
    if wrong and found in wrong:
        return f"Not yet: {wrong[found]}"
    if isinstance(answer, str) and is_right(_as_number(answer), rights, **options):
        return f"Not yet: {name} should be {expect}, not the text {answer!r} (drop the quotes)."
    return f"Not yet: {hint}" if hint else f"Not yet: {name} is not right; try again."


def _as_number(text: str):
    try:
        return float(text)
    except ValueError:
        return None


def _kind(value) -> str:
    name = type(value).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def check(name: str, answer, right: str | tuple, **kwargs) -> None:
    """Print ``verdict(name, answer, right, **kwargs)``: the body of a check cell.

    Example:
        >>> check("answer_2", 96.0, digest(96), expect="a whole number", praise="Well done.")
        Correct. Well done.
    """
    print(verdict(name, answer, right, **kwargs))


# --------------------------------------------------------------------------------------------
# Code answers
# --------------------------------------------------------------------------------------------
def check_code(name: str, test: Callable[[], str | None], *, expect: str, timeout: float = 20):
    """Run ``test`` (which calls the student's code) and print one line on what happened.

    ``test`` raises ``NotAnswered`` while the student's code is still the placeholder,
    ``AssertionError("hint")`` when the code gives a wrong result, and returns ``None`` or a
    short praise (never the answer) when it is right. Anything else the student's code raises
    is reported by its class and message; code that runs longer than ``timeout`` seconds is
    stopped (in the main thread of a Unix kernel, where signals can interrupt it).

    Example:
        >>> def test():
        ...     assert square(3) == 9, "square(3) should be 9"
        >>> square = lambda x: x + x
        >>> check_code("square", test, expect="a function of x")
        Not yet: square(3) should be 9
    """
    print(code_verdict(name, test, expect=expect, timeout=timeout))


def code_verdict(name: str, test: Callable[[], str | None], *, expect: str, timeout: float = 20):
    """The line ``check_code`` prints."""
    try:
        with _time_limit(timeout):
            praise = test()
    except NotAnswered:
        return f"{name} is not answered yet: write {expect}."
    except AssertionError as exc:
        return f"Not yet: {exc}" if str(exc) else f"Not yet: {name} gives a wrong result."
    except _TimeUp:
        return f"Not yet: {name} did not finish within {timeout:g} s (an endless loop?)."
    except Exception as exc:  # noqa: BLE001 - a check never raises
        return f"Not yet: running your {name} raised {type(exc).__name__}: {exc}"
    return "Correct." + (f" {praise}" if praise else "")


class _TimeUp(Exception):
    pass


class _time_limit:
    """Interrupt the block after ``seconds`` with ``_TimeUp`` (SIGALRM; main thread only)."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.armed = hasattr(signal, "setitimer") and (
            threading.current_thread() is threading.main_thread()
        )

    def __enter__(self):
        if self.armed:
            self.previous = signal.signal(signal.SIGALRM, self._ring)
            signal.setitimer(signal.ITIMER_REAL, self.seconds)
        return self

    def __exit__(self, *exc) -> bool:
        if self.armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self.previous)
        return False

    @staticmethod
    def _ring(signum, frame):
        raise _TimeUp
