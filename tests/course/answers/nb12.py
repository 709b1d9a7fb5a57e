"""Answers to notebook 12's exercises (gradients across processes)."""

from tests.course.answers import Exercise

BREAK_EVEN = "def break_even(world, row_bytes):\n    return {}"

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = 25_600_000",
            "answer_1 = 25.6e6",
            "answer_1 = 2 * (2 - 1) / 2 * 100_000 * 64 * 4",
            "answer_1 = dist.ring_all_reduce_bytes(100_000 * 64 * 4, world_size=2)",
            "answer_1 = np.int64(25_600_000)",
        ),
        wrong=(
            ("answer_1 = 2 * 100_000 * 64 * 4", "2n"),
            ("answer_1 = 100_000 * 64 * 4 // 2", "n / W"),
            ("answer_1 = 100_000 * 64", "4 bytes per float32"),
            ("answer_1 = 25.6", "not megabytes"),
            ("answer_1 = 100_000 * 64 * 4 / 2**20", "not MiB"),
            ("answer_1 = 135_176", "sparse gradient"),
        ),
    ),
    2: Exercise(
        right=(
            BREAK_EVEN.format("2 * row_bytes / (world * (8 + row_bytes))"),
            BREAK_EVEN.format("2 * row_bytes / world / (8 + row_bytes)"),
            BREAK_EVEN.format("np.float32(2 * row_bytes / (world * (8 + row_bytes)))"),
            "from scipy.optimize import brentq\n\n\n"
            "def break_even(world, row_bytes):\n"
            "    dense = 2 * (world - 1) / world * row_bytes\n"
            "    return brentq(lambda d: (world - 1) * d * (8 + row_bytes) - dense, 0, 1)",
        ),
        wrong=(
            (BREAK_EVEN.format("2 / world"), "8-byte int64 index"),
            (
                BREAK_EVEN.format("2 * (world - 1) / world * row_bytes / (8 + row_bytes)"),
                "W - 1 other ranks",
            ),
            (BREAK_EVEN.format("row_bytes / (world * (8 + row_bytes))"), "reduce-scatter"),
            (BREAK_EVEN.format("200 * row_bytes / (world * (8 + row_bytes))"), "not a percentage"),
            (BREAK_EVEN.format("2 * row_bytes / (world * 8 + row_bytes)"), "solve for d"),
            (BREAK_EVEN.format("row_bytes / (world - world)"), "ZeroDivisionError"),
            (
                "def break_even(world, row_bytes):\n"
                "    density = 2 * row_bytes / (world * (8 + row_bytes))",
                "TypeError",
            ),
        ),
    ),
    3: Exercise(
        right=(
            "answer_3 = 1",
            "answer_3 = 1.0",
            "answer_3 = np.int64(1)",
            "answer_3 = mg.tensor(1)",
        ),
        wrong=(
            ("answer_3 = 4", "which backward runs outside"),
            ("answer_3 = 3", "count the ones outside"),
            ("answer_3 = 0", "fourth backward"),
            ("answer_3 = 2", "weight and bias fit one bucket"),
            ("answer_3 = 8", "not a parameter"),
        ),
    ),
}
