"""``Sequential``: modules applied one after the other (``torch.nn.Sequential``)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator

from ...errors import nn as _errors
from .module import Module


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
        (2, (5, 3))
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
