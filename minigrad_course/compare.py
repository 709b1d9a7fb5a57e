"""Gradients worked out by hand, compared with autograd's name by name: a ``cmp`` table.

A "backprop by hand" exercise asks for the gradient of the loss with respect to every
intermediate of a forward pass. ``cmp`` compares one of them with the reference (autograd's) and
says whether it is *exact* (bit for bit), *close* (within ``rtol``/``atol``, the way
``numpy.allclose`` decides) and how far off it is at worst, the three columns of the ``cmp``
helper in Karpathy's makemore part 4 ("Becoming a backprop ninja"). ``grad_table`` prints one
row per name, in the order backward computes them: the first row that is not close is where the
bug is, since every gradient below it is computed from the ones above.

Example:
    >>> import numpy as np
    >>> reference = {"probs": np.array([0.5, 0.25]), "logits": np.array([1.0, -1.0])}
    >>> mine = {"probs": np.array([0.5, 0.25]), "logits": np.array([1.0, 1.0])}
    >>> print(grad_table(mine, reference))
    gradient  shape  exact  close  max |diff|
    probs     (2,)   yes    yes    0
    logits    (2,)   no     no     2  <- the first wrong one
    >>> first_wrong(compare_grads(mine, reference)).name
    'logits'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

RTOL = 1e-6
ATOL = 1e-9
NOT_WRITTEN = "not written yet (still `...`)"


@dataclass(frozen=True)
class Comparison:
    """One row of the table: how a hand-made gradient compares with the reference.

    Attributes:
        name: the tensor whose gradient this is.
        exact: equal to the reference bit for bit.
        close: within the tolerances of the reference (``exact`` implies ``close``).
        max_diff: the largest absolute difference (NaN when there is no comparison).
        problem: why no comparison was possible ("missing", a wrong shape, ...), else "".
    """

    name: str
    exact: bool
    close: bool
    max_diff: float
    problem: str = ""

    @property
    def ok(self) -> bool:
        """Whether this gradient counts as right (close to the reference)."""
        return self.close

    def __str__(self) -> str:
        """One line, as makemore's ``cmp`` prints it: ``probs | exact: no | close: yes | ...``."""
        if self.problem:
            return f"{self.name} | {self.problem}"
        yes_no = {True: "yes", False: "no"}
        return (
            f"{self.name} | exact: {yes_no[self.exact]} | close: {yes_no[self.close]} | "
            f"max |diff|: {self.max_diff:.3g}"
        )


def as_array(value) -> np.ndarray:
    """``value`` (a numpy array, a tensor, a number, nested lists) as a float64 array.

    Raises:
        TypeError: ``value`` holds something that is not a number.
    """
    if isinstance(value, (str, bytes)):  # numpy would read "0.5" as a number
        raise TypeError(f"a gradient is an array of numbers, not a {type(value).__name__}")
    detach = getattr(value, "detach", None)
    if callable(detach):
        value = detach()
    to_numpy = getattr(value, "numpy", None)
    if callable(to_numpy) and not isinstance(value, np.ndarray):
        value = to_numpy()
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"a gradient is an array of numbers, not a {type(value).__name__}"
        ) from None


def cmp(name: str, mine, reference, *, rtol: float = RTOL, atol: float = ATOL) -> Comparison:
    """Compare the hand-made gradient ``mine`` of ``name`` with ``reference``.

    Example:
        >>> cmp("b", [1.0, 2.0], [1.0, 2.0 + 1e-12])
        Comparison(name='b', exact=False, close=True, max_diff=1.000088900582341e-12, problem='')
    """
    want = as_array(reference)
    if mine is Ellipsis:
        return _no_comparison(name, NOT_WRITTEN)
    if mine is None:
        return _no_comparison(name, "None (is a `return` or an assignment missing?)")
    try:
        got = as_array(mine)
    except TypeError:
        return _no_comparison(name, f"not an array of numbers (a {type(mine).__name__})")
    if got.shape != want.shape:
        return _no_comparison(name, f"shape {got.shape}, but {name} has shape {want.shape}")
    diff = np.abs(got - want)
    max_diff = float(diff.max()) if diff.size else 0.0
    close = bool(np.allclose(got, want, rtol=rtol, atol=atol))
    return Comparison(name, bool(np.array_equal(got, want)), close, max_diff)


def _no_comparison(name: str, problem: str) -> Comparison:
    return Comparison(name, False, False, float("nan"), problem)


def compare_grads(
    mine: Mapping, reference: Mapping, *, names=None, rtol: float = RTOL, atol: float = ATOL
) -> list:
    """``cmp`` for every name of ``reference`` (or of ``names``, in that order).

    A name missing from ``mine`` gets the problem "missing from the dict".
    """
    rows = []
    for name in reference if names is None else names:
        if name not in mine:
            rows.append(_no_comparison(name, "missing from the dict"))
        else:
            rows.append(cmp(name, mine[name], reference[name], rtol=rtol, atol=atol))
    return rows


def first_wrong(rows: list) -> Comparison | None:
    """The first row that is not close to the reference, or None if every row is."""
    return next((row for row in rows if not row.ok), None)


def grad_table(
    mine: Mapping | Callable[[], Mapping],
    reference: Mapping,
    *,
    names=None,
    rtol: float = RTOL,
    atol: float = ATOL,
) -> str:
    """The comparison of ``mine`` with ``reference`` as a text table, one row per name.

    Args:
        mine: the hand-made gradients by name, or a function of no arguments that returns them
            (then an exception it raises is reported in the table's first line, not raised).
        reference: the reference gradients by name (autograd's).
        names: the rows, in order (default: ``reference``'s names, in its order).
        rtol: relative tolerance of "close".
        atol: absolute tolerance of "close".
    """
    note = ""
    if callable(mine) and not isinstance(mine, Mapping):
        try:
            mine = mine()
        except Exception as exc:  # noqa: BLE001 - the table shows what happened instead
            note = f"calling it raised {type(exc).__name__}: {exc}"
            mine = {}
    if mine is Ellipsis:
        note, mine = "not answered yet", {}
    elif not isinstance(mine, Mapping):
        note, mine = f"expected a dict of gradients by name, got a {type(mine).__name__}", {}
    rows = compare_grads(mine, reference, names=names, rtol=rtol, atol=atol)
    return (note + "\n" if note else "") + _format(rows, reference)


def _format(rows: list, reference: Mapping) -> str:
    wrong = first_wrong(rows)
    cells = [("gradient", "shape", "exact", "close", "max |diff|")]
    for row in rows:
        shape = str(tuple(as_array(reference[row.name]).shape))
        mark = "  <- the first wrong one" if row is wrong else ""
        if row.problem:
            cells.append((row.name, shape, "-", "-", row.problem + mark))
            continue
        yes_no = ("yes" if row.exact else "no", "yes" if row.close else "no")
        cells.append((row.name, shape, *yes_no, f"{row.max_diff:.3g}{mark}"))
    widths = [max(len(line[i]) for line in cells) for i in range(4)]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(line[:4], widths)) + "  " + line[4] for line in cells
    ]
    return "\n".join(line.rstrip() for line in lines)


# --------------------------------------------------------------------------------------------
# What a wrong row most likely is, and a guard against autograd
# --------------------------------------------------------------------------------------------
def likely_mistake(name: str, mine, reference, *, n: int | None = None) -> str | None:
    """A sentence naming the usual mistake behind a wrong gradient of ``name``, or None.

    Knows the mistakes that show in the numbers alone: a transposed gradient, a broadcast
    input's gradient not summed, a gradient off by a constant factor (``n``, the batch size, or
    ``1/n``: a mean's ``1/n`` forgotten or applied twice) or of the wrong sign.

    Example:
        >>> likely_mistake("b", [[1.0, 2.0], [3.0, 4.0]], [4.0, 6.0])
        'd["b"] has shape (2, 2), but b has shape (2,): b was broadcast in the forward pass, so its gradient is summed over the broadcast dims'
        >>> likely_mistake("p", [-3.0, 0.0], [-1.0, 0.0], n=3)
        'd["p"] is n = 3 times too large: a mean over the batch divides by n'
    """
    try:
        got, want = as_array(mine), as_array(reference)
    except TypeError:
        return None
    label = f'd["{name}"]'
    if got.shape != want.shape:
        return _shape_mistake(label, name, got.shape, want.shape)
    if not np.all(np.isfinite(got)):
        return f"{label} holds NaN or inf entries"
    scale = float(np.vdot(want, want))
    if scale == 0 or np.allclose(got, want, rtol=RTOL, atol=ATOL):
        return None
    factor = float(np.vdot(got, want)) / scale
    if not np.allclose(got, factor * want, rtol=1e-6, atol=ATOL):
        return None
    if np.isclose(factor, -1):
        return f"{label} has the wrong sign"
    if n and n > 1 and np.isclose(factor, n):
        return f"{label} is n = {n} times too large: a mean over the batch divides by n"
    if n and n > 1 and np.isclose(factor, 1 / n):
        return f"{label} is n = {n} times too small: is there a 1/n too many (a mean where the forward sums)?"
    return f"{label} is {factor:.4g} times the right gradient: a constant factor is off"


def _shape_mistake(label: str, name: str, got: tuple, want: tuple) -> str:
    found = f"{label} has shape {got}, but {name} has shape {want}"
    if len(got) == 2 and got == want[::-1] and got != want:
        return f"{found}: a transposed gradient? (check the order of the matmul's factors)"
    try:
        broadcast = np.broadcast_shapes(got, want) == got and int(np.prod(got)) > int(np.prod(want))
    except ValueError:
        broadcast = False
    if broadcast:
        return (
            f"{found}: {name} was broadcast in the forward pass, so its gradient is summed over "
            "the broadcast dims"
        )
    return f"{found}: a gradient has the shape of its tensor"


class AutogradUsed(RuntimeError):
    """Raised inside ``forbid_autograd()`` when code asks minigrad's autograd for a gradient."""


class forbid_autograd:
    """A block in which minigrad's autograd refuses to run (it raises ``AutogradUsed``).

    ``Tensor.backward``, ``autograd.backward``, ``autograd.grad`` and every backward pass
    (``autograd.BackwardPass``, which the others and the functional API run) raise inside the
    block; all are restored when it ends, however it ends. For exercises that ask for a
    gradient worked out by hand.

    Example:
        >>> import minigrad as mg
        >>> x = mg.tensor(2.0, requires_grad=True)
        >>> with forbid_autograd():
        ...     (x * x).backward()
        Traceback (most recent call last):
        ...
        minigrad_course.compare.AutogradUsed: Tensor.backward() was called, but this exercise asks for the gradients by hand, without autograd
        >>> (x * x).backward(); x.grad
        tensor(4.)
    """

    def __init__(self):
        import minigrad as mg

        targets = [
            (mg.Tensor, "backward", "Tensor.backward()"),
            (mg.autograd, "backward", "mg.autograd.backward()"),
            (mg.autograd, "grad", "mg.autograd.grad()"),
            (getattr(mg.autograd, "BackwardPass", None), "__init__", "a backward pass"),
        ]
        self._targets = [t for t in targets if t[0] is not None and hasattr(t[0], t[1])]
        self._saved = []

    def __enter__(self):
        for owner, attr, what in self._targets:
            self._saved.append((owner, attr, vars(owner).get(attr, _INHERITED)))
            setattr(owner, attr, _refusal(what))
        return self

    def __exit__(self, *exc) -> bool:
        while self._saved:
            owner, attr, original = self._saved.pop()
            if original is _INHERITED:
                delattr(owner, attr)
            else:
                setattr(owner, attr, original)
        return False


_INHERITED = object()  # the attribute came from a base class: restoring means deleting ours


def _refusal(what: str):
    def refuse(*args, **kwargs):
        raise AutogradUsed(
            f"{what} was called, but this exercise asks for the gradients by hand, without autograd"
        )

    return refuse
