"""Stochastic gradient descent, with momentum, Nesterov momentum and weight decay."""

from __future__ import annotations

from ..errors import optim as _errors
from ..factory import zeros_like
from ..recording.grad_mode import no_grad
from ..tensor import Tensor
from .optimizer import (
    Optimizer,
    implementation_options,
    in_pytorchs_order,
    read_rows,
    sparse_grad_entries,
    write_rows,
)


def check_non_negative(value, message: str) -> None:
    """PyTorch's hyper-parameter check: ValueError(message) for a negative value."""
    if not value >= 0.0:
        raise ValueError(message.format(value=value))


class SGD(Optimizer):
    """Stochastic gradient descent (``torch.optim.SGD``), PyTorch's exact update.

    For each parameter p with gradient g, at step t::

        g = -g if maximize
        g = g + weight_decay * p                                  (if weight_decay)
        b = g  (t = 1)   or   b = momentum * b + (1 - dampening) * g   (if momentum)
        g = g + momentum * b  (nesterov)   or   g = b
        p = p - lr * g

    Sparse gradients (e.g. from ``nn.Embedding(sparse=True)``) are coalesced (a row
    looked up twice gets the sum of its gradients) and only the rows present move:
    with no momentum and no weight decay that is exactly dense SGD. Momentum and
    weight decay are applied *lazily*, to the rows present only, like TensorFlow's
    lazy optimizers: a row absent from a batch neither decays nor coasts on its
    momentum, and its momentum buffer is left as it was. With ``dampening=0`` (the
    default) each row follows dense SGD on the steps where it is present; a row first
    seen after the parameter's first step starts its buffer at ``(1 - dampening) * g``.
    This differs from dense SGD on the same (densified) gradients, where every row
    decays and coasts at every step. PyTorch keeps a sparse momentum buffer that
    grows to every row ever seen (so every seen row keeps coasting: dense
    semantics at sparse cost) and raises "add(sparse, dense) is not supported" for
    weight decay with sparse gradients.

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        momentum: momentum factor (0 disables the buffer).
        dampening: dampening of the momentum.
        weight_decay: L2 penalty added to the gradient.
        nesterov: use Nesterov momentum (needs momentum > 0 and dampening 0).
        maximize: ascend the objective instead of descending it.
        foreach, fused: PyTorch's implementation switches; accepted, they change nothing.
        differentiable: only False (see :func:`implementation_options`).

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0]))
        >>> opt = mg.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> for _ in range(2):
        ...     opt.zero_grad()
        ...     (w ** 2).sum().backward()
        ...     opt.step()
        >>> w
        Parameter containing:
        tensor([ 0.4600, -0.9200], requires_grad=True)
    """

    def __init__(
        self,
        params,
        lr: float = 1e-3,
        momentum: float = 0,
        dampening: float = 0,
        weight_decay: float = 0,
        nesterov: bool = False,
        *,
        maximize: bool = False,
        foreach: bool | None = None,
        differentiable: bool = False,
        fused: bool | None = None,
    ):
        options = implementation_options("SGD", differentiable, foreach=foreach, fused=fused)
        check_non_negative(lr, _errors.INVALID_LR)
        check_non_negative(momentum, _errors.INVALID_MOMENTUM)
        check_non_negative(weight_decay, _errors.INVALID_WEIGHT_DECAY)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError(_errors.NESTEROV)
        defaults = dict(
            lr=lr,
            momentum=momentum,
            dampening=dampening,
            weight_decay=weight_decay,
            nesterov=nesterov,
            maximize=maximize,
        )
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr momentum dampening weight_decay nesterov maximize foreach differentiable fused",
        )
        super().__init__(params, defaults)

    _on_sparse_grad = Optimizer._accept_sparse_grad

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p in self._params_with_grad(group):
                if p.grad.layout == "strided":
                    self._update(p, group)
                else:
                    self._sparse_update(p, group)
        return loss

    def _sparse_update(self, p: Tensor, group: dict) -> None:
        """The rows present in the sparse gradient move; the others stay bit for bit."""
        where, g = sparse_grad_entries(p, group["maximize"])
        rows = read_rows(p, where)
        if group["weight_decay"] != 0:
            g += group["weight_decay"] * rows
        momentum = group["momentum"]
        if momentum != 0:
            buf = self.state[p].get("momentum_buffer")
            if buf is None:  # first step: the buffer is the gradient, as dense SGD
                buf = self.state[p]["momentum_buffer"] = zeros_like(p)
                b = g.copy()
            else:
                b = read_rows(buf, where)
                b *= momentum
                b += (1 - group["dampening"]) * g
            write_rows(buf, where, b)
            if group["nesterov"]:
                g += momentum * b
            else:
                g = b
        g *= group["lr"]
        rows -= g
        write_rows(p, where, rows)

    def _update(self, p: Tensor, group: dict) -> None:
        grad = -p.grad if group["maximize"] else p.grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        momentum = group["momentum"]
        if momentum != 0:
            state = self.state[p]
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = grad.detach().clone()
            else:
                buf.mul_(momentum).add_(grad, alpha=1 - group["dampening"])
            grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
        p.add_(grad, alpha=-group["lr"])
