"""Answers to the exercises of notebook 03 (beyond scalars).

Exercises 2 and 3 are code: the whole exercise cell a student hands in (the skeleton with its
`...` bodies written), right ones written three or four ways, wrong ones with the typical mistake.
"""

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
            '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output if ctx.keepdim else grad_output.unsqueeze(ctx.dim)
        grad_x = g.expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
            '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    g = grad.numpy()
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))  # the dims added in front
    stretched = tuple(d for d, n in enumerate(shape) if n == 1)
    g = np.asarray(g).sum(axis=stretched, keepdims=True)  # the size-1 dims, kept
    return mg.tensor(g, dtype=grad.dtype)


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output.numpy()
        if not ctx.keepdim:
            g = np.expand_dims(g, ctx.dim)
        grad_x = mg.tensor(np.broadcast_to(g, ctx.x_shape).copy(), dtype=grad_output.dtype)
        return grad_x, None, None  # no gradient for dim and keepdim''',
            '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    extra = grad.dim() - len(shape)
    summed = list(range(extra)) + [extra + d for d, n in enumerate(shape) if n == 1]
    for d in reversed(summed):  # from the last, so the earlier dims keep their numbers
        grad = grad.sum(d, keepdim=True)
    return grad.reshape(shape)


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        da = grad_output * b
        db = a * grad_output
        grad_a, grad_b = unbroadcast(da, a.shape), unbroadcast(db, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        n = len(ctx.x_shape)
        d = ctx.dim % n  # the summed dim, counted from the front
        kept = ctx.x_shape[:d] + (1,) + ctx.x_shape[d + 1 :]
        grad_x = grad_output.reshape(kept) * mg.ones(*ctx.x_shape, dtype=grad_output.dtype)
        return grad_x, None, None  # no gradient for dim and keepdim''',
        ),
        wrong=(
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = grad_output * b
        grad_b = grad_output * a
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output if ctx.keepdim else grad_output.unsqueeze(ctx.dim)
        grad_x = g.expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "has the output's shape",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d in reversed(range(len(shape))):
        if shape[d] == 1 and grad.shape[d] != 1:
            grad = grad.sum(d)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output if ctx.keepdim else grad_output.unsqueeze(ctx.dim)
        grad_x = g.expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "was summed away; sum it with keepdim=True",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output if ctx.keepdim else grad_output.unsqueeze(ctx.dim)
        grad_x = g.expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "stretched by broadcasting",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output if ctx.keepdim else grad_output.unsqueeze(ctx.dim)
        grad_x = g.expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "added in front of shape",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * a, a.shape)
        grad_b = unbroadcast(grad_output * b, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output if ctx.keepdim else grad_output.unsqueeze(ctx.dim)
        grad_x = g.expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "mixed up",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        grad_x = grad_output.expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "put the summed dim back",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        grad_x = grad_output
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "must have x's shape (2, 3, 4)",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        grad_x = grad_output.unsqueeze(ctx.dim).expand(*ctx.x_shape)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "expand it as it is",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        g = grad_output if ctx.keepdim else grad_output.unsqueeze(ctx.dim)
        grad_x = g.expand(*ctx.x_shape)
        return grad_x''',
                "grad_x, None, None",
            ),
            (
                '''def unbroadcast(grad, shape):
    """Sum the tensor grad down to shape (a shape that broadcasts to grad.shape)."""
    while grad.dim() > len(shape):
        grad = grad.sum(0)
    for d, size in enumerate(shape):
        if size == 1 and grad.shape[d] != 1:
            grad = grad.sum(d, keepdim=True)
    return grad


class Mul(mg.autograd.Function):
    """out = a * b, with broadcasting."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        grad_a = unbroadcast(grad_output * b, a.shape)
        grad_b = unbroadcast(grad_output * a, b.shape)
        return grad_a, grad_b


class Sum(mg.autograd.Function):
    """out = x.sum(dim, keepdim=keepdim), for one int dim."""

    @staticmethod
    def forward(ctx, x, dim, keepdim=False):
        ctx.x_shape, ctx.dim, ctx.keepdim = x.shape, dim, keepdim
        return x.sum(dim, keepdim=keepdim)

    @staticmethod
    def backward(ctx, grad_output):
        with mg.enable_grad():
            x = mg.zeros(*ctx.x_shape, dtype=grad_output.dtype, requires_grad=True)
            (grad_x,) = mg.autograd.grad(x.sum(ctx.dim, keepdim=ctx.keepdim), x, grad_output)
        return grad_x, None, None  # no gradient for dim and keepdim''',
                "without autograd",
            ),
        ),
    ),
    3: Exercise(
        right=(
            '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        g = grad_output
        dot = (g * y).sum(ctx.dim, keepdim=True)
        grad_x = y * (g - dot)
        return grad_x, None  # no gradient for dim''',
            '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        grad_x = y * grad_output - y * (y * grad_output).sum(ctx.dim, keepdim=True)
        return grad_x, None  # no gradient for dim''',
            '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        y_, v = y.detach().numpy(), grad_output.numpy()
        dx = y_ * (v - (v * y_).sum(axis=ctx.dim, keepdims=True))
        grad_x = mg.tensor(dx, dtype=y.dtype)
        return grad_x, None  # no gradient for dim''',
            '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        per_slice = (grad_output * y).sum(ctx.dim).unsqueeze(ctx.dim)
        grad_x = (grad_output - per_slice) * y
        return grad_x, None  # no gradient for dim''',
        ),
        wrong=(
            (
                '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        grad_x = y * (1 - y) * grad_output
        return grad_x, None  # no gradient for dim''',
                "only the diagonal",
            ),
            (
                '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        grad_x = y * (grad_output - (grad_output * y).sum())
        return grad_x, None  # no gradient for dim''',
                "summed over every dim",
            ),
            (
                '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        grad_x = y * (grad_output - (grad_output * y).sum(ctx.dim))
        return grad_x, None  # no gradient for dim''',
                "keepdim=True",
            ),
            (
                '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        grad_x = y * grad_output - (grad_output * y).sum(ctx.dim, keepdim=True)
        return grad_x, None  # no gradient for dim''',
                "y times the sum",
            ),
            (
                '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        g = grad_output
        dot = (g * y).sum(ctx.dim, keepdim=True)
        grad_x = y * (g - dot)
        return grad_x''',
                "grad_x, None",
            ),
            (
                '''class Softmax(mg.autograd.Function):
    """y = x.softmax(dim)."""

    @staticmethod
    def forward(ctx, x, dim):
        y = x.softmax(dim)
        ctx.save_for_backward(y)
        ctx.dim = dim
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        with mg.enable_grad():
            x = y.detach().log().requires_grad_()  # softmax(log y) = y
            (grad_x,) = mg.autograd.grad(x.softmax(ctx.dim), x, grad_output)
        return grad_x, None  # no gradient for dim''',
                "without autograd",
            ),
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
