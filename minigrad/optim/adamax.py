"""Adamax: Adam with the infinity norm in place of the root mean square (Kingma & Ba, sec. 7)."""

from __future__ import annotations

from ..factory import tensor, zeros_like
from ..ops.binary_math import maximum
from ..tensor import Tensor
from .adam import check_adam_options
from .optimizer import PerParameterOptimizer, implementation_options, in_pytorchs_order


class Adamax(PerParameterOptimizer):
    """Adamax (``torch.optim.Adamax``), PyTorch's exact update.

    For each parameter p with gradient g, at step t (counted from 1)::

        g = -g if maximize
        g = g + weight_decay * p                   (if weight_decay)
        m = beta1 * m + (1 - beta1) * g
        u = max(beta2 * u, |g| + eps)
        p = p - lr / (1 - beta1**t) * m / u

    u, a decaying running maximum of |g|, needs no bias correction (it is not an
    average), so only m is corrected. State per parameter: ``step`` (a 0-d float
    tensor), ``exp_avg`` (m) and ``exp_inf`` (u). Sparse gradients are refused, as in
    PyTorch.

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        betas: decay rates of the running average of g and of the running maximum of |g|.
        eps: added to |g| for numerical stability.
        weight_decay: L2 penalty added to the gradient.
        foreach, capturable: PyTorch's implementation switches; accepted, they change
            nothing. differentiable: only False.
        maximize: ascend the objective instead of descending it.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
        >>> opt = mg.optim.Adamax([w], lr=0.1)
        >>> (w ** 2).sum().backward()
        >>> opt.step()
        >>> w          # the first step is lr * sign(g) (up to eps)
        Parameter containing:
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float = 2e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ):
        options = implementation_options(
            "Adamax", differentiable, foreach=foreach, capturable=capturable
        )
        check_adam_options(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, maximize=maximize
        )
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr betas eps weight_decay foreach maximize differentiable capturable",
        )
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(p)
            state["exp_inf"] = zeros_like(p)
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        beta1, beta2 = group["betas"]
        grad = self._gradient(p, group, state)
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.add_(grad - exp_avg, alpha=1 - beta1)  # m += (1 - beta1)(g - m): PyTorch's lerp_
        exp_inf.copy_(maximum(exp_inf * beta2, grad.abs() + group["eps"]))
        clr = group["lr"] / (1 - beta1 ** state["step"].item())
        p.add_(exp_avg / exp_inf, alpha=-clr)
