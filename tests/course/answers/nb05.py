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
            '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = m.squeeze(-1) + mg.log(mg.exp(x - m).sum(dim=-1))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x - out.unsqueeze(-1))
        return grad_output.unsqueeze(-1) * softmax
''',
            """class LogSumExp(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        top = x.amax(dim=-1, keepdim=True)
        return (top + (x - top).exp().sum(dim=-1, keepdim=True).log()).squeeze(-1)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        e = (x - x.amax(dim=-1, keepdim=True).detach()).exp()
        return grad_output[..., None] * e / e.sum(dim=-1, keepdim=True)
""",
            """class LogSumExp(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        m = x.max(dim=-1, keepdim=True).values
        return mg.log(mg.sum(mg.exp(x - m), dim=-1)) + m.squeeze(-1)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        # sigmoid-like, stable: exp(x_j - m) / sum_k exp(x_k - m)
        m = x.max(dim=-1, keepdim=True).values
        w = mg.exp(x - m)
        return w / w.sum(dim=-1, keepdim=True) * grad_output.unsqueeze(-1)
""",
        ),
        wrong=(
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        out = mg.log(mg.exp(x).sum(dim=-1))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x - out.unsqueeze(-1))
        return grad_output.unsqueeze(-1) * softmax
''',
                "Subtract each row's max m first",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = m.squeeze(-1) + mg.log(mg.exp(x - m).sum(dim=-1))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x - out.unsqueeze(-1))
        return softmax
''',
                "multiply it by grad_output",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = m.squeeze(-1) + mg.log(mg.exp(x - m).sum(dim=-1))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x) / mg.exp(x).sum(dim=-1, keepdim=True)
        return grad_output.unsqueeze(-1) * softmax
''',
                "exp(x) / sum(exp(x)) is inf / inf",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = m.squeeze(-1) + mg.log(mg.exp(x - m).sum(dim=-1))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x - out.unsqueeze(-1))
        return grad_output * softmax
''',
                "unsqueeze(-1) it",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = m.squeeze(-1) + mg.log(mg.exp(x - m).sum(dim=-1))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = np.exp(x.detach().numpy() - out.detach().numpy()[..., None])
        return mg.tensor(grad_output.detach().numpy()[..., None] * softmax)
''',
                "cannot be differentiated again",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = m.squeeze(-1) + mg.log(mg.exp(x - m).sum(dim=-1))
        ctx.save_for_backward(mg.exp(x - out.unsqueeze(-1)))  # the softmax, computed once
        return out

    @staticmethod
    def backward(ctx, grad_output):
        (softmax,) = ctx.saved_tensors
        return grad_output.unsqueeze(-1) * softmax
''',
                "cannot be differentiated again",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = mg.log(mg.exp(x - m).sum(dim=-1))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x - out.unsqueeze(-1))
        return grad_output.unsqueeze(-1) * softmax
''',
                "add it back",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        m = x.amax(dim=-1, keepdim=True)
        out = m + mg.log(mg.exp(x - m).sum(dim=-1, keepdim=True))
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x - out.unsqueeze(-1))
        return grad_output.unsqueeze(-1) * softmax
''',
                "no keepdim",
            ),
            (
                '''class LogSumExp(mg.autograd.Function):
    """log(sum(exp(x))) over the last dim, stable at any size of x."""

    @staticmethod
    def forward(ctx, x):
        out = mg.logsumexp(x, dim=-1)
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx, grad_output):
        x, out = ctx.saved_tensors
        softmax = mg.exp(x - out.unsqueeze(-1))
        return grad_output.unsqueeze(-1) * softmax
''',
                "write the stable formula yourself",
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
