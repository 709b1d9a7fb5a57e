"""L-BFGS: a quasi-Newton method that needs a closure (it evaluates the loss several times
per ``step``)."""

from __future__ import annotations

from ..errors import optim as _errors
from ..ops.select import cat
from ..recording.grad_mode import enable_grad, no_grad
from ..tensor import Tensor
from ._line_search import strong_wolfe
from .optimizer import Optimizer


class LBFGS(Optimizer):
    """Limited-memory BFGS (``torch.optim.LBFGS``), PyTorch's algorithm step for step.

    All parameters are treated as one flat vector x. Each iteration turns the gradient g into
    a direction d = -H g, where H approximates the inverse Hessian from the last
    ``history_size`` pairs (s = step taken, y = change of gradient) by the *two-loop
    recursion* (Nocedal & Wright, Algorithm 7.4), scaled by H_diag = s.y / y.y of the newest
    pair; a pair with s.y <= 1e-10 is skipped. Then x moves by t d: t = lr (the first
    iteration ever: min(1, 1 / sum|g|) * lr), or, with ``line_search_fn='strong_wolfe'``,
    the step a strong-Wolfe line search finds (``minigrad/optim/_line_search.py``).

    One ``step(closure)`` runs up to ``max_iter`` iterations and ``max_eval`` closure calls,
    and stops early when ``max|g| <= tolerance_grad``, when the step or the change of the
    loss is below ``tolerance_change``, or when d is not a descent direction. The history
    is kept in ``state`` (of the first parameter, as PyTorch) from one step to the next.
    ``step`` returns the loss of the first closure call. Parameters without a gradient count
    as zero gradients; sparse gradients are densified, as PyTorch does.

    Args:
        params: the parameters (one group only).
        lr: learning rate (the step along d without line search).
        max_iter: iterations per ``step``.
        max_eval: closure evaluations per ``step`` (default ``max_iter * 5 // 4``).
        tolerance_grad: stop when the largest gradient entry is at most this.
        tolerance_change: stop when the step or the loss changes less than this.
        history_size: how many (s, y) pairs to remember.
        line_search_fn: None or ``'strong_wolfe'``.

    Raises:
        ValueError: for a negative lr, or more than one param group.
        RuntimeError: at ``step``, for a line_search_fn other than None and 'strong_wolfe'.

    Example:
        >>> import minigrad as mg
        >>> w = mg.nn.Parameter(mg.tensor([1.0, -2.0], dtype=mg.float64))
        >>> opt = mg.optim.LBFGS([w], line_search_fn="strong_wolfe")
        >>> def closure():
        ...     opt.zero_grad()
        ...     loss = ((w - 3) ** 2).sum()
        ...     loss.backward()
        ...     return loss
        >>> float(opt.step(closure))      # the loss before the step
        29.0
        >>> [round(v, 6) for v in w.tolist()]
        [3.0, 3.0]
    """

    def __init__(
        self,
        params,
        lr: float = 1,
        max_iter: int = 20,
        max_eval: int | None = None,
        tolerance_grad: float = 1e-7,
        tolerance_change: float = 1e-9,
        history_size: int = 100,
        line_search_fn: str | None = None,
    ):
        if not 0.0 <= lr:
            raise ValueError(_errors.INVALID_LR.format(value=lr))
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        defaults = dict(
            lr=lr,
            max_iter=max_iter,
            max_eval=max_eval,
            tolerance_grad=tolerance_grad,
            tolerance_change=tolerance_change,
            history_size=history_size,
            line_search_fn=line_search_fn,
        )
        super().__init__(params, defaults)
        if len(self.param_groups) != 1:
            raise ValueError(_errors.LBFGS_GROUPS)
        self._params = self.param_groups[0]["params"]

    # --- the parameters as one flat vector -------------------------------------------------
    def _flat_grad(self) -> Tensor:
        views = []
        for p in self._params:
            if p.grad is None:
                views.append(p.new_zeros(p.numel()))
            elif p.grad.layout != "strided":
                views.append(p.grad.to_dense().reshape(-1))
            else:
                views.append(p.grad.reshape(-1))  # (a gradient may be a transposed view here)
        return cat(views, 0)

    def _move(self, t, d: Tensor) -> None:
        """x += t d, parameter by parameter."""
        offset = 0
        for p in self._params:
            n = p.numel()
            p.add_(d[offset : offset + n].view_as(p), alpha=float(t))
            offset += n

    def _evaluate_at(self, closure, x: list[Tensor], t, d: Tensor):
        """Loss and flat gradient at x + t d; the parameters are put back to x after."""
        self._move(t, d)
        loss = float(closure())
        flat_grad = self._flat_grad()
        for p, saved in zip(self._params, x, strict=True):
            p.copy_(saved)
        return loss, flat_grad

    # --- one step ----------------------------------------------------------------------------
    @no_grad()
    def step(self, closure):
        """Run up to ``max_iter`` L-BFGS iterations; ``closure`` zeroes the gradients, computes
        the loss, calls ``backward()`` and returns the loss. Returns its first loss."""
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        history_size = group["history_size"]

        def evaluate():
            with enable_grad():
                return closure()

        state = self.state[self._params[0]]
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = evaluate()
        loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:  # already optimal
            return orig_loss

        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        H_diag = state.get("H_diag")  # noqa: N806 (PyTorch's name)
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")

        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:  # the very first iteration: steepest descent
                d = flat_grad.neg()
                old_dirs, old_stps, ro, H_diag = [], [], [], 1  # noqa: N806
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:  # keep the pair only if the curvature is positive
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)  # noqa: N806
                if "al" not in state:
                    state["al"] = [None] * history_size
                d = _two_loop(flat_grad, old_dirs, old_stps, ro, H_diag, state["al"])

            if prev_flat_grad is None:
                prev_flat_grad = flat_grad.clone()
            else:
                prev_flat_grad.copy_(flat_grad)
            prev_loss = loss
            t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            gtd = flat_grad.dot(d)
            if gtd > -tolerance_change:  # not a descent direction
                break

            ls_evals = 0
            if group["line_search_fn"] is not None:
                if group["line_search_fn"] != "strong_wolfe":
                    raise RuntimeError(_errors.LBFGS_LINE_SEARCH)
                x_init = [p.clone() for p in self._params]

                def along_d(x, step, direction):
                    return self._evaluate_at(evaluate, x, step, direction)

                loss, flat_grad, t, ls_evals = strong_wolfe(
                    along_d, x_init, t, d, loss, flat_grad, gtd, max_ls=max_eval - evals
                )
                self._move(t, d)
                optimal = flat_grad.abs().max() <= tolerance_grad
            else:
                self._move(t, d)
                optimal = False
                if n_iter != max_iter:  # re-evaluate, unless this was the last iteration
                    loss = float(evaluate())
                    flat_grad = self._flat_grad()
                    optimal = flat_grad.abs().max() <= tolerance_grad
                    ls_evals = 1
            evals += ls_evals
            state["func_evals"] += ls_evals

            if n_iter == max_iter or evals >= max_eval or optimal:
                break
            if d.mul(t).abs().max() <= tolerance_change:  # the step was tiny
                break
            if abs(loss - prev_loss) < tolerance_change:  # the loss hardly changed
                break

        state["d"], state["t"] = d, t
        state["old_dirs"], state["old_stps"], state["ro"] = old_dirs, old_stps, ro
        state["H_diag"] = H_diag
        state["prev_flat_grad"], state["prev_loss"] = prev_flat_grad, prev_loss
        return orig_loss


def _two_loop(flat_grad: Tensor, old_dirs, old_stps, ro, H_diag, al: list) -> Tensor:  # noqa: N803
    """d = -H g by the two-loop recursion over the stored pairs (newest first, then oldest
    first); ``al`` is a scratch list kept in the state, as PyTorch's."""
    q = flat_grad.neg()
    for i in range(len(old_dirs) - 1, -1, -1):
        al[i] = old_stps[i].dot(q) * ro[i]
        q.add_(old_dirs[i], alpha=float(-al[i]))
    r = q * H_diag
    for i in range(len(old_dirs)):
        be_i = old_dirs[i].dot(r) * ro[i]
        r.add_(old_stps[i], alpha=float(al[i] - be_i))
    return r
