"""Adagrad: per-entry step sizes that shrink with the sum of squared gradients seen so far."""

from __future__ import annotations

import numpy as np

from ..errors import optim as _errors
from ..factory import full_like, tensor, zeros_like
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
from .sgd import check_non_negative


class Adagrad(Optimizer):
    """Adagrad (``torch.optim.Adagrad``), PyTorch's exact update.

    For each parameter p with gradient g, at step t (counted from 1)::

        g = -g if maximize
        g = g + weight_decay * p                   (if weight_decay)
        clr = lr / (1 + (t - 1) * lr_decay)
        s = s + g * g                              (s starts at initial_accumulator_value)
        p = p - clr * g / (sqrt(s) + eps)

    State per parameter, created with the optimizer as in PyTorch: ``step`` (a 0-d
    float tensor) and ``sum`` (s).

    Sparse gradients (e.g. from ``nn.Embedding(sparse=True)``) follow PyTorch's sparse
    Adagrad: the gradient is coalesced, and ``sum`` and the parameter change only at the
    rows present; other rows stay bit for bit. ``t`` still counts every step of the
    parameter, so ``lr_decay`` decays with the parameter's steps, not the row's.
    Weight decay is applied lazily, to the rows present (PyTorch raises
    "weight_decay option is not compatible with sparse gradients").

    Args:
        params: parameters or param groups to optimize.
        lr: learning rate.
        lr_decay: learning-rate decay per step.
        weight_decay: L2 penalty added to the gradient.
        initial_accumulator_value: starting value of the sum of squares.
        eps: added to the denominator for numerical stability.
        maximize: ascend the objective instead of descending it.
        foreach, fused: PyTorch's implementation switches; accepted, they change nothing.
        differentiable: only False.

    Example:
        >>> import numpy as np
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> emb = mg.nn.Embedding(1000, 4, sparse=True)
        >>> opt = mg.optim.Adagrad(emb.parameters(), lr=0.1)
        >>> before = emb.weight.detach().numpy().copy()
        >>> emb(mg.tensor([3, 5, 3])).pow(2).sum().backward()
        >>> opt.step()
        >>> np.flatnonzero((emb.weight.detach().numpy() != before).any(axis=1)).tolist()  # rows that moved
        [3, 5]
    """

    def __init__(
        self,
        params,
        lr: float = 1e-2,
        lr_decay: float = 0,
        weight_decay: float = 0,
        initial_accumulator_value: float = 0,
        eps: float = 1e-10,
        foreach: bool | None = None,
        *,
        maximize: bool = False,
        differentiable: bool = False,
        fused: bool | None = None,
    ):
        options = implementation_options("Adagrad", differentiable, foreach=foreach, fused=fused)
        check_non_negative(lr, _errors.INVALID_LR)
        check_non_negative(lr_decay, _errors.INVALID_LR_DECAY)
        check_non_negative(weight_decay, _errors.INVALID_WEIGHT_DECAY)
        check_non_negative(initial_accumulator_value, _errors.INVALID_INITIAL_ACCUMULATOR)
        check_non_negative(eps, _errors.INVALID_EPS)
        defaults = dict(
            lr=lr,
            lr_decay=lr_decay,
            eps=eps,
            weight_decay=weight_decay,
            initial_accumulator_value=initial_accumulator_value,
            maximize=maximize,
        )
        defaults = in_pytorchs_order(
            dict(defaults, **options),
            "lr lr_decay eps weight_decay initial_accumulator_value foreach maximize differentiable fused",
        )
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self._init_state(p, group)

    _on_sparse_grad = Optimizer._accept_sparse_grad

    def _init_state(self, p: Tensor, group: dict) -> dict:
        state = self.state[p]
        if not state:
            init = group["initial_accumulator_value"]
            state["step"] = tensor(0.0)
            state["sum"] = zeros_like(p) if init == 0 else full_like(p, init)
        return state

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p in self._params_with_grad(group):
                state = self._init_state(p, group)
                state["step"] += 1
                step = state["step"].item()
                clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
                if p.grad.layout == "strided":
                    self._update(p, group, state["sum"], clr)
                else:
                    self._sparse_update(p, group, state["sum"], clr)
        return loss

    @staticmethod
    def _update(p: Tensor, group: dict, state_sum: Tensor, clr: float) -> None:
        grad = -p.grad if group["maximize"] else p.grad
        if group["weight_decay"] != 0:
            grad = grad.add(p, alpha=group["weight_decay"])
        state_sum.add_(grad * grad)
        std = state_sum.sqrt() + group["eps"]
        p.add_(grad / std, alpha=-clr)

    @staticmethod
    def _sparse_update(p: Tensor, group: dict, state_sum: Tensor, clr: float) -> None:
        where, g = sparse_grad_entries(p, group["maximize"])
        rows = read_rows(p, where)
        if group["weight_decay"] != 0:
            g += group["weight_decay"] * rows
        s = read_rows(state_sum, where)
        s += g * g
        write_rows(state_sum, where, s)
        std = np.sqrt(s)
        std += group["eps"]
        rows += -clr * (g / std)
        write_rows(p, where, rows)
