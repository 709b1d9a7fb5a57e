"""Answers to the exercises of notebook 00 (course map and set-up)."""

from tests.course.answers import Exercise

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = 5",
            "answer_1 = 5.0",
            "answer_1 = np.int64(5)",
            "answer_1 = mg.tensor(5.0)",
        ),
        wrong=(
            ("answer_1 = 4", "AccumulateGrad"),
            ("answer_1 = 6", "one leaf"),
            ("answer_1 = 3", "count the operations"),
            ("answer_1 = '5'", "drop the quotes"),
        ),
    ),
    2: Exercise(
        right=(
            "answer_2 = [2.0, 4.0]",
            "answer_2 = [2, 4]",
            "answer_2 = (2.0, 4.0)",
            "answer_2 = np.array([2.0, 4.0])",
            "answer_2 = mg.tensor([2.0, 4.0])",
        ),
        wrong=(
            ("answer_2 = [4.0, 6.0]", "sum of both paths"),
            ("answer_2 = [1.0, 1.0]", "upstream gradient"),
            ("answer_2 = [2.0, 2.0]", "n3 MulBackward0"),
            ("answer_2 = [4.0, 2.0]", "contributions sent"),
        ),
    ),
    3: Exercise(
        right=(
            "answer_3 = 14",
            "answer_3 = 14.0",
            "answer_3 = np.int64(14)",
            "answer_3 = mg.tensor(14)",
            "answer_3 = int(np.ceil(320 / (8 + 4 * 4)))",
        ),
        wrong=(
            ("answer_3 = 13", "still less than the 320 B"),
            ("answer_3 = 320 / 24", "whole number"),
            ("answer_3 = 20", "repeats count"),
            ("answer_3 = 80", "count bytes"),
            ("answer_3 = 40", "4 float32 values"),
            ("answer_3 = 12", "smallest whole number"),
        ),
    ),
    4: Exercise(
        right=(
            "def gradient(f, values):\n"
            "    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)\n"
            "    y = f(x).sum()\n"
            "    y.backward()\n"
            "    return x.grad.numpy()",
            "def gradient(f, values):\n"
            "    t = mg.tensor(np.asarray(values, dtype=np.float64), requires_grad=True)\n"
            "    (g,) = mg.autograd.grad(f(t).sum(), t)\n"
            "    return g.numpy()",
            "def gradient(f, values):\n"
            "    x = mg.tensor(np.array(values, dtype=float))\n"
            "    x.requires_grad_()\n"
            "    out = f(x)\n"
            "    if out.numel() > 1:\n"
            "        out = out.sum()\n"
            "    out.backward()\n"
            "    return np.array(x.grad.tolist())",
        ),
        wrong=(
            (
                "def gradient(f, values):\n"
                "    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)\n"
                "    f(x).backward()\n"
                "    return x.grad.numpy()",
                "take f(x).sum()",
            ),
            (
                "def gradient(f, values):\n"
                "    x = mg.tensor(values, requires_grad=True)\n"
                "    f(x).sum().backward()\n"
                "    return x.grad.numpy()",
                "dtype=mg.float64",
            ),
            (
                "def gradient(f, values):\n"
                "    x = mg.tensor(values, dtype=mg.float64)\n"
                "    f(x).sum().backward()\n"
                "    return x.grad.numpy()",
                "requires_grad=True",
            ),
            (
                "def gradient(f, values):\n"
                "    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)\n"
                "    f(x).sum().backward()\n"
                "    return x.grad",
                "as a numpy array (.numpy())",
            ),
            (
                "def gradient(f, values):\n"
                "    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)\n"
                "    y = f(x)\n"
                "    y.sum().backward()\n"
                "    return y.detach().numpy()",
                "f's value",
            ),
            (
                "def gradient(f, values):\n"
                "    x = mg.tensor(values, dtype=mg.float64, requires_grad=True)\n"
                "    f(x).sum().backward()",
                "returns nothing",
            ),
        ),
    ),
}
