"""Creating tensors: ``tensor``, ``zeros``, ``ones``, ``arange``, ``randn`` ... (PyTorch names).

``tensor(data)`` always copies. Python floats become the default dtype
(float32), ints int64, bools bool; numpy arrays, numpy scalars and tensors keep
their dtype, and a list takes the promotion of its elements' dtypes, as
``torch.tensor`` does. Random tensors come from one seeded generator
(:func:`manual_seed`), so notebooks are reproducible.
"""

from __future__ import annotations

import functools
import math
import numbers
import warnings

import numpy as np

from . import _device, _dtype, _memory_format, _traced, errors, random
from ._ranges import arange_values, linspace_values
from .tensor import Tensor

_make = Tensor._make


def manual_seed(seed: int) -> random.Generator:
    """Seed the global generator behind every sampler (``torch.manual_seed``); returns it.

    The generator is PyTorch's CPU generator (:mod:`minigrad.random`): after the same seed,
    ``rand``, ``randn``, ``randint``, ``randperm`` ... draw PyTorch's numbers.
    """
    return random.manual_seed(seed)


def _from_python(data, want):
    """Nested lists/tuples of numbers or one-element tensors -> a numpy array.

    Each element asks for a dtype (see :func:`minigrad._dtype.python_type_dtype`; a
    one-element tensor asks for its own) and the result has the promotion of them all,
    as PyTorch's ``infer_scalar_type``: ``[np.float64(1.), 2.]`` is float64,
    ``[np.int32(1), 2]`` int64, ``[]`` the default float dtype. ``want`` overrides it.
    """
    if isinstance(data, (list, tuple)):
        leaves, shape = _flatten_check(data)
        what = type(data).__name__ + " of non-numbers"
    else:
        leaves, shape, what = [data], (), type(data).__name__
    if want is None:
        want = _infer_dtype(leaves, what)
    values = [x._data.reshape(-1)[0] if isinstance(x, Tensor) else x for x in leaves]
    return np.array(values, dtype=want.np).reshape(shape)


def _infer_dtype(leaves: list, what: str) -> _dtype.dtype:
    """The promoted dtype of all elements; a TypeError naming ``what`` for non-numbers."""
    found = set()
    for kind in set(map(type, leaves)):
        if issubclass(kind, Tensor):
            found.update(x.dtype for x in leaves if type(x) is kind)
            continue
        d = _dtype.python_type_dtype(kind)
        if d is None:
            raise TypeError(errors.BAD_DATA.format(got=what))
        found.add(d)
    return functools.reduce(_dtype.promote, found) if found else _dtype.defaults.float_dtype


def _flatten_check(data):
    """Flatten a nested sequence, checking it is rectangular (no recursion)."""
    shape = []
    level = [data]
    while level and isinstance(level[0], (list, tuple)):
        n = len(level[0])
        for item in level:
            if not isinstance(item, (list, tuple)) or len(item) != n:
                got = len(item) if isinstance(item, (list, tuple)) else type(item).__name__
                raise ValueError(
                    errors.RAGGED.format(
                        detail=f"expected length {n} at depth {len(shape)}, got {got}"
                    )
                )
        shape.append(n)
        level = [x for item in level for x in item]
    for x in level:
        if isinstance(x, (list, tuple)):
            raise ValueError(errors.RAGGED.format(detail="mixed nesting depth"))
        if isinstance(x, Tensor) and x._data.size != 1:
            raise ValueError("tensor(): only one-element tensors can be nested inside a list")
    return level, tuple(shape)


def _as_array(data, dtype) -> np.ndarray:
    """Copy ``data`` into a fresh numpy array of a supported dtype.

    Tensors, numpy arrays and numpy scalars keep their dtype unless ``dtype`` is given;
    an unsupported numpy dtype (``np.uint16``, complex, strings) raises a TypeError
    naming it, never a silent conversion.
    """
    want = None if dtype is None else _dtype.as_dtype(dtype)
    if isinstance(data, Tensor):
        _traced.check_concrete(data._data, "copying a tensor's values (minigrad.tensor(t))")
        data = data._data
    if not isinstance(data, (np.ndarray, np.generic)):
        return _from_python(data, want)
    arr = np.asarray(data)
    if arr.dtype == object:
        raise TypeError(errors.OBJECT_DATA.format(got=type(data).__name__))
    if want is None:
        want = _dtype.from_numpy_dtype(arr.dtype)  # rejects unsupported dtypes by name
    return np.array(arr, dtype=want.np, copy=True)


def tensor(data, dtype=None, requires_grad: bool = False, *, device=None) -> Tensor:
    """A new leaf tensor holding a copy of ``data`` (``torch.tensor``).

    Args:
        data: a number, a (nested) list or tuple of numbers and one-element tensors, a
            numpy array or scalar, or a Tensor (copied with its dtype, with PyTorch's
            warning to prefer ``t.detach().clone()``).
        dtype: the result dtype; inferred from ``data`` when None, as PyTorch does.
        requires_grad: make the new leaf require gradients.
        device: must be the CPU (``"cpu"``, ``"cpu:0"``, ``mg.device("cpu")``) or None;
            every factory below takes it too (see :mod:`minigrad._device`).

    Example:
        >>> import minigrad as mg
        >>> import numpy as np
        >>> mg.tensor([[1, 2], [3, 4]])
        tensor([[1, 2],
                [3, 4]])
        >>> mg.tensor(3.0, requires_grad=True)
        tensor(3., requires_grad=True)
        >>> mg.tensor([np.float64(1.5), 2.0])  # the numpy float64 raises the dtype
        tensor([1.5000, 2.0000], dtype=minigrad.float64)
    """
    _device.check(device, "tensor()")
    if isinstance(data, Tensor):
        warnings.warn(errors.COPY_CONSTRUCT, UserWarning, stacklevel=2)
    t = _make(_as_array(data, dtype), False, None)
    if requires_grad:
        t.requires_grad_(True)
    return t


def as_tensor(data, dtype=None, device=None) -> Tensor:
    """``data`` as a tensor without copying when it already is one (``torch.as_tensor``).

    A Tensor of the wanted dtype is returned itself; of another dtype, converted with
    ``data.to(dtype)`` (differentiable, as in PyTorch). A numpy array of the wanted dtype
    (or any, with ``dtype=None``) is shared, as :func:`from_numpy` shares it: writing into
    one changes the other, as in PyTorch. Anything else goes to :func:`tensor` (a copy).
    """
    _device.check(device, "as_tensor()")
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(_dtype.as_dtype(dtype))
    if isinstance(data, np.ndarray) and data.dtype != object:
        if dtype is None or _dtype.as_dtype(dtype).np == data.dtype:
            return from_numpy(data)
    return tensor(data, dtype=dtype)


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing memory with a numpy array (``torch.from_numpy``)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(errors.FROM_NUMPY_TYPE.format(got=type(array).__name__))
    _dtype.from_numpy_dtype(array.dtype)
    return _make(array, False, None)


def _size(size) -> tuple:
    """A shape from ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros([2, 3])``: non-negative ints
    (a TypeError for non-ints, as in PyTorch; a ValueError for negative sizes)."""
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(errors.SIZE_NOT_INT.format(got=type(s).__name__, size=tuple(size)))
        if s < 0:
            raise ValueError(f"size must be non-negative ints, got {tuple(size)}")
    return tuple(int(s) for s in size)


def _shape(name: str, shape: tuple, size) -> tuple:
    """The shape a factory is asked for: positional (``zeros(2, 3)``, ``zeros((2, 3))``) or
    by keyword (``zeros(size=(2, 3))``, as d2l writes ``randn(size=(), ...)``), not both."""
    if size is None:
        return _size(shape)
    if shape:
        raise TypeError(errors.SIZE_TWICE.format(fn=name))
    return _size((size,))


def _check_int(value, op: str, name: str, position: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            errors.ARG_NOT_INT.format(op=op, name=name, i=position, got=type(value).__name__)
        )


def _check_tensor(t, op: str) -> None:
    if not isinstance(t, Tensor):
        raise TypeError(errors.OP_ARG_TYPE.format(op=op, name="input", i=1, got=type(t).__name__))


def _new(arr: np.ndarray, requires_grad: bool) -> Tensor:
    t = _make(arr, False, None)
    return t.requires_grad_(True) if requires_grad else t


def _float(dtype) -> _dtype.dtype:
    return _dtype.defaults.float_dtype if dtype is None else _dtype.as_dtype(dtype)


def _random_float(dtype, op: str) -> _dtype.dtype:
    """The dtype of rand/randn samples: a floating one (PyTorch: NotImplementedError)."""
    d = _float(dtype)
    if not d.is_floating_point:
        raise NotImplementedError(errors.RANDOM_DTYPE.format(op=op, got=d.name))
    return d


def zeros(*shape, size=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of zeros (default dtype float32)."""
    _device.check(device, "zeros()")
    return _new(np.zeros(_shape("zeros", shape, size), _float(dtype).np), requires_grad)


def ones(*shape, size=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """A tensor of ones (default dtype float32)."""
    _device.check(device, "ones()")
    return _new(np.ones(_shape("ones", shape, size), _float(dtype).np), requires_grad)


def empty(*shape, size=None, dtype=None, device=None, requires_grad: bool = False) -> Tensor:
    """An uninitialised tensor (here: zeros, so results stay deterministic)."""
    shape = _shape("empty", shape, size)
    return zeros(shape, dtype=dtype, device=device, requires_grad=requires_grad)


def full(size, fill_value, dtype=None, requires_grad: bool = False, *, device=None) -> Tensor:
    """A tensor filled with ``fill_value``; dtype inferred from it when not given."""
    _device.check(device, "full()")
    d = _dtype.scalar_dtype(fill_value) if dtype is None else _dtype.as_dtype(dtype)
    fill_value = _dtype.checked_int(fill_value, d.np)  # uint8: -1 is 255; 300 is refused
    return _new(np.full(_size((size,)), fill_value, d.np), requires_grad)


def _like(t, dtype, op: str, memory_format=None):
    _check_tensor(t, op)
    _memory_format.check(memory_format, t.ndim, op)  # accepted as PyTorch; laid out row-major
    return t.dtype if dtype is None else _dtype.as_dtype(dtype)


def zeros_like(
    t: Tensor, dtype=None, requires_grad: bool = False, *, device=None, memory_format=None
) -> Tensor:
    """Zeros with the shape (and dtype) of ``t``."""
    _device.check(device, "zeros_like()")
    d = _like(t, dtype, "zeros_like", memory_format)
    return _new(np.zeros(t.shape, d.np), requires_grad)


def ones_like(
    t: Tensor, dtype=None, requires_grad: bool = False, *, device=None, memory_format=None
) -> Tensor:
    """Ones with the shape (and dtype) of ``t``."""
    _device.check(device, "ones_like()")
    d = _like(t, dtype, "ones_like", memory_format)
    return _new(np.ones(t.shape, d.np), requires_grad)


def empty_like(
    t: Tensor, dtype=None, requires_grad: bool = False, *, device=None, memory_format=None
) -> Tensor:
    """An uninitialised tensor with the shape (and dtype) of ``t`` (here: zeros)."""
    _check_tensor(t, "empty_like")
    return zeros_like(t, dtype, requires_grad, device=device, memory_format=memory_format)


def full_like(
    t: Tensor,
    fill_value,
    dtype=None,
    requires_grad: bool = False,
    *,
    device=None,
    memory_format=None,
) -> Tensor:
    """``fill_value`` everywhere, with the shape (and dtype) of ``t``."""
    _device.check(device, "full_like()")
    d = _like(t, dtype, "full_like", memory_format)
    return _new(np.full(t.shape, _dtype.checked_int(fill_value, d.np), d.np), requires_grad)


def arange(
    start, end=None, step=1, dtype=None, requires_grad: bool = False, *, device=None
) -> Tensor:
    """Evenly spaced values in [start, end) (``torch.arange``); int64 for int arguments."""
    _device.check(device, "arange()")
    if end is None:
        start, end = 0, start
    for name, value in (("start", start), ("end", end), ("step", step)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(errors.ARANGE_TYPE.format(name=name, got=type(value).__name__))
    if step == 0:
        raise RuntimeError(errors.ARANGE_STEP)
    if (end - start) * step < 0:
        raise RuntimeError(errors.ARANGE_SIGN)
    if dtype is None:
        ints = all(isinstance(v, (int, np.integer)) for v in (start, end, step))
        dtype = _dtype.int64 if ints else _dtype.defaults.float_dtype
    return _new(arange_values(start, end, step, _dtype.as_dtype(dtype).np), requires_grad)


def linspace(
    start, end, steps: int, dtype=None, requires_grad: bool = False, *, device=None
) -> Tensor:
    """``steps`` evenly spaced values from start to end inclusive (``torch.linspace``)."""
    _device.check(device, "linspace()")
    _check_int(steps, "linspace", "steps", 3)
    if steps < 0:
        raise RuntimeError(errors.LINSPACE_STEPS)
    return _new(linspace_values(start, end, steps, _float(dtype).np), requires_grad)


def eye(
    n: int, m: int | None = None, dtype=None, requires_grad: bool = False, *, device=None
) -> Tensor:
    """Identity matrix (``torch.eye``)."""
    _device.check(device, "eye()")
    for name, value, position in (("n", n, 1), ("m", m, 2)):
        if value is not None:
            _check_int(value, "eye", name, position)
            if value < 0:
                raise RuntimeError(errors.EYE_NEGATIVE.format(name=name, got=value))
    return _new(np.eye(n, m, dtype=_float(dtype).np), requires_grad)


def randn(
    *shape, size=None, generator=None, dtype=None, device=None, requires_grad: bool = False
) -> Tensor:
    """Standard normal samples (``torch.randn``), from ``generator`` or the global one.

    Example:
        >>> import minigrad as mg
        >>> mg.randn(2, 3, generator=mg.Generator().manual_seed(42))
        tensor([[ 0.3367,  0.1288,  0.2345],
                [ 0.2303, -1.1229, -0.1863]])
    """
    _device.check(device, "randn()")
    d = _random_float(dtype, "randn")
    shape = _shape("randn", shape, size)
    samples = random.resolve(generator)._normal(math.prod(shape), d.np)
    return _new(samples.reshape(shape), requires_grad)


def rand(
    *shape, size=None, generator=None, dtype=None, device=None, requires_grad: bool = False
) -> Tensor:
    """Uniform samples in [0, 1) (``torch.rand``), from ``generator`` or the global one."""
    _device.check(device, "rand()")
    d = _random_float(dtype, "rand")
    shape = _shape("rand", shape, size)
    samples = random.resolve(generator)._uniform(math.prod(shape), d.np)
    return _new(samples.reshape(shape), requires_grad)


def randn_like(
    t: Tensor, dtype=None, requires_grad: bool = False, *, device=None, memory_format=None
) -> Tensor:
    """``randn`` with the shape of ``t``."""
    d = _like(t, dtype, "randn_like", memory_format)
    return randn(*t.shape, dtype=d, device=device, requires_grad=requires_grad)


def rand_like(
    t: Tensor, dtype=None, requires_grad: bool = False, *, device=None, memory_format=None
) -> Tensor:
    """``rand`` with the shape of ``t``."""
    d = _like(t, dtype, "rand_like", memory_format)
    return rand(*t.shape, dtype=d, device=device, requires_grad=requires_grad)


def randint(low=None, high=None, size=(), *, generator=None, dtype=None, device=None) -> Tensor:
    """Random integers in [low, high) (``torch.randint``); int64 by default.

    ``randint(high, size)`` and ``randint(low, high, size)``, as in PyTorch.

    Example:
        >>> import minigrad as mg
        >>> _ = mg.manual_seed(0)
        >>> mg.randint(10, (3,)).shape, mg.randint(2, 5, (2, 2)).dtype
        (minigrad.Size([3]), minigrad.int64)
    """
    _device.check(device, "randint()")
    if low is None:  # randint(high=3, size=(2,))
        low = 0
    elif high is None or isinstance(high, (tuple, list)):  # randint(high, size)
        low, high, size = 0, low, (() if high is None else high)
    for name, value in (("low", low), ("high", high)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise TypeError(errors.RANDINT_BOUND.format(name=name, got=type(value).__name__))
    if low >= high:
        raise RuntimeError(errors.RANDINT_RANGE.format(low=low, high=high))
    d = _dtype.int64 if dtype is None else _dtype.as_dtype(dtype)
    shape = _size((size,))
    samples = random.resolve(generator)._integers(math.prod(shape), int(low), int(high))
    return _new(samples.reshape(shape).astype(d.np), False)


def randperm(n: int, *, generator=None, dtype=None, device=None) -> Tensor:
    """A random permutation of 0..n-1 (``torch.randperm``).

    PyTorch's shuffle: for i = 0 .. n-2, swap element i with element i + (word % (n - i)),
    one 32-bit word of the generator per step.
    """
    _device.check(device, "randperm()")
    _check_int(n, "randperm", "n", 1)
    if n < 0:
        raise RuntimeError(errors.NEGATIVE_DIM.format(n=n))
    d = _dtype.int64 if dtype is None else _dtype.as_dtype(dtype)
    order = np.arange(n, dtype=np.int64)
    if n > 1:
        offsets = random.resolve(generator)._words(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)
        for i, offset in enumerate(offsets.tolist()):
            j = i + offset
            order[i], order[j] = order[j], order[i]
    return _new(order.astype(d.np), False)
