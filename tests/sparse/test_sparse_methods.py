"""Sparse methods by construction: every public method of a COO and of a CSR tensor runs and
matches the dense result, or raises NotImplementedError with the no-kernel message; never another
error, never a value that cannot be printed."""

import copy
import pickle

import numpy as np
import pytest

import minigrad as mg
from minigrad._sparse_tensor_methods import LAYOUT_FREE, public, refuse_without_kernel
from minigrad.sparse.tensor import SparseTensor
from minigrad.tensor import Tensor, _HookHandle

DENSE = np.array([[1.0, 0.0, 3.0], [0.0, -2.0, 0.0]])
LAYOUTS = ("sparse_coo", "sparse_csr")
# Object protocol, not methods a user calls on a tensor: tested on their own below.
PROTOCOL = {"__init__", "__repr__", "__hash__", "__reduce_ex__", "__deepcopy__"}
METHODS = sorted(
    n for n, v in vars(Tensor).items() if callable(v) and public(n) and n not in PROTOCOL
)


def _pair(layout):
    dense = mg.tensor(DENSE)
    return dense, dense.to_sparse(layout=layout)


# How to call each method that has a sparse kernel (or serves every layout).
CALLS = {
    "__len__": (),
    "__pos__": (),
    "__neg__": (),
    "__mul__": (2.0,),
    "__rmul__": (2.0,),
    "__truediv__": (4.0,),
    "__matmul__": (mg.tensor(np.arange(6.0).reshape(3, 2)),),
    "__rmatmul__": (mg.tensor(np.arange(8.0).reshape(4, 2)),),
    "any": (),
    "backward": (mg.ones(2, 3),),
    "bool": (),
    "clone": (),
    "cpu": (),
    "cuda": (),
    "detach": (),
    "detach_": (),
    "dim": (),
    "div": (4.0,),
    "double": (),
    "element_size": (),
    "float": (),
    "get_device": (),
    "half": (),
    "int": (),
    "is_floating_point": (),
    "long": (),
    "matmul": (mg.tensor(np.array([1.0, 2.0, 3.0])),),
    "mm": (mg.tensor(np.arange(6.0).reshape(3, 2)),),
    "movedim": (0, 1),
    "mul": (mg.tensor(np.arange(6.0).reshape(2, 3)),),
    "neg": (),
    "norm": (),
    "numel": (),
    "permute": (1, 0),
    "register_hook": (lambda g: None,),
    "register_post_accumulate_grad_hook": (lambda t: None,),
    "requires_grad_": (),
    "retain_grad": (),
    "size": (),
    "sum": (),
    "t": (),
    "to": (mg.float64,),
    "to_dense": (),
    "to_sparse": (),
    "to_sparse_coo": (),
    "to_sparse_csc": (),
    "to_sparse_csr": (),
    "transpose": (0, 1),
    "type": (),
}


def _numbers(x):
    """A result as comparable numbers: tensors densified, everything else as it is."""
    if isinstance(x, Tensor):
        repr(x)  # printable, whatever it is
        dense = x.to_dense() if x.layout != "strided" else x
        return dense.detach().numpy().tolist(), dense.dtype
    if isinstance(x, _HookHandle):
        return "a hook handle"
    return x


def _outcome(method, *args):
    try:
        return "ran", _numbers(method(*args))
    except Exception as e:  # the dense tensor's error, which the sparse one must repeat
        return "raised", (type(e), str(e))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", METHODS)
def test_every_method_runs_like_the_dense_one_or_refuses(name, layout):
    dense, sparse = _pair(layout)
    if getattr(getattr(SparseTensor, name), "_refusal", False):
        with pytest.raises(NotImplementedError) as refusal:
            getattr(sparse, name)(*CALLS.get(name, ()))
        assert str(refusal.value) == sparse._no_kernel(name)
        return
    assert name in CALLS, f"{name} has a sparse kernel: add how to call it to CALLS"
    args = CALLS[name]
    assert _outcome(getattr(sparse, name), *args) == _outcome(getattr(dense, name), *args)


def test_the_sweep_covers_every_method_and_counts():
    refused = [n for n in METHODS if getattr(getattr(SparseTensor, n), "_refusal", False)]
    assert set(METHODS) - set(refused) == set(CALLS)
    assert len(METHODS) == len(CALLS) + len(refused)
    assert {"lt", "__lt__", "all", "dot", "unflatten", "__and__", "numpy", "item"} <= set(refused)


def test_refusals_are_computed_from_what_the_classes_define():
    class Grown(Tensor):  # a Tensor that gained two methods after the sparse kernels were written
        def brand_new(self):
            return self

        def to_dense(self):
            return self

    class Sparse(SparseTensor):
        pass

    refused = refuse_without_kernel(Grown, Sparse)
    assert refused == ["brand_new"]  # to_dense has a sparse kernel; the new method has none
    s = Sparse._make(mg.tensor(DENSE).to_sparse()._data, False, None)
    with pytest.raises(NotImplementedError, match="brand_new has no sparse kernel"):
        s.brand_new()


def test_layout_free_methods_are_tensor_methods():
    assert set(LAYOUT_FREE) <= set(vars(Tensor))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_properties_are_those_of_the_dense_tensor(layout):
    dense, sparse = _pair(layout)
    for name in (
        "shape",
        "dtype",
        "ndim",
        "device",
        "is_cpu",
        "is_cuda",
        "is_leaf",
        "requires_grad",
    ):
        assert getattr(sparse, name) == getattr(dense, name), name
    assert sparse.grad is None and sparse.data.layout == layout
    np.testing.assert_array_equal(sparse.T.to_dense().numpy(), DENSE.T)
    np.testing.assert_array_equal(sparse.mT.to_dense().numpy(), DENSE.T)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_copies_and_pickles_keep_the_layout(layout):
    _, sparse = _pair(layout)
    for twin in (copy.deepcopy(sparse), pickle.loads(pickle.dumps(sparse))):
        assert twin.layout == layout and twin._data.values is not sparse._data.values
        np.testing.assert_array_equal(twin.to_dense().numpy(), DENSE)
    assert repr(sparse).startswith("tensor(")


def test_a_sparse_tensor_is_not_built_by_its_class():
    with pytest.raises(TypeError, match="sparse_coo_tensor"):
        SparseTensor([[1.0]])


# --- the kernels the issue asked for, and their gradients -----------------------------------------
def test_movedim_permute_and_transpose_move_sparse_dims_among_sparse_dims():
    s = mg.sparse_coo_tensor([[0, 1], [1, 0]], np.ones((2, 4)), (2, 3, 4))  # 2 sparse, 1 dense
    assert s.movedim(0, 1).shape == (3, 2, 4) and s.permute(1, 0, 2).shape == (3, 2, 4)
    np.testing.assert_array_equal(
        s.permute(1, 0, 2).to_dense().numpy(), s.to_dense().numpy().transpose(1, 0, 2)
    )
    with pytest.raises(RuntimeError, match="move a sparse dim among the dense ones"):
        s.permute(0, 2, 1)


def test_norm_any_and_clone_gradients():
    values = mg.tensor([3.0, -4.0, 0.0], requires_grad=True)
    s = mg.sparse_coo_tensor([[0, 1, 1], [2, 0, 2]], values, (2, 3))
    n = s.norm()
    assert n.item() == pytest.approx(5.0) and bool(s.any()) and not bool((s * 0.0).any())
    n.backward()
    np.testing.assert_allclose(values.grad.numpy(), [0.6, -0.8, 0.0])
    c = s.clone()
    assert c.layout == "sparse_coo" and c._data.values is not s._data.values
    with pytest.raises(RuntimeError, match="only full reductions"):
        s.norm(dim=0)
    with pytest.raises(NotImplementedError, match="any\\(dim\\) has no sparse kernel"):
        s.any(0)


@pytest.mark.oracle
@pytest.mark.filterwarnings("ignore:Sparse invariant checks are implicitly disabled")
@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
@pytest.mark.parametrize("layout", LAYOUTS)
def test_against_pytorch(layout):
    """Where PyTorch 2.13 refuses (comparisons, all, dot, unflatten, &), minigrad refuses with
    a NotImplementedError, which is a RuntimeError as PyTorch's refusals are; where PyTorch has
    a COO kernel (movedim, permute, transpose, norm, any, clone), the same values."""
    torch = pytest.importorskip("torch")
    theirs = torch.tensor(DENSE).to_sparse(layout=getattr(torch, layout))
    _, ours = _pair(layout)
    refused = ["lt", "le", "gt", "ge", "eq", "ne", "all", "unflatten", "__and__", "dot"]
    args = {"unflatten": (0, (2, 1)), "__and__": (theirs,), "dot": (theirs,)}
    for name in refused:
        with pytest.raises(RuntimeError) as torch_error:
            getattr(theirs, name)(*args.get(name, (1.0,) if name in "lt le gt ge eq ne" else ()))
        with pytest.raises(NotImplementedError):
            getattr(ours, name)(1.0)
        assert issubclass(NotImplementedError, type(torch_error.value)), name  # same class
    if layout != "sparse_coo":
        return
    for name, call in [
        ("movedim", lambda t: t.movedim(0, 1)),
        ("permute", lambda t: t.permute(1, 0)),
        ("transpose", lambda t: t.transpose(0, 1)),
        ("clone", lambda t: t.clone()),
    ]:
        np.testing.assert_array_equal(
            call(ours).to_dense().numpy(), call(theirs).to_dense().numpy(), err_msg=name
        )
    for p in ("fro", 1, float("inf")):
        assert ours.norm(p).item() == pytest.approx(theirs.norm(p).item())
    assert bool(ours.any()) == bool(theirs.any())
