"""NAdam: Adam with Nesterov momentum (Dozat, 2016), with Dozat's momentum schedule."""

from __future__ import annotations

from ..errors import optim as _errors
from ..factory import tensor, zeros_like
from ..tensor import Tensor
from .adam import check_adam_options, update_moments
from .optimizer import PerParameterOptimizer, implementation_options, in_pytorchs_order
from .sgd import check_non_negative


class NAdam(PerParameterOptimizer):
    """NAdam (``torch.optim.NAdam``), PyTorch's exact update.

    For each parameter p with gradient g, at step t (counted from 1)::

        g = -g if maximize
        p = p * (1 - lr * weight_decay)        (decoupled_weight_decay)
        g = g + weight_decay * p               (otherwise, if weight_decay)
        mu_t = beta1 * (1 - 0.5 * 0.96**(t * momentum_decay))     (the momentum schedule)
        P = mu_1 * ... * mu_t                  (mu_product)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        d = sqrt(v / (1 - beta2**t)) + eps
        p = p - lr * (1 - mu_t) / (1 - P) * g / d - lr * mu_{t+1} / (1 - P * mu_{t+1}) * m / d

    The last line is the Nesterov look-ahead: the step mixes the current gradient
    with the momentum the next step will use. State per parameter: ``step`` and
    ``mu_product`` (0-d float32 tensors, as PyTorch: P is a float32 product),
    ``exp_avg`` (m) and ``exp_avg_sq`` (v). Sparse gradients are refused, as in PyTorch.

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        betas: decay rates of the two running averages.
        eps: added to the denominator for numerical stability.
        weight_decay: L2 penalty (or, decoupled, a shrink of the weights).
        momentum_decay: how fast mu_t rises from beta1 / 2 towards beta1.
        decoupled_weight_decay: shrink the weights directly, as AdamW does (NAdamW).
        foreach, capturable: PyTorch's implementation switches; accepted, they change
            nothing. differentiable: only False.
        maximize: ascend the objective instead of descending it.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
        >>> opt = mg.optim.NAdam([w], lr=0.1)
        >>> (w ** 2).sum().backward()
        >>> opt.step()
        >>> w          # lr * g / |g|, plus the look-ahead lr * mu_2 / (1 - mu_1 mu_2) * m / |g|
        Parameter containing:
        tensor([ 0.8944, -1.8944], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        momentum_decay: float = 4e-3,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ):
        options = implementation_options(
            "NAdam", differentiable, foreach=foreach, capturable=capturable
        )
        check_adam_options(lr, eps, betas, weight_decay)
        check_non_negative(momentum_decay, _errors.INVALID_MOMENTUM_DECAY)
        defaults = dict(
            lr=lr,
            betas=tuple(betas),
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
            decoupled_weight_decay=decoupled_weight_decay,
            maximize=maximize,
        )
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr betas eps weight_decay momentum_decay decoupled_weight_decay maximize foreach capturable differentiable",
        )
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0)
            state["mu_product"] = tensor(1.0)
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        lr, (beta1, beta2) = group["lr"], group["betas"]
        grad = self._gradient(p, group, state)
        step = state["step"].item()
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * group["momentum_decay"]))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * group["momentum_decay"]))
        state["mu_product"] *= mu  # in float32, as PyTorch
        mu_product = state["mu_product"].item()
        update_moments(state, grad, beta1, beta2)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        denom = (exp_avg_sq / (1 - beta2**step)).sqrt() + group["eps"]
        p.add_(grad / denom, alpha=-lr * (1.0 - mu) / (1.0 - mu_product))
        p.add_(exp_avg / denom, alpha=-lr * mu_next / (1.0 - mu_product * mu_next))
