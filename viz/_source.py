"""Where a graph comes from: minigrad (``minigrad.trace``) or PyTorch (``viz._torch_graph``).

Every viz entry point that takes tensors goes through :func:`roots_of` (which library, and the
tensors as a tuple) and :func:`param_names` (``params=``: the names of the leaves). The
torch modules are imported only when a torch tensor is given, and they never import torch.

``params=`` names leaves in the drawing, the text and the stepper, for both libraries. It
takes a dict ``name -> tensor``, ``(name, tensor)`` pairs, or a module, whose
``named_parameters()`` give the names (``params=model``: "0.weight", "2.bias", as PyTorch
prints them). viz does not search for
modules by itself: a graph does not record which module a parameter belongs to, and guessing
from the caller's variables would name the same graph differently in different places. A
minigrad leaf that has a ``.name`` keeps it unless ``params`` names it.
"""

from __future__ import annotations

from minigrad import Tensor

from . import _errors as errors


def _kind(x) -> str | None:
    if isinstance(x, Tensor):
        return "minigrad"
    from ._torch_graph import is_torch_tensor

    return "torch" if is_torch_tensor(x) else None


def _type_text(x) -> str:
    """``a torch.Tensor``, ``a numpy.ndarray``, ``a str`` (the library says which Tensor)."""
    t = type(x)
    module = t.__module__.split(".")[0]
    name = ("" if module == "builtins" else module + ".") + t.__qualname__
    return ("an " if name[0] in "aeiou" else "a ") + name


def roots_of(root, fn: str) -> tuple:
    """``(library, roots)``: ``"minigrad"`` or ``"torch"``, and ``root`` as a tuple."""
    roots = tuple(root) if isinstance(root, (tuple, list)) else (root,)
    kinds = []
    for r in roots:
        kind = _kind(r)
        if kind is None:
            raise TypeError(errors.NOT_A_TENSOR.format(fn=fn, got=_type_text(r)))
        kinds.append(kind)
    if len(set(kinds)) > 1:
        got = ", ".join(sorted({_type_text(r) for r in roots}))
        raise TypeError(errors.MIXED_ROOTS.format(fn=fn, got=got))
    return (kinds[0] if kinds else "minigrad"), roots


def param_names(params, fn: str) -> dict:
    """``id(tensor) -> name`` from ``params=`` (None: no names)."""
    if params is None:
        return {}
    if hasattr(params, "named_parameters"):
        pairs = list(params.named_parameters())
    elif isinstance(params, dict):
        pairs = list(params.items())
    elif hasattr(params, "__iter__") and _kind(params) is None and not isinstance(params, str):
        pairs = list(params)  # e.g. model.named_parameters() itself
    else:
        raise TypeError(errors.BAD_PARAMS.format(fn=fn, got=_type_text(params)))
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            got = f"an entry {pair!r:.40} ({_type_text(pair)}, not a (name, tensor) pair)"
            raise TypeError(errors.BAD_PARAMS.format(fn=fn, got=got))
        name, t = pair
        if not isinstance(name, str) or _kind(t) is None:
            got = f"an entry {name!r}: {_type_text(t)}"
            raise TypeError(errors.BAD_PARAMS.format(fn=fn, got=got))
    return {id(t): name for name, t in pairs}


def graph_of(root, fn: str, names: dict):
    """The graph behind ``root`` (minigrad's :class:`trace.Graph` or a ``TorchGraph``)."""
    kind, roots = roots_of(root, fn)
    if kind == "torch":
        from ._torch_graph import TorchGraph

        return TorchGraph(roots, names)
    from minigrad import trace

    return trace.graph(*roots)
