"""Containers of modules: ``Sequential``, ``ModuleList``, ``ModuleDict`` (``torch.nn``'s).

Each registers what it holds as child modules (named ``"0"``, ``"1"``, ... or by
key), so ``parameters()``, ``state_dict()`` (``"layers.0.weight"``), ``train()``
and ``to()`` reach every module inside, as in PyTorch.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping

from ...errors import nn as _errors
from ...tensor import typename
from .module import Module, _indent


class Sequential(Module):
    """Chain modules: ``Sequential(a, b, c)(x)`` is ``c(b(a(x)))``.

    The children are named ``"0"``, ``"1"``, ... (or by the keys of an
    ``OrderedDict`` argument). Supports ``len``, iteration, indexing (a slice
    gives a new Sequential of the same modules) and ``append``.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> model = mg.nn.Sequential(mg.nn.Linear(2, 3), mg.nn.ReLU())
        >>> model
        Sequential(
          (0): Linear(in_features=2, out_features=3, bias=True)
          (1): ReLU()
        )
        >>> len(model), model(mg.ones(5, 2)).shape
        (2, minigrad.Size([5, 3]))
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def forward(self, input):  # noqa: A002  (PyTorch name)
        for module in self:
            input = module(input)
        return input

    def _index(self, idx: int) -> int:
        n = len(self)
        if not -n <= idx < n:
            raise IndexError(_errors.SEQ_INDEX.format(idx=idx, n=n))
        return idx % n

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            items = list(self._modules.items())[idx]
            return type(self)(OrderedDict(items))
        return list(self._modules.values())[self._index(idx)]

    def __setitem__(self, idx: int, module: Module) -> None:
        key = list(self._modules)[self._index(idx)]
        self.add_module(key, module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)
        targets = keys[idx] if isinstance(idx, slice) else [keys[self._index(idx)]]
        for key in targets:
            del self._modules[key]
        # renumber, as PyTorch does, so the names stay "0".."n-1"
        modules = list(self._modules.values())
        self._modules.clear()
        for i, module in enumerate(modules):
            self._modules[str(i)] = module

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def append(self, module: Module) -> Sequential:
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> Sequential:
        """Append each of ``modules``; returns self."""
        for module in modules:
            self.append(module)
        return self


def _checked_index(idx, n: int, cls: str) -> int:
    """``idx`` as a position in ``range(n)`` (negative counts from the end), or IndexError."""
    if isinstance(idx, bool) or not hasattr(idx, "__index__"):
        raise TypeError(_errors.CONTAINER_INDEX_TYPE.format(cls=cls, got=typename(idx)))
    idx = idx.__index__()
    if not -n <= idx < n:
        raise IndexError(_errors.CONTAINER_INDEX.format(idx=idx, n=n, cls=cls))
    return idx % n


class ModuleList(Module):
    """A list of modules, each registered as a child (``torch.nn.ModuleList``).

    Use it where a plain Python list would hide the modules from ``parameters()``:
    the children are named ``"0"``, ``"1"``, ..., so their weights appear in
    ``state_dict()`` as ``"0.weight"`` (``"layers.0.weight"`` inside a model).
    It has no ``forward``: the model decides how to call its entries.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> layers = mg.nn.ModuleList([mg.nn.Linear(2, 2) for _ in range(3)])
        >>> layers.append(mg.nn.ReLU())
        ModuleList(
          (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)
          (3): ReLU()
        )
        >>> len(layers), list(layers.state_dict())[:3]
        (4, ['0.weight', '0.bias', '1.weight'])
        >>> x = mg.ones(1, 2)
        >>> for layer in layers:
        ...     x = layer(x)
        >>> x.shape
        minigrad.Size([1, 2])
    """

    def __init__(self, modules: Iterable[Module] | None = None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[str(_checked_index(idx, len(self), "ModuleList"))]

    def __setitem__(self, idx: int, module: Module) -> None:
        self.add_module(str(_checked_index(idx, len(self), "ModuleList")), module)

    def __delitem__(self, idx) -> None:
        modules = list(self._modules.values())
        if isinstance(idx, slice):
            del modules[idx]
        else:
            del modules[_checked_index(idx, len(self), "ModuleList")]
        self._renumber(modules)

    def _renumber(self, modules: list) -> None:
        # PyTorch keeps the names "0".."n-1" after a deletion or an insertion
        self._modules.clear()
        for i, module in enumerate(modules):
            self.add_module(str(i), module)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        return type(self)(list(self) + list(other))

    def append(self, module: Module) -> ModuleList:
        """Add ``module`` at the end; returns self."""
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Append each of ``modules``; returns self."""
        if not isinstance(modules, Iterable):
            got = type(modules).__name__
            raise TypeError(_errors.CONTAINER_EXTEND.format(cls="ModuleList", got=got))
        for module in modules:
            self.append(module)
        return self

    def insert(self, index: int, module: Module) -> None:
        """Put ``module`` before position ``index`` (as ``list.insert``); later names shift."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(_errors.NOT_A_MODULE.format(got=typename(module)))
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._renumber(modules)

    def pop(self, index: int = -1) -> Module:
        """Remove and return the module at ``index`` (the last by default)."""
        module = self[index]
        del self[index]
        return module

    def __repr__(self) -> str:
        # PyTorch folds a run of equal entries into one line: "(0-2): 3 x Linear(...)"
        reprs = [repr(m) for m in self]
        if not reprs:
            return self._get_name() + "()"
        lines, start = [], 0
        for end in range(1, len(reprs) + 1):
            if end < len(reprs) and reprs[end] == reprs[start]:
                continue
            body = _indent(reprs[start], 2)
            count = end - start
            label = f"({start})" if count == 1 else f"({start}-{end - 1}): {count} x"
            lines.append(f"{label}: {body}" if count == 1 else f"{label} {body}")
            start = end
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    """An ordered dict of modules, each registered as a child under its key (``torch.nn.ModuleDict``).

    Keys keep their insertion order (a plain ``dict`` is taken in its own order,
    as in PyTorch). Supports ``d[key]``, ``d[key] = module``, ``del d[key]``,
    ``in``, ``len``, iteration over keys, ``keys()``, ``values()``, ``items()``,
    ``update()``, ``pop()`` and ``clear()``.
    """

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key) -> bool:
        return key in self._modules

    def keys(self):
        """The keys, in order."""
        return self._modules.keys()

    def values(self):
        """The modules, in order."""
        return self._modules.values()

    def items(self):
        """``(key, module)`` pairs, in order."""
        return self._modules.items()

    def clear(self) -> None:
        """Remove every module."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Remove the module under ``key`` and return it."""
        module = self[key]
        del self[key]
        return module

    def update(self, modules) -> None:
        """Add (or replace) modules from a mapping or an iterable of ``(key, module)`` pairs."""
        if isinstance(modules, ModuleDict):
            modules = modules.items()
        for key, module in _pairs(modules, "ModuleDict"):
            self[key] = module


def _pairs(items, cls: str):
    """The ``(key, value)`` pairs of a mapping or of an iterable of pairs, checked."""
    if isinstance(items, Mapping):
        return list(items.items())
    if not isinstance(items, Iterable):
        raise TypeError(_errors.CONTAINER_UPDATE.format(cls=cls, got=type(items).__name__))
    pairs = []
    for i, pair in enumerate(items):
        if not isinstance(pair, Iterable):
            got = type(pair).__name__
            raise TypeError(_errors.CONTAINER_UPDATE_ITEM.format(cls=cls, i=i, got=got))
        pair = tuple(pair)
        if len(pair) != 2:
            raise ValueError(_errors.CONTAINER_UPDATE_PAIR.format(cls=cls, i=i, n=len(pair)))
        pairs.append(pair)
    return pairs
