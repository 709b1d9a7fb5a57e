"""Typical answers to notebook 09 (sparse storage): right ones in other forms, and typical
mistakes with the phrase the check's hint must say. Exercise 2 is code: three right
implementations (vectorised with lexsort, loops over a dict, linear keys with np.unique) and
the typical mistakes of a COO -> CSR conversion and a CSR product."""

from tests.course.answers import Exercise


def _coalesced(nnz, values) -> str:
    return f"answer_1_nnz = {nnz}\nanswer_1_values = {values}"


def _formats(gradients, rows, columns) -> str:
    return (
        f'answer_3 = {{"collect gradients": {gradients!r}, "links from page i": {rows!r}, '
        f'"links to page j": {columns!r}}}'
    )


_BUILD_RIGHT = (
    (
        "def coo_to_csr(rows, cols, values, shape):\n"
        "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
        "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
        "    order = np.lexsort((cols, rows))\n"
        "    rows, cols, values = rows[order], cols[order], values[order]\n"
        "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
        "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
        "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
        "    first = np.ones(rows.size, dtype=bool)\n"
        "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
        "    starts = np.flatnonzero(first)\n"
        "    values = np.add.reduceat(values, starts) if starts.size else values\n"
        "    rows, cols = rows[starts], cols[starts]\n"
        "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
        "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
        "    counts = np.bincount(rows, minlength=shape[0])\n"
        "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
        "    return crow_indices, cols, values\n"
        "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
        "\n"
        "\n"
        "def csr_matvec(crow_indices, col_indices, values, x):\n"
        "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
        "    n_rows = crow.size - 1\n"
        "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
        "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
        "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
        "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
        "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
        "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
    ),
    (
        "def coo_to_csr(rows, cols, values, shape):\n"
        "    # coalesce with a dict, then walk the sorted coordinates\n"
        "    total = {}\n"
        "    for r, c, v in zip(rows, cols, values):\n"
        "        key = (int(r), int(c))\n"
        "        total[key] = total.get(key, 0.0) + v\n"
        "    keys = sorted(total)\n"
        "    crow = [0] * (shape[0] + 1)\n"
        "    for r, _ in keys:\n"
        "        crow[r + 1] += 1\n"
        "    for i in range(shape[0]):\n"
        "        crow[i + 1] += crow[i]\n"
        "    return (\n"
        "        np.array(crow),\n"
        "        np.array([c for _, c in keys], dtype=np.int64),\n"
        "        np.array([total[k] for k in keys], dtype=float),\n"
        "    )\n"
        "\n"
        "\n"
        "def csr_matvec(crow_indices, col_indices, values, x):\n"
        "    y = np.zeros(len(crow_indices) - 1)\n"
        "    for i in range(len(y)):\n"
        "        lo, hi = crow_indices[i], crow_indices[i + 1]\n"
        "        for k in range(lo, hi):\n"
        "            y[i] += values[k] * x[col_indices[k]]\n"
        "    return y"
    ),
    (
        "def coo_to_csr(rows, cols, values, shape):\n"
        "    n_rows, n_cols = shape\n"
        "    keys = np.asarray(rows, np.int64) * n_cols + np.asarray(cols, np.int64)\n"
        "    unique_keys, group = np.unique(keys, return_inverse=True)\n"
        "    summed = np.zeros(unique_keys.size, np.asarray(values).dtype)\n"
        "    np.add.at(summed, group.ravel(), values)\n"
        "    entry_rows, entry_cols = np.divmod(unique_keys, n_cols)\n"
        "    crow = np.searchsorted(entry_rows, np.arange(n_rows + 1))\n"
        "    return crow, entry_cols, summed\n"
        "\n"
        "\n"
        "def csr_matvec(crow_indices, col_indices, values, x):\n"
        "    k = np.arange(len(col_indices))\n"
        '    row = np.searchsorted(crow_indices, k, side="right") - 1\n'
        "    y = np.zeros(len(crow_indices) - 1)\n"
        "    np.add.at(y, row, np.asarray(values) * np.asarray(x)[col_indices])\n"
        "    return y"
    ),
)
_BUILD_WRONG = (
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    order = np.lexsort((cols, rows))\n"
            "    crow = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=shape[0]))])\n"
            "    return crow, cols[order], values[order]\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "keeps the duplicates",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], counts])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "running total",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    _, counts = np.unique(rows, return_counts=True)\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "an empty row keeps its place",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.cumsum(counts)\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "starts with 0",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.argsort(rows, kind='stable')\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "sort the entries by column",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    keep = values != 0\n"
            "    rows, cols, values = rows[keep], cols[keep], values[keep]\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "sum to 0 stays stored",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    dense = np.zeros(shape)\n"
            "    np.add.at(dense, (rows, cols), values)\n"
            "    r, c = np.nonzero(dense)\n"
            "    crow = np.concatenate([[0], np.cumsum(np.bincount(r, minlength=shape[0]))])\n"
            "    return crow, c, dense[r, c]\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "coo_to_csr builds a dense array",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    import scipy.sparse as sp\n"
            "    m = sp.coo_matrix((values, (rows, cols)), shape=shape).tocsr()\n"
            "    return m.indptr, m.indices, m.data\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "numpy only",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.repeat(np.arange(crow.size - 1), np.diff(crow))]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products, minlength=n_rows)"
        ),
        "not x at its row",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    y = np.zeros(len(crow_indices) - 1)\n"
            "    for i in range(len(y)):\n"
            "        lo, hi = crow_indices[i], crow_indices[i + 1] + 1\n"
            "        y[i] = np.dot(values[lo:hi], x[col_indices[lo:hi]])\n"
            "    return y"
        ),
        "row 0 of A @ x is wrong",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    crow, x = np.asarray(crow_indices), np.asarray(x)\n"
            "    n_rows = crow.size - 1\n"
            "    # Stored entry k adds values[k] * x[col_indices[k]] to the row it belongs to; row i owns\n"
            "    # crow[i + 1] - crow[i] entries, so the row of each entry is i repeated that many times.\n"
            "    products = np.asarray(values) * x[np.asarray(col_indices)]\n"
            "    row_of_entry = np.repeat(np.arange(n_rows), np.diff(crow))\n"
            "    # One sum per row; minlength gives the empty rows at the end their 0 too.\n"
            "    return np.bincount(row_of_entry, weights=products)"
        ),
        "one number per row of A",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    A = np.zeros((len(crow_indices) - 1, len(x)))\n"
            "    for i in range(len(crow_indices) - 1):\n"
            "        for k in range(crow_indices[i], crow_indices[i + 1]):\n"
            "            A[i, col_indices[k]] += values[k]\n"
            "    return A @ x"
        ),
        "csr_matvec builds a dense array",
    ),
    (
        (
            "def coo_to_csr(rows, cols, values, shape):\n"
            "    rows, cols, values = np.asarray(rows), np.asarray(cols), np.asarray(values)\n"
            "    # 1. Sort the entries by row, then by column: np.lexsort sorts by its LAST key first.\n"
            "    order = np.lexsort((cols, rows))\n"
            "    rows, cols, values = rows[order], cols[order], values[order]\n"
            "    # 2. Coalesce. Sorted, the duplicates of a coordinate are neighbours: an entry starts a new\n"
            "    #    group when its (row, column) differs from the one before it, and np.add.reduceat sums\n"
            "    #    each group. Nothing looks at the sums, so a group that sums to 0 stays stored.\n"
            "    first = np.ones(rows.size, dtype=bool)\n"
            "    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])\n"
            "    starts = np.flatnonzero(first)\n"
            "    values = np.add.reduceat(values, starts) if starts.size else values\n"
            "    rows, cols = rows[starts], cols[starts]\n"
            "    # 3. crow_indices: the entries of each row counted (minlength keeps the empty rows, the\n"
            "    #    last ones too), then a running total from 0, so row i owns crow[i]:crow[i + 1].\n"
            "    counts = np.bincount(rows, minlength=shape[0])\n"
            "    crow_indices = np.concatenate([[0], np.cumsum(counts)])\n"
            "    return crow_indices, cols, values\n"
            "    # Memory: arrays of nnz and of shape[0] + 1 numbers; the m x n matrix never exists.\n"
            "\n"
            "\n"
            "def csr_matvec(crow_indices, col_indices, values, x):\n"
            "    return np.add.reduceat(values * x[col_indices], crow_indices[:-1])"
        ),
        "raised IndexError",
    ),
)

EXERCISES = {
    1: Exercise(
        right=(
            _coalesced(3, [1.0, 0.0, 2.0]),
            _coalesced(3.0, [1, 0, 2]),
            _coalesced("np.int64(3)", "(1.0, -0.0, 2.0)"),
            _coalesced("v.coalesce().nnz", "v.coalesce().values()"),
        ),
        wrong=(
            (_coalesced(2, [1.0, 2.0]), "does it look at what the sum is"),
            (_coalesced(3, [1.0, 2.0]), "does coalesce drop a stored zero"),
            (_coalesced(3, [0.0, 1.0, 2.0]), "(0, 1) comes before (1, 0)"),
            (_coalesced(4, [4.0, 1.0, -4.0, 2.0]), "become one entry"),
            (_coalesced(3, [1.0, 2.0, 0.0]), "then sort by row, then by column"),
        ),
    ),
    2: Exercise(right=_BUILD_RIGHT, wrong=_BUILD_WRONG),
    3: Exercise(
        right=(
            _formats("coo", "csr", "csc"),
            _formats("COO", "CSR", "CSC"),
            _formats(" Coo", "csr ", "Csc"),
        ),
        wrong=(
            (_formats("csr", "csr", "csc"), "without sorting them in"),
            (_formats("coo", "coo", "csc"), "stores a row as one slice"),
            (_formats("coo", "csc", "csr"), "stores a row as one slice"),
            (_formats("coo", "csr", "coo"), "stores a column as one slice"),
            ('answer_3 = ["coo", "csr", "csc"]', "should be the dict"),
            ('answer_3 = {"gradients": "coo"}', "has no entry 'collect gradients'"),
            (_formats("coo", "csr", "dense"), "stores a column as one slice"),
        ),
    ),
    4: Exercise(
        right=(
            "answer_4 = 2 / (2 + 3 * 8)",
            "answer_4 = 1 / 13",
            "answer_4 = 0.077",
            "answer_4 = 0.0769",
            "answer_4 = mg.sparse.break_even_density(3, 2)",
            "answer_4 = np.float32(2 / 26)",
        ),
        wrong=(
            ("answer_4 = 2 / (2 + 2 * 8)", "three indices per entry"),
            ("answer_4 = 2 / (2 + 3 * 4)", "an int64 index takes 8 bytes"),
            ("answer_4 = 2 / (3 * 8)", "pays for its value too"),
            ("answer_4 = 0.2", "float32 matrix's break-even"),
            ("answer_4 = 7.7", "not a percentage"),
            ("answer_4 = 100 * 2 / 26", "not a percentage"),
            ("answer_4 = 0.5", "count the bytes of one stored entry"),
        ),
    ),
}
