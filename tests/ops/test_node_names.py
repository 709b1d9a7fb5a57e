"""Node names against PyTorch's: every graph of the op table, node for node.

Each case of ``op_table_rows.py`` runs in both libraries; the names of the nodes reached from
the outputs (depth first, each node once) must be PyTorch's, overload digit included:
``x.sum()`` records ``SumBackward0``, ``x.sum(1)`` ``SumBackward1``. PyTorch's C++ nodes
(``AccumulateGrad``, ``CopySlices``, ``CopyBackwards``) answer ``name()`` with their C++
namespace, ``torch::autograd::AccumulateGrad``; minigrad's name is the part after it, the name
PyTorch users see in ``type(node).__name__`` and in drawings.

Where minigrad records an op as several nodes and PyTorch as one (or the reverse), the graphs
differ on purpose: those cases are listed in ``DIFFERENT`` with the reason, as strict xfails,
so a case that comes to agree must leave the list. docs/differences.md has the same list as a
table (ours beside PyTorch's). Needs torch (``make oracle``).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from op_table_rows import ROWS

import minigrad as mg

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.oracle

_CPP = "torch::autograd::"


def node_names(outputs) -> list:
    """Names of the nodes reachable from ``outputs``, depth first, each node once."""
    seen, names = set(), []
    stack = [o.grad_fn for o in reversed(outputs) if getattr(o, "grad_fn", None) is not None]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name().removeprefix(_CPP))
        stack.extend(n for n, _ in reversed(node.next_functions) if n is not None)
    return names


def graph(lib, fn, arrays) -> list:
    xs = [lib.tensor(a, requires_grad=True) for a in arrays]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. var over one element: torch warns
        out = fn(lib, *xs)
    return node_names(list(out) if isinstance(out, tuple) else [out])


# row name -> (why the graphs differ, the cases that differ: None for all)
_PRODUCT = "matmul of a batch or of a vector by a matrix: one MatMulBackward0 (PyTorch reshapes around Mm/Bmm)"
_IN_PLACE_ON_VIEW = "in-place op on a view: the view's and the op's nodes under CopySlices"
_INDEX_PUT = "y[advanced index] = z: CopySlices (PyTorch: IndexPutBackward0)"
_SPLIT = "one SplitBackward0 per piece (PyTorch: one node with an output per piece)"
_ALPHA = "alpha: a MulBackward0 of its own (PyTorch: inside AddBackward0/SubBackward0)"
_COMPOSED = "composed of elementary ops (PyTorch: one fused node)"
DIFFERENT = {
    "renorm(2, 0, 1)": ("RenormBackward0 above the norm's nodes (PyTorch: one node)", None),
    "diag_embed": ("DiagEmbedBackward0 above an index and a cat (PyTorch: one node)", None),
    "tensordot(1)": (
        "two vectors: MmBackward0 of a row by a column (PyTorch: DotBackward0)",
        (((3,), (3,)),),
    ),
    "cov": (_COMPOSED + ": cov's formula, as PyTorch composes it, differing in places", None),
    "trapezoid": (
        _COMPOSED + ": the trapezoid rule's sum and product (PyTorch: its own composition)",
        None,
    ),
    "mg.add alpha": (_ALPHA, None),
    "mg.sub alpha": (_ALPHA, None),
    "add_(z, alpha=2)": (_ALPHA, None),
    **{
        name: (
            _PRODUCT,
            (
                ((3,), (3, 2)),
                ((2, 2, 3), (3, 4)),
                ((2, 1, 2, 3), (3, 3, 2)),
                ((3,), (2, 3, 2)),
                ((2, 3, 2), (2,)),
            ),
        )
        for name in ("@", "matmul", "mg.matmul")
    },
    "reshape of transposed": (
        "ViewBackward0 of the copy (PyTorch: CloneBackward0, UnsafeViewBackward0)",
        None,
    ),
    "movedim(0,-1)": ("0-d: PermuteBackward0 (PyTorch: AliasBackward0)", (((),),)),
    "x[...]": ("IndexBackward0 (PyTorch: AliasBackward0)", None),
    "x[1,2 (0-d)]": ("a key of several parts: one IndexBackward0 (PyTorch: a node per part)", None),
    "x[:, None, 1:]": (
        "a key of several parts: one IndexBackward0 (PyTorch: a node per part)",
        None,
    ),
    "mg.stack": ("UnsqueezeBackward0 per input, then CatBackward0 (PyTorch: StackBackward0)", None),
    "mg.stack(dim=-1)": (
        "UnsqueezeBackward0 per input, then CatBackward0 (PyTorch: StackBackward0)",
        None,
    ),
    "chunk(2)": (_SPLIT, (((5, 2),), ((4,),), ((0, 3),))),
    **{
        n: (_SPLIT, None)
        for n in (
            "chunk(3,dim=-1)",
            "mg.chunk(x,4,1)",
            "chunk(6) of 5",
            "split(2)",
            "split([1,3],dim=1)",
            "mg.split(x,(2,0,1))",
            "split(2,dim=-1)",
        )
    },
    "repeat(2,1,3)": ("View, Expand, View (PyTorch: RepeatBackward0)", None),
    "repeat(1,1)": ("View, Expand, View (PyTorch: RepeatBackward0)", None),
    "diag(2-d,-1)": ("DiagonalBackward0, CloneBackward0 (PyTorch: DiagonalBackward0_copy)", None),
    "linalg.solve(vector)": (
        "B a vector: Unsqueeze, Solve, Squeeze (PyTorch: one LinalgSolveExBackward0)",
        None,
    ),
    "tile(2,1)": ("View, Expand, View (PyTorch: RepeatBackward0)", None),
    "mg.tile(x,(2,))": ("View, Expand, View (PyTorch: RepeatBackward0)", None),
    "chained in-place": (_ALPHA, None),
    **{
        n: (_IN_PLACE_ON_VIEW, None)
        for n in (
            "y[0].mul_(z)",
            "y[:, 1:].add_(z)",
            "y.view(-1)[::2].zero_()",
            "y.t()[1].copy_(z)",
            "y.unsqueeze(0)[0, 1].fill_(2.0)",
            "y.mT.div_(z)",
        )
    },
    "y[:, [0, 2]] = z": (_INDEX_PUT, None),
    "y[bool mask] = z": (_INDEX_PUT, None),
    "y[1:] = z": (
        "a broadcast value: summed in CopySlices (PyTorch: Expand and View)",
        (((3, 4), (4,)),),
    ),
    "y[..., -1] = z": (
        "a broadcast value: summed in CopySlices (PyTorch: Expand and View)",
        (((2, 3, 4), (3,)),),
    ),
    "y[2:2 (empty)] = z": (
        "a broadcast value: summed in CopySlices (PyTorch: Expand and View)",
        None,
    ),
    **{
        n: ("one EinsumBackward0 (PyTorch: permutes and views around Bmm/Mul/Sum)", None)
        for n in (
            "einsum ij,jk->ik",
            "einsum bij,bjk->bik",
            "einsum ij->i",
            "einsum i,i->",
            "einsum ...ij,jk->...ik",
            "einsum ij,kl->ijkl",
            "einsum ji",
        )
    },
    **{
        n: (_COMPOSED, None)
        for n in ("F.layer_norm", "F.layer_norm weight bias 2 dims", "F.batch_norm training")
    },
    **{
        n: (_COMPOSED, None)
        for n in (
            "mg.masked_select",
            "mg.var_mean(x,1)",
            "mg.std_mean",
            "mg.aminmax(dim=0)",
            "nansum()",
            "mg.nanmean(x,0)",
            "mg.dist",
            "kron()",
            "mg.cdist",
        )
    },
    "linalg.matrix_norm(1)": (
        "SumBackward1 then AmaxBackward0 (PyTorch: views and a SumBackward1 around them)",
        None,
    ),
    "linalg.norm(inf) of a matrix": (
        "SumBackward1 then AmaxBackward0 (PyTorch: views and a SumBackward1 around them)",
        None,
    ),
    "linalg.multi_dot": ("matmuls left to right (PyTorch: mm in its cheapest order, views)", None),
    "linalg.matrix_power(3)": (
        "MatMulBackward0 per product (PyTorch: views around MmBackward0/BmmBackward0)",
        (((2, 2, 2),),),
    ),
    **{
        n: ("a flip and a transpose (PyTorch: one Rot90Backward0)", None)
        for n in ("mg.rot90", "rot90(-1,(1,2))")
    },
    "mg.take": ("an IndexBackward0 of the flattened tensor (PyTorch: TakeBackward0)", None),
    "repeat_interleave(2,dim=1)": (
        "an IndexSelectBackward0 (PyTorch: views around an ExpandBackward0)",
        None,
    ),
    "F.conv2d padding='same'": (
        "uneven padding inside ConvolutionBackward0 (PyTorch: ConstantPadNdBackward0)",
        (((1, 2, 4, 5), (3, 2, 2, 4)),),
    ),
}


def _cases():
    for row in ROWS:
        why, which = DIFFERENT.get(row.name, (None, None))
        for shapes in row.shapes:
            marks = ()
            if why is not None and (which is None or shapes in which):
                marks = pytest.mark.xfail(strict=True, reason=why)
            yield pytest.param(row, shapes, marks=marks, id=f"{row.name}-{shapes}")


@pytest.mark.parametrize(("row", "shapes"), list(_cases()))
def test_node_names_are_pytorchs(row, shapes):
    arrays = row.sample(shapes)
    ours = graph(mg, row.fn, arrays)
    theirs = graph(torch, row.torch_fn or row.fn, arrays)
    assert ours == theirs


def test_every_listed_difference_names_a_row():
    names = {row.name for row in ROWS}
    assert set(DIFFERENT) <= names, set(DIFFERENT) - names


# The calls a first course makes beyond the op table: layers, losses, the lecture idioms.
X = np.linspace(-1.0, 1.0, 12).reshape(3, 4)
COURSE = {
    "F.linear no bias": lambda L, x: L.nn.functional.linear(x, L.ones(5, 4, dtype=L.float64)),
    "nn.Linear": lambda L, x: L.nn.Linear(4, 5, dtype=L.float64)(x),
    "x.T": lambda L, x: x.T,
    "x.sum(1, keepdim=True)": lambda L, x: x.sum(1, keepdim=True),
    "x.max(1).values": lambda L, x: x.max(1).values,
    "x.max()": lambda L, x: x.max(),
    "1 - x": lambda L, x: 1 - x,
    "x - 1": lambda L, x: x - 1,
    "x[tensor]": lambda L, x: x[L.tensor([0, 2])],
    "x[0]": lambda L, x: x[0],
    "x[:, 1]": lambda L, x: x[:, 1],
    "x[1:]": lambda L, x: x[1:],
    "x[None]": lambda L, x: x[None],
    "x.unsqueeze(1)": lambda L, x: x.unsqueeze(1),
    "x[None].squeeze(0)": lambda L, x: x[None].squeeze(0),
    "x[None].squeeze()": lambda L, x: x[None].squeeze(),
    "x[None].squeeze((0,))": lambda L, x: x[None].squeeze((0,)),
    "x.transpose(0, 1)": lambda L, x: x.transpose(0, 1),
    "x.t()": lambda L, x: x.t(),
    "x @ x.T": lambda L, x: x @ x.T,
    "x @ v": lambda L, x: x @ L.ones(4, dtype=L.float64),
    "x.amax(1)": lambda L, x: x.amax(1),
    "x.round()": lambda L, x: x.round(),
    "x.unbind()": lambda L, x: x.unbind()[1],
    "x.sort()": lambda L, x: x.sort(1).values,
    "x.topk(2)": lambda L, x: x.topk(2).values,
    "F.embedding": lambda L, x: L.nn.functional.embedding(L.tensor([0, 2]), x),
    "F.log_softmax": lambda L, x: L.nn.functional.log_softmax(x, dim=1),
    "F.l1_loss": lambda L, x: L.nn.functional.l1_loss(x, L.zeros(3, 4, dtype=L.float64)),
    "F.leaky_relu(inplace)": lambda L, x: L.nn.functional.leaky_relu(x * 1, inplace=True),
    "F.elu(inplace)": lambda L, x: L.nn.functional.elu(x * 1, inplace=True),
    "F.relu(inplace)": lambda L, x: L.nn.functional.relu(x * 1, inplace=True),
    "x.masked_fill(m, tensor)": lambda L, x: x.masked_fill(x > 0, L.tensor(1.0, dtype=L.float64)),
    "x.fill_(2.0)": lambda L, x: (x * 1).fill_(2.0),
    "x.copy_(y)": lambda L, x: (x * 1).copy_(x.exp()),
    "y[0] = 1.0": lambda L, x: _set_row(x * 1),
    # the NLL op: NllLossBackward0 <- LogSoftmaxBackward0, the reduction inside (issue 27)
    "F.cross_entropy": lambda L, x: L.nn.functional.cross_entropy(x, L.tensor([0, 3, 1])),
    "F.cross_entropy sum": lambda L, x: L.nn.functional.cross_entropy(
        x, L.tensor([0, 3, 1]), reduction="sum"
    ),
    "F.cross_entropy none, weight, ignore_index": lambda L, x: L.nn.functional.cross_entropy(
        x, L.tensor([0, 3, 1]), weight=L.ones(4, dtype=L.float64), ignore_index=3, reduction="none"
    ),
    "nn.CrossEntropyLoss": lambda L, x: L.nn.CrossEntropyLoss()(x, L.tensor([2, 2, 1])),
    "F.nll_loss": lambda L, x: L.nn.functional.nll_loss(x, L.tensor([1, 0, 2])),
    "F.nll_loss of (C,)": lambda L, x: L.nn.functional.nll_loss(x[0], L.tensor(2)),
    "F.nll_loss of (N, C, H, W)": lambda L, x: L.nn.functional.nll_loss(
        x.reshape(1, 3, 2, 2), L.tensor([[[0, 1], [2, 2]]]), reduction="none"
    ),
}


@pytest.mark.xfail(
    strict=True, reason="one NllLoss2DBackward0 (PyTorch: between ViewBackward0s for 3-D input)"
)
def test_nll_loss_of_3d_input_is_one_node_where_pytorch_reshapes_around_it():
    def fn(L, x):
        return L.nn.functional.nll_loss(x.reshape(1, 4, 3), L.tensor([[0, 3, 1]]), reduction="none")

    ours = node_names([fn(mg, mg.tensor(X, requires_grad=True))])
    assert ours == node_names([fn(torch, torch.tensor(X, requires_grad=True))])


def _set_row(y):
    y[0] = 1.0
    return y


@pytest.mark.parametrize("name", list(COURSE))
def test_course_calls_record_pytorchs_nodes(name):
    ours = node_names([COURSE[name](mg, mg.tensor(X, requires_grad=True))])
    theirs = node_names([COURSE[name](torch, torch.tensor(X, requires_grad=True))])
    assert ours == theirs


def test_a_custom_functions_node_is_its_name_and_backward_without_a_digit():
    def make(lib):
        class Twice(lib.autograd.Function):
            @staticmethod
            def forward(ctx, a):
                return a * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2

        return Twice.apply(lib.ones(2, requires_grad=True)).grad_fn

    ours, theirs = make(mg), make(torch)
    assert ours.name() == theirs.name() == "TwiceBackward"
    assert type(ours).__name__ == type(theirs).__name__ == "TwiceBackward"


def test_a_tensors_repr_names_its_node_as_pytorch_prints_it():
    ours = mg.tensor([1.0, 2.0], requires_grad=True).sum(0)
    theirs = torch.tensor([1.0, 2.0], requires_grad=True).sum(0)
    assert repr(ours) == repr(theirs) == "tensor(3., grad_fn=<SumBackward1>)"
    assert repr(ours.grad_fn) == "<SumBackward1>"  # PyTorch's adds "object at 0x..."


# Names a PyTorch course uses that minigrad added with these tests (issue 27)
ADDED = {
    "x.clamp_min(0.0)": lambda L, x: x.clamp_min(0.0),
    "x.clamp_max(0.5)": lambda L, x: x.clamp_max(0.5),
    "torch.clamp_min": lambda L, x: L.clamp_min(x, -0.5),
    "torch.clamp_max": lambda L, x: L.clamp_max(x, 0.5),
    "x.mv(v)": lambda L, x: x.mv(L.ones(4, dtype=L.float64)),
    "torch.mv": lambda L, x: L.mv(x, x[0]),
    "torch.outer": lambda L, x: L.outer(x[0], x[1]),
    "x[0].outer(x[1])": lambda L, x: x[0].outer(x[1]),
    "x.type_as(int)": lambda L, x: (x * 3).type_as(L.ones(1, dtype=L.float32)),
}


@pytest.mark.parametrize("name", list(ADDED))
def test_added_names_give_pytorchs_values_gradients_and_nodes(name):
    fn = ADDED[name]
    x, t = mg.tensor(X, requires_grad=True), torch.tensor(X, requires_grad=True)
    ours, theirs = fn(mg, x), fn(torch, t)
    assert ours.dtype.name == str(theirs.dtype).removeprefix("torch.")
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-6)
    assert node_names([ours]) == node_names([theirs])
    ours.sum().backward()
    theirs.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), t.grad.numpy(), rtol=1e-6)


def test_added_names_refuse_what_pytorch_refuses():
    for lib in (mg, torch):
        with pytest.raises(RuntimeError, match="vector \\+ matrix @ vector expected"):
            lib.mv(lib.ones(2, 3), lib.ones(2, 3))
        with pytest.raises(RuntimeError):
            lib.outer(lib.ones(2, 3), lib.ones(3))


def edges(t) -> list:
    """Every node's ``next_functions`` reachable from ``t``, as (name, [(name or None, nr)])."""
    seen, out, stack = set(), [], [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        nxt = [
            (None if n is None else n.name().removeprefix(_CPP), nr)
            for n, nr in node.next_functions
        ]
        out.append((node.name().removeprefix(_CPP), nxt))
        stack.extend(n for n, _ in reversed(node.next_functions))
    return out


# next_functions, edge for edge: a Python number is an input with no gradient, (None, 0),
# where PyTorch wraps it in a tensor (x * 2), and not where its op takes a number (x ** 2)
EDGES = {
    "x * 2": lambda L, x, y: x * 2,
    "2 * x": lambda L, x, y: 2 * x,
    "x + 2.5": lambda L, x, y: x + 2.5,
    "2 + x": lambda L, x, y: 2 + x,
    "x - 1": lambda L, x, y: x - 1,
    "1 - x": lambda L, x, y: 1 - x,
    "x / 2": lambda L, x, y: x / 2,
    "x ** 2": lambda L, x, y: x**2,
    "2 ** x": lambda L, x, y: 2**x,
    "x.mul(2).add(1).div(3)": lambda L, x, y: x.mul(2).add(1).div(3),
    "L.add(x, 2)": lambda L, x, y: L.add(x, 2),
    "L.mul(x, 2)": lambda L, x, y: L.mul(x, 2),
    "x.sub(1)": lambda L, x, y: x.sub(1),
    "x * y (y needs no grad)": lambda L, x, y: x * y,
    "y * x": lambda L, x, y: y * x,
    "L.where(x > 0, x, 0.0)": lambda L, x, y: L.where(x > 0, x, 0.0),
    "L.where(x > 0, 1.0, x)": lambda L, x, y: L.where(x > 0, 1.0, x),
    "L.maximum(x, y)": lambda L, x, y: L.maximum(x, y),
    "(x * 1).add_(2)": lambda L, x, y: (x * 1).add_(2),
    "(x * 1).mul_(2)": lambda L, x, y: (x * 1).mul_(2),
    "(x * 1).div_(2)": lambda L, x, y: (x * 1).div_(2),
    "(x * 1).zero_()": lambda L, x, y: (x * 1).zero_(),
    "(x * 1).fill_(2.0)": lambda L, x, y: (x * 1).fill_(2.0),
    "x.exp() * 0.5 + x.sin() - 1": lambda L, x, y: x.exp() * 0.5 + x.sin() - 1,
    "tanh(x @ w + 1) * 2": lambda L, x, y: L.tanh(x @ y.T + 1) * 2,
}


@pytest.mark.parametrize("name", list(EDGES))
def test_next_functions_are_pytorchs_edge_for_edge(name):
    def run(lib):
        x = lib.tensor(X, requires_grad=True)
        return edges(EDGES[name](lib, x, lib.tensor(X[::-1].copy())))

    assert run(mg) == run(torch)


def test_backward_through_a_number_edge_sends_nothing_along_it():
    x = mg.tensor([1.0, -2.0], requires_grad=True)
    node = (x * 3).grad_fn
    assert node.needs_input_grad == (True, False)
    grads = node(mg.ones(2))
    assert grads[0].tolist() == [3.0, 3.0] and grads[1] is None
    (x * 3 + 1).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
