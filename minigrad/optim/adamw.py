"""AdamW: Adam with decoupled weight decay (Loshchilov & Hutter)."""

from __future__ import annotations

from .adam import Adam


class AdamW(Adam):
    """Adam whose weight decay shrinks the weights directly (``torch.optim.AdamW``).

    Each step first does p = p * (1 - lr * weight_decay), then the Adam update
    with the raw gradient; see :class:`Adam` for the formulas. The default
    ``weight_decay`` is 1e-2. Sparse gradients raise Adam's error, as in PyTorch
    (use :class:`SparseAdam` for them).
    """

    def __init__(
        self,
        params,
        lr: float = 1e-3,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        maximize: bool = False,
        **options,
    ):
        super().__init__(
            params,
            lr,
            betas,
            eps,
            weight_decay,
            amsgrad,
            maximize=maximize,
            decoupled_weight_decay=True,
            **options,  # foreach, capturable, differentiable, fused: see Adam
        )

    def load_state_dict(self, state_dict: dict) -> None:
        """As :meth:`Optimizer.load_state_dict`; the weight decay stays decoupled."""
        super().load_state_dict(state_dict)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
