"""Where a distribution's parameters and samples may lie (``torch.distributions.constraints``).

A constraint answers one question, ``check(value)``: a boolean tensor saying, element by
element (or event by event), whether ``value`` is allowed. ``Normal(loc, scale)`` checks
``scale`` against ``positive`` when it is built, and ``log_prob(x)`` checks ``x`` against
the distribution's ``support``, when ``validate_args`` is on (the default, as in PyTorch).
The names and printed forms are PyTorch's (``GreaterThan(lower_bound=0.0)``).
"""

from __future__ import annotations

from ..errors import distributions as errors
from ..ops.select import isnan


class Constraint:
    """A region of values; ``event_dim`` is how many rightmost dims one checked event has."""

    is_discrete = False
    event_dim = 0

    def check(self, value):
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__[1:] + "()"


class _Dependent(Constraint):
    """A constraint that depends on other parameters (not checked on its own)."""

    def __init__(self, *, is_discrete=False, event_dim=0):
        self.is_discrete = is_discrete
        self.event_dim = event_dim

    def __call__(self, *, is_discrete=False, event_dim=0):
        return _Dependent(is_discrete=is_discrete, event_dim=event_dim)

    def check(self, value):
        raise ValueError(errors.DEPENDENT)


class _DependentProperty(property):
    """A ``support`` that depends on the parameters (``Uniform``'s interval): a property."""

    def __init__(self, fn=None, *, is_discrete=False, event_dim=0):
        super().__init__(fn)
        self.is_discrete = is_discrete
        self.event_dim = event_dim

    def __call__(self, fn):
        return _DependentProperty(fn, is_discrete=self.is_discrete, event_dim=self.event_dim)


def is_dependent(constraint) -> bool:
    """True for a constraint that cannot be checked alone (``constraints.is_dependent``)."""
    return isinstance(constraint, _Dependent)


class _Real(Constraint):
    def check(self, value):
        return ~isnan(value)


class _Boolean(Constraint):
    is_discrete = True

    def check(self, value):
        return (value == 0) | (value == 1)


class _GreaterThan(Constraint):
    def __init__(self, lower_bound):
        self.lower_bound = lower_bound

    def check(self, value):
        return value > self.lower_bound

    def __repr__(self) -> str:
        return f"GreaterThan(lower_bound={self.lower_bound})"


class _GreaterThanEq(_GreaterThan):
    def check(self, value):
        return value >= self.lower_bound

    def __repr__(self) -> str:
        return f"GreaterThanEq(lower_bound={self.lower_bound})"


class _Interval(Constraint):
    """The closed interval [lower_bound, upper_bound]."""

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def check(self, value):
        return (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"Interval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _IntegerInterval(_Interval):
    is_discrete = True

    def check(self, value):
        return (value % 1 == 0) & (self.lower_bound <= value) & (value <= self.upper_bound)

    def __repr__(self) -> str:
        return f"IntegerInterval(lower_bound={self.lower_bound}, upper_bound={self.upper_bound})"


class _Simplex(Constraint):
    """Vectors (the last dim) of non-negative numbers summing to 1 (within 1e-6)."""

    event_dim = 1

    def check(self, value):
        return (value >= 0).all(dim=-1) & ((value.sum(-1) - 1).abs() < 1e-6)


class _OneHot(Constraint):
    """Vectors of zeros with a single one."""

    is_discrete = True
    event_dim = 1

    def check(self, value):
        is_boolean = (value == 0) | (value == 1)
        return is_boolean.all(dim=-1) & (value.sum(-1) == 1)


class _IndependentConstraint(Constraint):
    """``base`` checked on events of ``reinterpreted_batch_ndims`` more rightmost dims."""

    def __init__(self, base_constraint, reinterpreted_batch_ndims):
        self.base_constraint = base_constraint
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims
        self.is_discrete = base_constraint.is_discrete
        self.event_dim = base_constraint.event_dim + reinterpreted_batch_ndims

    def check(self, value):
        result = self.base_constraint.check(value)
        n = self.reinterpreted_batch_ndims
        if n:
            result = result.reshape(tuple(result.shape[: result.dim() - n]) + (-1,)).all(dim=-1)
        return result

    def __repr__(self) -> str:
        return f"IndependentConstraint({self.base_constraint!r}, {self.reinterpreted_batch_ndims})"


dependent = _Dependent()
dependent_property = _DependentProperty
independent = _IndependentConstraint
real = _Real()
real_vector = independent(real, 1)
boolean = _Boolean()
one_hot = _OneHot()
positive = _GreaterThan(0.0)
nonnegative = _GreaterThanEq(0.0)
greater_than = _GreaterThan
greater_than_eq = _GreaterThanEq
unit_interval = _Interval(0.0, 1.0)
interval = _Interval
integer_interval = _IntegerInterval
simplex = _Simplex()
