"""``Optimizer``: the base class that holds parameters, options and per-parameter state.

As in ``torch.optim``: parameters come in *param groups* (dicts with a
``"params"`` list plus options such as ``"lr"``; options missing from a group
are filled from the optimizer's defaults), and ``state[p]`` holds what an
algorithm remembers between steps (momentum buffers, Adam's moments).
Subclasses implement ``step()``; it runs under ``no_grad`` and updates the
parameters in place, so the Parameter objects a model holds stay the same.
"""

from __future__ import annotations

import copy
import functools
import itertools
import warnings
from collections import defaultdict

import numpy as np

from ..errors import optim as _errors
from ..errors import sparse_grad as _sparse_errors
from ..nn.utils._grads import zero_grads
from ..recording.grad_mode import enable_grad, no_grad
from ..tensor import Tensor, typename


class Optimizer:
    """Base class of all optimizers (``torch.optim.Optimizer``).

    Args:
        params: an iterable of Tensors, of ``(name, Tensor)`` pairs (as
            ``model.named_parameters()`` gives), or of dicts defining param groups.
        defaults: the default value of each option, for groups that omit it.
    """

    def __init_subclass__(cls, **kwargs):
        """Each subclass's ``step`` leaves a mark when it runs (``self._opt_called``): a
        learning-rate scheduler reads it to warn when it is stepped before its optimizer.
        NB: PyTorch gets the same mark by patching ``optimizer.step`` on the instance."""
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__:
            cls.step = _noting_calls(cls.__dict__["step"])

    def __init__(self, params, defaults: dict):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError(_errors.PARAMS_TENSOR.format(got=typename(params)))
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict] = []
        groups = list(params)
        if not groups:
            raise ValueError(_errors.EMPTY_PARAMS)
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def __repr__(self) -> str:
        lines = [type(self).__name__ + " ("]
        for i, group in enumerate(self.param_groups):
            lines += [""] if i else []  # PyTorch: a blank line between groups
            lines.append(f"Parameter Group {i}")
            lines += [f"    {k}: {group[k]}" for k in sorted(group) if k != "params"]
        return "\n".join(lines) + "\n)"

    # --- param groups -------------------------------------------------------------------
    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own options (e.g. a smaller ``lr``).

        Raises:
            TypeError: for a set of params or a param that is not a Tensor.
            ValueError: for a non-leaf Tensor, or a param already in another group.
        """
        if not isinstance(param_group, dict):
            raise TypeError(_errors.GROUP_NOT_DICT.format(got=type(param_group).__name__))
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError(_errors.PARAMS_SET)
        param_group["params"], names = _split_names(list(params))
        if names is not None:
            param_group["param_names"] = names
        for p in param_group["params"]:
            if not isinstance(p, Tensor):
                raise TypeError(_errors.NOT_A_TENSOR.format(got=typename(p)))
            if not (p.is_leaf or p.retains_grad):
                raise ValueError(_errors.NON_LEAF)
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        self._check_overlap(param_group)
        self.param_groups.append(param_group)

    def _check_overlap(self, param_group: dict) -> None:
        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn(_errors.DUPLICATE_PARAMS, UserWarning, stacklevel=4)
        seen = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in group) != ("param_names" in param_group):
                raise ValueError(_errors.GROUP_NAMES_MIXED)
        if not seen.isdisjoint(params):
            raise ValueError(_errors.OVERLAPPING_GROUPS)

    # --- stepping -------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized parameters (to None by default)."""
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure=None):
        """Update the parameters once from their ``.grad``; subclasses implement it."""
        raise NotImplementedError(f"{type(self).__name__} does not implement step()")

    @staticmethod
    def _closure_loss(closure):
        """Re-evaluate the model with grad enabled (``closure`` returns the loss), if given."""
        if closure is None:
            return None
        with enable_grad():
            return closure()

    def _params_with_grad(self, group: dict) -> list[Tensor]:
        """The group's parameters that have a gradient (the others are skipped, as PyTorch)."""
        params = []
        for p in group["params"]:
            if p.grad is None:
                continue
            if p.grad.is_sparse or p.grad.layout != "strided":  # COO as PyTorch; CSR/CSC too
                self._on_sparse_grad(p)
            params.append(p)
        return params

    def _on_sparse_grad(self, p: Tensor) -> None:
        """Hook for a parameter whose gradient is sparse.

        Dense optimizers refuse such gradients here; optimizers that handle
        them (e.g. a SparseAdam) override this to accept them.
        """
        raise RuntimeError(_errors.SPARSE_UNSUPPORTED.format(name=type(self).__name__))

    def _accept_sparse_grad(self, p: Tensor) -> None:
        """``_on_sparse_grad`` of optimizers that update rows lazily: the parameter
        itself must be dense (its gradient may be sparse)."""
        if p.layout != "strided":
            params = [q for group in self.param_groups for q in group["params"]]
            i = next(i for i, q in enumerate(params) if q is p)
            name = type(self).__name__
            raise ValueError(_sparse_errors.SPARSE_PARAM.format(name=name, i=i, layout=p.layout))

    # --- saving and loading ---------------------------------------------------------------
    def state_dict(self) -> dict:
        """``{"state": {index: per-param state}, "param_groups": [options + param indices]}``.

        Parameters are replaced by their position across all groups, so the dict
        can be loaded into an optimizer over other Parameter objects of the
        same shapes (the state tensors are shared, not copied, as in PyTorch).
        """
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for p in group["params"]:
                index.setdefault(id(p), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)] if isinstance(p, Tensor) else p: s for p, s in self.state.items()}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict) -> None:
        """Load options and state saved by :meth:`state_dict` (tensors are copied in)."""
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError(_errors.LOAD_GROUP_COUNT)
        if any(
            len(g["params"]) != len(s["params"]) for g, s in zip(self.param_groups, saved_groups)
        ):
            raise ValueError(_errors.LOAD_GROUP_SIZE)
        id_map = dict(
            zip(
                itertools.chain.from_iterable(s["params"] for s in saved_groups),
                itertools.chain.from_iterable(g["params"] for g in self.param_groups),
            )
        )
        state: defaultdict = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                p = id_map[key]
                state[p] = {k: _cast_state(p, k, v) for k, v in value.items()}
            else:
                state[key] = value
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.state = state
        self.param_groups = saved_groups


def _noting_calls(step):
    """``step`` that first sets ``self._opt_called = True`` (see ``__init_subclass__``)."""

    @functools.wraps(step)
    def step_and_note(self, *args, **kwargs):
        self._opt_called = True
        return step(self, *args, **kwargs)

    return step_and_note


def implementation_options(name: str, differentiable: bool = False, **switches) -> dict:
    """PyTorch's implementation switches (``foreach``, ``fused``, ``capturable``), accepted so
    its code runs: minigrad has one implementation, a loop over the parameters under
    ``no_grad``, and they change nothing. ``differentiable=True`` (autograd through
    ``step()``) is refused rather than ignored. Returns them with ``differentiable``: they
    are in each param group, as in PyTorch (``print(optimizer)`` lists them)."""
    if differentiable:
        raise RuntimeError(_errors.DIFFERENTIABLE.format(name=name))
    return dict(switches, differentiable=differentiable)


def in_pytorchs_order(defaults: dict, keys: str) -> dict:
    """``defaults`` with its keys in PyTorch's order (space-separated ``keys``, all of them),
    so that ``optimizer.state_dict()["param_groups"]`` prints as PyTorch's."""
    order = keys.split()
    assert sorted(order) == sorted(defaults), (order, sorted(defaults))
    return {k: defaults[k] for k in order}


def sparse_grad_entries(p: Tensor, maximize: bool = False) -> tuple[tuple, np.ndarray]:
    """Where ``p``'s sparse gradient touches ``p``, and its values there (duplicates summed).

    Returns ``(where, values)``: ``p._data[where]`` are the touched entries (the
    looked-up rows of an embedding table, shape ``(nnz, *dense)``) and ``values``
    a fresh array of the same shape (negated with ``maximize``), safe to modify.
    Coalescing first matters: updates like Adam's are not linear in the gradient,
    so a row looked up twice must see the sum of its two gradients once.
    """
    fmt = p.grad._data
    coo = fmt if fmt.layout == "sparse_coo" else fmt.to_coo()
    c = coo.coalesce()
    values = -c.values if maximize else (c.values if c is not coo else c.values.copy())
    return tuple(c.indices), values


def read_rows(t: Tensor, where: tuple) -> np.ndarray:
    """A copy of ``t._data[where]`` (``np.take`` for rows: several times faster than ``[]``)."""
    if len(where) == 1:
        return np.take(t._data, where[0], axis=0)
    return t._data[where]


def write_rows(t: Tensor, where: tuple, values: np.ndarray) -> None:
    """``t._data[where] = values`` in place, as an optimizer step does (bumps the version).

    Whole rows of a C-ordered table are copied as one opaque item each (a ``np.void``
    view: one memcpy per row instead of one assignment per element). NB: writing
    through ``t[where] = ...`` would record a CopySlices of the whole table;
    optimizers step under ``no_grad`` on the numpy array, as PyTorch's
    ``index_put_`` does on its storage.
    """
    data = t._data
    row_bytes = data.itemsize * (data.size // data.shape[0]) if data.ndim > 1 and data.size else 0
    if len(where) == 1 and row_bytes and data.flags.c_contiguous and values.dtype == data.dtype:
        row = np.dtype((np.void, row_bytes))
        data.view(row).reshape(-1)[where[0]] = np.ascontiguousarray(values).view(row).reshape(-1)
    else:
        data[where] = values
    t._bump_version()


def _split_names(params: list):
    """Separate ``(name, tensor)`` pairs into tensors and names (None when unnamed)."""
    names = [p[0] for p in params if isinstance(p, tuple)]
    if not names:
        return params, None
    if len(names) != len(params):
        raise ValueError(_errors.NAMES_MIXED)
    return [p[1] for p in params], names


def _cast_state(param: Tensor, key, value):
    """A copy of one saved state value; tensors take the parameter's dtype (not ``step``)."""
    if not isinstance(value, Tensor):
        return copy.deepcopy(value)
    value = value.detach()
    if key != "step" and param.is_floating_point():
        value = value.to(param.dtype)
    return value.clone()


class PerParameterOptimizer(Optimizer):
    """An optimizer whose ``step`` updates each parameter on its own (Adam, RMSprop, ...).

    A subclass defines ``_init_state(p, group)``, the state a parameter gets on first use,
    and ``_update(p, group, state)``, the update itself, which starts from
    :meth:`_gradient`.
    """

    @no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; returns ``closure()``'s loss."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p in self._params_with_grad(group):
                self._update(p, group, self._init_state(p, group))
        return loss

    @staticmethod
    def _gradient(p: Tensor, group: dict, state: dict) -> Tensor:
        """Count the step in ``state["step"]`` and return the gradient the update uses: negated
        with ``maximize``, then with weight decay: the L2 term g + weight_decay * p, or with
        ``decoupled_weight_decay`` (AdamW's way) p shrunk in place, p = p * (1 - lr *
        weight_decay), and g unchanged."""
        state["step"] += 1
        grad = -p.grad if group["maximize"] else p.grad
        wd = group["weight_decay"]
        if wd == 0:
            return grad
        if group.get("decoupled_weight_decay", False):
            p.mul_(1 - group["lr"] * wd)
            return grad
        return grad.add(p, alpha=wd)
