"""Parametrizations (``torch.nn.utils.parametrize``): a module's tensor computed from others.

``register_parametrization(module, "weight", P)`` moves the parameter to
``module.parametrizations.weight.original`` and makes ``module.weight`` a property that
returns ``P(original)``, recomputed at every access (or once per :func:`cached` block). As
in PyTorch, the module's class becomes a generated subclass (``ParametrizedLinear``) that
holds the property, so ``state_dict`` keys become ``parametrizations.weight.original`` and
assigning ``module.weight = X`` stores ``P.right_inverse(X)`` in ``original``.

Example:
    >>> import minigrad as mg
    >>> from minigrad.nn.utils import parametrize
    >>> class Symmetric(mg.nn.Module):
    ...     def forward(self, X):
    ...         return X.triu() + X.triu(1).transpose(0, 1)
    >>> _ = mg.manual_seed(0)
    >>> layer = parametrize.register_parametrization(mg.nn.Linear(3, 3), "weight", Symmetric())
    >>> type(layer).__name__, parametrize.is_parametrized(layer, "weight")
    ('ParametrizedLinear', True)
    >>> bool((layer.weight == layer.weight.T).all())
    True
    >>> list(layer.state_dict())
    ['bias', 'parametrizations.weight.original']
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import contextmanager
from copy import deepcopy

from ...errors import nn_utils as errors
from ...recording.grad_mode import no_grad
from ...tensor import Tensor
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = [
    "cached",
    "ParametrizationList",
    "register_parametrization",
    "is_parametrized",
    "remove_parametrizations",
    "type_before_parametrizations",
]

_cache_depth = 0
_cache: dict = {}


@contextmanager
def cached():
    """Inside the block each parametrized tensor is computed once, at its first access."""
    global _cache_depth, _cache  # noqa: PLW0603  (one cache for the process, as PyTorch's)
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache = {}


def _register(module: Module, name: str, value: Tensor) -> None:
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


def _set(dest: Tensor, src: Tensor) -> Tensor:
    """Write ``src``'s values into ``dest`` (keeping ``dest`` the same object when the shapes
    agree, as PyTorch's ``set_``); returns the tensor that now holds them."""
    if dest.shape == src.shape and dest.dtype == src.dtype:
        dest.data = src.detach()
        return dest
    if isinstance(dest, Parameter):
        return Parameter(src.detach(), requires_grad=dest.requires_grad)
    return src.detach()


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order, and the tensor(s) they start from:
    ``original`` (or ``original0``, ``original1``, ... when the first one's
    ``right_inverse`` returns several tensors)."""

    def __init__(self, modules: Sequence[Module], original: Tensor, unsafe: bool = False):
        if len(modules) == 0:
            raise ValueError(errors.PARAM_LIST_EMPTY)
        super().__init__(modules)
        self.unsafe = unsafe
        shape, dtype = original.shape, original.dtype
        with no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, (Tensor, Sequence)):
            raise ValueError(errors.RIGHT_INVERSE_TYPE.format(got=type(new).__name__))
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if new.dtype != dtype:
                raise ValueError(errors.RIGHT_INVERSE_DTYPE.format(want=dtype, got=new.dtype))
            with no_grad():
                _register(self, "original", _set(original, new))
        else:
            for i, part in enumerate(new):
                if not isinstance(part, Tensor):
                    raise ValueError(errors.RIGHT_INVERSE_TYPE.format(got=type(part).__name__))
                if isinstance(original, Parameter):
                    part = Parameter(part.detach(), original.requires_grad)
                _register(self, f"original{i}", part)
        if not self.unsafe:
            _check_same(self(), dtype, shape)

    def right_inverse(self, value: Tensor) -> None:
        """Store the originals that give ``value`` (every parametrization's ``right_inverse``,
        last to first)."""
        with no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(errors.NO_RIGHT_INVERSE.format(name=type(module).__name__))
                value = module.right_inverse(value)
            if self.is_tensor:
                self.original = _set(self.original, value)
                return
            for i, part in enumerate(value):
                name = f"original{i}"
                setattr(self, name, _set(getattr(self, name), part))

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _check_same(value, dtype, shape) -> None:
    if not isinstance(value, Tensor):
        raise ValueError(errors.NOT_A_TENSOR.format(got=type(value).__name__))
    if value.dtype != dtype:
        raise ValueError(errors.CHANGED.format(what="dtype", want=dtype, got=value.dtype))
    if value.shape != shape:
        raise ValueError(errors.CHANGED.format(what="shape", want=shape, got=value.shape))


def _getstate(self):
    raise RuntimeError(errors.SERIALIZE)


def _deepcopy(self, memo):
    """A copy of the parametrized module (the generated class kept); PyTorch's default."""
    if id(self) in memo:
        return memo[id(self)]
    replica = self.__new__(type(self))
    memo[id(self)] = replica
    replica.__dict__ = deepcopy(self.__dict__, memo)
    return replica


def _inject_new_class(module: Module) -> None:
    """Give ``module`` its own subclass ``Parametrized<Class>`` to hang properties on."""
    cls = type(module)
    namespace = {"__getstate__": _getstate}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = _deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _inject_property(module: Module, name: str) -> None:
    if hasattr(module, name):
        raise AssertionError(errors.HAS_ATTRIBUTE.format(name=name))

    def get_parametrized(self) -> Tensor:
        parametrization = self.parametrizations[name]
        if not _cache_depth:
            return parametrization()
        key = (id(self), name)
        if _cache.get(key) is None:
            _cache[key] = parametrization()
        return _cache[key]

    def set_original(self, value: Tensor) -> None:
        self.parametrizations[name].right_inverse(value)

    setattr(type(module), name, property(get_parametrized, set_original))


def register_parametrization(
    module: Module, tensor_name: str, parametrization: Module, *, unsafe: bool = False
) -> Module:
    """Make ``module.<tensor_name>`` be ``parametrization(original)`` (see the module docs).

    A second call on the same name appends to the list (applied after the first ones).
    ``unsafe=True`` allows a parametrization that changes the shape or dtype.
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            current = getattr(module, tensor_name)
            _check_same(parametrization(current), current.dtype, current.shape)
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError(errors.NO_TENSOR_NAMED.format(module=module, name=tensor_name))
    return module


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has parametrizations (on ``tensor_name``, when given)."""
    parametrizations = getattr(module, "parametrizations", None)
    if not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def remove_parametrizations(
    module: Module, tensor_name: str, leave_parametrized: bool = True
) -> Module:
    """Undo :func:`register_parametrization` on ``tensor_name``: the tensor becomes a plain
    parameter (or buffer) again, holding the parametrized value (``leave_parametrized``) or
    the original. The module gets its own class back when nothing is left parametrized."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(errors.NOT_PARAMETRIZED.format(module=module, name=tensor_name))
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with no_grad():
                original = _set(original, getattr(module, tensor_name))
    elif leave_parametrized:
        value = getattr(module, tensor_name)
        original = Parameter(value.detach()) if value.requires_grad else value.detach()
    else:
        raise ValueError(errors.LEAVE_SEQUENCE)
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _register(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before any parametrization was registered."""
    return type(module).__bases__[0] if is_parametrized(module) else type(module)
