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

import functools

from . import _malloc  # isort: skip  (first: glibc keeps freed memory, see _malloc.py)
from . import (
    _tensor_methods,  # noqa: F401  (installs the operator methods on Tensor)
    autograd,
    errors,
    trace,
)
from ._aliases import accept_numpy_names
from ._array_names import asarray, can_cast, promote_types, randint_like, result_type
from ._device import device, get_default_device, set_default_device
from ._dtype import (
    bool_ as bool,  # noqa: A004  (torch.bool)
)
from ._dtype import (
    double,
    dtype,
    finfo,
    float,  # noqa: A004
    float16,
    float32,
    float64,
    get_default_dtype,
    half,
    iinfo,
    int,  # noqa: A004
    int8,
    int16,
    int32,
    int64,
    long,
    set_default_dtype,
    uint8,
)
from ._format import set_printoptions
from ._legacy import TYPES as _LEGACY_TYPES
from ._memory_format import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    memory_format,
    preserve_format,
)
from ._out import accepts_out
from ._sampling import bernoulli, multinomial, normal
from ._size import Size
from .factory import (
    arange,
    as_tensor,
    empty,
    empty_like,
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
from .ops.arith import add, mul, neg, pow, sub  # noqa: A004
from .ops.binary_math import fmod, lerp, logaddexp, maximum, minimum, remainder
from .ops.builders import (
    block_diag,
    cartesian_prod,
    combinations,
    diag_embed,
    diagflat,
    logspace,
    tensor_split,
    tensordot,
    vander,
)
from .ops.compositions import (
    aminmax,
    atleast_1d,
    atleast_2d,
    atleast_3d,
    bincount,
    broadcast_tensors,
    cdist,
    column_stack,
    diff,
    dist,
    dstack,
    isin,
    kron,
    logcumsumexp,
    masked_select,
    meshgrid,
    nanmean,
    nansum,
    repeat_interleave,
    rot90,
    std_mean,
    take,
    take_along_dim,
    var_mean,
    vdot,
)
from .ops.diagonal import diag, diagonal
from .ops.factorizations import qr_some as qr
from .ops.factorizations import svd_some as svd
from .ops.flip_split import chunk, flip, narrow, roll, split, tril, triu, unbind
from .ops.integer_math import (
    bitwise_and,
    bitwise_not,
    bitwise_or,
    bitwise_xor,
    frexp,
    gcd,
    heaviside,
    lcm,
    ldexp,
    nextafter,
)
from .ops.least_squares import pinverse
from .ops.linalg import addmm, bmm, det, dot, matmul, mm, mv, outer
from .ops.linalg import inv as inverse
from .ops.masked import argwhere, count_nonzero, masked_fill, nonzero
from .ops.matrix_exp import matrix_exp
from .ops.more_math import (
    addcdiv,
    addcmul,
    baddbmm,
    bucketize,
    copysign,
    cross,
    float_power,
    fmax,
    fmin,
    logaddexp2,
    polygamma,
    searchsorted,
    tril_indices,
    triu_indices,
)
from .ops.order_stats import kthvalue, mode, msort, nanquantile, quantile, unique_consecutive
from .ops.padding import tile
from .ops.prod_and_scans import cummax, cummin, cumprod, cumsum, prod
from .ops.put_and_unfold import index_put, masked_scatter, put
from .ops.reduce import amax, amin, log_softmax, logsumexp, max, mean, min, softmax, std, sum, var  # noqa: A004
from .ops.rounded_division import div, floor_divide
from .ops.scatter import index_add, index_fill, scatter, scatter_add
from .ops.select import allclose, cat, isclose, isfinite, isinf, isnan, stack, where
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
from .ops.sorting import median
from .ops.special import xlogy
from .ops.special_functions import i0
from .ops.special_functions import multigammaln as mvlgamma
from .ops.statistics import corrcoef, cov, cumulative_trapezoid, renorm, trapezoid, trapz
from .ops.triangular import cholesky_solve
from .ops.trig_and_logs import atan2, hypot
from .random import Generator, default_generator, get_rng_state, initial_seed, seed, set_rng_state
from .recording.grad_mode import (
    enable_grad,
    inference_mode,
    is_grad_enabled,
    is_inference_mode_enabled,
    no_grad,
    set_grad_enabled,
)
from .serialization import load, save
from .tensor import Tensor
from .tensor import has_sparse_layout as _has_sparse_layout

concat = concatenate = cat  # PyTorch's aliases of cat (torch.concat, torch.concatenate)


def _tensor_input(input, name: str) -> None:  # noqa: A002
    """PyTorch's TypeError when a module function gets a non-tensor input (``mg.exp(3.0)``)."""
    if not isinstance(input, Tensor):
        raise TypeError(
            errors.OP_ARG_TYPE.format(op=name, name="input", i=1, got=type(input).__name__)
        )


def _checked(fn):
    """A module function whose first argument must be a Tensor."""

    @functools.wraps(fn)
    def wrapper(input, *args, **kwargs):  # noqa: A002
        _tensor_input(input, fn.__name__)
        return fn(input, *args, **kwargs)

    return wrapper


def _sparse_aware(fn, name):
    """Module functions reach a sparse tensor's own method (its sparse kernel)."""

    @functools.wraps(fn)
    def wrapper(input, *args, **kwargs):  # noqa: A002
        _tensor_input(input, name)
        if _has_sparse_layout(input):
            return getattr(input, name)(*args, **kwargs)
        return fn(input, *args, **kwargs)

    return wrapper


sum = _sparse_aware(sum, "sum")  # noqa: A001
mul = _sparse_aware(mul, "mul")
neg = _sparse_aware(neg, "neg")
t = _sparse_aware(t, "t")
transpose = _sparse_aware(transpose, "transpose")
reshape, flatten, movedim, permute = map(_checked, (reshape, flatten, movedim, permute))
squeeze, unsqueeze, broadcast_to = map(_checked, (squeeze, unsqueeze, broadcast_to))
mean, max, min, var = map(_checked, (mean, max, min, var))  # noqa: A001
amax, amin, logsumexp = map(_checked, (amax, amin, logsumexp))
softmax, log_softmax = map(_checked, (softmax, log_softmax))
matmul, mm = map(_checked, (matmul, mm))
# (a sparse input reaches its method, which says there is no sparse kernel)
maximum, minimum, logaddexp = (_sparse_aware(f, f.__name__) for f in (maximum, minimum, logaddexp))
std, prod, cumsum, cumprod, median = (
    _sparse_aware(f, f.__name__) for f in (std, prod, cumsum, cumprod, median)
)
# numpy's spellings, as PyTorch's parser accepts them: mg.sum(x, axis=0, keepdims=True)
sum, mean, max, min, var, std, prod, cumsum = map(  # noqa: A001
    accept_numpy_names, (sum, mean, max, min, var, std, prod, cumsum)
)
amax, amin, logsumexp, softmax, log_softmax = map(
    accept_numpy_names, (amax, amin, logsumexp, softmax, log_softmax)
)
flip, roll, tril, triu = (_sparse_aware(f, f.__name__) for f in (flip, roll, tril, triu))
diag, diagonal = (_sparse_aware(f, f.__name__) for f in (diag, diagonal))
chunk, split, narrow, unbind = (
    _sparse_aware(f, f.__name__) for f in (chunk, split, narrow, unbind)
)
masked_fill = _sparse_aware(masked_fill, "masked_fill")


def _unary(name):
    def fn(input, *args, **kwargs):  # noqa: A002
        _tensor_input(input, name)
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
clamp_min = _unary("clamp_min")
clamp_max = _unary("clamp_max")
sign = _unary("sign")
square = _unary("square")
log1p = _unary("log1p")
all = _unary("all")  # noqa: A001
any = _unary("any")  # noqa: A001
select = _unary("select")
log2 = _unary("log2")
log10 = _unary("log10")
expm1 = _unary("expm1")
reciprocal = _unary("reciprocal")
rsqrt = _unary("rsqrt")
sinh = _unary("sinh")
cosh = _unary("cosh")
asin = _unary("asin")
acos = _unary("acos")
atan = _unary("atan")
floor = _unary("floor")
ceil = _unary("ceil")
round = _unary("round")  # noqa: A001  (torch.round(x, decimals=0))
trunc = _unary("trunc")
frac = _unary("frac")
erf = _unary("erf")
erfc = _unary("erfc")
erfinv = _unary("erfinv")
logit = _unary("logit")
nan_to_num = _unary("nan_to_num")
norm = _unary("norm")
numel = _unary("numel")
equal = _unary("equal")
# in place, as torch.sin_(x) is x.sin_()
exp_ = _unary("exp_")
log_ = _unary("log_")
sqrt_ = _unary("sqrt_")
sin_ = _unary("sin_")
cos_ = _unary("cos_")
tanh_ = _unary("tanh_")
sigmoid_ = _unary("sigmoid_")
relu_ = _unary("relu_")
abs_ = _unary("abs_")
neg_ = _unary("neg_")
square_ = _unary("square_")
log1p_ = _unary("log1p_")
expm1_ = _unary("expm1_")
reciprocal_ = _unary("reciprocal_")
rsqrt_ = _unary("rsqrt_")
sinh_ = _unary("sinh_")
cosh_ = _unary("cosh_")
asin_ = _unary("asin_")
acos_ = _unary("acos_")
atan_ = _unary("atan_")
floor_ = _unary("floor_")
ceil_ = _unary("ceil_")
round_ = _unary("round_")
trunc_ = _unary("trunc_")
frac_ = _unary("frac_")
argmax = _unary("argmax")
argmin = _unary("argmin")
clone = _unary("clone")
detach = _unary("detach")

# PyTorch's out= (torch.matmul(a, b, out=c)), on the functions its tutorials show it with
# and their neighbours: minigrad/_out.py
add, sub, mul, div, pow = map(accepts_out, (add, sub, mul, div, pow))  # noqa: A001
matmul, mm, bmm, mv, dot, addmm = map(accepts_out, (matmul, mm, bmm, mv, dot, addmm))
cat, stack, where, maximum, minimum = map(accepts_out, (cat, stack, where, maximum, minimum))
sum, mean, cumsum, cumprod, prod = map(accepts_out, (sum, mean, cumsum, cumprod, prod))  # noqa: A001
exp, log, sqrt, sin, cos, tanh, sigmoid, abs = map(  # noqa: A001
    accepts_out, (exp, log, sqrt, sin, cos, tanh, sigmoid, abs)
)
clamp = clip = accepts_out(clamp, "clamp")
sign, square, log1p, log2, log10, expm1, reciprocal, rsqrt = map(
    accepts_out, (sign, square, log1p, log2, log10, expm1, reciprocal, rsqrt)
)
floor, ceil, round, trunc, frac, neg = map(accepts_out, (floor, ceil, round, trunc, frac, neg))  # noqa: A001

# the legacy constructors (torch.FloatTensor([1, 2]), isinstance(x, torch.LongTensor))
FloatTensor, DoubleTensor, HalfTensor = (
    _LEGACY_TYPES[n] for n in ("FloatTensor", "DoubleTensor", "HalfTensor")
)
LongTensor, IntTensor, ShortTensor = (
    _LEGACY_TYPES[n] for n in ("LongTensor", "IntTensor", "ShortTensor")
)
CharTensor, ByteTensor, BoolTensor = (
    _LEGACY_TYPES[n] for n in ("CharTensor", "ByteTensor", "BoolTensor")
)


def is_tensor(obj) -> bool:
    """True for minigrad tensors (``torch.is_tensor``)."""
    return isinstance(obj, Tensor)


strided = "strided"
sparse_coo = "sparse_coo"
sparse_csr = "sparse_csr"
sparse_csc = "sparse_csc"
__version__ = "0.1.0"

from . import (  # noqa: E402  (they import the names above)
    accelerator,
    amp,
    backends,
    cuda,
    distributed,
    distributions,
    func,
    linalg,
    nn,
    optim,
    random,
    sparse,
    special,
    tape,
    testing,
    utils,
)
from .amp import autocast  # noqa: E402
from .func import vmap  # noqa: E402  (torch.vmap is torch.func.vmap)
from .ops.einsum import einsum  # noqa: E402
from .ops.histogram import histc, histogram  # noqa: E402
from .ops.sorting import argsort, sort, topk, unique  # noqa: E402
from .sparse import sparse_coo_tensor, sparse_csc_tensor, sparse_csr_tensor  # noqa: E402
from .sparse.embedding import gather, index_select  # noqa: E402

# --- PyTorch's other spellings of the same ops (torch.multiply is torch.mul, ...) -----------------
multiply, subtract, true_divide, divide = mul, sub, div, div
absolute, negative, fix = abs, neg, trunc  # noqa: F821  (defined above by _unary)
swapaxes = swapdims = transpose
moveaxis = movedim
exp2, sinc, sgn = _unary("exp2"), _unary("sinc"), _unary("sgn")
eq, ne, gt, ge, lt, le = (_unary(n) for n in ("eq", "ne", "gt", "ge", "lt", "le"))
greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne
logical_and, logical_or = _unary("logical_and"), _unary("logical_or")
logical_xor, logical_not = _unary("logical_xor"), _unary("logical_not")
ravel, is_floating_point, is_nonzero = (
    _unary("ravel"),
    _unary("is_floating_point"),
    _unary("is_nonzero"),
)


def hstack(tensors):
    """Tensors joined along dim 1 (dim 0 for 1-D ones) (``torch.hstack``)."""
    tensors = list(tensors)
    return cat(tensors, 0 if tensors and tensors[0].ndim == 1 else 1)  # noqa: F821


def vstack(tensors):
    """Tensors joined along dim 0, 1-D ones as rows (``torch.vstack``)."""
    return cat([t.unsqueeze(0) if t.ndim == 1 else t for t in tensors], 0)  # noqa: F821


fliplr = _unary("fliplr")
flipud = _unary("flipud")
tan, asinh, acosh, atanh = _unary("tan"), _unary("asinh"), _unary("acosh"), _unary("atanh")
arcsin, arccos, arctan, arctan2 = _unary("asin"), _unary("acos"), _unary("atan"), _unary("atan2")
arcsinh, arccosh, arctanh = asinh, acosh, atanh
deg2rad, rad2deg = _unary("deg2rad"), _unary("rad2deg")
lgamma, digamma = _unary("lgamma"), _unary("digamma")
positive, signbit = _unary("positive"), _unary("signbit")
isposinf, isneginf = _unary("isposinf"), _unary("isneginf")
row_stack = vstack


def matrix_power(input, n):  # noqa: A002
    """``torch.matrix_power``: :func:`minigrad.linalg.matrix_power`."""
    return linalg.matrix_power(input, n)


def chain_matmul(*matrices):
    """``torch.chain_matmul`` (PyTorch's older name of ``linalg.multi_dot``)."""
    return linalg.multi_dot(matrices)


def slogdet(input):  # noqa: A002
    """``torch.slogdet``: :func:`minigrad.linalg.slogdet`."""
    return linalg.slogdet(input)


def logdet(input):  # noqa: A002
    """log(det A) (``torch.logdet``): NaN where det < 0, -inf where it is 0."""
    return input.logdet()


clamp_, clamp_min_, clamp_max_ = _unary("clamp_"), _unary("clamp_min_"), _unary("clamp_max_")
clip_ = clamp_
tan_, exp2_, sinc_, fix_ = _unary("tan_"), _unary("exp2_"), _unary("sinc_"), _unary("fix_")
deg2rad_, rad2deg_, negative_ = _unary("deg2rad_"), _unary("rad2deg_"), _unary("negative_")
