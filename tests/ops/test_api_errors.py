"""Bad input at the public API gets PyTorch's error type and a clear message: no numpy
``ValueError``/``AxisError`` and no internal ``AttributeError``/``KeyError`` reaches the user.

Each case runs the same code with ``L = minigrad`` and (oracle) ``L = torch``. Where
minigrad deliberately answers with another type, ``DIFFERS`` says which and why, and the
oracle test checks that the record is still true of PyTorch.
"""

import re

import pytest

import minigrad as mg


def ones(L, *shape, **kw):
    return L.ones(*shape, **kw)


def boolean(L, *shape):
    return L.ones(*shape, dtype=L.bool)


F = lambda L: L.nn.functional  # noqa: E731


def _of_a_float(name):
    """``L.<name>(3.0)``: a module function called on a Python float."""
    return lambda L: getattr(L, name)(3.0)


# name -> (call, minigrad's exception type, a regex its message must match)
CASES = {
    # batched matmul, @ on 3-d, matmul broadcasting: RuntimeError naming the op and both shapes
    "bmm batch sizes": (
        lambda L: L.bmm(ones(L, 2, 3, 4), ones(L, 3, 4, 5)),
        RuntimeError,
        r"Expected size for first two dimensions of batch2 tensor to be: \[2, 4\] but got: "
        r"\[3, 4\] \(bmm: shapes \(2, 3, 4\) and \(3, 4, 5\)\)",
    ),
    "bmm inner sizes": (
        lambda L: L.bmm(ones(L, 2, 3, 4), ones(L, 2, 5, 5)),
        RuntimeError,
        r"bmm: shapes \(2, 3, 4\) and \(2, 5, 5\)",
    ),
    "bmm 2-d": (
        lambda L: L.bmm(ones(L, 3, 4), ones(L, 2, 4, 5)),
        RuntimeError,
        r"batch1 must be a 3D tensor \(bmm: shapes \(3, 4\) and \(2, 4, 5\)",
    ),
    "bmm dtypes": (
        lambda L: L.bmm(ones(L, 2, 3, 4), ones(L, 2, 4, 5, dtype=L.float64)),
        RuntimeError,
        "same dtype",
    ),
    "addmm a vector": (
        lambda L: L.addmm(ones(L, 4), ones(L, 3), ones(L, 3, 4)),
        RuntimeError,
        "mat1 must be a matrix, got 1-D tensor",
    ),
    "addmm inner sizes": (
        lambda L: L.addmm(ones(L, 4), ones(L, 2, 3), ones(L, 4, 4)),
        RuntimeError,
        r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x4\)",
    ),
    "addmm input shape": (
        lambda L: L.addmm(ones(L, 3), ones(L, 2, 3), ones(L, 3, 4)),
        RuntimeError,
        r"The expanded size of the tensor \(4\) must match the existing size \(3\) at "
        r"non-singleton dimension 1.  Target sizes: \[2, 4\].  Tensor sizes: \[3\]",
    ),
    "addmm input dims": (
        lambda L: L.addmm(ones(L, 1, 2, 4), ones(L, 2, 3), ones(L, 3, 4)),
        RuntimeError,
        r"the number of sizes provided \(2\) must be greater or equal to the number of "
        r"dimensions in the tensor \(3\)",
    ),
    "addmm dtypes": (
        lambda L: L.addmm(ones(L, 4, dtype=L.float64), ones(L, 2, 3), ones(L, 3, 4)),
        RuntimeError,
        "self and mat2 must have the same dtype, but got Double and Float",
    ),
    "addmm non-tensor": (
        lambda L: L.addmm(ones(L, 4), [[1.0]], ones(L, 3, 4)),
        TypeError,
        r"addmm\(\): argument 'mat1' \(position 2\) must be Tensor, not list",
    ),
    "bmm non-tensor": (
        lambda L: L.bmm(ones(L, 2, 3, 4), 5),
        TypeError,
        r"bmm\(\): argument 'mat2' \(position 2\) must be Tensor, not int",
    ),
    "@ 3-d batch": (
        lambda L: ones(L, 2, 3, 4) @ ones(L, 3, 4, 5),
        RuntimeError,
        r"size of tensor a \(2\) must match the size of tensor b \(3\) at non-singleton "
        r"dimension 0 \(matmul: shapes \(2, 3, 4\) and \(3, 4, 5\)\)",
    ),
    "matmul 4-d by 3-d": (
        lambda L: L.matmul(ones(L, 5, 2, 3, 4), ones(L, 3, 4, 5)),
        RuntimeError,
        r"at non-singleton dimension 1 \(matmul: shapes \(5, 2, 3, 4\) and \(3, 4, 5\)\)",
    ),
    "@ 3-d inner": (
        lambda L: ones(L, 2, 3, 4) @ ones(L, 2, 5, 5),
        RuntimeError,
        r"cannot be multiplied \(2x3x4 and 2x5x5\)",
    ),
    "@ 3-d by 1-d": (lambda L: ones(L, 2, 3, 4) @ ones(L, 5), RuntimeError, "cannot be multiplied"),
    "matmul non-tensor": (
        lambda L: L.matmul([1.0], ones(L, 1)),
        TypeError,
        r"matmul\(\): argument 'input' \(position 1\) must be Tensor, not list",
    ),
    "dot sizes": (
        lambda L: L.dot(ones(L, 3), ones(L, 4)),
        RuntimeError,
        r"inconsistent tensor size, expected tensor \[3\] and src \[4\]",
    ),
    "dot 2-d": (
        lambda L: L.dot(ones(L, 3, 1), ones(L, 3)),
        RuntimeError,
        "1D tensors expected, but got 2D and 1D tensors",
    ),
    # where
    "where shapes": (
        lambda L: L.where(boolean(L, 2), ones(L, 3), ones(L, 2)),
        RuntimeError,
        r"where: condition of shape \(2,\), input of shape \(3,\) and other of shape \(2,\)",
    ),
    "where 2-d condition": (
        lambda L: L.where(boolean(L, 3, 2), ones(L, 3), ones(L, 2)),
        RuntimeError,
        r"condition of shape \(3, 2\)",
    ),
    # broadcasting of elementwise ops and comparisons
    "add shapes": (lambda L: ones(L, 2, 3) + ones(L, 4), RuntimeError, r"\(add: shapes"),
    "lt shapes": (
        lambda L: ones(L, 3) < ones(L, 4),
        RuntimeError,
        r"The size of tensor a \(3\) must match the size of tensor b \(4\).*\(lt: shapes",
    ),
    "isclose shapes": (lambda L: L.isclose(ones(L, 2), ones(L, 3)), RuntimeError, "isclose"),
    "setitem shape": (
        lambda L: ones(L, 2, 3).__setitem__(0, ones(L, 4)),
        RuntimeError,
        r"The expanded size of the tensor \(3\) must match the existing size \(4\)",
    ),
    # dims
    "sum dim out of range": (lambda L: ones(L, 2, 3).sum(5), IndexError, "Dimension out of range"),
    "sum dim a string": (lambda L: ones(L, 2, 3).sum("a"), TypeError, "dim must be an int"),
    "transpose dim a string": (
        lambda L: ones(L, 2, 3).transpose(0, "a"),
        TypeError,
        "dim must be an int, got str",
    ),
    "argmax dim out of range": (
        lambda L: ones(L, 2, 3).argmax(5),
        IndexError,
        r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 5\)",
    ),
    "argmin dim out of range": (
        lambda L: ones(L, 2, 3).argmin(-3),
        IndexError,
        "Dimension out of range",
    ),
    "argmax of nothing": (
        lambda L: L.ones(0).argmax(),
        IndexError,
        "Expected reduction dim to be specified for input.numel",
    ),
    "all dim out of range": (
        lambda L: boolean(L, 2).all(5),
        IndexError,
        "Dimension out of range",
    ),
    "mT of a vector": (
        lambda L: ones(L, 3).mT,
        RuntimeError,
        "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.",
    ),
    # sizes
    "reshape to a string": (lambda L: ones(L, 2, 3).reshape("a"), TypeError, "reshape.*str"),
    "expand to a string": (lambda L: ones(L, 2, 3).expand("a"), TypeError, "expand.*str"),
    "zeros of a string": (lambda L: L.zeros("a"), TypeError, "size must be a tuple of ints"),
    "zeros of a float": (lambda L: L.zeros(2.5), TypeError, "size must be a tuple of ints"),
    "Linear of a string": (lambda L: L.nn.Linear("a", 2), TypeError, "tuple of ints"),
    # factories
    "arange step 0": (lambda L: L.arange(0, 10, 0), RuntimeError, "step must be nonzero"),
    "arange backwards": (
        lambda L: L.arange(10, 0),
        RuntimeError,
        "upper bound and lower bound inconsistent with step sign",
    ),
    "linspace negative steps": (
        lambda L: L.linspace(0, 1, -1),
        RuntimeError,
        "number of steps must be non-negative",
    ),
    "linspace float steps": (
        lambda L: L.linspace(0, 1, 2.5),
        TypeError,
        r"linspace\(\): argument 'steps' \(position 3\) must be int, not float",
    ),
    "eye negative": (lambda L: L.eye(-1), RuntimeError, "n must be greater or equal to 0, got -1"),
    "eye float": (lambda L: L.eye(2.5), TypeError, "must be int, not float"),
    "randperm negative": (lambda L: L.randperm(-1), RuntimeError, "negative dimension -1"),
    "randint low >= high": (
        lambda L: L.randint(5, 2, (2,)),
        RuntimeError,
        "random_ expects 'from' to be less than 'to', but got from=5 >= to=2",
    ),
    "randint float bound": (lambda L: L.randint(3.5, (2,)), TypeError, "must be int, not float"),
    "zeros_like a float": (
        lambda L: L.zeros_like(3.0),
        TypeError,
        r"zeros_like\(\): argument 'input' \(position 1\) must be Tensor, not float",
    ),
    "ones_like a list": (lambda L: L.ones_like([1, 2]), TypeError, "must be Tensor, not list"),
    "full_like a list": (lambda L: L.full_like([1, 2], 3), TypeError, "must be Tensor, not list"),
    "rand_like a list": (lambda L: L.rand_like([1.0]), TypeError, "must be Tensor, not list"),
    "randn_like an int tensor": (
        lambda L: L.randn_like(L.tensor([1, 2])),
        NotImplementedError,
        "samples are floating point, got dtype int64",
    ),
    "rand of int64": (
        lambda L: L.rand(2, dtype=L.int64),
        NotImplementedError,
        "samples are floating point",
    ),
    # module functions of non-tensors
    **{
        f"mg.{name} of a float": (
            _of_a_float(name),
            TypeError,
            rf"{name}\(\): argument 'input' \(position 1\) must be Tensor, not float",
        )
        for name in ("exp", "sin", "tanh", "relu", "sum", "mean", "neg", "t", "square", "sin_")
    },
    "mg.reshape of a list": (lambda L: L.reshape([1, 2], (2,)), TypeError, "must be Tensor"),
    "mg.softmax of a list": (lambda L: L.softmax([1.0], dim=0), TypeError, "must be Tensor"),
    "mg.equal with a list": (
        lambda L: L.equal(ones(L, 2), [1, 1]),
        TypeError,
        r"equal\(\): argument 'other' \(position 2\) must be Tensor, not list",
    ),
    "clamp to a string": (lambda L: ones(L, 2).clamp(min="a"), TypeError, "clamp"),
    "cat of a tensor": (
        lambda L: L.cat(ones(L, 2, 3)),
        TypeError,
        r"cat\(\): argument 'tensors' \(position 1\) must be tuple of Tensors, not Tensor",
    ),
    "stack of nothing": (lambda L: L.stack([]), RuntimeError, "non-empty"),
    "var of integers": (
        lambda L: L.tensor([1, 2]).var(),
        RuntimeError,
        "std and var only support floating point and complex dtypes",
    ),
    # indexing: numpy's errors in PyTorch's words
    "index out of range": (
        lambda L: ones(L, 2)[10],
        IndexError,
        "index 10 is out of bounds for dimension 0 with size 2",
    ),
    "too many indices": (lambda L: ones(L, 3)[0, 0], IndexError, "too many indices for tensor"),
    "index by a float": (lambda L: ones(L, 2)[1.5], IndexError, "valid indices"),
    "index by a string": (lambda L: ones(L, 2)["a"], TypeError, "valid indices"),
    "setitem out of range": (
        lambda L: ones(L, 2).__setitem__(10, 1.0),
        IndexError,
        "index 10 is out of bounds for dimension 0",
    ),
    # the math names of issue 27
    "logit with a string eps": (
        lambda L: L.logit(ones(L, 2), eps="a"),
        TypeError,
        "logit\\(\\): argument 'eps' must be float, not str",
    ),
    "nan_to_num with a string posinf": (
        lambda L: L.nan_to_num(ones(L, 2), posinf="a"),
        TypeError,
        "nan_to_num\\(\\): argument 'posinf' must be float, not str",
    ),
    "integer remainder by zero": (
        lambda L: L.remainder(L.tensor([1, 2]), 0),
        RuntimeError,
        "ZeroDivisionError",
    ),
    "integer fmod by a zero tensor": (
        lambda L: L.fmod(L.tensor([1, 2]), L.tensor([1, 0])),
        RuntimeError,
        "ZeroDivisionError",
    ),
    "remainder by a string": (lambda L: L.remainder(ones(L, 2), "a"), TypeError, "str"),
    "remainder of two bool tensors": (
        lambda L: L.remainder(L.tensor([True]), L.tensor([True])),
        NotImplementedError,
        "(?i)bool",
    ),
    "tile with an int": (
        lambda L: L.tile(ones(L, 2), 2),
        TypeError,
        "tile\\(\\): argument 'dims' \\(position 2\\) must be tuple of ints, not int",
    ),
    "tile with a float": (
        lambda L: L.tile(ones(L, 2), (2.5,)),
        TypeError,
        "must be tuple of ints, but found element of type float at pos 0",
    ),
    "inv of a 2x3 matrix": (
        lambda L: L.linalg.inv(ones(L, 2, 3)),
        RuntimeError,
        "A must be batches of square matrices, but they are 2 by 3 matrices",
    ),
    "det of a vector": (
        lambda L: L.linalg.det(ones(L, 3)),
        RuntimeError,
        "linalg.det: The input tensor A must have at least 2 dimensions.",
    ),
    "inv of integers": (
        lambda L: L.linalg.inv(L.tensor([[1, 0], [0, 1]])),
        RuntimeError,
        "linalg.inv: Expected a floating point or complex tensor as input",
    ),
    "solve with a mismatched B": (
        lambda L: L.linalg.solve(ones(L, 3, 3), ones(L, 2)),
        RuntimeError,
        "Incompatible shapes of A and B for the equation AX = B",
    ),
    "lerp with a string weight": (lambda L: L.lerp(ones(L, 2), ones(L, 2), "a"), TypeError, "str"),
    "lerp of two dtypes": (
        lambda L: L.lerp(ones(L, 2), ones(L, 2).double(), 0.5),
        RuntimeError,
        "expected dtype .*float.* for `end` but got dtype .*(double|float64)",
    ),
    "diag of a 3-d tensor": (
        lambda L: L.diag(ones(L, 2, 2, 2)),
        RuntimeError,
        "diag\\(\\): Supports 1D or 2D tensors. Got 3D",
    ),
    # autograd
    "grad of a float input": (
        lambda L: L.autograd.grad(ones(L, 2, requires_grad=True).sum(), [3.0]),
        TypeError,
        r"inputs\[0\] must be a Tensor, got float",
    ),
    # nn
    "cross_entropy of a list": (
        lambda L: F(L).cross_entropy([1.0], L.tensor([0])),
        TypeError,
        r"cross_entropy\(\): argument 'input' \(position 1\) must be Tensor, not list",
    ),
    "relu of a list": (lambda L: F(L).relu([1.0]), TypeError, "must be Tensor, not list"),
    "linear of a list": (lambda L: F(L).linear([1.0], ones(L, 2, 1)), TypeError, "must be Tensor"),
    "bce with integer targets": (
        lambda L: F(L).binary_cross_entropy_with_logits(ones(L, 2), L.tensor([1, 0])),
        RuntimeError,
        "target must be a floating point tensor",
    ),
    "Linear on the wrong width": (
        lambda L: L.nn.Linear(4, 5)(ones(L, 2, 3)),
        RuntimeError,
        "cannot be multiplied",
    ),
    "Embedding index out of range": (
        lambda L: L.nn.Embedding(4, 2)(L.tensor([7])),
        IndexError,
        "index out of range in self",
    ),
    # optim, func
    "SGD negative lr": (
        lambda L: L.optim.SGD([L.nn.Parameter(ones(L, 2))], lr=-1),
        ValueError,
        "Invalid learning rate",
    ),
    # deliberate differences (see DIFFERS)
    "zeros of a negative size": (lambda L: L.zeros(-1), ValueError, "non-negative"),
    "where on a float condition": (
        lambda L: L.where(ones(L, 2), ones(L, 2), ones(L, 2)),
        TypeError,
        "where expected condition to be a boolean tensor",
    ),
    "gather out of range": (
        lambda L: ones(L, 2, 3).gather(1, L.tensor([[5], [0]])),
        IndexError,
        "index out of range in self",
    ),
    "nll_loss with float targets": (
        lambda L: F(L).nll_loss(ones(L, 2, 3), ones(L, 2)),
        TypeError,
        "expected target dtype to be Long or Byte",
    ),
    "tensor of None": (lambda L: L.tensor(None), TypeError, "could not build a tensor"),
    "Adam with one beta": (
        lambda L: L.optim.Adam([L.nn.Parameter(ones(L, 2))], betas=(0.9,)).step(),
        ValueError,
        r"betas must be a pair \(beta1, beta2\), got \(0.9,\)",
    ),
    "to_sparse with a bad layout": (
        lambda L: ones(L, 2).to_sparse(layout="nope"),
        ValueError,
        "layout must be 'sparse_coo', 'sparse_csr' or 'sparse_csc'",
    ),
    "func.grad of an int tensor": (
        lambda L: L.func.grad(lambda x: x.sum())(L.tensor([1, 2])),
        ValueError,
        "must be a floating-point Tensor",
    ),
    "vmap over different sizes": (
        lambda L: L.func.vmap(lambda x, y: x + y)(ones(L, 2, 3), ones(L, 3, 3)),
        ValueError,
        "same size in the mapped dimension",
    ),
}

# name -> (PyTorch's type, why minigrad raises the type in CASES instead). RELIABILITY.md:
# shape errors of ops are RuntimeErrors, as in PyTorch; malformed input *data* (sizes,
# indices, dtypes) is a ValueError or TypeError naming the argument; a non-tensor is a
# TypeError everywhere.
DIFFERS = {
    "grad of a float input": (RuntimeError, "a non-tensor argument is a TypeError"),
    "zeros of a negative size": (RuntimeError, "a negative size is malformed data"),
    "where on a float condition": (RuntimeError, "a wrong dtype is a TypeError"),
    "gather out of range": (RuntimeError, "as index_select and Embedding say: IndexError"),
    "nll_loss with float targets": (RuntimeError, "a wrong dtype is a TypeError"),
    "tensor of None": (RuntimeError, "data that is not numbers is a TypeError"),
    "Adam with one beta": (IndexError, "PyTorch's is an internal tuple IndexError at step"),
    "to_sparse with a bad layout": (TypeError, "layouts are strings here: a bad value"),
    "func.grad of an int tensor": (RuntimeError, "mg.func's argument errors are ValueErrors"),
}


def test_the_table_names_only_cases_it_has():
    assert set(DIFFERS) <= set(CASES)


@pytest.mark.parametrize("name", CASES)
def test_bad_input_gets_a_clear_error_of_the_right_type(name):
    call, kind, pattern = CASES[name]
    with pytest.raises(Exception) as info:
        call(mg)
    assert type(info.value) is kind, f"{name}: {type(info.value).__name__}: {info.value}"
    assert re.search(pattern, str(info.value)), f"{name}: {info.value}"


@pytest.mark.oracle
@pytest.mark.parametrize("name", CASES)
def test_error_types_match_torch(name):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    call, kind, _ = CASES[name]
    with pytest.raises(Exception) as theirs:
        call(torch)
    if name in DIFFERS:  # the record of PyTorch's type must stay true
        assert type(theirs.value) is DIFFERS[name][0], type(theirs.value).__name__
    else:  # the same type (or a subclass: NotImplementedError is a RuntimeError)
        assert issubclass(kind, type(theirs.value)), f"PyTorch: {type(theirs.value).__name__}"
