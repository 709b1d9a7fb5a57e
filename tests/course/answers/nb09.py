"""Typical answers to notebook 09 (sparse storage): right ones in other forms, and typical
mistakes with the phrase the check's hint must say."""

from tests.course.answers import Exercise


def _csr(crow, col, values) -> str:
    return f"answer_1_crow = {crow}\nanswer_1_col = {col}\nanswer_1_values = {values}"


def _coalesced(nnz, values) -> str:
    return f"answer_2_nnz = {nnz}\nanswer_2_values = {values}"


def _formats(gradients, rows, columns) -> str:
    return (
        f'answer_3 = {{"collect gradients": {gradients!r}, "links from page i": {rows!r}, '
        f'"links to page j": {columns!r}}}'
    )


EXERCISES = {
    1: Exercise(
        right=(
            _csr([0, 1, 1, 3], [2, 0, 3], [3.0, 1.0, 2.0]),
            _csr([0, 1, 1, 3], [2, 0, 3], [3, 1, 2]),
            _csr("np.array([0, 1, 1, 3])", "(2, 0, 3)", "mg.tensor([3.0, 1.0, 2.0])"),
            "S = mg.tensor([[0.0, 0, 3, 0], [0, 0, 0, 0], [1, 0, 0, 2]]).to_sparse_csr()\n"
            + _csr("S.crow_indices()", "S.col_indices()", "S.values()"),
        ),
        wrong=(
            (_csr([0, 1, 3], [2, 0, 3], [3, 1, 2]), "an empty row keeps its place"),
            (_csr([1, 0, 2], [2, 0, 3], [3, 1, 2]), "running total"),
            (_csr([1, 1, 3], [2, 0, 3], [3, 1, 2]), "starts at 0"),
            (_csr([0, 1, 1], [2, 0, 3], [3, 1, 2]), "ends at nnz"),
            (_csr([0, 1, 1, 3], [3, 1, 4], [3, 1, 2]), "counted from 0"),
            (_csr([0, 1, 1, 3], [0, 2, 3], [1, 3, 2]), "column order"),
            (_csr([0, 1, 1, 3], [2, 0, 3], [1, 2, 3]), "not their size"),
            (_csr([0, 1, 1, 3], [2, 0, 3], "..."), "answer_1_values is not answered yet"),
        ),
    ),
    2: Exercise(
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
