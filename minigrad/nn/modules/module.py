"""``Module``: the base class of layers and models (``torch.nn.Module``).

A Module keeps three ordered registries, filled by plain attribute assignment:
``_parameters`` (Parameters), ``_buffers`` (Tensors saved with the model but
not trained, e.g. a loss's class weights) and ``_modules`` (child Modules).
Everything else (``parameters()``, ``state_dict()``, ``train()``, ``repr``)
walks those registries, so ``self.fc = Linear(2, 3)`` in ``__init__`` is all a
model needs to declare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...errors import nn as _errors
from ...tensor import Tensor, typename
from ..parameter import Parameter
from ..utils._grads import zero_grads
from . import _hooks as _hook_calls
from ._cast import CastMixin
from ._hooks import register_module_forward_hook, register_module_forward_pre_hook  # noqa: F401  (PyTorch's names here)
from ._lookup import LookupMixin
from ._state import StateDictMixin


class Module(StateDictMixin, CastMixin, LookupMixin, _hook_calls.HooksMixin):
    """Base class for all neural-network modules (``torch.nn.Module``).

    Subclasses call ``super().__init__()`` first, assign their Parameters and
    sub-Modules as attributes, and define ``forward``. Calling the module calls
    ``forward``.

    Example:
        >>> import minigrad as mg
        >>> class Affine(mg.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.scale = mg.nn.Parameter(mg.tensor(2.0))
        ...     def forward(self, x):
        ...         return self.scale * x
        >>> m = Affine()
        >>> m(mg.tensor([1.0, 3.0]))
        tensor([2., 6.], grad_fn=<MulBackward0>)
        >>> [name for name, _ in m.named_parameters()]
        ['scale']
    """

    training: bool
    _hooks = None  # a ModuleHooks once a hook is registered (_hooks.py)

    def __init__(self) -> None:
        set_ = super().__setattr__
        set_("training", True)
        set_("_parameters", {})
        set_("_buffers", {})
        set_("_non_persistent_buffers_set", set())
        set_("_modules", {})

    def forward(self, *args, **kwargs):
        """The computation of the module; every subclass defines it."""
        raise NotImplementedError(_errors.NO_FORWARD.format(name=type(self).__name__))

    def __call__(self, *args, **kwargs):
        if self._hooks is None and not _hook_calls.any_global:  # no hooks: forward at once
            return self.forward(*args, **kwargs)
        return _hook_calls.call_with_hooks(self, args, kwargs)

    # --- registration -----------------------------------------------------------------
    def _check_name(self, name, what: str, registry: str) -> None:
        if registry not in self.__dict__:
            raise AttributeError(_errors.BEFORE_INIT.format(what=what))
        if not isinstance(name, str):
            raise TypeError(_errors.NAME_NOT_STR.format(what=what, got=typename(name)))
        if "." in name:
            raise KeyError(_errors.NAME_DOT.format(what=what, name=name))
        if name == "":
            raise KeyError(_errors.NAME_EMPTY.format(what=what))
        if hasattr(self, name) and name not in self.__dict__[registry]:
            raise KeyError(_errors.NAME_EXISTS.format(name=name))

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a Parameter (or None, a declared-but-absent one) under ``name``."""
        self._check_name(name, "parameter", "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(_errors.NOT_A_PARAMETER.format(got=typename(param), name=name))
        if param is not None and param.grad_fn is not None:
            raise ValueError(_errors.NON_LEAF_PARAMETER.format(name=name))
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a Tensor that is part of the module's state but not trained."""
        self._check_name(name, "buffer", "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(_errors.NOT_A_BUFFER.format(got=typename(tensor), name=name))
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module under ``name`` (same as assigning ``self.name = module``)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(_errors.NOT_A_MODULE.format(got=typename(module)))
        self._check_name(name, "module", "_modules")
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name: str, value) -> None:
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError(_errors.BEFORE_INIT.format(what="parameters"))
            self._forget(name, self.__dict__, buffers, modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(_errors.ASSIGN_PARAMETER.format(got=typename(value), name=name))
            params[name] = None
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError(_errors.BEFORE_INIT.format(what="module"))
            self._forget(name, self.__dict__, params, buffers)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(_errors.ASSIGN_MODULE.format(got=typename(value), name=name))
            modules[name] = None
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(_errors.ASSIGN_BUFFER.format(got=typename(value), name=name))
            buffers[name] = value
        else:
            super().__setattr__(name, value)

    def _forget(self, name: str, *registries) -> None:
        for registry in registries:
            if registry is not None and name in registry:
                del registry[name]
        self.__dict__["_non_persistent_buffers_set"].discard(name)

    def __getattr__(self, name: str):
        # Only called when normal lookup fails: look in the three registries.
        d = self.__dict__
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError(_errors.NO_ATTRIBUTE.format(cls=type(self).__name__, name=name))

    def __dir__(self):
        # tab completion in notebooks lists parameters, buffers and submodules too
        names = set(super().__dir__()) | set(self._parameters) | set(self._buffers)
        return sorted(names | {k for k in self._modules if not k[0].isdigit()})

    def __delattr__(self, name: str) -> None:
        for registry in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(registry, ()):
                del self.__dict__[registry][name]
                self._non_persistent_buffers_set.discard(name)
                return
        super().__delattr__(name)

    # --- iteration ----------------------------------------------------------------------
    def named_modules(self, memo: set | None = None, prefix: str = "", remove_duplicate=True):
        """Yield ``(dotted_name, module)`` for this module and all below it, each once."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                sub = prefix + ("." if prefix else "") + name
                yield from module.named_modules(memo, sub, remove_duplicate)

    def modules(self) -> Iterator[Module]:
        """This module and every module below it (each once)."""
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """Yield ``(name, module)`` for the direct children (each once)."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        """The direct child modules."""
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry: str, prefix: str, recurse: bool, remove_duplicate: bool):
        memo = set()
        if recurse:
            modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
        else:
            modules = [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in module.__dict__[registry].items():
                if value is None or value in memo:
                    continue
                if remove_duplicate:
                    memo.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        """Yield ``(dotted_name, parameter)``; a shared parameter appears once, first name wins."""
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of this module (and of its submodules when ``recurse``)."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        """Yield ``(dotted_name, buffer)`` pairs."""
        yield from self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """The buffers of this module (and of its submodules when ``recurse``)."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    # --- modes and bulk changes -----------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training mode (``self.training``) here and in every submodule; returns self."""
        if not isinstance(mode, bool):
            raise ValueError(_errors.TRAIN_MODE.format(got=typename(mode)))
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        """Evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set ``requires_grad`` of every parameter (e.g. to freeze a layer); returns self."""
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters (to None by default, as PyTorch)."""
        zero_grads(self.parameters(), set_to_none)

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn`` on every submodule (children first) and then on self; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- printing ---------------------------------------------------------------------
    def extra_repr(self) -> str:
        """The text inside ``Name(...)`` in the repr; layers override it."""
        return ""

    def _get_name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({name}): " + _indent(repr(module), 2) for name, module in self._modules.items()
        ]
        lines = extra_lines + child_lines
        body = ""
        if len(extra_lines) == 1 and not child_lines:
            body = extra_lines[0]
        elif lines:
            body = "\n  " + "\n  ".join(lines) + "\n"
        return f"{self._get_name()}({body})"


def _indent(text: str, spaces: int) -> str:
    first, *rest = text.split("\n")
    if not rest:
        return text
    return "\n".join([first] + [(" " * spaces + line) if line.strip() else "" for line in rest])
