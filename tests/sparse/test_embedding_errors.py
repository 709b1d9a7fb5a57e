"""Bad input to embedding, embedding_bag, index_select and gather: clear errors naming
the argument, the index or the dimension, and what would be accepted."""

import numpy as np
import pytest

import minigrad as mg
import minigrad.nn.functional as F

W = mg.ones(10, 3)


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (lambda: F.embedding(mg.tensor([10]), W), IndexError, r"index out of range in self"),
        (
            lambda: F.embedding(mg.tensor([[0, 1], [2, 10]]), W),
            IndexError,
            r"index 10 at position \[1, 1\]",
        ),
        (
            lambda: F.embedding(mg.tensor([-1]), W),
            IndexError,
            r"indices must be in \[0, size - 1\]",
        ),
        (
            lambda: F.embedding(mg.tensor([1.0]), W),
            TypeError,
            r"Long, Int; but got minigrad.float32",
        ),
        (lambda: F.embedding([1, 2], W), TypeError, r"'indices' must be a Tensor .* not list"),
        (lambda: F.embedding(mg.tensor([1]), mg.ones(10)), RuntimeError, r"'weight' must be 2-D"),
        (
            lambda: F.embedding(mg.tensor([1]), np.ones((10, 3))),
            TypeError,
            r"'weight' must be a Tensor",
        ),
        (
            lambda: mg.nn.Embedding(10, 3, padding_idx=10),
            ValueError,
            r"Padding_idx must be within num_embeddings",
        ),
        (lambda: mg.nn.Embedding(10, 3, padding_idx=-11), ValueError, r"\[-10, 9\]"),
        (
            lambda: mg.nn.Embedding(10, 3, _weight=mg.ones(3, 3)),
            ValueError,
            r"does not match num_embeddings",
        ),
        (lambda: mg.nn.Embedding.from_pretrained(mg.ones(3)), ValueError, r"2-dimensional"),
    ],
)
def test_embedding_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


IDS = mg.tensor([1, 2, 3])


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (
            lambda: F.embedding_bag(mg.tensor([[1, 2]]), W, mg.tensor([0])),
            ValueError,
            "if input is 2D, then offsets has to be None",
        ),
        (lambda: F.embedding_bag(IDS, W), ValueError, "offsets has to be a 1D Tensor but got None"),
        (
            lambda: F.embedding_bag(mg.zeros(1, 1, 1, dtype=mg.int64), W),
            ValueError,
            "input has to be 1D or 2D",
        ),
        (
            lambda: F.embedding_bag(IDS, W, mg.tensor([[0]])),
            ValueError,
            "offsets has to be a 1D Tensor",
        ),
        (
            lambda: F.embedding_bag(IDS, W, mg.tensor([1, 2])),
            ValueError,
            r"offsets\[0\] has to be 0",
        ),
        (
            lambda: F.embedding_bag(IDS, W, mg.tensor([0, 2, 1])),
            ValueError,
            r"offsets\[2\] = 1 comes after 2",
        ),
        (
            lambda: F.embedding_bag(IDS, W, mg.tensor([0, 5])),
            ValueError,
            r"at most the input's length 3",
        ),
        (lambda: F.embedding_bag(IDS, W, mg.tensor([0.0])), TypeError, "'offsets'"),
        (
            lambda: F.embedding_bag(IDS, W, mg.tensor([0]), mode="median"),
            ValueError,
            "mode has to be one of sum, mean or max",
        ),
        (
            lambda: F.embedding_bag(IDS, W, mg.tensor([0]), per_sample_weights=mg.ones(3)),
            NotImplementedError,
            "only supported for mode='sum'",
        ),
        (
            lambda: F.embedding_bag(
                IDS, W, mg.tensor([0]), mode="sum", per_sample_weights=mg.ones(2)
            ),
            ValueError,
            "same shape as the input",
        ),
        (
            lambda: F.embedding_bag(mg.tensor([11]), W, mg.tensor([0])),
            IndexError,
            "index out of range in self",
        ),
        (lambda: mg.nn.EmbeddingBag(10, 3, mode="avg"), ValueError, "mode has to be one of"),
    ],
)
def test_embedding_bag_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


X = mg.ones(3, 4)


@pytest.mark.parametrize(
    "call, exc, message",
    [
        (
            lambda: X.index_select(0, mg.tensor([[0]])),
            IndexError,
            "Index is supposed to be a vector",
        ),
        (lambda: X.index_select(0, mg.tensor([3])), IndexError, "dimension 0 of input has size 3"),
        (lambda: X.index_select(1, mg.tensor([-1])), IndexError, "index out of range in self"),
        (lambda: X.index_select(0, mg.tensor([0.0])), TypeError, "Long, Int"),
        (lambda: X.index_select(2, mg.tensor([0])), IndexError, "Dimension out of range"),
        (
            lambda: mg.index_select(mg.tensor(1.0), 0, mg.tensor([0, 0])),
            IndexError,
            "Index to scalar can have only 1 value",
        ),
        (lambda: mg.gather(X, 1, mg.tensor([0])), RuntimeError, "same number of dimensions"),
        (
            lambda: mg.gather(X, 1, mg.zeros(4, 1, dtype=mg.int64)),
            RuntimeError,
            r"Size does not match at dimension 0 expected index \[4, 1\]",
        ),
        (lambda: mg.gather(X, 1, mg.tensor([[4]])), IndexError, "dimension 1 of input has size 4"),
        (lambda: mg.gather(X, 1, mg.tensor([[0.5]])), TypeError, "Long, Int"),
        (lambda: mg.gather(X, 1, [[0]]), TypeError, "must be a Tensor"),
    ],
)
def test_index_select_and_gather_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_sparse_inputs_are_refused_with_a_hint():
    S = mg.sparse_coo_tensor([[0, 1], [1, 0]], [1.0, 2.0], (2, 2))
    for call in (
        lambda: S.index_select(0, mg.tensor([0])),
        lambda: mg.gather(S, 0, mg.tensor([[0]])),
    ):
        with pytest.raises(NotImplementedError, match=r"no sparse kernel .* \.to_dense\(\) first"):
            call()
