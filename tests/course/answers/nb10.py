"""Answers to notebook 10's exercises (sparse gradients and densification). Exercises 2 and 4
are code: accumulate(existing, incoming) by minigrad's accumulation table, and
should_densify(nnz, num_rows, row_width, dtype), the "auto" policy's decision from bytes."""

from tests.course.answers import Exercise

_ACCUMULATE_RIGHT = (
    (
        "def accumulate(existing, incoming):\n"
        "    if existing is None:  # the first gradient: .grad becomes it\n"
        "        return incoming\n"
        "    old_sparse, new_sparse = isinstance(existing, tuple), isinstance(incoming, tuple)\n"
        "    if old_sparse and new_sparse:\n"
        "        # sparse + sparse stays sparse: concatenate, existing first (minigrad's SparseAdd). The\n"
        "        # rows stored twice are summed only when the gradient is coalesced, never here.\n"
        "        return (\n"
        "            np.concatenate([existing[0], incoming[0]]),\n"
        "            np.concatenate([existing[1], incoming[1]]),\n"
        "        )\n"
        "    if not old_sparse and not new_sparse:\n"
        "        return existing + incoming  # dense + dense: a new array\n"
        "    # dense + sparse, or sparse + dense: a copy of the dense one, each stored row added in.\n"
        "    dense, (rows, values) = (incoming, existing) if old_sparse else (existing, incoming)\n"
        "    out = np.array(dense, copy=True)\n"
        "    np.add.at(out, rows, values)  # scatter-add: a row stored twice is added twice\n"
        "    return out\n"
        "    # (out[rows] += values would add a repeated row only once: fancy-index assignment writes\n"
        "    # each row once, with the last value computed for it.)"
    ),
    (
        "def accumulate(existing, incoming):\n"
        "    if existing is None:\n"
        "        return incoming\n"
        "    if isinstance(existing, tuple) and isinstance(incoming, tuple):\n"
        "        rows = list(existing[0]) + list(incoming[0])\n"
        "        values = list(existing[1]) + list(incoming[1])\n"
        "        width = existing[1].shape[1]\n"
        "        return np.array(rows, dtype=np.int64), np.array(values).reshape(len(rows), width)\n"
        "    if isinstance(existing, tuple) or isinstance(incoming, tuple):\n"
        "        dense, sparse = (incoming, existing) if isinstance(existing, tuple) else (existing, incoming)\n"
        "        out = dense.copy()\n"
        "        for r, v in zip(*sparse):\n"
        "            out[r] += v\n"
        "        return out\n"
        "    return existing + incoming"
    ),
    (
        "def accumulate(existing, incoming):\n"
        "    kinds = (type(existing).__name__, type(incoming).__name__)\n"
        "    if existing is None:\n"
        "        return incoming\n"
        '    if kinds == ("tuple", "tuple"):\n'
        "        return tuple(np.concatenate(pair) for pair in zip(existing, incoming))\n"
        '    total = np.zeros_like(existing if kinds[0] == "ndarray" else incoming)\n'
        "    for g in (existing, incoming):\n"
        "        if isinstance(g, tuple):\n"
        "            np.add.at(total, g[0], g[1])\n"
        "        else:\n"
        "            total += g\n"
        "    return total"
    ),
)
_ACCUMULATE_WRONG = (
    (
        (
            "def accumulate(existing, incoming):\n"
            "    if existing is None:  # the first gradient: .grad becomes it\n"
            "        return incoming\n"
            "    old_sparse, new_sparse = isinstance(existing, tuple), isinstance(incoming, tuple)\n"
            "    if old_sparse and new_sparse:\n"
            "        # sparse + sparse stays sparse: concatenate, existing first (minigrad's SparseAdd). The\n"
            "        # rows stored twice are summed only when the gradient is coalesced, never here.\n"
            "        n = int(max(existing[0].max(initial=0), incoming[0].max(initial=0))) + 1\n"
            "        out = np.zeros((n, existing[1].shape[1]))\n"
            "        np.add.at(out, existing[0], existing[1])\n"
            "        np.add.at(out, incoming[0], incoming[1])\n"
            "        return out\n"
            "    if not old_sparse and not new_sparse:\n"
            "        return existing + incoming  # dense + dense: a new array\n"
            "    # dense + sparse, or sparse + dense: a copy of the dense one, each stored row added in.\n"
            "    dense, (rows, values) = (incoming, existing) if old_sparse else (existing, incoming)\n"
            "    out = np.array(dense, copy=True)\n"
            "    np.add.at(out, rows, values)  # scatter-add: a row stored twice is added twice\n"
            "    return out\n"
            "    # (out[rows] += values would add a repeated row only once: fancy-index assignment writes\n"
            "    # each row once, with the last value computed for it.)"
        ),
        "sparse + sparse stays sparse",
    ),
    (
        (
            "def accumulate(existing, incoming):\n"
            "    if existing is None:  # the first gradient: .grad becomes it\n"
            "        return incoming\n"
            "    old_sparse, new_sparse = isinstance(existing, tuple), isinstance(incoming, tuple)\n"
            "    if old_sparse and new_sparse:\n"
            "        # sparse + sparse stays sparse: concatenate, existing first (minigrad's SparseAdd). The\n"
            "        # rows stored twice are summed only when the gradient is coalesced, never here.\n"
            "        rows = np.concatenate([existing[0], incoming[0]])\n"
            "        values = np.concatenate([existing[1], incoming[1]])\n"
            "        unique, where = np.unique(rows, return_inverse=True)\n"
            "        summed = np.zeros((unique.size, values.shape[1]))\n"
            "        np.add.at(summed, where, values)\n"
            "        return unique, summed\n"
            "    if not old_sparse and not new_sparse:\n"
            "        return existing + incoming  # dense + dense: a new array\n"
            "    # dense + sparse, or sparse + dense: a copy of the dense one, each stored row added in.\n"
            "    dense, (rows, values) = (incoming, existing) if old_sparse else (existing, incoming)\n"
            "    out = np.array(dense, copy=True)\n"
            "    np.add.at(out, rows, values)  # scatter-add: a row stored twice is added twice\n"
            "    return out\n"
            "    # (out[rows] += values would add a repeated row only once: fancy-index assignment writes\n"
            "    # each row once, with the last value computed for it.)"
        ),
        "it does not coalesce",
    ),
    (
        (
            "def accumulate(existing, incoming):\n"
            "    if existing is None:  # the first gradient: .grad becomes it\n"
            "        return incoming\n"
            "    old_sparse, new_sparse = isinstance(existing, tuple), isinstance(incoming, tuple)\n"
            "    if old_sparse and new_sparse:\n"
            "        # sparse + sparse stays sparse: concatenate, existing first (minigrad's SparseAdd). The\n"
            "        # rows stored twice are summed only when the gradient is coalesced, never here.\n"
            "        return (\n"
            "            np.concatenate([incoming[0], existing[0]]),\n"
            "            np.concatenate([incoming[1], existing[1]]),\n"
            "        )\n"
            "    if not old_sparse and not new_sparse:\n"
            "        return existing + incoming  # dense + dense: a new array\n"
            "    # dense + sparse, or sparse + dense: a copy of the dense one, each stored row added in.\n"
            "    dense, (rows, values) = (incoming, existing) if old_sparse else (existing, incoming)\n"
            "    out = np.array(dense, copy=True)\n"
            "    np.add.at(out, rows, values)  # scatter-add: a row stored twice is added twice\n"
            "    return out\n"
            "    # (out[rows] += values would add a repeated row only once: fancy-index assignment writes\n"
            "    # each row once, with the last value computed for it.)"
        ),
        "existing's rows come first",
    ),
    (
        (
            "def accumulate(existing, incoming):\n"
            "    if existing is None:  # the first gradient: .grad becomes it\n"
            "        return incoming\n"
            "    old_sparse, new_sparse = isinstance(existing, tuple), isinstance(incoming, tuple)\n"
            "    if old_sparse and new_sparse:\n"
            "        # sparse + sparse stays sparse: concatenate, existing first (minigrad's SparseAdd). The\n"
            "        # rows stored twice are summed only when the gradient is coalesced, never here.\n"
            "        return (\n"
            "            np.concatenate([existing[0], incoming[0]]),\n"
            "            np.concatenate([existing[1], incoming[1]]),\n"
            "        )\n"
            "    if not old_sparse and not new_sparse:\n"
            "        return existing + incoming  # dense + dense: a new array\n"
            "    # dense + sparse, or sparse + dense: a copy of the dense one, each stored row added in.\n"
            "    dense, (rows, values) = (incoming, existing) if old_sparse else (existing, incoming)\n"
            "    out = np.array(dense, copy=True)\n"
            "    out[rows] += values  # scatter-add: a row stored twice is added twice\n"
            "    return out\n"
            "    # (out[rows] += values would add a repeated row only once: fancy-index assignment writes\n"
            "    # each row once, with the last value computed for it.)"
        ),
        "adds a repeated row once",
    ),
    (
        (
            "def accumulate(existing, incoming):\n"
            "    if existing is None:  # the first gradient: .grad becomes it\n"
            "        return incoming\n"
            "    old_sparse, new_sparse = isinstance(existing, tuple), isinstance(incoming, tuple)\n"
            "    if old_sparse and new_sparse:\n"
            "        # sparse + sparse stays sparse: concatenate, existing first (minigrad's SparseAdd). The\n"
            "        # rows stored twice are summed only when the gradient is coalesced, never here.\n"
            "        return (\n"
            "            np.concatenate([existing[0], incoming[0]]),\n"
            "            np.concatenate([existing[1], incoming[1]]),\n"
            "        )\n"
            "    if not old_sparse and not new_sparse:\n"
            "        return existing + incoming  # dense + dense: a new array\n"
            "    # dense + sparse, or sparse + dense: a copy of the dense one, each stored row added in.\n"
            "    dense, (rows, values) = (incoming, existing) if old_sparse else (existing, incoming)\n"
            "    out = dense\n"
            "    np.add.at(out, rows, values)  # scatter-add: a row stored twice is added twice\n"
            "    return out\n"
            "    # (out[rows] += values would add a repeated row only once: fancy-index assignment writes\n"
            "    # each row once, with the last value computed for it.)"
        ),
        "changed an array it was given",
    ),
    (
        (
            "def accumulate(existing, incoming):\n"
            "    old_sparse, new_sparse = isinstance(existing, tuple), isinstance(incoming, tuple)\n"
            "    if old_sparse and new_sparse:\n"
            "        # sparse + sparse stays sparse: concatenate, existing first (minigrad's SparseAdd). The\n"
            "        # rows stored twice are summed only when the gradient is coalesced, never here.\n"
            "        return (\n"
            "            np.concatenate([existing[0], incoming[0]]),\n"
            "            np.concatenate([existing[1], incoming[1]]),\n"
            "        )\n"
            "    if not old_sparse and not new_sparse:\n"
            "        return existing + incoming  # dense + dense: a new array\n"
            "    # dense + sparse, or sparse + dense: a copy of the dense one, each stored row added in.\n"
            "    dense, (rows, values) = (incoming, existing) if old_sparse else (existing, incoming)\n"
            "    out = np.array(dense, copy=True)\n"
            "    np.add.at(out, rows, values)  # scatter-add: a row stored twice is added twice\n"
            "    return out\n"
            "    # (out[rows] += values would add a repeated row only once: fancy-index assignment writes\n"
            "    # each row once, with the last value computed for it.)"
        ),
        "with no gradient yet",
    ),
)

_POLICY_RIGHT = (
    (
        "def should_densify(nnz, num_rows, row_width, dtype):\n"
        "    itemsize = np.dtype(dtype).itemsize  # bytes of one value: 4 for float32, 8 for float64\n"
        "    # COO of a row-sparse gradient: per stored row one int64 index (8 bytes, minigrad always\n"
        "    # stores int64) and row_width values; a row stored twice is paid twice.\n"
        "    sparse_bytes = nnz * (8 + row_width * itemsize)\n"
        "    dense_bytes = num_rows * row_width * itemsize\n"
        '    # "auto" densifies once the COO takes AT LEAST the dense bytes (>=: at equal bytes the\n'
        "    # dense form is as small and simpler), and never an empty gradient.\n"
        "    return nnz > 0 and sparse_bytes >= dense_bytes\n"
        "    # The same as nnz / num_rows >= mg.sparse.break_even_density(1, itemsize, row_width):\n"
        "    # the density threshold follows from the bytes, and moves with the dtype and the width."
    ),
    (
        "def should_densify(nnz, num_rows, row_width, dtype):\n"
        "    row_bytes = row_width * np.dtype(dtype).itemsize\n"
        "    break_even = row_bytes / (8 + row_bytes)  # the density at which COO costs as much as dense\n"
        "    return bool(nnz) and nnz / num_rows >= break_even - 1e-12"
    ),
    (
        "def should_densify(nnz, num_rows, row_width, dtype):\n"
        "    value = np.dtype(dtype).itemsize\n"
        "    index = np.dtype(np.int64).itemsize\n"
        "    if nnz == 0:\n"
        "        return False\n"
        "    return int(nnz) * (index + row_width * value) >= int(num_rows) * row_width * value"
    ),
)
_POLICY_WRONG = (
    (
        (
            "def should_densify(nnz, num_rows, row_width, dtype):\n"
            "    itemsize = np.dtype(dtype).itemsize\n"
            "    return nnz > 0 and nnz * row_width * itemsize >= num_rows * row_width * itemsize"
        ),
        "its int64 index (8 bytes) too",
    ),
    (
        (
            "def should_densify(nnz, num_rows, row_width, dtype):\n"
            "    itemsize = np.dtype(dtype).itemsize\n"
            "    return nnz > 0 and nnz * (1 + row_width) >= num_rows * row_width"
        ),
        "compare bytes, not numbers of elements",
    ),
    (
        (
            "def should_densify(nnz, num_rows, row_width, dtype):\n"
            "    itemsize = np.dtype(dtype).itemsize\n"
            "    return nnz > 0 and nnz * (4 + row_width * itemsize) >= num_rows * row_width * itemsize"
        ),
        "not int32",
    ),
    (
        (
            "def should_densify(nnz, num_rows, row_width, dtype):\n"
            "    itemsize = np.dtype(dtype).itemsize\n"
            "    return nnz > 0 and nnz * (16 + row_width * itemsize) >= num_rows * row_width * itemsize"
        ),
        "one sparse dim",
    ),
    (
        (
            "def should_densify(nnz, num_rows, row_width, dtype):\n"
            "    itemsize = np.dtype(dtype).itemsize\n"
            "    return nnz * (8 + row_width * itemsize) > num_rows * row_width * itemsize"
        ),
        "the rule is >=, not >",
    ),
    (
        (
            "def should_densify(nnz, num_rows, row_width, dtype):\n"
            "    itemsize = np.dtype(dtype).itemsize\n"
            "    return nnz > 0 and nnz * (8 + row_width * 4) >= num_rows * row_width * 4"
        ),
        "the values' bytes depend on dtype",
    ),
    (
        (
            "def should_densify(nnz, num_rows, row_width, dtype):\n"
            "    itemsize = np.dtype(dtype).itemsize\n"
            "    return nnz / num_rows >= 0.2"
        ),
        "compare the COO bytes",
    ),
)


EXERCISES = {
    1: Exercise(
        right=(
            'answer_1 = ["sparse", "dense", "sparse", "dense"]',
            'answer_1 = ("Sparse", "Dense", "SPARSE", "dense")',
            'answer_1 = "sparse dense sparse dense".split()',
            'answer_1 = np.array(["sparse", "dense", "sparse", "dense"])',
        ),
        wrong=(
            ('answer_1 = ["dense", "dense", "sparse", "dense"]', "loss 1"),
            ('answer_1 = ["sparse", "sparse", "sparse", "dense"]', "loss 2"),
            ('answer_1 = ["sparse", "dense", "dense", "dense"]', "loss 3"),
            ('answer_1 = ["sparse", "dense", "sparse", "sparse"]', "loss 4"),
            ('answer_1 = ["sparse"] * 4', "which terms send a dense gradient"),
            ('answer_1 = ["dense"] * 4', "sparse + sparse row"),
            ('answer_1 = ["sparse", "dense"]', "(4 items)"),
            ('answer_1 = ["sparse_coo", "strided", "sparse_coo", "strided"]', "name the layout"),
        ),
    ),
    2: Exercise(right=_ACCUMULATE_RIGHT, wrong=_ACCUMULATE_WRONG),
    3: Exercise(
        right=(
            'answer_3 = {"a": "sparse", "b": "dense", "c": "sparse", "d": "dense"}',
            'answer_3 = {"d": "Dense", "c": "Sparse", "b": "DENSE", "a": "sparse"}',
            'answer_3 = ["sparse", "dense", "sparse", "dense"]',
        ),
        wrong=(
            ('answer_3 = {"a": "dense", "b": "dense", "c": "sparse", "d": "dense"}', "case a"),
            ('answer_3 = {"a": "sparse", "b": "sparse", "c": "sparse", "d": "dense"}', "case b"),
            ('answer_3 = {"a": "sparse", "b": "dense", "c": "dense", "d": "dense"}', "case c"),
            ('answer_3 = {"a": "sparse", "b": "dense", "c": "sparse", "d": "sparse"}', "case d"),
            ('answer_3 = {"a": "sparse", "b": "sparse", "c": "sparse", "d": "sparse"}', "compare"),
        ),
    ),
    4: Exercise(right=_POLICY_RIGHT, wrong=_POLICY_WRONG),
}
