"""Saving and loading: ``save`` and ``load`` (``torch.save``, ``torch.load``).

A file ``save`` writes is an 8-byte header, ``MINIGRAD``, then one pickle of the object.
A tensor is pickled as its array, its class (``Tensor``, ``Parameter``, a sparse tensor with
its format's arrays) and ``requires_grad``: never its ``.grad`` or its graph, so a tensor
made by an op loads as a leaf, as PyTorch does.

``load`` reads with ``weights_only=True`` by default, as PyTorch 2.6 and later do: the
unpickler builds only tensors, numpy arrays, minigrad's dtypes, devices and sparse formats,
and Python's containers and numbers; anything else (a whole ``nn.Module``, a class of
yours) is refused with an ``UnpicklingError`` naming it, unless ``weights_only=False``
(which runs whatever code the file names: only for files you trust).

PyTorch's own files (a zip archive of storages) are not read: ``load`` names them and
says how to convert (load with torch, then ``mg.tensor(t.numpy())``).
"""

from __future__ import annotations

import os
import pickle

from . import _device
from .errors import tensor_ops as _errors
from .tensor import Tensor, _rebuild

MAGIC = b"MINIGRAD"
DEFAULT_PROTOCOL = 2  # PyTorch's default pickle protocol for torch.save


def _opened(f, mode: str):
    """``(file, must_close)`` for a path (str or os.PathLike) or an open binary file."""
    if isinstance(f, (str, os.PathLike)):
        return open(f, mode), True  # noqa: SIM115  (closed by the caller)
    wanted = "write" if "w" in mode else "read"
    if not hasattr(f, wanted):
        raise AttributeError(_errors.SAVE_FILE.format(what=wanted, got=type(f).__name__))
    return f, False


class _Pickler(pickle.Pickler):
    """Pickles every tensor as array + class + requires_grad (no ``.grad``, no graph)."""

    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            return _rebuild, (type(obj), obj._data, obj._requires_grad, None, obj.name)
        return NotImplemented


def save(obj, f, pickle_module=pickle, pickle_protocol: int = DEFAULT_PROTOCOL) -> None:
    """Write ``obj`` (a tensor, a ``state_dict()``, an optimizer's state, lists and dicts of
    them, ...) to ``f``, a path or a binary file object (``torch.save``).

    Example:
        >>> import io, minigrad as mg
        >>> buffer = io.BytesIO()
        >>> mg.save({"w": mg.tensor([1.0, 2.0], requires_grad=True)}, buffer)
        >>> _ = buffer.seek(0)
        >>> mg.load(buffer)
        {'w': tensor([1., 2.], requires_grad=True)}
    """
    if pickle_module is not pickle:
        raise ValueError(_errors.SAVE_PICKLE_MODULE.format(got=pickle_module))
    file, close = _opened(f, "wb")
    try:
        file.write(MAGIC)
        _Pickler(file, protocol=pickle_protocol).dump(obj)
    finally:
        if close:
            file.close()


# What weights_only=True builds: (module, name) pairs, nothing else.
_SAFE = {
    ("collections", "OrderedDict"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "slice"),
    ("builtins", "complex"),
    ("_codecs", "encode"),  # bytes in pickle protocol 2
    ("builtins", "object"),  # with copyreg._reconstructor: an allowed class's bare instance
    ("copyreg", "_reconstructor"),
    ("numpy", "dtype"),
    ("numpy", "ndarray"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"),
    ("numpy._core.multiarray", "scalar"),
    ("minigrad.tensor", "_rebuild"),
    ("minigrad.tensor", "Tensor"),
    ("minigrad.nn.parameter", "Parameter"),
    ("minigrad.sparse.tensor", "SparseTensor"),
    ("minigrad.formats.coo", "COO"),
    ("minigrad.formats.compressed", "CSR"),
    ("minigrad.formats.compressed", "CSC"),
    ("minigrad._dtype", "_by_name"),
    ("minigrad._device", "device"),
    ("minigrad._size", "Size"),
}


class _WeightsUnpickler(pickle.Unpickler):
    """An unpickler that builds only what is in ``_SAFE`` (``weights_only=True``)."""

    def find_class(self, module: str, name: str):
        if (module, name) in _SAFE or module.startswith("numpy.dtypes"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(_errors.LOAD_NOT_WEIGHTS.format(name=f"{module}.{name}"))


def _check_map_location(map_location):
    """Every place a tensor can go here is the CPU: None, "cpu", a CPU device, a dict whose
    targets are the CPU, or a function ``fn(tensor, "cpu")`` (returning a tensor or None)."""
    if map_location is None or callable(map_location):
        return
    targets = map_location.values() if isinstance(map_location, dict) else [map_location]
    for target in targets:
        if not isinstance(target, (str, _device.device)):
            raise TypeError(_errors.MAP_LOCATION_TYPE.format(got=type(target).__name__))
        _device.device(target)  # a device that is not the CPU: minigrad's one error for it
        if _device.device(target).type != "cpu":
            raise RuntimeError(_errors.MAP_LOCATION_DEVICE.format(got=target))


def _mapped(obj, fn, memo: dict):
    """``obj`` with ``fn(tensor, "cpu")`` applied to every tensor in its lists, tuples, dicts."""
    if id(obj) in memo:
        return memo[id(obj)]
    if isinstance(obj, Tensor):
        new = fn(obj, "cpu")
        out = obj if new is None else new
    elif isinstance(obj, (list, tuple)):
        out = type(obj)(_mapped(o, fn, memo) for o in obj)
    elif isinstance(obj, dict):
        out = type(obj)((k, _mapped(v, fn, memo)) for k, v in obj.items())
    else:
        out = obj
    memo[id(obj)] = out
    return out


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **kwargs):
    """Read what :func:`save` wrote to ``f`` (a path or a binary file object) (``torch.load``).

    ``weights_only`` (default True, as in PyTorch 2.6 and later) builds only tensors and
    plain data; ``weights_only=False`` unpickles anything (only for files you trust).
    ``map_location`` is accepted as PyTorch takes it; every target must be the CPU, the only
    device here. ``mmap`` is accepted as None or False.
    """
    if weights_only is None:
        weights_only = True
    if pickle_module is not None and weights_only:
        raise RuntimeError(_errors.LOAD_PICKLE_MODULE)
    if mmap:
        raise RuntimeError(_errors.LOAD_MMAP)
    _check_map_location(map_location)
    file, close = _opened(f, "rb")
    try:
        head = file.read(len(MAGIC))
        if head != MAGIC:
            kind = "a zip archive, as torch.save writes" if head[:2] == b"PK" else "no header"
            raise pickle.UnpicklingError(_errors.LOAD_NOT_MINIGRAD.format(kind=kind))
        unpickler = _WeightsUnpickler if weights_only else pickle.Unpickler
        obj = unpickler(file, **kwargs).load()
    finally:
        if close:
            file.close()
    if callable(map_location):
        obj = _mapped(obj, map_location, {})
    return obj
