"""RAdam: Adam whose adaptive step is switched on gradually, as its variance estimate
becomes reliable (Liu et al., "On the Variance of the Adaptive Learning Rate and Beyond")."""

from __future__ import annotations

from ..factory import tensor, zeros_like
from ..tensor import Tensor
from .adam import check_adam_options, update_moments
from .optimizer import PerParameterOptimizer, implementation_options, in_pytorchs_order


class RAdam(PerParameterOptimizer):
    """RAdam (``torch.optim.RAdam``), PyTorch's exact update.

    For each parameter p with gradient g, at step t (counted from 1)::

        g = -g if maximize
        p = p * (1 - lr * weight_decay)        (decoupled_weight_decay)
        g = g + weight_decay * p               (otherwise, if weight_decay)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        m_hat = m / (1 - beta1**t)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * t * beta2**t / (1 - beta2**t)    (length of the moving average)
        if rho_t > 5:
            r = sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            p = p - lr * m_hat * r * sqrt(1 - beta2**t) / (sqrt(v) + eps)
        else:
            p = p - lr * m_hat                  (SGD with momentum while v is unreliable)

    With the default beta2 = 0.999 the first 5 steps are momentum steps. State per
    parameter: ``step`` (a 0-d float tensor), ``exp_avg`` (m) and ``exp_avg_sq`` (v).
    Sparse gradients are refused, as in PyTorch.

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        betas: decay rates of the two running averages.
        eps: added to the denominator for numerical stability.
        weight_decay: L2 penalty (or, decoupled, a shrink of the weights).
        decoupled_weight_decay: shrink the weights directly, as AdamW does.
        foreach, capturable: PyTorch's implementation switches; accepted, they change
            nothing. differentiable: only False.
        maximize: ascend the objective instead of descending it.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
        >>> opt = mg.optim.RAdam([w], lr=0.1)
        >>> (w ** 2).sum().backward()
        >>> opt.step()
        >>> w          # rho_1 = 1: a momentum step, lr * m_hat = lr * g
        Parameter containing:
        tensor([ 0.8000, -1.6000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        decoupled_weight_decay: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
    ):
        options = implementation_options(
            "RAdam", differentiable, foreach=foreach, capturable=capturable
        )
        check_adam_options(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr,
            betas=tuple(betas),
            eps=eps,
            weight_decay=weight_decay,
            maximize=maximize,
            decoupled_weight_decay=decoupled_weight_decay,
        )
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr betas eps weight_decay maximize foreach capturable decoupled_weight_decay differentiable",
        )
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        lr, (beta1, beta2) = group["lr"], group["betas"]
        grad = self._gradient(p, group, state)
        step = state["step"].item()
        update_moments(state, grad, beta1, beta2)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        bias_correction2 = 1 - beta2**step
        m_hat = exp_avg / (1 - beta1**step)
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2**step) / bias_correction2
        if rho_t > 5.0:
            rect = (
                (rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)
            ) ** 0.5
            adaptive_lr = bias_correction2**0.5 / (exp_avg_sq.sqrt() + group["eps"])
            p.add_(m_hat * lr * adaptive_lr * rect, alpha=-1.0)
        else:
            p.add_(m_hat * lr, alpha=-1.0)
