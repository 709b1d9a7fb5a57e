"""SparseAdam: lazy Adam for sparse gradients, and plain Adam for dense ones."""

from __future__ import annotations

import math

import numpy as np

from ..errors import optim as _errors
from ..recording.grad_mode import no_grad
from ..tensor import Tensor
from .adam import Adam
from .optimizer import PerParameterOptimizer, read_rows, sparse_grad_entries, write_rows


class SparseAdam(PerParameterOptimizer):
    """Lazy Adam (``torch.optim.SparseAdam``) that also takes dense gradients.

    With a sparse gradient g (e.g. from ``nn.Embedding(sparse=True)``), coalesced,
    only the rows present are touched, with PyTorch's SparseAdam formula; at step t
    of the parameter (every step on which it had a gradient, present rows or not)::

        m[rows] = m[rows] + (1 - beta1) * (g - m[rows])
        v[rows] = v[rows] + (1 - beta2) * (g**2 - v[rows])
        p[rows] = p[rows] - lr * sqrt(1 - beta2**t) / (1 - beta1**t) * m[rows] / (sqrt(v[rows]) + eps)

    Rows absent from the gradient keep their values and moments bit for bit (their
    moments do not decay, unlike dense Adam's). An empty gradient (nnz = 0) moves
    nothing but still counts as a step, as in PyTorch.

    With a dense gradient it is exactly :class:`Adam` (no weight decay), so one
    optimizer serves a model that mixes ``Embedding(sparse=True)`` with dense layers.
    This is a deliberate minigrad extension, not PyTorch's behaviour: PyTorch's
    SparseAdam raises "SparseAdam does not support dense gradients" and needs a second
    optimizer (code written for minigrad that relies on it needs that split in PyTorch). NB: the two PyTorch formulas differ in where ``eps``
    sits: dense Adam divides by ``sqrt(v) / sqrt(1 - beta2**t) + eps``, SparseAdam by
    ``(sqrt(v) + eps) / sqrt(1 - beta2**t)``; each path here is exact to its PyTorch
    counterpart. State per parameter, as :class:`Adam`: ``step``, ``exp_avg`` (m),
    ``exp_avg_sq`` (v).

    Args:
        params: parameters or param groups to optimize (dense tensors).
        lr: learning rate (> 0).
        betas: decay rates of the two running averages.
        eps: added to the denominator for numerical stability (> 0).
        maximize: ascend the objective instead of descending it.

    Example:
        >>> import numpy as np
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> emb, head = mg.nn.Embedding(1000, 8, sparse=True), mg.nn.Linear(8, 1)
        >>> opt = mg.optim.SparseAdam([*emb.parameters(), *head.parameters()], lr=0.01)
        >>> before = emb.weight.detach().numpy().copy()
        >>> head(emb(mg.tensor([4, 2, 4]))).sum().backward()
        >>> emb.weight.grad.layout, head.weight.grad.layout
        ('sparse_coo', 'strided')
        >>> opt.step()
        >>> np.flatnonzero((emb.weight.detach().numpy() != before).any(axis=1)).tolist()  # rows that moved
        [2, 4]
    """

    def __init__(
        self,
        params,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        maximize: bool = False,
    ):
        if not 0.0 < lr:
            raise ValueError(_errors.INVALID_LR.format(value=lr))
        if not 0.0 < eps:
            raise ValueError(_errors.INVALID_EPS.format(value=eps))
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(_errors.INVALID_BETA.format(value=beta, i=i))
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, maximize=maximize)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.layout != "strided":
                    self._accept_sparse_grad(p)  # raises: the parameter itself is sparse

    _on_sparse_grad = PerParameterOptimizer._accept_sparse_grad

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            adam_group = dict(group, weight_decay=0, amsgrad=False, decoupled_weight_decay=False)
            for p in self._params_with_grad(group):
                state = Adam._init_state(self, p, adam_group)
                if p.grad.layout == "strided":
                    Adam._update(self, p, adam_group, state)
                else:
                    self._sparse_update(p, group, state)
        return loss

    @staticmethod
    def _sparse_update(p: Tensor, group: dict, state: dict) -> None:
        (beta1, beta2), eps, lr = group["betas"], group["eps"], group["lr"]
        state["step"] += 1
        step = state["step"].item()
        where, g = sparse_grad_entries(p, group["maximize"])
        if g.shape[0] == 0:
            return
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        m = read_rows(exp_avg, where)  # PyTorch: m_old + (1 - beta1) * (g - m_old), same roundings
        m_update = (g - m) * (1 - beta1)
        m += m_update
        write_rows(exp_avg, where, m)
        v = read_rows(exp_avg_sq, where)
        v_update = (g * g - v) * (1 - beta2)
        v += v_update
        write_rows(exp_avg_sq, where, v)
        denom = np.sqrt(v)
        denom += eps
        step_size = lr * math.sqrt(1 - beta2**step) / (1 - beta1**step)
        m /= denom
        m *= -step_size
        rows = read_rows(p, where)
        rows += m
        write_rows(p, where, rows)
