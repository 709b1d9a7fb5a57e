"""Rprop: resilient backpropagation (Riedmiller & Braun 1993), one step size per entry."""

from __future__ import annotations

from ..errors import optim as _errors
from ..factory import full_like, tensor, zeros_like
from ..tensor import Tensor
from .optimizer import PerParameterOptimizer, implementation_options


class Rprop(PerParameterOptimizer):
    """Rprop (``torch.optim.Rprop``), PyTorch's exact update.

    Only the *sign* of each gradient entry is used; its size comes from a step size kept per
    entry, which grows while the sign stays the same and shrinks when it flips. For each
    parameter p with gradient g and the gradient of the previous step ``prev``::

        g = -g if maximize
        s = sign(g * prev)
        step_size = clamp(step_size * (etaplus if s > 0, etaminus if s < 0, 1 if s == 0),
                          step_size_min, step_size_max)
        g = 0 where s < 0          (after a flip, wait one step before moving again)
        p = p - sign(g) * step_size
        prev = g

    State per parameter: ``step`` (a 0-d float tensor), ``prev`` and ``step_size`` (starts
    at ``lr`` everywhere). Made for full-batch gradients: with mini-batches the signs are
    noisy and the step sizes wander. Sparse gradients are refused, as in PyTorch.

    Args:
        params: parameters or param groups to optimize.
        lr: the initial step size of every entry.
        etas: (etaminus, etaplus), with 0 < etaminus < 1 < etaplus.
        step_sizes: (step_size_min, step_size_max), the range of the step sizes.
        capturable, foreach: PyTorch's implementation switches; accepted, they change
            nothing. differentiable: only False.
        maximize: ascend the objective instead of descending it.

    Raises:
        ValueError: for a negative lr, or etas not in the order 0 < etaminus < 1 < etaplus.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
        >>> opt = mg.optim.Rprop([w], lr=0.1)
        >>> for _ in range(2):
        ...     opt.zero_grad()
        ...     (w ** 2).sum().backward()
        ...     _ = opt.step()
        >>> w          # 0.1, then 0.1 * 1.2, against the gradient's sign
        Parameter containing:
        tensor([ 0.7800, -1.7800], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float = 1e-2,
        etas: tuple[float, float] = (0.5, 1.2),
        step_sizes: tuple[float, float] = (1e-6, 50),
        *,
        capturable: bool = False,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
    ):
        implementation_options("Rprop", differentiable, foreach=foreach, capturable=capturable)
        if not 0.0 <= lr:
            raise ValueError(_errors.INVALID_LR.format(value=lr))
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(_errors.INVALID_ETAS.format(minus=etas[0], plus=etas[1]))
        defaults = dict(
            lr=lr,
            etas=etas,
            step_sizes=step_sizes,
            foreach=foreach,
            maximize=maximize,
            differentiable=differentiable,
            capturable=capturable,
        )
        super().__init__(params, defaults)

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            state["step"] = tensor(0.0)
            state["prev"] = zeros_like(p)
            state["step_size"] = full_like(p, group["lr"])
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        state["step"] += 1
        grad = -p.grad if group["maximize"] else p.grad
        prev, step_size = state["prev"], state["step_size"]
        sign = (grad * prev).sign()
        same, flipped = sign > 0, sign < 0
        factor = sign.masked_fill(same, etaplus).masked_fill(flipped, etaminus)
        factor = factor.masked_fill(sign == 0, 1)
        step_size.mul_(factor).clamp_(step_size_min, step_size_max)
        grad = grad.masked_fill(flipped, 0)
        p.sub_(grad.sign() * step_size)
        prev.copy_(grad)
