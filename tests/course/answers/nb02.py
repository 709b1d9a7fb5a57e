"""Answers to the exercises of notebook 02 (graphs and the chain rule)."""

from tests.course.answers import Exercise

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = 10.0",
            "answer_1 = 10",
            "answer_1 = np.int64(10)",
            "answer_1 = mg.tensor(10.0)",
            "answer_1 = 3 * 2**2 - 2",
        ),
        wrong=(
            ("answer_1 = 12", "the term -2x has a derivative too"),
            ("answer_1 = 14", "-2, not +2"),
            ("answer_1 = 4.0", "value of z"),
            ("answer_1 = 6", "power rule"),
            ("answer_1 = 8", "differentiate each term"),
        ),
    ),
    2: Exercise(
        right=(
            'answer_2 = ["ExpBackward", "AddBackward", "MulBackward", "AccumulateGrad"]',
            'answer_2 = {"AccumulateGrad", "MulBackward", "AddBackward", "ExpBackward"}',
            'answer_2 = ("MulBackward", "AddBackward", "ExpBackward", "AccumulateGrad")',
            'answer_2 = ["expbackward", "addbackward", "mulbackward", "accumulategrad"]',
        ),
        wrong=(
            (
                'answer_2 = ["ExpBackward", "AddBackward", "MulBackward", "AccumulateGrad", '
                '"AccumulateGrad"]',
                "however often it is used",
            ),
            ('answer_2 = ["ExpBackward", "AddBackward", "MulBackward"]', "AccumulateGrad node"),
            (
                'answer_2 = ["ExpBackward0", "AddBackward0", "MulBackward0", "AccumulateGrad"]',
                "PyTorch's names",
            ),
            ('answer_2 = ["Exp", "Add", "Mul", "AccumulateGrad"]', "followed by 'Backward'"),
            (
                'answer_2 = ["ExpBackward", "AddBackward", "AccumulateGrad"]',
                "one node per operation",
            ),
        ),
    ),
    3: Exercise(
        right=(
            "answer_3 = (np.exp(0.5 * 2) * 2 + 1, np.exp(0.5 * 2) * 0.5)",
            "answer_3 = (6.4366, 1.3591)",
            "answer_3 = [2 * np.e + 1, np.e / 2]",
            "answer_3 = np.array([6.43656, 1.35914])",
            "answer_3 = (6.4365, 1.3591)",
            "answer_3 = mg.tensor([2 * np.e + 1, np.e / 2])",
        ),
        wrong=(
            ("answer_3 = (2 * np.e, np.e / 2)", "x is used twice"),
            ("answer_3 = (np.e / 2, 2 * np.e + 1)", "swapped"),
            ("answer_3 = (np.e + 1, np.e)", "multiplies it by y"),
            ("answer_3 = (2 * np.e + 1, np.e / 2 + 1)", "y is used once"),
            ("answer_3 = (6.4, 1.4)", "start with h_bar = 1"),
            ("answer_3 = 2 * np.e + 1", "a pair of numbers"),
        ),
    ),
    4: Exercise(
        right=(
            'answer_4 = {"a", "c"}',
            'answer_4 = ["c", "a"]',
            'answer_4 = ("a", "c")',
            'answer_4 = {"A", "C"}',
        ),
        wrong=(
            ('answer_4 = {"a"}', "retain_grad()"),
            ('answer_4 = {"a", "c", "e"}', "intermediate result"),
            ('answer_4 = {"a", "c", "d"}', "detach"),
            ('answer_4 = {"a", "b", "c"}', "b is data"),
            ('answer_4 = {"c"}', "a is a leaf"),
            ('answer_4 = {"a", "b", "c", "d", "e"}', "does it require grad?"),
        ),
    ),
}
