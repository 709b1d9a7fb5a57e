"""Adadelta: steps whose units match the parameter's, from running averages of the squared
gradient and of the squared step (Zeiler, 2012)."""

from __future__ import annotations

from ..errors import optim as _errors
from ..factory import tensor, zeros_like
from ..tensor import Tensor
from .optimizer import PerParameterOptimizer, implementation_options, in_pytorchs_order
from .sgd import check_non_negative


class Adadelta(PerParameterOptimizer):
    """Adadelta (``torch.optim.Adadelta``), PyTorch's exact update.

    For each parameter p with gradient g::

        g = -g if maximize
        g = g + weight_decay * p                       (if weight_decay)
        v = rho * v + (1 - rho) * g**2
        delta = sqrt(u + eps) / sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta**2
        p = p - lr * delta

    The ratio of the two root mean squares gives the step the units of p, so the
    default ``lr`` is 1.0. State per parameter: ``step`` (a 0-d float tensor),
    ``square_avg`` (v) and ``acc_delta`` (u). Sparse gradients are refused, as in
    PyTorch.

    Args:
        params: parameters or param groups to optimize.
        lr: scale of the step (1.0 is Zeiler's method).
        rho: decay rate of the two running averages, in [0, 1].
        eps: added inside both square roots for numerical stability.
        weight_decay: L2 penalty added to the gradient.
        foreach, capturable: PyTorch's implementation switches; accepted, they change
            nothing. differentiable: only False.
        maximize: ascend the objective instead of descending it.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0], dtype=mg.float64))
        >>> opt = mg.optim.Adadelta([w])
        >>> (w ** 2).sum().backward()
        >>> opt.step()
        >>> w.detach().numpy().round(6)   # sqrt(eps) / sqrt(0.1 g**2 + eps) * g: ~0.00316
        array([ 0.996838, -1.996838])
    """

    def __init__(
        self,
        params,
        lr: float = 1.0,
        rho: float = 0.9,
        eps: float = 1e-6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        capturable: bool = False,
        maximize: bool = False,
        differentiable: bool = False,
    ):
        options = implementation_options(
            "Adadelta", differentiable, foreach=foreach, capturable=capturable
        )
        check_non_negative(lr, _errors.INVALID_LR)
        if not 0.0 <= rho <= 1.0:
            raise ValueError(_errors.INVALID_RHO.format(value=rho))
        check_non_negative(eps, _errors.INVALID_EPS)
        check_non_negative(weight_decay, _errors.INVALID_WEIGHT_DECAY)
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize)
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr rho eps weight_decay maximize capturable foreach differentiable",
        )
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0)
            state["square_avg"] = zeros_like(p)
            state["acc_delta"] = zeros_like(p)
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        rho, eps = group["rho"], group["eps"]
        grad = self._gradient(p, group, state)
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        square_avg.mul_(rho).add_(grad * grad, alpha=1 - rho)
        std = (square_avg + eps).sqrt()
        delta = (acc_delta + eps).sqrt() / std * grad
        acc_delta.mul_(rho).add_(delta * delta, alpha=1 - rho)
        p.add_(delta, alpha=-group["lr"])
