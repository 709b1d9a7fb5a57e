"""``minigrad.special``, PyTorch's ``torch.special``: special functions under their SciPy
names. Most are ops minigrad already has under another name (``expit`` is ``sigmoid``,
``gammaln`` is ``lgamma``, ``psi`` is ``digamma``); ``entr i0 i1 i0e i1e erfcx log_ndtr
ndtr ndtri multigammaln`` are in ``minigrad/ops/special_functions.py``.

Example:
    >>> import minigrad as mg
    >>> mg.special.expit(mg.tensor([0.0, 2.0]))
    tensor([0.5000, 0.8808])
"""

from __future__ import annotations

from .ops import reduce, rounding, special
from .ops.more_math import polygamma
from .ops.special_functions import (
    entr,
    erfcx,
    i0,
    i0e,
    i1,
    i1e,
    log_ndtr,
    multigammaln,
    ndtr,
    ndtri,
)
from .tensor import Tensor

xlogy = special.xlogy


def _method(name: str, doc: str):
    def fn(input: Tensor) -> Tensor:  # noqa: A002
        if not isinstance(input, Tensor):
            raise TypeError(
                f"special_{name}(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
            )
        return getattr(input, method)()

    method = {"expit": "sigmoid", "gammaln": "lgamma", "psi": "digamma"}.get(name, name)
    fn.__name__ = name
    fn.__doc__ = f"{doc} (``torch.special.{name}``: ``x.{method}()``)."
    return fn


expit = _method("expit", "The logistic sigmoid 1 / (1 + exp(-x))")
erf = _method("erf", "The error function")
erfc = _method("erfc", "The complementary error function 1 - erf(x)")
erfinv = _method("erfinv", "The inverse error function")
gammaln = _method("gammaln", "log |Gamma(x)|")
digamma = _method("digamma", "The logarithmic derivative of Gamma")
psi = _method("psi", "The logarithmic derivative of Gamma")
sinc = _method("sinc", "sin(pi x) / (pi x), 1 at 0")
log1p = _method("log1p", "log(1 + x), exact for small x")
expm1 = _method("expm1", "exp(x) - 1, exact for small x")
exp2 = _method("exp2", "2 ** x")


def logit(input: Tensor, eps: float | None = None) -> Tensor:  # noqa: A002
    """log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given
    (``torch.special.logit``)."""
    return input.logit(eps)


def softmax(input: Tensor, dim: int, dtype=None) -> Tensor:  # noqa: A002
    """``torch.special.softmax``: :func:`minigrad.softmax`."""
    return reduce.softmax(input, dim, dtype)


def log_softmax(input: Tensor, dim: int, dtype=None) -> Tensor:  # noqa: A002
    """``torch.special.log_softmax``: :func:`minigrad.log_softmax`."""
    return reduce.log_softmax(input, dim, dtype)


def logsumexp(input: Tensor, dim, keepdim: bool = False) -> Tensor:  # noqa: A002
    """``torch.special.logsumexp``: :func:`minigrad.logsumexp`."""
    return reduce.logsumexp(input, dim, keepdim)


def round(input: Tensor, *, decimals: int = 0) -> Tensor:  # noqa: A001, A002
    """``torch.special.round``: :func:`minigrad.round`, halves to even."""
    return rounding.round(input, decimals=decimals)  # RoundBackward1, as PyTorch's


__all__ = [
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammaln",
    "i0", "i0e", "i1", "i1e", "log1p", "log_ndtr", "log_softmax", "logit", "logsumexp",
    "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "sinc", "softmax", "xlogy",
]  # fmt: skip
