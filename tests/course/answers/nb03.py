"""Answers to the exercises of notebook 03 (beyond scalars)."""

from tests.course.answers import Exercise

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = [8.0, 0.0, 12.0]",
            "answer_1 = [8, 0, 12]",
            "answer_1 = (8.0, -0.0, 12.0)",
            "answer_1 = np.array([8.0, 0.0, 12.0])",
            "answer_1 = mg.tensor([8.0, 0.0, 12.0])",
        ),
        wrong=(
            ("answer_1 = [4.0, 0.0, 6.0]", "one call"),
            ("answer_1 = [6.0, 2.0, 8.0]", "x * x uses x twice"),
            ("answer_1 = [4.0, -4.0, 8.0]", "2 * x uses x too"),
            ("answer_1 = [16.0, 0.0, 24.0]", "count how many times"),
            ("answer_1 = [8.0, 12.0]", "3 items"),
        ),
    ),
    2: Exercise(
        right=(
            "answer_2 = [4.0, 1.0, -6.0]",
            "answer_2 = (4, 1, -6)",
            "answer_2 = np.array([4.0, 1.0, -6.0])",
            "answer_2 = mg.tensor([4.0, 1.0, -6.0])",
            "answer_2 = 2 * J_rows[0] - J_rows[1]",
        ),
        wrong=(
            ("answer_2 = [4.0, 3.0, 6.0]", "weighted by -1"),
            ("answer_2 = [-2.0, 1.0, 12.0]", "v_0 = 2 weights row 0"),
            ("answer_2 = [4.0, 2.0, 0.0]", "row 0 only"),
            ("answer_2 = [2.0, 0.0, -6.0]", "which entry is x_0"),
            ("answer_2 = [4.0, -1.0, -6.0]", "2 * (row 0) - 1 * (row 1)"),
        ),
    ),
    3: Exercise(
        right=(
            'answer_3 = "b"',
            'answer_3 = "B"',
            "answer_3 = 'b'",
            'answer_3 = " b "',
        ),
        wrong=(
            ('answer_3 = "a"', "still there after the first backward"),
            ('answer_3 = "c"', "does not skip a node"),
            ('answer_3 = "RuntimeError"', 'answer "a", "b" or "c"'),
        ),
    ),
    4: Exercise(
        right=(
            "answer_4 = (64, 25)",
            "answer_4 = [64.0, 25.0]",
            "answer_4 = (2**6, 4 * 6 + 1)",
            "answer_4 = np.array([64, 25])",
            "answer_4 = (np.int64(64), 25)",
        ),
        wrong=(
            ("answer_4 = (64.9, 25.4)", "what does each level do"),
            ("answer_4 = (64, 24)", "the first number is right"),
            ("answer_4 = (32, 25)", "the engine's count is right"),
            ("answer_4 = (25, 64)", "swapped"),
            ("answer_4 = (12, 25)", "doubles"),
            ("answer_4 = (64, 30)", "one AccumulateGrad in all"),
            ("answer_4 = (379, 25)", "total of push at once's runs"),
            ("answer_4 = 64", "a pair of whole numbers"),
        ),
    ),
}
