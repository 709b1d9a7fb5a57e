"""The strong-Wolfe line search of :class:`~minigrad.optim.LBFGS` (``line_search_fn='strong_wolfe'``).

Given a point x, a descent direction d and the loss f with its directional derivative
gtd = g . d at x, find a step t along d with *sufficient decrease* and a *small slope*::

    f(x + t d) <= f + c1 t gtd            (Armijo)
    |g(x + t d) . d| <= c2 |gtd|          (curvature, the "strong" condition)

Algorithms 3.5 and 3.6 of Nocedal & Wright, *Numerical Optimization* (2006), as PyTorch
runs them (after minFunc): first grow t until an interval is known to hold such a step
(the *bracket*), then shrink the interval ("zoom") by cubic interpolation of the two ends.
Every trial point costs one closure evaluation. Losses are Python floats; slopes are 0-d
tensors, and the arithmetic mixes them in PyTorch's order so that each rounds as there.
"""

from __future__ import annotations


def cubic_minimum(x1, f1, g1, x2, f2, g2, bounds=None):
    """The minimiser, clamped to ``bounds`` (default: between x1 and x2), of the cubic through
    (x1, f1) and (x2, f2) with slopes g1 and g2; the midpoint of the bounds if it has none."""
    if bounds is not None:
        lo, hi = bounds
    else:
        lo, hi = (x1, x2) if x1 <= x2 else (x2, x1)
    d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
    d2_square = d1**2 - g1 * g2
    if d2_square >= 0:  # (written so that a NaN takes the midpoint, as in PyTorch)
        d2 = d2_square.sqrt()
        if x1 <= x2:
            at = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
        else:
            at = x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2))
        return min(max(at, lo), hi)
    return (lo + hi) / 2.0


class _Point:
    """One trial step t with its loss f, flat gradient g and slope gtd = g . d."""

    __slots__ = ("t", "f", "g", "gtd")

    def __init__(self, t, f, g, gtd):
        self.t, self.f, self.g, self.gtd = t, f, g, gtd


def strong_wolfe(evaluate, x, t, d, f, g, gtd, c1=1e-4, c2=0.9, tolerance_change=1e-9, max_ls=25):
    """Search along ``d`` from the parameters ``x`` (loss ``f``, flat gradient ``g``, slope
    ``gtd``), starting with step ``t``; ``evaluate(x, t, d)`` returns (loss, flat gradient)
    at ``x + t d``. At most ``max_ls`` evaluations.

    Returns ``(loss, flat_grad, t, evaluations)`` at the step found.
    """
    d_norm = d.abs().max()
    start = _Point(0, f, g.clone(), gtd)

    def trial(step) -> _Point:
        loss, grad = evaluate(x, step, d)
        return _Point(step, loss, grad, grad.dot(d))

    def armijo_fails(p: _Point) -> bool:
        return p.f > (f + c1 * p.t * gtd)

    def flat_enough(p: _Point) -> bool:
        return abs(p.gtd) <= -c2 * gtd

    # Phase 1: bracketing. Extrapolate (by cubic interpolation within [t + 0.01 (t - t_prev),
    # 10 t]) until the Armijo test fails, the loss rises, or the slope turns non-negative.
    new = trial(t)
    evaluations, iters = 1, 0
    prev, bracket, done = start, None, False
    while iters < max_ls:
        if armijo_fails(new) or (iters > 1 and new.f >= prev.f):
            bracket = [prev, _Point(new.t, new.f, new.g.clone(), new.gtd)]
            break
        if flat_enough(new):
            bracket, done = [new], True
            break
        if new.gtd >= 0:
            bracket = [prev, _Point(new.t, new.f, new.g.clone(), new.gtd)]
            break
        bounds = (new.t + 0.01 * (new.t - prev.t), new.t * 10)
        step = cubic_minimum(prev.t, prev.f, prev.gtd, new.t, new.f, new.gtd, bounds=bounds)
        prev = _Point(new.t, new.f, new.g.clone(), new.gtd)
        new = trial(step)
        evaluations += 1
        iters += 1
    if iters == max_ls:  # out of evaluations: the start and the last trial
        bracket = [_Point(0, f, start.g, None), _Point(new.t, new.f, new.g, None)]

    # Phase 2: zoom. Shrink the bracket (kept as [low, high] by loss) until a step satisfies
    # both conditions or the interval is shorter than tolerance_change along d.
    low, high = (0, 1) if bracket[0].f <= bracket[-1].f else (1, 0)
    insufficient_progress = False
    while not done and iters < max_ls:
        a, b = bracket[0], bracket[1]
        if abs(b.t - a.t) * d_norm < tolerance_change:
            break
        step = cubic_minimum(a.t, a.f, a.gtd, b.t, b.f, b.gtd)
        step, insufficient_progress = _keep_off_the_ends(step, a.t, b.t, insufficient_progress)
        new = trial(step)
        evaluations += 1
        iters += 1
        if armijo_fails(new) or new.f >= bracket[low].f:
            bracket[high] = _Point(new.t, new.f, new.g.clone(), new.gtd)
            low, high = (0, 1) if bracket[0].f <= bracket[1].f else (1, 0)
            continue
        if flat_enough(new):
            done = True
        elif new.gtd * (bracket[high].t - bracket[low].t) >= 0:
            bracket[high] = bracket[low]  # the minimum lies on the other side of the new point
        bracket[low] = _Point(new.t, new.f, new.g.clone(), new.gtd)
    best = bracket[low]
    return best.f, best.g, best.t, evaluations


def _keep_off_the_ends(step, t_a, t_b, insufficient_progress):
    """Nudge a zoom step that lands within 10% of the interval's length from one of its ends:
    the second time in a row (or when it is on or outside an end), move it to 10% inside."""
    top, bottom = max(t_a, t_b), min(t_a, t_b)
    eps = 0.1 * (top - bottom)
    if not min(top - step, step - bottom) < eps:  # (a NaN step stays, as in PyTorch)
        return step, False
    if insufficient_progress or step >= top or step <= bottom:
        step = top - eps if abs(step - top) < abs(step - bottom) else bottom + eps
        return step, False
    return step, True
