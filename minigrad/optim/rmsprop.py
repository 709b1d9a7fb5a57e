"""RMSprop: steps scaled by a running average of the squared gradient (Hinton's lecture 6e)."""

from __future__ import annotations

from ..errors import optim as _errors
from ..factory import tensor, zeros_like
from ..tensor import Tensor
from .optimizer import PerParameterOptimizer, implementation_options, in_pytorchs_order
from .sgd import check_non_negative


class RMSprop(PerParameterOptimizer):
    """RMSprop (``torch.optim.RMSprop``), PyTorch's exact update.

    For each parameter p with gradient g::

        g = -g if maximize
        g = g + weight_decay * p                          (if weight_decay)
        v = alpha * v + (1 - alpha) * g**2
        m = alpha * m + (1 - alpha) * g                   (centered)
        d = sqrt(v - m**2) + eps   (centered)   or   d = sqrt(v) + eps
        b = momentum * b + g / d;  p = p - lr * b          (if momentum)
        p = p - lr * g / d                                  (otherwise)

    State per parameter: ``step`` (a 0-d float tensor), ``square_avg`` (v), and
    ``momentum_buffer`` (b) with momentum, ``grad_avg`` (m) when centered. Sparse
    gradients are refused, as in PyTorch.

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        alpha: decay rate of the running averages.
        eps: added to the denominator for numerical stability.
        weight_decay: L2 penalty added to the gradient.
        momentum: momentum factor (0: no buffer).
        centered: divide by an estimate of the gradient's variance instead of its
            second moment.
        maximize: ascend the objective instead of descending it.
        foreach, capturable: PyTorch's implementation switches; accepted, they change
            nothing. differentiable: only False.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
        >>> opt = mg.optim.RMSprop([w], lr=0.01)
        >>> (w ** 2).sum().backward()
        >>> opt.step()
        >>> w          # the first step is lr / sqrt(1 - alpha) = 0.1 per entry
        Parameter containing:
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float = 1e-2,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum: float = 0,
        centered: bool = False,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ):
        options = implementation_options(
            "RMSprop", differentiable, foreach=foreach, capturable=capturable
        )
        check_non_negative(lr, _errors.INVALID_LR)
        check_non_negative(eps, _errors.INVALID_EPS)
        check_non_negative(momentum, _errors.INVALID_MOMENTUM)
        check_non_negative(weight_decay, _errors.INVALID_WEIGHT_DECAY)
        check_non_negative(alpha, _errors.INVALID_ALPHA)
        defaults = dict(
            lr=lr,
            alpha=alpha,
            eps=eps,
            weight_decay=weight_decay,
            momentum=momentum,
            centered=centered,
            maximize=maximize,
        )
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr momentum alpha eps centered weight_decay capturable foreach maximize differentiable",
        )
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0)
            state["square_avg"] = zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = zeros_like(p)
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        alpha = group["alpha"]
        grad = self._gradient(p, group, state)
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).add_(grad * grad, alpha=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.add_(grad - grad_avg, alpha=1 - alpha)  # PyTorch's lerp_
            avg = (square_avg - grad_avg * grad_avg).sqrt() + group["eps"]
        else:
            avg = square_avg.sqrt() + group["eps"]
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf.mul_(group["momentum"]).add_(grad / avg)
            p.add_(buf, alpha=-group["lr"])
        else:
            p.add_(grad / avg, alpha=-group["lr"])
