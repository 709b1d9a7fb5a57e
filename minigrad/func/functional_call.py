"""``functional_call``: run a Module with other parameters and buffers (``torch.func``).

A Module keeps its weights as state; the transforms (``grad``, ``vmap``, ``jacrev``)
differentiate functions of their *arguments*. ``functional_call(model, params, x)``
bridges the two: it puts the tensors of ``params`` in place of the module's own
(looked up by their dotted names, as ``named_parameters()`` gives them), calls
``model(x)`` and puts the module's own tensors back, also when the call raises.
So the loss becomes a function of the parameters::

    params = {k: v.detach() for k, v in model.named_parameters()}

    def loss(params, x, y):
        return mse_loss(functional_call(model, params, (x,)), y)

    mg.func.vmap(mg.func.grad(loss), in_dims=(None, 0, 0))(params, xs, ys)  # per-sample grads

NB: PyTorch swaps the tensors the same way (``torch.nn.utils._named_member_accessor``);
JAX's Flax and Equinox avoid the question by keeping parameters outside the module.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import contextmanager

from ..errors import func as errors
from ..nn.modules.module import Module, typename
from ..ops.select import stack
from ..tensor import Tensor


def functional_call(
    module: Module,
    parameter_and_buffer_dicts: Mapping | Sequence[Mapping],
    args=None,
    kwargs: dict | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
):
    """``module(*args, **kwargs)`` with its parameters and buffers replaced by the given ones.

    Args:
        module: the Module to call (its own tensors are untouched afterwards).
        parameter_and_buffer_dicts: ``{dotted name: Tensor}``, or a tuple/list of such
            dicts (e.g. ``(params, buffers)``; a name may appear in only one).
        args: the positional arguments: a tuple, or a single non-tuple argument.
        kwargs: the keyword arguments.
        tie_weights: a tensor registered under several names (weight tying) is replaced
            under all of them when one is given, as in the module itself.
        strict: the names must be exactly the module's parameters and buffers.

    Names the module does not have are set as plain attributes for the call (as in
    PyTorch); in-place changes to the given tensors stay in them.

    Example:
        >>> import minigrad as mg
        >>> layer = mg.nn.Linear(2, 1)
        >>> params = {"weight": mg.tensor([[1.0, 2.0]]), "bias": mg.tensor([0.5])}
        >>> mg.func.functional_call(layer, params, (mg.tensor([[3.0, 4.0]]),))
        tensor([[11.5000]])
        >>> grads = mg.func.grad(lambda p: mg.func.functional_call(layer, p, mg.ones(2)).sum())
        >>> grads(params)["weight"]
        tensor([[1., 1.]])
    """
    if not isinstance(module, Module):
        raise TypeError(errors.CALL_MODULE.format(got=typename(module)))
    given = _merge(parameter_and_buffer_dicts)
    if tie_weights:
        given = _untie(module, given)
    if strict:
        _check_strict(module, given)
    args = () if args is None else args if isinstance(args, tuple) else (args,)
    with _swapped(module, given):
        return module(*args, **(kwargs or {}))


def _merge(dicts) -> dict:
    """One ``{name: tensor}`` dict from a dict or a sequence of dicts (names unique)."""
    if isinstance(dicts, Mapping):
        dicts = (dicts,)
    if not isinstance(dicts, (tuple, list)) or not all(isinstance(d, Mapping) for d in dicts):
        raise ValueError(errors.CALL_DICTS)
    merged: dict = {}
    repeated = sorted({k for d in dicts for k in d if sum(k in e for e in dicts) > 1})
    if repeated:
        raise ValueError(errors.CALL_REPEATED.format(keys=repeated))
    for d in dicts:
        for name, value in d.items():
            if not isinstance(value, Tensor):
                raise TypeError(errors.CALL_NOT_TENSOR.format(name=name, got=typename(value)))
            merged[name] = value
    return merged


def _named_tensors(module: Module) -> list[tuple[str, Tensor]]:
    """Every (name, tensor) of the module, tied ones under each of their names."""
    params = module.named_parameters(remove_duplicate=False)
    return [*params, *module.named_buffers(remove_duplicate=False)]


def _untie(module: Module, given: dict) -> dict:
    """Add the other names of each tied tensor one of whose names is given."""
    names_of: dict[int, list[str]] = {}
    for name, tensor in _named_tensors(module):
        names_of.setdefault(id(tensor), []).append(name)
    untied = dict(given)
    for names in names_of.values():
        values = {id(given[n]): given[n] for n in names if n in given}
        if len(values) > 1:
            raise ValueError(errors.CALL_TIED.format(keys=sorted(n for n in names if n in given)))
        if values:
            value = next(iter(values.values()))
            untied.update((n, value) for n in names)
    return untied


def _check_strict(module: Module, given: dict) -> None:
    own = {name for name, _ in _named_tensors(module)}
    missing, unexpected = sorted(own - set(given)), sorted(set(given) - own)
    if missing or unexpected:
        lines = [f"Error(s) in reparametrizing for {type(module).__name__}:"]
        if missing:
            lines.append("\tMissing key(s): " + ", ".join(f"'{k}'" for k in missing) + ".")
        if unexpected:
            lines.append("\tUnexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + ".")
        raise RuntimeError("\n".join(lines))


@contextmanager
def _swapped(module: Module, given: dict):
    """Put ``given`` in place of the module's tensors; restore them on the way out."""
    undo = []
    try:
        for name, value in given.items():
            undo.append(_swap(module, name, value))
        yield
    finally:
        for restore in reversed(undo):
            restore()


def _swap(module: Module, dotted: str, value: Tensor):
    """Replace one tensor (``"layer.0.weight"``); returns the function that undoes it."""
    *path, name = dotted.split(".")
    owner = module
    for part in path:
        child = owner._modules.get(part)
        if child is None:
            raise AttributeError(
                errors.CALL_NO_SUBMODULE.format(cls=type(owner).__name__, name=part)
            )
        owner = child
    for registry in (owner._parameters, owner._buffers):
        if name in registry:
            old = registry[name]
            registry[name] = value

            def restore(registry=registry, old=old):
                registry[name] = old

            return restore
    missing = object()
    old = owner.__dict__.get(name, missing)
    object.__setattr__(owner, name, value)  # a name the module lacks: a plain attribute

    def restore_attribute():
        if old is missing:
            object.__delattr__(owner, name)
        else:
            object.__setattr__(owner, name, old)

    return restore_attribute


def stack_module_state(models) -> tuple[dict, dict]:
    """The parameters and buffers of ``models`` (modules of one class), each stacked along
    a new first dim: ``(params, buffers)``, two ``{dotted name: Tensor}`` dicts
    (``torch.func.stack_module_state``).

    With ``functional_call`` and ``vmap`` this runs an ensemble of models at once:
    ``vmap(lambda p, b, x: functional_call(base, (p, b), (x,)))(params, buffers, xs)``.
    Stacked parameters are new leaves that require grad when every model's does (a
    parameter that requires grad in some models only is refused); buffers never do.

    Raises:
        RuntimeError: no models, models of different classes or in different
            training/eval modes, or a parameter whose ``requires_grad`` differs.

    Example:
        >>> import minigrad as mg
        >>> params, buffers = mg.func.stack_module_state([mg.nn.Linear(3, 2) for _ in range(4)])
        >>> params["weight"].shape, params["weight"].is_leaf, buffers
        (minigrad.Size([4, 2, 3]), True, {})
    """
    models = list(models)
    if not models:
        raise RuntimeError(errors.STACK_NO_MODELS)
    if len({type(m) for m in models}) > 1:
        raise RuntimeError(errors.STACK_CLASSES)
    if len({m.training for m in models}) > 1:
        raise RuntimeError(errors.STACK_MODES)
    per_model = [dict(m.named_parameters()) for m in models]
    params = {}
    for name in per_model[0]:
        tensors = [p[name] for p in per_model]
        wants = {t.requires_grad for t in tensors}
        if len(wants) > 1:
            raise RuntimeError(errors.STACK_REQUIRES_GRAD.format(name=name))
        params[name] = stack([t.detach() for t in tensors]).requires_grad_(wants.pop())
    buffers = [dict(m.named_buffers()) for m in models]
    return params, {name: stack([b[name] for b in buffers]) for name in buffers[0]}
