"""Adam: per-parameter step sizes from running averages of the gradient and its square."""

from __future__ import annotations

from ..errors import optim as _errors
from ..factory import tensor, zeros_like
from ..ops.select import where
from ..tensor import Tensor
from .optimizer import PerParameterOptimizer, implementation_options, in_pytorchs_order
from .sgd import check_non_negative


def check_betas(betas) -> None:
    """PyTorch's check of Adam-like ``betas``: a pair, each in [0, 1) (ValueError otherwise)."""
    if len(betas) != 2:
        raise ValueError(_errors.BETAS_PAIR.format(got=tuple(betas)))
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(_errors.INVALID_BETA.format(i=i, value=beta))


def check_adam_options(lr, eps, betas, weight_decay) -> None:
    """The options every Adam-like optimizer checks, as PyTorch does (ValueError)."""
    check_non_negative(lr, _errors.INVALID_LR)
    check_non_negative(eps, _errors.INVALID_EPS)
    check_betas(betas)
    check_non_negative(weight_decay, _errors.INVALID_WEIGHT_DECAY)


def update_moments(state: dict, grad: Tensor, beta1: float, beta2: float) -> None:
    """Adam's two running averages, in place: m += (1 - beta1)(g - m) (PyTorch's lerp_) and
    v = beta2 * v + (1 - beta2) * g**2."""
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    exp_avg.add_(grad - exp_avg, alpha=1 - beta1)
    exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)


class Adam(PerParameterOptimizer):
    """Adam (``torch.optim.Adam``), PyTorch's exact update.

    For each parameter p with gradient g, at step t (counted from 1)::

        g = -g if maximize
        p = p * (1 - lr * weight_decay)        (decoupled_weight_decay: AdamW)
        g = g + weight_decay * p               (otherwise, if weight_decay)
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g**2
        v_max = max(v_max, v)                  (amsgrad; then v_max replaces v below)
        p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    State per parameter: ``step`` (a 0-d float tensor), ``exp_avg`` (m),
    ``exp_avg_sq`` (v) and, with amsgrad, ``max_exp_avg_sq``.

    Sparse gradients raise PyTorch's error, "Adam does not support sparse gradients,
    please consider SparseAdam instead": updating every row's moments would make them
    dense. :class:`SparseAdam` updates the rows present lazily, and takes the dense
    gradients of the rest of the model too.

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        betas: decay rates of the two running averages.
        eps: added to the denominator for numerical stability.
        weight_decay: L2 penalty (decoupled from the gradient in AdamW).
        amsgrad: use the running maximum of v (the AMSGrad variant).
        maximize: ascend the objective instead of descending it.
        decoupled_weight_decay: shrink the weights directly, as AdamW does.
        foreach, capturable, fused: PyTorch's implementation switches; accepted, they
            change nothing. differentiable: only False.
    """

    def __init__(
        self,
        params,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0,
        amsgrad: bool = False,
        *,
        foreach: bool | None = None,
        maximize: bool = False,
        capturable: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
        decoupled_weight_decay: bool = False,
    ):
        name = "AdamW" if decoupled_weight_decay else "Adam"
        options = implementation_options(
            name, differentiable, foreach=foreach, capturable=capturable, fused=fused
        )
        check_adam_options(lr, eps, betas, weight_decay)
        defaults = dict(
            lr=lr,
            betas=tuple(betas),
            eps=eps,
            weight_decay=weight_decay,
            amsgrad=amsgrad,
            maximize=maximize,
            decoupled_weight_decay=decoupled_weight_decay,
        )
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr betas eps weight_decay amsgrad maximize foreach capturable differentiable fused decoupled_weight_decay",
        )
        super().__init__(params, defaults)

    def _on_sparse_grad(self, p: Tensor) -> None:
        # PyTorch's message, for AdamW too (AdamW is an Adam in PyTorch as well).
        raise RuntimeError(_errors.SPARSE_ADAM.format(name="Adam"))

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0)
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        lr, (beta1, beta2) = group["lr"], group["betas"]
        grad = self._gradient(p, group, state)
        update_moments(state, grad, beta1, beta2)
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        step = state["step"].item()
        step_size = lr / (1 - beta1**step)
        bias_correction2_sqrt = (1 - beta2**step) ** 0.5
        if group["amsgrad"]:
            v_max = state["max_exp_avg_sq"]
            v_max.copy_(where(v_max > exp_avg_sq, v_max, exp_avg_sq))
            exp_avg_sq = v_max
        denom = exp_avg_sq.sqrt() / bias_correction2_sqrt + group["eps"]
        p.add_(exp_avg / denom, alpha=-step_size)
