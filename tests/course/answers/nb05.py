"""Typical answers to notebook 05's exercises (see ``tests/course/answers/__init__.py``)."""

from tests.course.answers import Exercise

_RELU = """class MyReLU(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return {}
"""
_HVP = """def g(x):
    return mg.log(1 + (x**2).sum())


x_3 = mg.tensor([1.0, 2.0, 3.0], dtype=mg.float64)
v_3 = mg.tensor([2.0, -1.0, 0.5], dtype=mg.float64)
{}
"""
_FORCES = """def forces_by_hand_ks(x, ks):
    X = np.concatenate([[walls[0]], x, [walls[1]]])
    stretch = X[1:] - X[:-1] - L
    return {}


ks = np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
"""

EXERCISES = {
    1: Exercise(
        right=(
            _RELU.format("grad_output * (x > 0).to(grad_output.dtype)"),
            _RELU.format("grad_output * (x > 0)"),
            _RELU.format("mg.where(x > 0, grad_output, 0.0)"),
            _RELU.format("grad_output.masked_fill(x <= 0, 0.0)"),
            _RELU.format("(x > 0).double() * grad_output"),
        ),
        wrong=(
            (_RELU.format("grad_output"), "ReLU blocks the gradient where x < 0"),
            (_RELU.format("(x > 0).to(grad_output.dtype)"), "the local derivative alone"),
            (_RELU.format("grad_output * (x >= 0).to(grad_output.dtype)"), "only x = 0 is wrong"),
            (_RELU.format("grad_output * x.clamp(min=0)"), "the local derivative of max(x, 0)"),
            (_RELU.format("(grad_output * (x > 0)).numpy()"), "must return a Tensor"),
            (_RELU.format("grad_output * (x > 0).to(grad_output.dtypes)"), "raised AttributeError"),
        ),
    ),
    2: Exercise(
        right=(
            'answer_2 = float("nan")',
            "answer_2 = np.nan",
            "answer_2 = mg.tensor(float('nan'), dtype=mg.float64)",
            'answer_2 = np.float64("NaN")',
        ),
        wrong=(
            ('answer_2 = float("inf")', "what does it multiply"),
            ("answer_2 = 1.0", "the true derivative"),
            ("answer_2 = 0", "then multiplies it by exp(800)"),
            ('answer_2 = float("-inf")', "write down what log's backward"),
        ),
    ),
    3: Exercise(
        right=(
            _HVP.format(
                "_, hv_3 = mg.func.jvp(mg.func.grad(g), (x_3,), (v_3,))\nanswer_3 = hv_3.tolist()"
            ),
            _HVP.format("answer_3 = mg.autograd.functional.hvp(g, x_3, v_3)[1]"),
            _HVP.format(
                "answer_3 = mg.func.grad(lambda x: (mg.func.grad(g)(x) * v_3).sum())(x_3).numpy()"
            ),
            _HVP.format("answer_3 = [0.24, -0.1867, -0.0133]"),
            _HVP.format("answer_3 = (0.24, -0.187, -0.013)"),
        ),
        wrong=(
            (_HVP.format("answer_3 = mg.func.grad(g)(x_3).tolist()"), "that is the gradient of g"),
            (_HVP.format("answer_3 = [4.0, -2.0, 1.0]"), "||x||**2 alone"),
            (
                _HVP.format("answer_3 = mg.func.jvp(mg.func.grad(g), (x_3,), (v_3,))"),
                "returns a pair",
            ),
            (
                _HVP.format("answer_3 = mg.func.jvp(g, (x_3,), (v_3,))[1]"),
                "the derivative of g along v",
            ),
            (
                _HVP.format("answer_3 = (v_3 * mg.func.hvp(g, (x_3,), (v_3,))[1][0]).sum()"),
                "v . H v",
            ),
            (
                _HVP.format(
                    "answer_3 = [0.1244, -0.1511, 0.04]  # H v for the old v = (1, -1, 0.5)"
                ),
                "differentiate the gradient of g in the direction v",
            ),
        ),
    ),
    4: Exercise(
        right=(
            _FORCES.format("ks[1:] * stretch[1:] - ks[:-1] * stretch[:-1]"),
            _FORCES.format("np.diff(ks * stretch)"),
            _FORCES.format(
                "[ks[i + 1] * stretch[i + 1] - ks[i] * stretch[i] for i in range(len(x))]"
            ),
            _FORCES.format("-(ks[:-1] * stretch[:-1]) + (ks * stretch)[1:]"),
        ),
        wrong=(
            (
                _FORCES.format("ks[:-1] * stretch[:-1] - ks[1:] * stretch[1:]"),
                "the signs are flipped",
            ),
            (_FORCES.format("k * stretch[1:] - k * stretch[:-1]"), "use ks[j]"),
            (
                _FORCES.format("ks[:-1] * stretch[1:] - ks[1:] * stretch[:-1]"),
                "pair each stiffness with the stretch of its own spring",
            ),
            (_FORCES.format("ks * stretch"), "an array of shape (6,)"),
            (
                _FORCES.format("ks[1:] * stretch[1:] + ks[:-1] * stretch[:-1]"),
                "mass i is pulled by spring i + 1",
            ),
            (_FORCES.format("ks[1:] * stretch[1:] - ks[:-1] * strech[:-1]"), "raised NameError"),
        ),
    ),
}
