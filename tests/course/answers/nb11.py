"""Answers to notebook 11's exercises (sparse applications)."""

from tests.course.answers import Exercise

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = [190, 17]",
            "answer_1 = (190.0, 17.0)",
            "answer_1 = np.array([2 * 78 + 34, 16 + 1])",
            "answer_1 = [2 * G.number_of_edges() + n, G.degree[0] + 1]",
        ),
        wrong=(
            ("answer_1 = [156, 17]", "self loops"),
            ("answer_1 = [156, 16]", "self loops"),
            ("answer_1 = [190, 16]", "self loop"),
            ("answer_1 = [n * n, 17]", "own pattern"),
            ("answer_1 = [190, 190]", "which out[i]"),
            ("answer_1 = [190, n]", "row 0"),
            ("answer_1 = [78, 17]", "both directions"),
            ("answer_1 = [190]", "(2 items)"),
        ),
    ),
    2: Exercise(
        right=(
            "answer_2 = [2048, 910, 0.0091]",
            "answer_2 = (2048.0, 910.0, 0.91 / 100)",
            "answer_2 = np.array([2048, 910, 910 / 100_000])",
            "answer_2 = [len(b), len(np.unique(items[b])), np.unique(items[b]).size / n_items]",
            "distinct = len(set(items[b].tolist()))\nanswer_2 = [b.size, distinct, distinct / n_items]",
        ),
        wrong=(
            ("answer_2 = [2048, 2048, 2048 / n_items]", "distinct item ids"),
            ("answer_2 = [910, 910, 0.0091]", "one row per lookup"),
            ("answer_2 = [2048, 910, 0.91]", "not a percentage"),
            ("answer_2 = [2048, 910, 910 / 2048]", "over the table's rows"),
            ("answer_2 = [2048, 910, 2048 / n_items]", "coalesced gradient"),
            ("answer_2 = [2048, 910]", "(3 items)"),
        ),
    ),
    3: Exercise(
        right=(
            "answer_3 = [4 * 20_000**2, per_matrix * 4 * 20_000**2]",
            "answer_3 = [1.6e9, round(per_matrix, 1) * 1.6e9]",
            "answer_3 = (1_600_000_000, float(per_matrix) * 1_600_000_000)",
            "answer_3 = np.array([4.0 * 20_000 * 20_000, per_matrix * 4 * 20_000**2])",
        ),
        wrong=(
            ("answer_3 = [1.6, per_matrix * 1.6]", "not GB"),
            ("answer_3 = [4 * 20_000**2 / 2**30, per_matrix * 1.49]", "not GiB"),
            (
                "answer_3 = [20_000**2, per_matrix * 20_000**2]",
                "how many bytes does each float32 take",
            ),
            ("answer_3 = [8 * 20_000**2, per_matrix * 8 * 20_000**2]", "these are float32"),
            ("answer_3 = [4 * 20_000, per_matrix * 4 * 20_000]", "not one row"),
            ("answer_3 = [1.6e9, 1.6e9]", "per_matrix"),
            ("answer_3 = [1.6e9, 2 * 1.6e9]", "per_matrix"),
            ("answer_3 = 1.6e9", "a list of two numbers"),
        ),
    ),
    4: Exercise(
        right=(
            "answer_4 = [4, 18]",
            "answer_4 = (4.0, 18.0)",
            "answer_4 = np.array([4, 3 * 6])",
            "answer_4 = [len([5, 6, 7, 8]), 3 * 6]",
        ),
        wrong=(
            ("answer_4 = [18, 18]", "submanifold count"),
            ("answer_4 = [4, 6]", "one row above"),
            ("answer_4 = [4, 12]", "one column beyond"),
            ("answer_4 = [4, 4]", "touches the stroke"),
            ("answer_4 = [4, 30]", "not two"),
            ("answer_4 = [4]", "(2 items)"),
        ),
    ),
}
