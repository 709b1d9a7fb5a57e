"""Typical answers to notebook 08 (debugging and training tricks): right ones in other forms,
and typical mistakes with the phrase the check's hint must say."""

from tests.course.answers import Exercise


def _backward(body: str) -> str:
    return f"def fixed_backward(x, grad_output):\n    return {body}\n"


EXERCISES = {
    1: Exercise(
        right=(
            _backward("grad_output * (x.sin() + x * x.cos())"),
            _backward("grad_output * x.sin() + grad_output * x * x.cos()"),
            _backward("(mg.sin(x) + x * mg.cos(x)) * grad_output"),
            "def fixed_backward(x, grad_output):\n"
            "    local = x.sin() + x * x.cos()  # product rule\n"
            "    return local * grad_output\n",
        ),
        wrong=(
            (_backward("grad_output * (x.sin() + x.cos())"), "rejected above"),
            (_backward("x.sin() + x * x.cos()"), "grad_output"),
            (_backward("grad_output * x * x.cos()"), "gradcheck still disagrees"),
            (_backward("grad_output * (x.sin() - x * x.cos())"), "gradcheck still disagrees"),
            (_backward("grad_output * x.cos()"), "gradcheck still disagrees"),
            (_backward("grad_output * (x.sin() + x * x.cos()).sum()"), "gradcheck still disagrees"),
            (
                "def fixed_backward(x, grad_output):\n    grad_output * (x.sin() + x * x.cos())\n",
                "is the `return` missing?",
            ),
        ),
    ),
    2: Exercise(
        right=(
            'answer_2 = "MulBackward"',
            'answer_2 = "mulbackward"',
            'answer_2 = "MulBackward0"',
            "answer_2 = ' MulBackward '",
        ),
        wrong=(
            ('answer_2 = "SqrtBackward"', "an inf is not a NaN"),
            ('answer_2 = "SumBackward"', "makes no NaN of its own"),
            ('answer_2 = "SubBackward"', "where nan > 0 first"),
            ('answer_2 = "MeanBackward"', "where nan > 0 first"),
        ),
    ),
    3: Exercise(
        right=(
            "answer_3a = 1.0\nanswer_3b = float(np.sqrt(0.5**2 + 0.5**2 + 0.2**2 + 0.1**2))",
            "answer_3a = 1\nanswer_3b = 0.742",
            "answer_3a = 0.9999998\nanswer_3b = 0.7416",
            "answer_3a = np.float32(1.0)\nanswer_3b = mg.tensor([0.5, -0.5, 0.2, 0.1]).norm()",
        ),
        wrong=(
            ("answer_3a = 5.005\nanswer_3b = 0.742", "norm before clipping"),
            ("answer_3a = 1 / 5.005\nanswer_3b = 0.742", "factor"),
            ("answer_3a = 1.0\nanswer_3b = 0.5", "0.5 caps each entry"),
            ("answer_3a = 1.0\nanswer_3b = 0.7071", "are not clamped"),
            ("answer_3a = 1.0\nanswer_3b = 1.0", "does not rescale"),
            ("answer_3a = 1.0\nanswer_3b = 0.55", "square root"),
            ("answer_3a = 0.5\nanswer_3b = 0.742", "same factor"),
            ("answer_3a = 1.0\nanswer_3b = ...", "answer_3b is not answered yet"),
        ),
    ),
    4: Exercise(
        right=(
            "answer_4 = 2.0**16",
            "answer_4 = 2**16",
            "answer_4 = 65536",
            "answer_4 = 2.0**7",
            "answer_4 = np.float32(2**30)",
            "answer_4 = mg.tensor(2.0**24)",
        ),
        wrong=(
            ("answer_4 = 2.0**32", "2.weight, 2.bias"),
            ("answer_4 = 2.0**31", "2.bias"),
            ("answer_4 = 2.0**6", "1.7 % of the hidden gradient is 0"),
            ("answer_4 = 1.0", "60.3 %"),
            ("answer_4 = 1000.0", "power of two"),
            ("answer_4 = 0", "power of two"),
            ('answer_4 = "2**16"', "yours is a str"),
        ),
    ),
}
