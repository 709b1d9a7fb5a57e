"""The operator and op methods of :class:`~minigrad.tensor.Tensor` and of its sparse kind.

Each method is one line that hands over to ``minigrad.ops``, where the op's
forward and backward live side by side; ``backward()`` hands over to the engine.
Two neighbours hold the rest: the in-place methods (``add_``, ``x[k] = v`` ...,
with the version-counter and leaf checks PyTorch does) in ``_tensor_inplace_methods.py``,
and the few op methods of :class:`~minigrad.sparse.tensor.SparseTensor` (``@``,
``*``, ``t``, ``sum`` ...) in ``_sparse_tensor_methods.py``.

``tensor.py`` and ``sparse/tensor.py`` know nothing of the ops built on them; the
methods are installed on ``Tensor`` and ``SparseTensor`` (:func:`install`, called at
the bottom of this module) when ``minigrad`` is imported. That is the one place where
tensors and ops are tied both ways.
"""

from __future__ import annotations

import inspect
import warnings

import numpy as np

from . import _dtype, _legacy, _memory_format, errors
from . import factory as _factory
from ._aliases import accept_numpy_names
from ._sampling import RandomTensorOps
from ._sparse_tensor_methods import SparseTensorOps, refuse_without_kernel
from ._tensor_inplace_methods import InplaceTensorOps
from ._tensor_method_table import NamedOpsTensorMethods
from .errors import tensor_ops as tensor_errors
from .ops import (
    arith,
    binary_math,
    compositions,
    convert,
    factorizations,
    flip_split,
    histogram,
    least_squares,
    linalg,
    masked,
    matrix_exp,
    more_math,
    padding,
    prod_and_scans,
    reduce,
    rounded_division,
    rounding,
    select,
    shape,
    sorting,
    special,
    triangular,
    trig_and_logs,
    unary,
)
from .ops import diagonal as diagonals
from .ops import norm as norms
from .ops import scatter as scatters
from .ops._util import check_tensor, named, norm_dim, to_tensor
from .ops.select import where as where_
from .recording import grad_mode as _grad_mode
from .replaying.api import backward as _backward
from .sparse import embedding
from .sparse.ops_layout import ToSparse
from .sparse.tensor import SparseTensor
from .tensor import Tensor, _init

_grad = _grad_mode.state


def _strided_array(t, method: str) -> np.ndarray:
    if not isinstance(t._data, np.ndarray):
        raise RuntimeError(errors.NO_STORAGE.format(method=method, layout=t.layout))
    return t._data


# float(x) of an x that requires grad, with grad mode on: PyTorch's UserWarning, the first time
# in the process only (x.item(), int(x) and f-strings do not warn, in PyTorch either)
_float_warned = [False]


class TensorOps:
    """Mixin with every operator of Tensor (PyTorch names and semantics)."""

    def numpy(self, *, force: bool = False) -> np.ndarray:
        """The data as a numpy array, sharing memory (``Tensor.numpy``). A tensor that requires
        grad refuses while grad mode is on, as in PyTorch (the array would leave the graph
        unnoticed): call ``detach()`` first, or ask under ``no_grad`` or with ``force=True``."""
        if self._requires_grad and _grad.enabled and not force:
            raise RuntimeError(errors.NUMPY_REQUIRES_GRAD)
        return self._data.__array__()  # the array itself (a traced one refuses: _traced.py)

    def __init__(self, *args, device=None):
        """``minigrad.Tensor(...)``, PyTorch's legacy constructor (``minigrad._legacy``):
        ``Tensor([1, 2])`` is a float tensor of those values, ``Tensor(2, 3)`` one of that
        shape (zeros), ``Tensor(t)`` shares ``t``'s memory. Prefer ``minigrad.tensor``."""
        found = _legacy.legacy_array(args, None, device, "Tensor")
        if isinstance(found, Tensor):
            _init(self, found._data, False, None)
            self._share_version_with(found)
        else:
            _init(self, found, False, None)

    def size(self, dim: int | None = None):
        """The shape (a :class:`~minigrad.Size`), or the size of one dimension."""
        if dim is None:
            return self.shape
        return self._data.shape[norm_dim(dim, self.ndim)]

    def stride(self, dim: int | None = None):
        """Elements to step over to move one place along each dim (``Tensor.stride``): numpy's
        byte strides divided by the element size, so a view's strides are PyTorch's."""
        strides = tuple(s // self._data.itemsize for s in self._data.strides)
        return strides if dim is None else strides[norm_dim(dim, self.ndim)]

    def is_contiguous(self, memory_format=None) -> bool:
        """Whether the elements lie in memory in row-major order, without gaps (with
        ``memory_format=channels_last``: in NHWC order, as PyTorch's check)."""
        _memory_format.check(memory_format, self.ndim, "is_contiguous")
        if memory_format is None or memory_format.rank is None:
            return bool(self._data.flags.c_contiguous)
        order = (0, *range(2, self.ndim), 1)  # N, then the spatial dims, then C
        moved = np.transpose(self._data, order)
        return bool(moved.flags.c_contiguous)

    # the memory a tensor shows, as PyTorch's tutorials inspect it (``x.data_ptr() ==
    # y.data_ptr()`` for two tensors sharing memory: a view, ``from_numpy``)
    def data_ptr(self) -> int:
        """The address of the first element (``Tensor.data_ptr``)."""
        return _strided_array(self, "data_ptr").__array_interface__["data"][0]

    def storage_offset(self) -> int:
        """How many elements into its memory block the first element is
        (``Tensor.storage_offset``): 0 for a fresh tensor, ``k`` for the view ``x[k:]``."""
        data = _strided_array(self, "storage_offset")
        root = data
        while isinstance(root.base, np.ndarray):
            root = root.base
        start = root.__array_interface__["data"][0]
        return (data.__array_interface__["data"][0] - start) // data.itemsize

    @property
    def itemsize(self) -> int:
        """Bytes per element (``Tensor.itemsize``, as ``element_size()``)."""
        return self._data.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """Bytes of the elements (``Tensor.nbytes``: ``numel() * itemsize``)."""
        return self._data.size * self._data.dtype.itemsize

    def ndimension(self) -> int:
        """Number of dimensions (``Tensor.ndimension``, as ``dim()``)."""
        return self._data.ndim

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute gradients of this tensor w.r.t. graph leaves (``torch.Tensor.backward``).

        Args:
            gradient: d(something)/d(self); may be omitted for a one-element tensor.
            retain_graph: keep saved tensors for another backward (default: create_graph).
            create_graph: record the backward pass so gradients can be differentiated.
            inputs: if given, only these leaves accumulate gradient.
        """
        self.is_leaf  # noqa: B018  (reads grad_fn, as PyTorch's backward: see UNREAD_GRAD_FN)
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    # --- arithmetic ---------------------------------------------------------------
    def __add__(self, other):
        if type(other) is float or type(other) is int:
            return arith.AddScalar.apply(self, value=other)
        return arith.add(self, other)

    def __radd__(self, other):
        return arith.add(self, other)

    def __sub__(self, other):
        return arith.sub(self, other)

    def __rsub__(self, other):
        return arith.rsub(self, other)

    def __mul__(self, other):
        if type(other) is float or type(other) is int:
            return arith.MulScalar.apply(self, value=other)
        return arith.mul(self, other)

    def __rmul__(self, other):
        return arith.mul(self, other)

    def __truediv__(self, other):
        return arith.div(self, other)

    def __rtruediv__(self, other):
        return arith.rdiv(self, other)

    def __pow__(self, other):
        return arith.pow(self, other)

    def __rpow__(self, other):
        return arith.rpow(self, other)

    def __float__(self) -> float:
        if self._requires_grad and not _float_warned[0] and _grad_mode.is_grad_enabled():
            _float_warned[0] = True  # PyTorch warns once per process (TORCH_WARN_ONCE)
            warnings.warn(errors.FLOAT_OF_REQUIRES_GRAD, UserWarning, stacklevel=2)
        return float(self._one_value())

    def __rmod__(self, other):
        if type(other) in (int, float, bool):
            return binary_math.number_remainder(other, self)
        return NotImplemented

    def __neg__(self):
        return arith.Neg.apply(self)

    def __pos__(self):
        if self._data.dtype == np.bool_:
            raise RuntimeError(errors.POS_BOOL)
        return self

    def __abs__(self):
        return unary.Abs.apply(self)

    def __matmul__(self, other):
        return linalg.matmul(self, other)

    def __rmatmul__(self, other):
        return linalg.matmul(to_tensor(other, self, "matmul"), self)

    add = arith.add
    sub = arith.sub
    mul = arith.mul
    div = rounded_division.div  # rounding_mode= too
    pow = arith.pow
    neg = arith.neg
    maximum = binary_math.maximum
    minimum = binary_math.minimum
    logaddexp = binary_math.logaddexp
    matmul = linalg.matmul
    mm = linalg.mm
    addmm = linalg.addmm
    mv = linalg.mv
    outer = linalg.outer
    bmm = linalg.bmm
    dot = linalg.dot

    # --- comparisons (bool results, no gradient) ---------------------------------
    def __lt__(self, other):
        return select.compare(self, other, np.less, "lt")

    def __le__(self, other):
        return select.compare(self, other, np.less_equal, "le")

    def __gt__(self, other):
        return select.compare(self, other, np.greater, "gt")

    def __ge__(self, other):
        return select.compare(self, other, np.greater_equal, "ge")

    def __eq__(self, other):
        if other is None:  # as PyTorch: NotImplemented, so ``t == None`` is False, not an error
            return NotImplemented
        return select.compare(self, other, np.equal, "eq")

    def __ne__(self, other):
        if other is None:  # ``t != None`` is True
            return NotImplemented
        return select.compare(self, other, np.not_equal, "ne")

    # ~ & | ^ and // are in _tensor_method_table.py, with the other methods of its ops

    lt, le, gt, ge, eq, ne = __lt__, __le__, __gt__, __ge__, __eq__, __ne__
    greater, greater_equal, less, less_equal, not_equal = gt, ge, lt, le, ne

    def logical_and(self, other):
        """True where both are nonzero (``Tensor.logical_and``); a bool tensor, no gradient."""
        return select.compare(self, other, np.logical_and, "logical_and")

    def logical_or(self, other):
        """True where either is nonzero (``Tensor.logical_or``)."""
        return select.compare(self, other, np.logical_or, "logical_or")

    def logical_xor(self, other):
        """True where exactly one is nonzero (``Tensor.logical_xor``)."""
        return select.compare(self, other, np.logical_xor, "logical_xor")

    def logical_not(self):
        """True where self is zero (``Tensor.logical_not``)."""
        return select.compare(self, 0, np.equal, "logical_not")

    def equal(self, other) -> bool:
        """True when shapes and all values agree (``torch.equal``)."""
        check_tensor(other, "equal", "other", 2)
        return self.shape == other.shape and bool(np.array_equal(self._data, other._data))

    allclose = select.allclose
    isclose = select.isclose
    isnan = select.isnan
    isinf = select.isinf
    isfinite = select.isfinite

    # --- elementwise math ---------------------------------------------------------------
    def exp(self):
        return unary.Exp.apply(self)

    def log(self):
        return unary.Log.apply(self)

    def sqrt(self):
        return unary.Sqrt.apply(self)

    def sin(self):
        return unary.Sin.apply(self)

    def cos(self):
        return unary.Cos.apply(self)

    def tanh(self):
        return unary.Tanh.apply(self)

    def sigmoid(self):
        return unary.Sigmoid.apply(self)

    def relu(self):
        return unary.Relu.apply(self)

    def abs(self):
        return unary.Abs.apply(self)

    def sign(self):
        return unary.Sign.apply(self)

    def clamp(self, min=None, max=None):  # noqa: A002
        return unary.Clamp.apply(self, min=min, max=max)

    def clamp_min(self, min):  # noqa: A002
        """``clamp(min=min)`` (``Tensor.clamp_min``; PyTorch's node: ClampMinBackward0)."""
        out = unary.Clamp.apply(self, min=min)
        return out if isinstance(min, Tensor) else named(out, "ClampMinBackward0")

    def clamp_max(self, max):  # noqa: A002
        """``clamp(max=max)`` (``Tensor.clamp_max``; PyTorch's node: ClampMaxBackward0)."""
        out = unary.Clamp.apply(self, max=max)
        return out if isinstance(max, Tensor) else named(out, "ClampMaxBackward0")

    def type_as(self, other):
        """This tensor in ``other``'s dtype (``Tensor.type_as``)."""
        return self.to(other.dtype)

    def square(self):
        """``self ** 2`` (``Tensor.square``; the node is PowBackward0, as in PyTorch)."""
        return arith.pow(self, 2)

    clip = clamp

    def log1p(self):
        return trig_and_logs.Log1p.apply(self)

    def log2(self):
        """Base-2 logarithm (``Tensor.log2``)."""
        return trig_and_logs.Log2.apply(self)

    def log10(self):
        """Base-10 logarithm (``Tensor.log10``); training loops log ``loss.log10()``."""
        return trig_and_logs.Log10.apply(self)

    def erf(self):
        """Error function (``Tensor.erf``)."""
        return special.Erf.apply(self)

    def erfc(self):
        """Complementary error function 1 - erf (``Tensor.erfc``)."""
        return special.Erfc.apply(self)

    def erfinv(self):
        """Inverse error function (``Tensor.erfinv``)."""
        return special.Erfinv.apply(self)

    def logit(self, eps=None):
        """Log-odds log(p / (1 - p)) (``Tensor.logit``; see :func:`minigrad.logit`)."""
        return special.logit(self, eps)

    scatter = scatters.scatter
    scatter_add = scatters.scatter_add
    index_add = scatters.index_add
    index_fill = scatters.index_fill
    diff = compositions.diff
    rot90 = compositions.rot90
    take = compositions.take
    logcumsumexp = compositions.logcumsumexp
    bincount = compositions.bincount
    take_along_dim = compositions.take_along_dim
    masked_select = compositions.masked_select
    repeat_interleave = compositions.repeat_interleave
    aminmax = compositions.aminmax
    nansum = compositions.nansum
    nanmean = compositions.nanmean
    dist = compositions.dist
    vdot = compositions.vdot
    kron = compositions.kron
    addcmul = more_math.addcmul
    addcdiv = more_math.addcdiv
    baddbmm = more_math.baddbmm
    cross = more_math.cross
    trace = more_math.trace
    logaddexp2 = more_math.logaddexp2
    multiply, subtract, divide, true_divide = arith.mul, arith.sub, rounded_division.div, arith.div

    fmax = more_math.fmax
    fmin = more_math.fmin
    copysign = more_math.copysign
    float_power = more_math.float_power

    def tan(self):
        """tan x (``Tensor.tan``)."""
        return more_math.Tan.apply(self)

    def asinh(self):
        """asinh x (``Tensor.asinh``; ``arcsinh`` too)."""
        return more_math.Asinh.apply(self)

    def acosh(self):
        """acosh x (``Tensor.acosh``; ``arccosh`` too)."""
        return more_math.Acosh.apply(self)

    def atanh(self):
        """atanh x (``Tensor.atanh``; ``arctanh`` too)."""
        return more_math.Atanh.apply(self)

    def deg2rad(self):
        """Degrees to radians (``Tensor.deg2rad``)."""
        return more_math.Deg2Rad.apply(self)

    def rad2deg(self):
        """Radians to degrees (``Tensor.rad2deg``)."""
        return more_math.Rad2Deg.apply(self)

    def lgamma(self):
        """log |Gamma(x)| (``Tensor.lgamma``)."""
        return more_math.Lgamma.apply(self)

    def digamma(self):
        """The derivative of lgamma (``Tensor.digamma``)."""
        return more_math.Digamma.apply(self)

    def polygamma(self, n):
        """The n-th derivative of digamma (``Tensor.polygamma``)."""
        return more_math.polygamma(n, self)

    def arcsin(self):
        return self.asin()

    def arccos(self):
        return self.acos()

    def arctan(self):
        return self.atan()

    def arctan2(self, other):
        return self.atan2(other)

    arcsinh, arccosh, arctanh = asinh, acosh, atanh

    def matrix_power(self, n):
        """``Tensor.matrix_power``: :func:`minigrad.linalg.matrix_power`."""
        from . import linalg as _linalg  # the user-facing layer, above this one

        return _linalg.matrix_power(self, n)

    def slogdet(self):
        """``(sign, logabsdet)`` (``Tensor.slogdet``)."""
        return linalg.slogdet(self)

    def svd(self, some=True, compute_uv=True):
        """``(U, S, V)`` (``Tensor.svd``, PyTorch's older SVD; see ``torch.svd``)."""
        return factorizations.svd_some(self, some, compute_uv)

    def qr(self, some=True):
        """``(Q, R)`` (``Tensor.qr``, deprecated in PyTorch for ``linalg.qr``)."""
        return factorizations.qr_some(self, some)

    def pinverse(self, rcond=1e-15):
        """The pseudo-inverse (``Tensor.pinverse``; see :func:`minigrad.linalg.pinv`)."""
        return least_squares.pinverse(self, rcond)

    def cholesky_solve(self, input2, upper=False):
        """``torch.cholesky_solve(self, input2, upper)``: X with (L L^T) X = self."""
        return triangular.cholesky_solve(self, input2, upper)

    def matrix_exp(self):
        """The matrix exponential (``Tensor.matrix_exp``; see ``linalg.matrix_exp``)."""
        return matrix_exp.matrix_exp(self)

    def logdet(self):
        """log(det A) (``Tensor.logdet``): NaN where det < 0, -inf where it is 0."""
        sign, logabs = linalg.slogdet(self)
        return where_(sign < 0, float("nan"), logabs)

    def positive(self):
        """Self (``Tensor.positive``, the unary +)."""
        return self

    def signbit(self):
        """True where the sign bit is set (-0.0 too) (``Tensor.signbit``); no gradient."""
        return self._make(np.signbit(self._data), False, None)

    def isposinf(self):
        """True at +inf (``Tensor.isposinf``)."""
        return self._make(np.isposinf(self._data), False, None)

    def isneginf(self):
        """True at -inf (``Tensor.isneginf``)."""
        return self._make(np.isneginf(self._data), False, None)

    def broadcast_to(self, size):
        """``expand`` to ``size`` (``Tensor.broadcast_to``)."""
        return shape.expand(self, *size)

    def sinc(self):
        """sin(pi x) / (pi x), 1 at 0 (``Tensor.sinc``)."""
        return more_math.Sinc.apply(self)

    def exp2(self):
        """2 ** x (``Tensor.exp2``)."""
        return more_math.Exp2.apply(self)

    def sgn(self):
        """The sign, ``torch.sgn``'s name (PyTorch records ``SgnBackward0``)."""
        return more_math.Sgn.apply(self)

    def absolute(self):
        """``Tensor.abs`` under NumPy's name."""
        return self.abs()

    def negative(self):
        """``Tensor.neg`` under NumPy's name."""
        return self.neg()

    def fix(self):
        """``Tensor.trunc`` under NumPy's name."""
        return self.trunc()

    def swapaxes(self, axis0, axis1):
        """``Tensor.transpose`` under NumPy's name (also ``swapdims``)."""
        return shape.transpose(self, axis0, axis1)

    swapdims = swapaxes

    def moveaxis(self, source, destination):
        """``Tensor.movedim`` under NumPy's name."""
        return shape.movedim(self, source, destination)

    def is_nonzero(self) -> bool:
        """The truth of a one-element tensor (``Tensor.is_nonzero``)."""
        if self.numel() != 1:
            raise RuntimeError(
                "Boolean value of Tensor with more than one value is ambiguous"
                if self.numel() > 1
                else "Boolean value of Tensor with no values is ambiguous"
            )
        return bool(self._data.reshape(()))

    def xlogy(self, other):
        """self * log(other), 0 where self is 0 (``Tensor.xlogy``; see :func:`minigrad.xlogy`)."""
        return special.xlogy(self, other)

    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        """NaN and infinities replaced by numbers (``Tensor.nan_to_num``)."""
        return special.nan_to_num(self, nan, posinf, neginf)

    def remainder(self, other):
        """Remainder with the divisor's sign (``Tensor.remainder``; see :func:`minigrad.remainder`)."""
        return binary_math.remainder(self, other)

    def fmod(self, other):
        """Remainder with the dividend's sign (``Tensor.fmod``; see :func:`minigrad.fmod`)."""
        return binary_math.fmod(self, other)

    __mod__ = remainder

    def inverse(self):
        """The matrix inverse (``Tensor.inverse``; see :func:`minigrad.linalg.inv`)."""
        return linalg.inv(self)

    def det(self):
        """The determinant (``Tensor.det``; see :func:`minigrad.linalg.det`)."""
        return linalg.det(self)

    def lerp(self, end, weight):
        """``self + weight * (end - self)`` (``Tensor.lerp``; see :func:`minigrad.lerp`)."""
        return binary_math.lerp(self, end, weight)

    def histc(self, bins: int = 100, min: float = 0, max: float = 0):  # noqa: A002
        """Counts in equal-width bins (``Tensor.histc``; see :func:`minigrad.histc`)."""
        return histogram.histc(self, bins, min, max)

    def histogram(self, bins=100, *, range=None, weight=None, density: bool = False):  # noqa: A002
        """``(hist, bin_edges)`` (``Tensor.histogram``; see :func:`minigrad.histogram`)."""
        return histogram.histogram(self, bins, range=range, weight=weight, density=density)

    def __format__(self, format_spec: str) -> str:
        """A one-element 0-d tensor formats as its number (``f"{loss:.4f}"``), as in PyTorch;
        other tensors accept only the empty format (``f"{t}"`` is ``str(t)``)."""
        if self.dim() == 0:
            return self.item().__format__(format_spec)
        return object.__format__(self, format_spec)

    def sort(self, dim: int = -1, descending: bool = False, *, stable: bool = False):
        """``(values, indices)`` along ``dim`` (``Tensor.sort``; see :func:`minigrad.sort`)."""
        return sorting.sort(self, dim, descending, stable=stable)

    def argsort(self, dim: int = -1, descending: bool = False, *, stable: bool = False):
        """The indices that sort self along ``dim`` (``Tensor.argsort``)."""
        return sorting.argsort(self, dim, descending, stable=stable)

    def topk(self, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):  # noqa: A002
        """``(values, indices)`` of the ``k`` largest along ``dim`` (``Tensor.topk``)."""
        return sorting.topk(self, k, dim, largest, sorted)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
        """The distinct values (``Tensor.unique``; see :func:`minigrad.unique`)."""
        return sorting.unique(self, sorted, return_inverse, return_counts, dim)

    def nonzero(self, *, as_tuple: bool = False):
        """Indices of the nonzero elements (``Tensor.nonzero``; see :func:`minigrad.nonzero`)."""
        return masked.nonzero(self, as_tuple=as_tuple)

    def argwhere(self):
        """Indices of the nonzero elements, one row each (``Tensor.argwhere``)."""
        return masked.argwhere(self)

    def count_nonzero(self, dim=None):
        """How many elements are nonzero (``Tensor.count_nonzero``)."""
        return masked.count_nonzero(self, dim)

    def repeat(self, *sizes):
        """Tile self ``sizes[d]`` times along each dim (``Tensor.repeat``)."""
        return padding.repeat(self, *sizes)

    def tile(self, *dims):
        """Tile self ``dims[d]`` times along each dim, ``dims`` padded with leading 1s
        (``Tensor.tile``: ``x.tile(2, 1)`` or ``x.tile((2, 1))``)."""
        if len(dims) == 1 and isinstance(dims[0], (tuple, list)):
            dims = dims[0]
        return padding.tile(self, tuple(dims))

    def nelement(self) -> int:
        """The number of elements: PyTorch's alias of ``numel``."""
        return self.numel()

    def expm1(self):
        return trig_and_logs.Expm1.apply(self)

    def reciprocal(self):
        return trig_and_logs.Reciprocal.apply(self)

    def rsqrt(self):
        return trig_and_logs.Rsqrt.apply(self)

    def sinh(self):
        return trig_and_logs.Sinh.apply(self)

    def cosh(self):
        return trig_and_logs.Cosh.apply(self)

    def asin(self):
        return trig_and_logs.Asin.apply(self)

    def acos(self):
        return trig_and_logs.Acos.apply(self)

    def atan(self):
        return trig_and_logs.Atan.apply(self)

    def atan2(self, other):
        check_tensor(other, "atan2", "other", 1)  # other is argument 1 of the method
        return trig_and_logs.atan2(self, other)

    def hypot(self, other):
        check_tensor(other, "hypot", "other", 1)
        return trig_and_logs.hypot(self, other)

    def floor(self):
        return rounding.Floor.apply(self)

    def ceil(self):
        return rounding.Ceil.apply(self)

    def trunc(self):
        return rounding.Trunc.apply(self)

    def frac(self):
        return rounding.Frac.apply(self)

    round = rounding.round

    # --- reductions -------------------------------------------------------------------
    sum = reduce.sum
    mean = reduce.mean
    max = reduce.max
    min = reduce.min
    amax = reduce.amax
    amin = reduce.amin
    var = reduce.var
    std = reduce.std
    prod = prod_and_scans.prod
    cumsum = prod_and_scans.cumsum
    median = sorting.median
    cumprod = prod_and_scans.cumprod
    cummax = prod_and_scans.cummax
    cummin = prod_and_scans.cummin
    logsumexp = reduce.logsumexp
    norm = norms.norm
    softmax = reduce.softmax
    log_softmax = reduce.log_softmax

    def argmax(self, dim=None, keepdim=False):
        """Index of the largest element (flattened when dim is None)."""
        return _arg_extreme(self, np.argmax, "argmax", dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        """Index of the smallest element (flattened when dim is None)."""
        return _arg_extreme(self, np.argmin, "argmin", dim, keepdim)

    def all(self, dim=None, keepdim=False):
        """True where every element (along ``dim``) is nonzero (``Tensor.all``)."""
        return _logical_reduce(self, np.all, dim, keepdim)

    def any(self, dim=None, keepdim=False):
        """True where some element (along ``dim``) is nonzero (``Tensor.any``)."""
        return _logical_reduce(self, np.any, dim, keepdim)

    # --- shapes -----------------------------------------------------------------------
    reshape = shape.reshape
    view = shape.view
    flatten = shape.flatten
    unflatten = shape.unflatten
    permute = shape.permute
    movedim = shape.movedim
    transpose = shape.transpose
    t = shape.t
    unsqueeze = shape.unsqueeze
    squeeze = shape.squeeze
    expand = shape.expand
    roll = flip_split.roll
    tril = flip_split.tril
    diagonal = diagonals.diagonal
    diag = diagonals.diag
    triu = flip_split.triu
    chunk = flip_split.chunk
    unbind = flip_split.unbind
    narrow = flip_split.narrow
    masked_fill = masked.masked_fill

    def flip(self, *args, dims=None):
        """Reverse the order along dims: ``x.flip(0, 1)``, ``x.flip((0, 1))`` or
        ``x.flip(dims=[0, 1])`` (``Tensor.flip``)."""
        if dims is None:
            dims = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        return flip_split.flip(self, tuple(dims))

    def split(self, split_size, dim=0):
        """Pieces of ``split_size`` (an int, or a list of sizes) along ``dim``, as views
        (``Tensor.split``; :func:`minigrad.split` names the sizes ``split_size_or_sections``)."""
        return flip_split.split(self, split_size, dim)

    def expand_as(self, other):
        return shape.expand(self, *other.shape)

    def ravel(self):
        """The elements as a 1-D tensor, a view where possible (``Tensor.ravel``)."""
        return shape.reshape(self, -1)

    def fliplr(self):
        """Reversed along dim 1 (``Tensor.fliplr``; at least 2-D)."""
        if self.ndim < 2:
            raise RuntimeError("Input must be >= 2-d.")
        return self.flip(1)

    def flipud(self):
        """Reversed along dim 0 (``Tensor.flipud``; at least 1-D)."""
        if self.ndim < 1:
            raise RuntimeError("Input must be >= 1-d.")
        return self.flip(0)

    def view_as(self, other):
        return shape.view(self, *other.shape)

    def reshape_as(self, other):
        return shape.reshape(self, *other.shape)

    def contiguous(self, memory_format=None):
        """Self if its memory is in C order, else a C-ordered copy (differentiable); every
        ``memory_format`` gives the row-major order here (see ``minigrad._memory_format``)."""
        _memory_format.check(memory_format, self.ndim, "contiguous")
        if self._data.flags.c_contiguous:
            return self
        return convert.Contiguous.apply(self)

    def __getitem__(self, key):
        return select.getitem(self, key)

    def index_select(self, dim, index):
        return embedding.index_select(self, dim, index)

    def gather(self, dim, index, *, sparse_grad=False):
        return embedding.gather(self, dim, index, sparse_grad=sparse_grad)

    # --- dtype and device conversions --------------------------------------------------------
    to = convert.to
    cpu = convert.cpu
    cuda = convert.cuda

    def type(self, dtype=None, non_blocking: bool = False):
        """The legacy type name (``'minigrad.FloatTensor'``, as PyTorch's ``x.type()``), or a
        cast to ``dtype``: a dtype, its name (``"float64"``) or a legacy type
        (``minigrad.DoubleTensor``, ``"torch.DoubleTensor"``)."""
        if dtype is None:
            return _legacy.type_name(self.dtype)
        legacy = _legacy.as_type(dtype)
        if legacy is not None:
            return convert.to(self, legacy)
        if isinstance(dtype, str):  # a dtype's name here, where .to("...") means a device
            try:
                dtype = _dtype.as_dtype(dtype.removeprefix("minigrad."))
            except TypeError:
                raise ValueError(errors.INVALID_TYPE.format(got=dtype)) from None
        return convert.to(self, dtype)

    def float(self):
        return convert.to(self, _dtype.float32)

    def double(self):
        return convert.to(self, _dtype.float64)

    def half(self):
        return convert.to(self, _dtype.float16)

    def long(self):
        return convert.to(self, _dtype.int64)

    def int(self):
        return convert.to(self, _dtype.int32)

    def bool(self):
        return convert.to(self, _dtype.bool_)

    def clone(self, *, memory_format=None):
        """A copy with its own memory, recorded (``CloneBackward0``); laid out row-major."""
        _memory_format.check(memory_format, self.ndim, "clone")
        return convert.Clone.apply(self)

    def select(self, dim: int, index: int):
        """The slice at ``index`` along ``dim``, that dim removed (``Tensor.select``): a view,
        as ``x[:, index]`` for dim 1 (``SelectBackward0``)."""
        d = norm_dim(dim, self.ndim)
        size = self.shape[d]
        if not -size <= index < size:
            shape = list(self.shape)
            raise IndexError(tensor_errors.SELECT_INDEX.format(index=index, shape=shape, dim=d))
        return self[(slice(None),) * d + (index,)]

    # --- new tensors like this one (its dtype unless told; device-generic code uses them) ----
    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        """Zeros of ``size`` with this tensor's dtype (``Tensor.new_zeros``)."""
        d = dtype or self.dtype
        return _factory.zeros(*size, dtype=d, device=device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        """Ones of ``size`` with this tensor's dtype (``Tensor.new_ones``)."""
        d = dtype or self.dtype
        return _factory.ones(*size, dtype=d, device=device, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        """An uninitialised tensor (zeros here) with this tensor's dtype (``Tensor.new_empty``)."""
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        """``fill_value`` everywhere, with this tensor's dtype (``Tensor.new_full``)."""
        d = dtype or self.dtype
        return _factory.full(size, fill_value, d, requires_grad, device=device)

    def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False):
        """A copy of ``data`` with this tensor's dtype (``Tensor.new_tensor``)."""
        d = dtype or self.dtype
        return _factory.tensor(data, d, requires_grad, device=device)

    # --- layouts (minigrad.sparse) -----------------------------------------------------
    def to_dense(self, masked_grad=True):
        """A dense tensor is already dense: returns self."""
        return self

    def to_sparse(self, sparse_dim=None, *, layout="sparse_coo"):
        """A sparse copy with the zeros dropped (``sparse_dim`` leading dims sparse, COO)."""
        if layout not in ("sparse_coo", "sparse_csr", "sparse_csc"):
            raise ValueError(errors.BAD_LAYOUT.format(got=layout))
        return ToSparse.apply(self, layout=layout, sparse_dim=sparse_dim)

    def to_sparse_coo(self):
        return self.to_sparse()

    def to_sparse_csr(self):
        """A CSR copy of a 2-D tensor (zeros dropped)."""
        return self.to_sparse(layout="sparse_csr")

    def to_sparse_csc(self):
        """A CSC copy of a 2-D tensor (zeros dropped)."""
        return self.to_sparse(layout="sparse_csc")

    def _alias(self):
        """A new tensor object for the same data, without history (internal)."""
        t = self._make(self._data, False, None)
        t._share_version_with(self)
        return t

    def where(self, condition, other):
        """``self`` where ``condition`` holds, else ``other`` (``Tensor.where``)."""
        return select.where(condition, self, other)


def _arg_extreme(t, reducer, name: str, dim, keepdim: bool):
    """argmax/argmin: an int64 index tensor, with PyTorch's errors for bad dims and bools."""
    if t._data.dtype == np.bool_:
        raise RuntimeError(errors.ARG_BOOL.format(op=name))
    if dim is None:
        if t._data.size == 0:
            raise IndexError(errors.ARG_EMPTY.format(op=name))
        return reduce.ArgReduce.apply(t, fn=reducer, dim=None, keepdim=False)
    d = norm_dim(dim, t.ndim)
    if t.ndim and t.shape[d] == 0:
        raise IndexError(errors.REDUCE_EMPTY.format(op=name, dim=d, shape=tuple(t.shape)))
    return reduce.ArgReduce.apply(t, fn=reducer, dim=d, keepdim=keepdim)


def _logical_reduce(t, reducer, dim, keepdim: bool):
    axis = None if dim is None else norm_dim(dim, t.ndim) if t.ndim else None
    out = np.asarray(reducer(t._data, axis=axis, keepdims=keepdim and axis is not None))
    if t._data.dtype == np.uint8:  # PyTorch keeps uint8 (its masks before bool): 0 or 1
        out = out.astype(np.uint8)
    return t._make(out, False, None)


_SKIP = ("__module__", "__doc__", "__slots__", "__dict__", "__weakref__", "__hash__")


def install() -> None:
    """Put every method of :class:`TensorOps` and :class:`InplaceTensorOps` on ``Tensor`` and
    of :class:`SparseTensorOps` on ``SparseTensor`` (``__hash__`` stays by identity: defining ``__eq__`` set
    ``TensorOps.__hash__`` to None); then every other public method of ``Tensor`` refuses on a
    ``SparseTensor`` (``refuse_without_kernel``)."""
    for mixin, cls in (
        (TensorOps, Tensor),
        (InplaceTensorOps, Tensor),
        (RandomTensorOps, Tensor),
        (NamedOpsTensorMethods, Tensor),
        (SparseTensorOps, SparseTensor),
    ):
        for name, value in vars(mixin).items():
            if name not in _SKIP:
                setattr(
                    cls, name, accept_numpy_names(value) if inspect.isfunction(value) else value
                )
    refuse_without_kernel(Tensor, SparseTensor)


install()
