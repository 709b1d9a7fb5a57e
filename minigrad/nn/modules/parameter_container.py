"""Containers of parameters: ``ParameterList`` and ``ParameterDict`` (``torch.nn``'s).

They register each entry as a Parameter of their own (named ``"0"``, ``"1"``, ...
or by key), so a model's ``parameters()`` and ``state_dict()`` find them. A plain
Tensor put in is wrapped as a Parameter, as in PyTorch; other objects are kept
as plain attributes.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping

from ...errors import nn as _errors
from ...tensor import Tensor
from ..parameter import Parameter
from .container import _checked_index, _pairs
from .module import Module


def _as_parameter(value):
    """A Tensor that is not yet a Parameter becomes one (sharing its data); others as is."""
    if isinstance(value, Tensor) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


def _describe(value, type_name) -> str:
    """One repr line of an entry: ``Parameter containing: [minigrad.float32 of size 2x3]``."""
    if not isinstance(value, Tensor):
        return "Object of type: " + type(value).__name__
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    size = "x".join(str(n) for n in value.shape)
    return f"{kind} containing: [{type_name(value)} of size {size}]"


class _NotCallable:
    def __call__(self, *args, **kwargs):
        raise RuntimeError(_errors.CONTAINER_CALL.format(cls=type(self).__name__))


class ParameterList(_NotCallable, Module):
    """A list of Parameters registered under ``"0"``, ``"1"``, ... (``torch.nn.ParameterList``).

    Example:
        >>> import minigrad as mg
        >>> weights = mg.nn.ParameterList([mg.zeros(2, 3), mg.ones(3)])
        >>> [name for name, _ in weights.named_parameters()]
        ['0', '1']
        >>> type(weights[0]).__name__, len(weights)
        ('Parameter', 2)
    """

    def __init__(self, values: Iterable | None = None):
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)([self[i] for i in range(len(self))[idx]])
        return getattr(self, str(_checked_index(idx, len(self), "ParameterList")))

    def __setitem__(self, idx: int, value) -> None:
        setattr(self, str(_checked_index(idx, len(self), "ParameterList")), _as_parameter(value))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator:
        return (self[i] for i in range(len(self)))

    def __iadd__(self, values: Iterable) -> ParameterList:
        return self.extend(values)

    def append(self, value) -> ParameterList:
        """Add ``value`` at the end (a Tensor is wrapped as a Parameter); returns self."""
        self._size += 1
        self[self._size - 1] = value
        return self

    def extend(self, values: Iterable) -> ParameterList:
        """Append each of ``values``; returns self."""
        if not isinstance(values, Iterable) or isinstance(values, Tensor):
            got = type(values).__name__
            raise TypeError(_errors.CONTAINER_EXTEND.format(cls="ParameterList", got=got))
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        lines = [f"  ({i}): " + _describe(v, lambda t: str(t.dtype)) for i, v in enumerate(self)]
        return "\n".join(lines)


class ParameterDict(_NotCallable, Module):
    """An ordered dict of Parameters registered under their keys (``torch.nn.ParameterDict``).

    A plain ``dict`` argument is taken in sorted key order and an ``OrderedDict``
    in its own order, as PyTorch does. Keys must be strings without ``"."``.

    Example:
        >>> import minigrad as mg
        >>> params = mg.nn.ParameterDict({"scale": mg.ones(2), "shift": mg.zeros(2)})
        >>> list(params.state_dict()), "scale" in params
        (['scale', 'shift'], True)
    """

    def __init__(self, parameters=None):
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def _check_key(self, key) -> str:
        if not isinstance(key, str):
            raise TypeError(_errors.PARAMDICT_KEY.format(got=type(key).__name__))
        return key

    def __getitem__(self, key: str):
        if self._check_key(key) not in self._keys:
            keys = ", ".join(self._keys) or "none"
            raise AttributeError(_errors.PARAMDICT_MISSING.format(key=key, keys=keys))
        return getattr(self, key)

    def __setitem__(self, key: str, value) -> None:
        self._check_key(key)
        value = _as_parameter(value)
        if isinstance(value, Parameter) or value is None:
            self.register_parameter(key, value)
        else:
            setattr(self, key, value)
        self._keys[key] = None

    def __delitem__(self, key: str) -> None:
        self[key]  # noqa: B018  (the missing-key error)
        del self._keys[key]
        delattr(self, key)

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __contains__(self, key) -> bool:
        return key in self._keys

    def keys(self):
        """The keys, in order."""
        return self._keys.keys()

    def values(self):
        """The parameters, in key order."""
        return [self[k] for k in self._keys]

    def items(self):
        """``(key, parameter)`` pairs, in order."""
        return [(k, self[k]) for k in self._keys]

    def get(self, key: str, default=None):
        """The entry under ``key``, or ``default``."""
        return self[key] if key in self else default

    def pop(self, key: str):
        """Remove the entry under ``key`` and return it."""
        value = self[key]
        del self[key]
        return value

    def clear(self) -> None:
        """Remove every entry."""
        for key in list(self._keys):
            del self[key]

    def update(self, parameters) -> None:
        """Add (or replace) entries from a mapping or an iterable of ``(key, value)`` pairs."""
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            parameters = list(parameters.items())
        elif isinstance(parameters, Mapping):
            parameters = sorted(parameters.items())
        for key, value in _pairs(parameters, "ParameterDict"):
            self[key] = value

    def extra_repr(self) -> str:
        lines = [f"  ({k}): " + _describe(v, lambda t: t.type()) for k, v in self.items()]
        return "\n".join(lines)
