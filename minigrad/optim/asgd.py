"""ASGD: averaged stochastic gradient descent (Polyak & Juditsky 1992)."""

from __future__ import annotations

from ..errors import optim as _errors
from ..factory import ones, tensor, zeros_like
from ..tensor import Tensor
from .optimizer import PerParameterOptimizer, implementation_options


class ASGD(PerParameterOptimizer):
    """Averaged SGD (``torch.optim.ASGD``), PyTorch's exact update.

    SGD with a step size eta that decays with the step count t, plus a running average
    ``ax`` of the iterates (read it for the averaged model; the parameters themselves follow
    plain SGD). For each parameter p with gradient g::

        g = -g if maximize
        g = g + weight_decay * p                   (if weight_decay)
        p = p * (1 - lambd * eta)                  (decay)
        p = p - eta * g
        ax = p  if mu == 1,  else  ax + mu * (p - ax)
        eta = lr / (1 + lambd * lr * t) ** alpha
        mu = 1 / max(1, t - t0)

    so averaging starts after step ``t0``. State per parameter: ``step``, ``eta`` and ``mu``
    (0-d float tensors) and ``ax``. Sparse gradients are refused, as in PyTorch.

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        lambd: decay term.
        alpha: power of the step-size decay.
        t0: the step at which averaging starts.
        weight_decay: L2 penalty added to the gradient.
        foreach, capturable: PyTorch's implementation switches; accepted, they change
            nothing. differentiable: only False.
        maximize: ascend the objective instead of descending it.

    Raises:
        ValueError: for a negative lr or weight_decay.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
        >>> opt = mg.optim.ASGD([w], lr=0.1)
        >>> (w ** 2).sum().backward()
        >>> _ = opt.step()
        >>> w, opt.state[w]["ax"]
        (Parameter containing:
        tensor([ 0.8000, -1.6000], requires_grad=True), tensor([ 0.8000, -1.6000]))
    """

    def __init__(
        self,
        params,
        lr: float = 1e-2,
        lambd: float = 1e-4,
        alpha: float = 0.75,
        t0: float = 1e6,
        weight_decay: float = 0,
        foreach: bool | None = None,
        maximize: bool = False,
        differentiable: bool = False,
        capturable: bool = False,
    ):
        implementation_options("ASGD", differentiable, foreach=foreach, capturable=capturable)
        if not 0.0 <= lr:
            raise ValueError(_errors.INVALID_LR.format(value=lr))
        if not 0.0 <= weight_decay:
            raise ValueError(_errors.INVALID_WEIGHT_DECAY.format(value=weight_decay))
        defaults = dict(
            lr=lr,
            lambd=lambd,
            alpha=alpha,
            t0=t0,
            weight_decay=weight_decay,
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
            state["eta"] = tensor(float(group["lr"]))
            state["mu"] = ones(())
            state["ax"] = zeros_like(p)
        return state

    def _update(self, p: Tensor, group: dict, state: dict) -> None:
        lr, lambd = group["lr"], group["lambd"]
        grad = self._gradient(p, group, state)  # counts the step, maximize, weight decay
        eta, mu, ax = state["eta"].item(), state["mu"], state["ax"]
        p.mul_(1 - lambd * eta)
        p.add_(grad, alpha=-eta)
        if mu.item() != 1:
            ax.add_((p - ax).mul_(mu))
        else:
            ax.copy_(p)
        step = state["step"].item()
        # eta and mu are computed in float64 and stored rounded to the state's float32
        state["eta"].fill_(lr / ((1 + lambd * lr * step) ** group["alpha"]))
        mu.fill_(1 / max(1, step - group["t0"]))
