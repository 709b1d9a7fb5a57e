"""``trace.graph`` after backward: one freed record per tensor a node had saved, none for a node
that saved nothing (the drawing's ``show_saved`` notes read these records)."""

import minigrad as mg


def _saved(t):
    return {n.name: n.saved for n in mg.trace.graph(t).nodes if n.kind == "op"}


def test_each_saved_tensor_is_listed_as_freed_after_backward():
    x = mg.tensor(2.0, requires_grad=True)
    y = (x * x.sin()) + x
    before = _saved(y)
    assert [len(before[k]) for k in ("AddBackward0", "MulBackward0", "SinBackward0")] == [0, 2, 1]
    y.backward()
    after = _saved(y)
    assert [len(after[k]) for k in ("AddBackward0", "MulBackward0", "SinBackward0")] == [0, 2, 1]
    assert all(s.freed and s.shape is None and s.nbytes is None for v in after.values() for s in v)
    assert [s.index for s in after["MulBackward0"]] == [0, 1]


def test_a_saved_output_counts_once_and_retain_graph_frees_nothing():
    x = mg.tensor([0.5, -1.0], requires_grad=True)
    y = x.tanh().sum()  # TanhBackward0 saves its output
    y.backward(retain_graph=True)
    assert [s.freed for s in _saved(y)["TanhBackward0"]] == [False]
    y.backward()
    assert [s.freed for s in _saved(y)["TanhBackward0"]] == [True]
