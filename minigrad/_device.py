"""Devices, named as in PyTorch (``mg.device("cpu")`` is ``torch.device("cpu")``).

minigrad computes on the CPU only, with numpy. Devices exist so that device-generic
PyTorch code runs unchanged::

    device = "cuda" if mg.cuda.is_available() else "cpu"     # "cpu": no GPU here
    model = Net().to(device)
    x = mg.randn(8, 3, device=device)

A :class:`device` is a description, as ``torch.device`` is: ``mg.device("cuda")`` can
be built (like ``torch.device("cuda")`` on a machine without a GPU), but handing a
device that is not the CPU to a factory, to ``.to(...)``, to ``Module.to`` or to
:func:`set_default_device` raises ``RuntimeError: minigrad computes on the CPU only;
got device='cuda'``, the same message everywhere. Malformed device strings
(``"gpu"``, ``"cpu:x"``) raise PyTorch's own errors. A CPU index (``"cpu:0"``) is
accepted and means the CPU, as in PyTorch.
"""

from __future__ import annotations

import re

from .errors import device as errors

# PyTorch's device types, in the order its parser lists them
TYPES = (
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
)
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9][0-9]*|0))?")


class device:  # noqa: N801  (PyTorch spells it in lower case)
    """Where a tensor lives (``torch.device``): a ``type`` and an optional ``index``.

    Accepts ``device("cpu")``, ``device("cpu:0")``, ``device("cpu", 0)``, a device, and
    ``type=``/``index=`` keywords. Read-only; equal when type and index are equal
    (``device("cpu") != device("cpu:0")``, and a device never equals a string, as in
    PyTorch). As a context manager it sets the default device (CPU only here).

    Example:
        >>> import minigrad as mg
        >>> mg.device("cpu:0")
        device(type='cpu', index=0)
        >>> str(mg.device("cpu")), mg.device("cpu", 0).index, mg.zeros(2).device
        ('cpu', 0, device(type='cpu'))
    """

    __slots__ = ("_type", "_index")

    def __init__(self, type: str | device | int, index: int | None = None):  # noqa: A002
        kind, idx = _parse(type, index)
        object.__setattr__(self, "_type", kind)
        object.__setattr__(self, "_index", idx)

    @property
    def type(self) -> str:
        """The device type: ``"cpu"``, ``"cuda"``, ..."""
        return self._type

    @property
    def index(self) -> int | None:
        """The device index, or None when none was given."""
        return self._index

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'minigrad.device' objects is not writable")

    def __eq__(self, other) -> bool:
        if not isinstance(other, device):
            return NotImplemented
        return (self._type, self._index) == (other._type, other._index)

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __reduce__(self):
        return (device, (self._type, self._index))

    def __enter__(self):
        """``with mg.device("cpu"):`` makes factories default to this device."""
        previous = _default.device
        set_default_device(self)
        _default.stack.append(previous)
        return self

    def __exit__(self, *exc) -> bool:
        _default.device = _default.stack.pop()
        return False


def _parse(kind, index) -> tuple[str, int | None]:
    """(type, index) from ``device``'s arguments, with PyTorch's errors."""
    if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
        raise TypeError(errors.INDEX_TYPE.format(got=type(index).__name__))
    if isinstance(kind, device):
        return kind.type, kind.index if index is None else index
    if isinstance(kind, bool) or not isinstance(kind, (str, int)):
        raise TypeError(errors.DEVICE_TYPE.format(got=type(kind).__name__))
    if isinstance(kind, int):  # an accelerator's index, as in torch.device(0)
        if kind < 0:
            raise RuntimeError(errors.NEGATIVE_INDEX)
        raise RuntimeError(errors.CPU_ONLY.format(got=kind))
    if not kind:
        raise RuntimeError(errors.EMPTY)
    match = _DEVICE_STRING.fullmatch(kind)
    if match is None:
        raise RuntimeError(errors.INVALID.format(got=kind))
    name, number = match.groups()
    if name not in TYPES:
        raise RuntimeError(errors.UNKNOWN_TYPE.format(types=", ".join(TYPES), got=kind))
    if number is not None and index is not None:
        raise RuntimeError(errors.INDEX_TWICE.format(got=kind))
    if index is not None and index < 0:
        raise RuntimeError(errors.NEGATIVE_INDEX)
    return name, int(number) if number is not None else index


CPU = device("cpu")  # the device of every tensor


def as_device(value, where: str = "device") -> device:
    """``value`` (a string, a device, an int, or a torch.device-like object with ``type``
    and ``index``) as a :class:`device`, checked to be the CPU.

    Raises the one CPU-only RuntimeError for any other device, PyTorch's errors for
    malformed strings, and a TypeError naming ``where`` for anything else.
    """
    if isinstance(value, device):
        d = value
    elif isinstance(value, (str, int)) and not isinstance(value, bool):
        d = device(value)
    elif isinstance(getattr(value, "type", None), str) and hasattr(value, "index"):
        d = device(value.type, value.index)  # a torch.device, or any look-alike
    else:
        raise TypeError(errors.ARGUMENT_TYPE.format(where=where, got=type(value).__name__))
    if d.type != "cpu":
        hint = errors.NO_META if d.type == "meta" else ""
        raise RuntimeError(errors.CPU_ONLY.format(got=repr(str(d))) + hint)
    return d


def cuda_error(index=None) -> RuntimeError:
    """The CPU-only error for ``.cuda(index)`` (a GPU that minigrad does not have)."""
    name = (
        "cuda" if index is None else str(index) if not isinstance(index, int) else f"cuda:{index}"
    )
    return RuntimeError(errors.CPU_ONLY.format(got=repr(name)))


def check(value, where: str = "device") -> None:
    """Accept ``None`` (the default device) or a CPU device; raise as :func:`as_device`."""
    if value is not None:
        as_device(value, where)


class _Default:
    """The default device, and those that ``with device(...)`` blocks will restore."""

    def __init__(self):
        self.device = CPU
        self.stack: list = []


_default = _Default()


def set_default_device(device) -> None:  # noqa: A002  (PyTorch's parameter name)
    """Set the device factories use by default (``torch.set_default_device``).

    Only the CPU exists here: ``"cpu"``, ``"cpu:0"``, a CPU device or None (reset) are
    accepted; any other device raises the CPU-only RuntimeError.
    """
    _default.device = CPU if device is None else as_device(device, "set_default_device()")


def get_default_device() -> device:
    """The device factories use by default (``torch.get_default_device``): the CPU."""
    return _default.device
