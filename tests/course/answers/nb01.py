"""Answers to the exercises of notebook 01 (three ways to differentiate)."""

from tests.course.answers import Exercise

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = np.finfo(np.float64).eps ** (1 / 3)",
            "answer_1 = 1e-5",
            "answer_1 = 3e-6",
            "answer_1 = 1e-6",
            "answer_1 = np.float32(2e-5)",
            "answer_1 = mg.tensor(1e-5)",
        ),
        wrong=(
            ("answer_1 = 1e-8", "forward differences"),
            ("answer_1 = np.sqrt(np.finfo(np.float64).eps)", "forward differences"),
            ("answer_1 = 1e-15", "round-off"),
            ("answer_1 = np.finfo(np.float64).eps", "round-off"),
            ("answer_1 = 1e-3", "truncation"),
            ("answer_1 = -1e-5", "positive number"),
            ("answer_1 = 0", "positive number"),
        ),
    ),
    2: Exercise(
        right=(
            "answer_2 = 179",
            "answer_2 = 179.0",
            "answer_2 = np.int64(179)",
            "answer_2 = 2 * 10**2 - 2 * 10 - 1",
            "answer_2 = sp.count_ops(sp.diff(product(10), x))",
        ),
        wrong=(
            ("answer_2 = 170", "additions that join them"),
            ("answer_2 = 180", "n - 1 additions, not n"),
            ("answer_2 = 189", "n - 2 multiplications"),
            ("answer_2 = 19", "p_10 itself"),
            ("answer_2 = 90", "count operations, not factors"),
            ("answer_2 = 100", "one term is a product"),
        ),
    ),
    3: Exercise(
        right=(
            "def dg_by_hand(x):\n    return np.exp(-(x**2)) * (1 - 2 * x**2)",
            "def dg_by_hand(x):\n    return (1 - 2 * x * x) * np.exp(-x * x)",
            "def dg_by_hand(x):\n    return np.exp(-(x**2)) - 2 * x**2 * np.exp(-(x**2))",
            "import math\n\n\ndef dg_by_hand(x):\n    return math.exp(-(x**2)) * (1 - 2 * x**2)",
        ),
        wrong=(
            ("def dg_by_hand(x):\n    return -2 * x**2 * np.exp(-(x**2))", "product rule"),
            ("def dg_by_hand(x):\n    return np.exp(-(x**2)) * (1 + 2 * x**2)", "chain rule"),
            ("def dg_by_hand(x):\n    return np.exp(-(x**2))", "chain rule"),
            ("def dg_by_hand(x):\n    return x * np.exp(-(x**2))", "g(x) itself"),
            ("def dg_by_hand(x):\n    return np.exp(-(y**2))", "raised NameError"),
        ),
    ),
}
