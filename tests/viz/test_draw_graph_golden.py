"""Golden DOT and text drawings of the classroom graphs (regenerate with UPDATE_GOLDEN=1)."""

import os
import pathlib

import pytest

import minigrad as mg
import viz

GOLDEN = pathlib.Path(__file__).parent / "golden"


class Cube(mg.autograd.Function):
    """Custom Function: f(x) = x**3; grad = 3 x**2 g."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x * x


def poly():
    x = mg.tensor(3.0, requires_grad=True)
    x.name = "x"
    y = x**2 + 2 * x
    y.backward()
    return viz.draw_graph(y)


def mlp():
    mg.manual_seed(0)
    model = mg.nn.Sequential(mg.nn.Linear(3, 4), mg.nn.Tanh(), mg.nn.Linear(4, 1))
    x = mg.randn(5, 3)
    x.name = "x"
    loss = model(x).sum()
    return viz.draw_graph(loss, show_saved=True)


def custom_function():
    x = mg.tensor([1.0, -2.0], requires_grad=True)
    x.name = "x"
    y = Cube.apply(x).sum()
    y.backward()
    return viz.draw_graph(y)


def _adjacency():
    A = mg.sparse_coo_tensor([[0, 1, 2, 2], [1, 2, 0, 2]], [1.0, 2.0, 3.0, 4.0], (3, 3))
    A.requires_grad_()
    A.name = "A"
    mg.manual_seed(1)
    X = mg.randn(3, 2, requires_grad=True)
    X.name = "X"
    return A, X


def sparse_masked():
    A, X = _adjacency()
    y = mg.sparse.mm(A, X).sum()
    y.backward()
    return viz.draw_graph(y)


def sparse_full():
    A, X = _adjacency()
    y = mg.mm(A, X).sum()
    y.backward()
    return viz.draw_graph(y, rankdir="LR")


def embedding():
    mg.manual_seed(2)
    emb = mg.nn.Embedding(10, 3, sparse=True)
    emb.weight.name = "embedding.weight"
    loss = emb(mg.tensor([1, 2, 1])).sum()
    loss.backward()
    return viz.draw_graph(loss)


CASES = {
    "poly": poly,
    "mlp": mlp,
    "custom_function": custom_function,
    "sparse_masked": sparse_masked,
    "sparse_full": sparse_full,
    "embedding": embedding,
}


def check_golden(name: str, text: str) -> None:
    """Compare ``text`` with ``golden/<name>`` exactly; UPDATE_GOLDEN=1 rewrites the file."""
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden {path}; run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_dot(case):
    check_golden(f"{case}.dot", CASES[case]().source)


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_text(case):
    check_golden(f"{case}.txt", CASES[case]().to_text())


@pytest.mark.parametrize("case", sorted(CASES))
def test_same_source_twice_and_across_fresh_tensors(case):
    view = CASES[case]()
    assert view.source == view.source
    again = CASES[case]()
    assert again.source == view.source
    assert again.to_text() == view.to_text()


def test_poly_shows_grad_value_and_shared_leaf():
    text = poly().to_text()
    assert "n4 x | () float32 | grad = 8" in text
    assert "-> see n4" in text


def test_sparse_masked_vs_full_edge_labels():
    masked = sparse_masked()
    full = sparse_full()
    assert 'label="masked"' in masked.source.split("  legend [")[0]
    assert 'label="full"' in full.source.split("  legend [")[0]
    assert "masked gradient" in masked.source and "full gradient" not in masked.source
    assert "SparseMmBackward0" in masked.source
    assert "grad densified (leaf is sparse)" in full.source
    assert "grad densified" not in masked.source
    assert "sparse_coo nnz=4 density=0.4444" in masked.source


def test_embedding_sparse_grad_badge():
    text = embedding().to_text()
    assert "EmbeddingBackward0" in text
    assert "grad sparse_coo nnz=3" in text
    assert "grad is sparse (leaf is dense)" in text


def test_show_saved_notes():
    src = mlp().source
    assert "shape=note" in src
    assert "saved 0: (5, 3) float32" in src
