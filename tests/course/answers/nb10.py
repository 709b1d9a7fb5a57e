"""Answers to notebook 10's exercises (sparse gradients and densification)."""

from tests.course.answers import Exercise

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
    2: Exercise(
        right=(
            "answer_2 = 889",
            "answer_2 = 889.0",
            "answer_2 = np.int64(889)",
            "import math\n\nanswer_2 = math.ceil(1000 * 16 * 4 / (8 + 16 * 4))",
            "answer_2 = mg.tensor(889)",
        ),
        wrong=(
            ("answer_2 = 888", "round up"),
            ("answer_2 = 1000 * 16 * 4 / (8 + 16 * 4)", "whole number of rows"),
            ("answer_2 = 1000", "8-byte"),
            ("answer_2 = 942", "int64 (8 bytes)"),
            ("answer_2 = 0.889", "not a density"),
            ("answer_2 = 64 / 72", "not a density"),
            ("answer_2 = 200", "whole rows"),
            ('answer_2 = "889"', "drop the quotes"),
        ),
    ),
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
}
