"""Coalescing has one home: ``COO.coalesce`` (its kernel ``formats/_kernels.coalesce``). The
sparse tensor's ``coalesce()``, gradient accumulation, the optimizers and ``clip_grad_*``
call it; its values are those of summing every run of equal coordinates in input order, bit
for bit (only the repeated entries are added, a speed-up that must not change a bit)."""

import ast
import pathlib

import numpy as np
import pytest

import minigrad as mg
from minigrad.formats import COO

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _every_run_summed(indices, values, sizes):
    """The plain algorithm: a stable lexicographic sort, then np.add.reduceat over every run."""
    order = np.lexsort(indices[::-1]) if len(sizes) else np.arange(indices.shape[1])
    ordered_idx = indices[:, order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = np.any(ordered_idx[:, 1:] != ordered_idx[:, :-1], axis=0)
    starts = np.flatnonzero(new)
    acc = np.float32 if values.dtype == np.float16 else values.dtype
    summed = np.add.reduceat(np.take(values, order, axis=0), starts, axis=0, dtype=acc)
    return ordered_idx[:, starts], summed.astype(values.dtype)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64])
@pytest.mark.parametrize(
    "sizes, dense", [((50,), (3,)), ((7, 9), ()), ((4, 5, 6), (2,)), ((), (3,))]
)
@pytest.mark.parametrize("repeats", ["few", "many", "none"])
def test_coalesce_gives_the_sums_of_every_run_bit_for_bit(dtype, sizes, dense, repeats):
    rng = np.random.default_rng(len(sizes) * 10 + len(dense))
    nnz = {"few": 40, "many": 300, "none": 1}[repeats]
    indices = np.array([rng.integers(0, s, nnz) for s in sizes], dtype=np.int64).reshape(-1, nnz)
    if repeats == "few":  # mostly distinct coordinates, a few repeated
        indices[:, 5:8] = indices[:, :3]
    values = (rng.standard_normal((nnz, *dense)) * 1e3).astype(dtype)
    coo = COO(indices.astype(np.int64), values, (*sizes, *dense))
    got = coo.coalesce()
    want_idx, want_val = _every_run_summed(coo.indices, coo.values, sizes)
    assert np.array_equal(got.indices, want_idx)
    assert got.values.dtype == want_val.dtype
    assert got.values.tobytes() == want_val.tobytes()


def test_the_callers_give_the_same_values_as_coo_coalesce():
    rows = mg.tensor([[1, 4, 1, 7, 4, 1]])
    values = mg.tensor(np.random.default_rng(0).standard_normal((6, 3)).astype(np.float32))
    s = mg.sparse_coo_tensor(rows, values, (9, 3))
    want = s._data.coalesce()
    assert s.coalesce()._data.values.tobytes() == want.values.tobytes()
    w = mg.nn.Parameter(mg.zeros(9, 3))
    w.grad = s
    mg.nn.utils.clip_grad_norm_([w], 1e9)  # coalesces the gradient in place
    assert w.grad.is_coalesced() and w.grad._data.values.tobytes() == want.values.tobytes()


def test_no_module_writes_its_own_coalesce():
    """Only formats/_kernels.py sorts and sums runs of coordinates; elsewhere, a function
    named like coalesce only calls ``.coalesce()``."""
    writers = []
    for path in (ROOT / "minigrad").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and "coalesce" in node.name.lower():
                calls = {
                    n.func.attr
                    for n in ast.walk(node)
                    if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                }
                if calls & {"reduceat", "lexsort", "argsort", "unique"}:
                    writers.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert writers == []
