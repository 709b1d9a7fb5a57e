"""``state_dict`` / ``load_state_dict`` of :class:`Module` (kept apart to keep module.py small).

A state dict maps dotted names (``"0.weight"``) to detached tensors that share
memory with the parameters and persistent buffers, in registration order, as
``torch.nn.Module.state_dict`` does. Loading copies values in place, so the
Parameter objects (and an optimizer holding them) stay the same; ``assign=True`` puts
the loaded tensors in their place instead.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping

from ...errors import nn as _errors
from ...recording.grad_mode import no_grad
from ...tensor import Tensor
from ..parameter import Parameter


class IncompatibleKeys(
    collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])
):
    """What ``load_state_dict(strict=False)`` could not match (``torch``'s ``_IncompatibleKeys``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        # PyTorch's class is torch.nn.modules.module._IncompatibleKeys: its name is printed
        return "_" + super().__repr__()

    __str__ = __repr__


class StateDictMixin:
    """The state-dict methods of Module; they read ``_parameters``, ``_buffers``, ``_modules``."""

    # buffers a checkpoint may lack (a model saved before they existed): kept as they are, not
    # reported missing (BatchNorm's num_batches_tracked, as PyTorch's _load_from_state_dict)
    _optional_state: tuple[str, ...] = ()

    def _local_state(self) -> dict:
        """This module's own parameters and persistent buffers (None entries skipped)."""
        state = {k: v for k, v in self._parameters.items() if v is not None}
        for k, v in self._buffers.items():
            if v is not None and k not in self._non_persistent_buffers_set:
                state[k] = v
        return state

    def state_dict(self, *, destination=None, prefix: str = "", keep_vars: bool = False):
        """An ``OrderedDict`` from dotted names to parameters and persistent buffers.

        Values are detached tensors sharing memory with the module's own (the
        tensors themselves with ``keep_vars=True``).
        """
        if destination is None:
            destination = collections.OrderedDict()
        for name, value in self._local_state().items():
            destination[prefix + name] = value if keep_vars else value.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(
                    destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars
                )
        return destination

    def load_state_dict(
        self, state_dict: Mapping, strict: bool = True, assign: bool = False
    ) -> IncompatibleKeys:
        """Copy values from ``state_dict`` into the parameters and buffers, in place.

        Args:
            state_dict: a mapping like the one :meth:`state_dict` returns.
            strict: require the keys to match exactly (shapes must match always).
            assign: put the state dict's tensors into the module instead of copying their
                values (PyTorch's way to fill a module built without memory): a parameter
                becomes a new ``Parameter`` around the loaded tensor (sharing its memory,
                keeping its dtype, with the old parameter's ``requires_grad``), a buffer the
                loaded tensor itself. An optimizer built before holds the old parameters.

        Returns:
            ``IncompatibleKeys(missing_keys, unexpected_keys)``.

        Raises:
            RuntimeError: naming every missing or unexpected key (when strict) and
                every shape mismatch, in PyTorch's format.
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(_errors.STATE_DICT_TYPE.format(got=type(state_dict)))
        missing, errors = [], []
        expected = set()
        for prefix, module in self.named_modules(remove_duplicate=False):
            prefix = prefix + "." if prefix else ""
            for name, target in module._local_state().items():
                key = prefix + name
                expected.add(key)
                if key not in state_dict:
                    if name not in module._optional_state:
                        missing.append(key)
                elif _fits(target, state_dict[key], key, errors):
                    _load(module, name, target, state_dict[key], assign)
        unexpected = [k for k in state_dict if k not in expected]
        if strict:
            if unexpected:
                keys = ", ".join(f'"{k}"' for k in unexpected)
                errors.insert(0, _errors.STATE_UNEXPECTED.format(keys=keys))
            if missing:
                keys = ", ".join(f'"{k}"' for k in missing)
                errors.insert(0, _errors.STATE_MISSING.format(keys=keys))
        if errors:
            msgs = "\n\t".join(errors)
            raise RuntimeError(_errors.STATE_ERRORS.format(cls=type(self).__name__, msgs=msgs))
        return IncompatibleKeys(missing, unexpected)


def _fits(target: Tensor, value, key: str, errors: list) -> bool:
    """Whether a checkpoint value can be loaded into a parameter/buffer, recording why not."""
    if not isinstance(value, Tensor):
        errors.append(_errors.STATE_NOT_TENSOR.format(key=key, got=type(value)))
        return False
    if not (target.ndim == 0 and value.shape == (1,)) and value.shape != target.shape:
        errors.append(_errors.STATE_SIZE.format(key=key, got=value.shape, want=target.shape))
        return False
    return True


def _load(module, name: str, target: Tensor, value: Tensor, assign: bool) -> None:
    """Copy ``value`` into ``target`` in place, or (``assign``) put it in its place."""
    if target.ndim == 0 and value.ndim == 1:
        value = value.reshape(())
    if not assign:
        with no_grad():
            target.copy_(value)
    elif isinstance(target, Parameter):
        if isinstance(value, Parameter):
            value.requires_grad_(target.requires_grad)
        else:
            value = Parameter(value, requires_grad=target.requires_grad)
        setattr(module, name, value)
    else:
        setattr(module, name, value)
