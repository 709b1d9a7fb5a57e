"""``Module.get_submodule``, ``get_parameter``, ``get_buffer``: reach into a model by the
dotted names ``named_modules()``/``state_dict()`` print (``"encoder.layers.0.linear1.weight"``),
as PyTorch's do, with its AttributeErrors naming the part that is missing."""

from __future__ import annotations

from ...errors import nn as _errors


class LookupMixin:
    """The dotted-name lookups of :class:`~minigrad.nn.Module`."""

    def get_submodule(self, target: str):
        """The module at ``target`` (``""``: this module itself)."""
        module = self
        for part in target.split(".") if target else ():
            if not hasattr(module, part):
                raise AttributeError(_errors.NO_SUBMODULE.format(cls=module._get_name(), name=part))
            module = getattr(module, part)
            if not isinstance(module, LookupMixin):
                raise AttributeError(_errors.NOT_A.format(name=part, what="an nn.Module"))
        return module

    def get_parameter(self, target: str):
        """The Parameter at ``target`` (``"fc1.weight"``)."""
        return self._member(target, "_parameters", "an nn.Parameter")

    def get_buffer(self, target: str):
        """The buffer at ``target`` (``"bn.running_mean"``)."""
        return self._member(target, "_buffers", "a buffer")

    def _member(self, target: str, registry: str, what: str):
        path, _, name = target.rpartition(".")
        module = self.get_submodule(path)
        if not hasattr(module, name):
            raise AttributeError(_errors.NO_SUBMODULE.format(cls=module._get_name(), name=name))
        if name not in getattr(module, registry):
            raise AttributeError(_errors.NOT_A.format(name=name, what=what))
        return getattr(module, name)
