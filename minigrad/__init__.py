"""minigrad: a compact, sparse-aware reverse-mode autograd engine on numpy, for teaching.

Names and semantics follow PyTorch, so ``import minigrad as mg`` code ports to
PyTorch by changing the import.

Example:
    >>> import minigrad as mg
    >>> x = mg.tensor(3.0, requires_grad=True)
    >>> y = x**2 + 2*x
    >>> y.backward()
    >>> x.grad
    tensor(8.)
"""

from __future__ import annotations

from . import _malloc  # isort: skip  (first: glibc keeps freed memory, see _malloc.py)
from . import (
    _tensor_ops,  # noqa: F401  (installs the operator methods on Tensor)
    autograd,
    trace,
)
from ._dtype import (
    bool_ as bool,  # noqa: A004  (torch.bool)
)
from ._dtype import (
    double,
    dtype,
    float,  # noqa: A004
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    int,  # noqa: A004
    int8,
    int16,
    int32,
    int64,
    long,
    set_default_dtype,
    uint8,
)
from .autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from .factory import (
    arange,
    as_tensor,
    empty,
    eye,
    from_numpy,
    full,
    full_like,
    linspace,
    manual_seed,
    ones,
    ones_like,
    rand,
    rand_like,
    randint,
    randn,
    randn_like,
    randperm,
    tensor,
    zeros,
    zeros_like,
)
from .ops.arith import add, div, mul, neg, pow, sub  # noqa: A004
from .ops.linalg import matmul, mm
from .ops.reduce import amax, amin, log_softmax, logsumexp, max, mean, min, softmax, sum, var  # noqa: A004
from .ops.select import allclose, cat, isclose, stack, where
from .ops.shape import (
    broadcast_to,
    flatten,
    movedim,
    permute,
    reshape,
    squeeze,
    t,
    transpose,
    unsqueeze,
)
from .tensor import Tensor
from .tensor import has_sparse_layout as _has_sparse_layout


def _sparse_aware(fn, name):
    """Module functions reach a sparse tensor's own method (its sparse kernel)."""

    def wrapper(input, *args, **kwargs):  # noqa: A002
        if _has_sparse_layout(input):
            return getattr(input, name)(*args, **kwargs)
        return fn(input, *args, **kwargs)

    wrapper.__name__, wrapper.__doc__ = fn.__name__, fn.__doc__
    return wrapper


sum = _sparse_aware(sum, "sum")  # noqa: A001
mul = _sparse_aware(mul, "mul")
neg = _sparse_aware(neg, "neg")
t = _sparse_aware(t, "t")
transpose = _sparse_aware(transpose, "transpose")


def _unary(name):
    def fn(input, *args, **kwargs):  # noqa: A002
        return getattr(input, name)(*args, **kwargs)

    fn.__name__ = name
    fn.__doc__ = f"``minigrad.{name}(x)`` is ``x.{name}()`` (``torch.{name}``)."
    return fn


exp = _unary("exp")
log = _unary("log")
sqrt = _unary("sqrt")
sin = _unary("sin")
cos = _unary("cos")
tanh = _unary("tanh")
sigmoid = _unary("sigmoid")
relu = _unary("relu")
abs = _unary("abs")  # noqa: A001
clamp = _unary("clamp")
clip = clamp
sign = _unary("sign")
argmax = _unary("argmax")
argmin = _unary("argmin")
clone = _unary("clone")
detach = _unary("detach")


def is_tensor(obj) -> bool:
    """True for minigrad tensors (``torch.is_tensor``)."""
    return isinstance(obj, Tensor)


strided = "strided"
sparse_coo = "sparse_coo"
sparse_csr = "sparse_csr"
sparse_csc = "sparse_csc"
__version__ = "0.1.0"

from . import amp, func, linalg, nn, optim, sparse, tape, utils  # noqa: E402  (they import the names above)
from .amp import autocast  # noqa: E402
from .sparse import sparse_coo_tensor, sparse_csc_tensor, sparse_csr_tensor  # noqa: E402
from .sparse.embedding import gather, index_select  # noqa: E402
