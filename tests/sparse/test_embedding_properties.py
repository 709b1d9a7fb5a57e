"""Hypothesis: the accumulation algebra through the engine. A table gets sparse
contributions (lookups with sparse=True) and dense ones (a dense op on the weight), built
in any order and spread over several backward calls; its .grad must equal plain dense
accumulation, whatever the policy, and stay sparse (nnz adding up) when every
contribution is sparse and the policy allows."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import minigrad as mg
import minigrad.nn.functional as F

NUM, DIM = 6, 2

lookup = st.tuples(st.just("sparse"), st.lists(st.integers(0, NUM - 1), max_size=5))
dense_use = st.tuples(st.just("dense"), st.just([]))
contributions = st.lists(st.one_of(lookup, dense_use), min_size=1, max_size=6)
policies = st.sampled_from(
    [
        dict(densify="never"),
        dict(densify="auto"),
        dict(densify="always"),
        dict(densify="never", coalesce="eager"),
    ]
)


def build_terms(W, contribs, seed):
    """One loss term per contribution, with random upstream weights; and the dense grad."""
    rng = np.random.default_rng(seed)
    terms, expected = [], np.zeros((NUM, DIM))
    for kind, rows in contribs:
        if kind == "sparse":
            up = rng.integers(-3, 4, (len(rows), DIM)).astype(np.float64)
            out = F.embedding(mg.tensor(rows, dtype=mg.int64), W, sparse=True)
            terms.append((out * mg.tensor(up)).sum())
            np.add.at(expected, rows, up)
        else:
            c = rng.integers(-3, 4, (NUM, DIM)).astype(np.float64)
            terms.append((W * mg.tensor(c)).sum())
            expected += c
    return terms, expected


@settings(max_examples=80, deadline=None)
@given(contributions, st.integers(1, 3), policies, st.integers(0, 2**16))
def test_any_order_any_policy_gives_the_dense_sum(contribs, n_calls, policy, seed):
    W = mg.tensor(np.zeros((NUM, DIM)), requires_grad=True)
    terms, expected = build_terms(W, contribs, seed)
    rng = np.random.default_rng(seed + 1)
    rng.shuffle(terms)
    groups = np.array_split(np.arange(len(terms)), min(n_calls, len(terms)))
    with mg.sparse.config(**policy):
        for group in groups:
            loss = terms[group[0]]
            for k in group[1:]:
                loss = loss + terms[k]
            loss.backward()
    got = (
        W.grad.coalesce().to_dense().detach().numpy()
        if W.grad.layout != "strided"
        else W.grad.numpy()
    )
    np.testing.assert_array_equal(got, expected)  # small integers: exact in any order
    all_sparse = all(kind == "sparse" for kind, _ in contribs)
    if all_sparse and policy["densify"] == "never":
        assert W.grad.layout != "strided"
        n_lookups = sum(len(rows) for _, rows in contribs)
        if policy.get("coalesce") != "eager":
            assert W.grad.nnz == n_lookups  # concatenated, never summed
    if not all_sparse or policy["densify"] == "always":
        assert W.grad.layout == "strided"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(0, NUM - 1), max_size=5), min_size=1, max_size=4))
def test_sparse_and_dense_embeddings_agree(batches):
    """sparse=True and sparse=False give the same gradient after any lookups."""
    grads = []
    for sparse in (True, False):
        W = mg.tensor(np.arange(NUM * DIM, dtype=np.float64).reshape(NUM, DIM), requires_grad=True)
        with mg.sparse.config(densify="never"):
            for rows in batches:
                (
                    F.embedding(mg.tensor(rows, dtype=mg.int64), W, sparse=sparse) ** 2
                ).sum().backward()
        grads.append(
            W.grad.coalesce().to_dense().detach().numpy()
            if W.grad.layout != "strided"
            else W.grad.numpy()
        )
    np.testing.assert_array_equal(grads[0], grads[1])
