"""Typical answers to notebook 07 (three styles): right ones in other forms, and typical mistakes
with the phrase the check's hint must say."""

from tests.course.answers import Exercise

LOOP = """
def per_example_loop(w, b, X, y):
    g_w = mg.func.grad(loss_fn)
    return np.stack([g_w(w, b, X[i], y[i]).numpy() for i in range(X.shape[0])])
"""
VMAP = """
def per_example_vmap(w, b, X, y):
    return mg.func.vmap(mg.func.grad(loss_fn), in_dims=(None, None, 0, 0))(w, b, X, y).numpy()
"""
LOOP_TODO = """
def per_example_loop(w, b, X, y):
    return ...
"""
VMAP_TODO = """
def per_example_vmap(w, b, X, y):
    return ...
"""

EXERCISES = {
    1: Exercise(
        right=(
            'answer_1 = "RuntimeError"',
            'answer_1 = "runtimeerror"',
            "answer_1 = ' RuntimeError '",
            'answer_1 = "Runtime Error"',
            "answer_1 = RuntimeError",
        ),
        wrong=(
            ('answer_1 = "None"', "does the second call return at all"),
            ("answer_1 = None", "does the second call return at all"),
            ('answer_1 = "the same tensor"', "persistent"),
            ('answer_1 = "zeros"', "read what the second call does"),
            ('answer_1 = "KeyError"', "read what the second call does"),
        ),
    ),
    2: Exercise(
        right=(
            "def loss_reg(w, b, X, y):\n"
            "    return loss_fn(w, b, X, y) + 0.01 * (w * w).sum()\n\n\nanswer_2 = 12",
            "answer_2 = 12.0",
            "answer_2 = np.int64(8 + 4)",
            "answer_2 = len(mg.func.make_jaxpr(loss_reg)(w, b, X, y).eqns)",
            "answer_2 = mg.tensor(12)",
        ),
        wrong=(
            ("answer_2 = 11", "one equation short"),
            ("answer_2 = 10", "two ops"),
            ("answer_2 = 4", "the loss's 8 equations"),
            ("answer_2 = 13", "parameter"),
            ("answer_2 = 20", "gradient's program"),
            ('answer_2 = "12"', "drop the quotes"),
        ),
    ),
    3: Exercise(
        right=(
            LOOP + "\n" + VMAP,
            # a loop with append, numpy array at the end; vmap returning a tensor
            """
def per_example_loop(w, b, X, y):
    rows = []
    for i in range(len(X)):
        rows.append(mg.func.grad(loss_fn, argnums=0)(w, b, X[i], y[i]).numpy())
    return np.array(rows)


def per_example_vmap(w, b, X, y):
    return mg.func.vmap(mg.func.grad(loss_fn), in_dims=(None, None, 0, 0))(w, b, X, y)
""",
            # tensors throughout: mg.stack of the rows; vmap of grad with both argnums, w's part
            """
def per_example_loop(w, b, X, y):
    return mg.stack([mg.func.grad(loss_fn)(w, b, X[i], y[i]) for i in range(X.shape[0])])


def per_example_vmap(w, b, X, y):
    both = mg.func.grad(loss_fn, argnums=(0, 1))
    return mg.func.vmap(both, in_dims=(None, None, 0, 0))(w, b, X, y)[0].numpy()
""",
            # the loop in PyTorch's style: backward() on each example's loss
            """
def per_example_loop(w, b, X, y):
    rows = []
    for i in range(X.shape[0]):
        wi = mg.tensor(w.numpy(), requires_grad=True)
        loss_fn(wi, b, X[i], y[i]).backward()
        rows.append(wi.grad.numpy())
    return np.stack(rows)
"""
            + "\n"
            + VMAP,
        ),
        wrong=(
            (  # the whole batch's gradient in every row
                """
def per_example_loop(w, b, X, y):
    return np.stack([mg.func.grad(loss_fn)(w, b, X, y).numpy() for i in range(X.shape[0])])
"""
                + "\n"
                + VMAP,
                "same row",
            ),
            (  # a pair (dL/dw, dL/db) instead of dL/dw
                LOOP
                + """

def per_example_vmap(w, b, X, y):
    both = mg.func.grad(loss_fn, argnums=(0, 1))
    return mg.func.vmap(both, in_dims=(None, None, 0, 0))(w, b, X, y)
""",
                "returns tuple",
            ),
            (  # the gradient with respect to b
                """
def per_example_loop(w, b, X, y):
    g_b = mg.func.grad(loss_fn, argnums=1)
    return np.stack([g_b(w, b, X[i], y[i]).numpy() for i in range(X.shape[0])])
"""
                + "\n"
                + VMAP,
                "argnums=0",
            ),
            (  # transposed: one column per example
                LOOP.replace("range(X.shape[0])])", "range(X.shape[0])]).T") + "\n" + VMAP,
                "one row per example",
            ),
            (  # sixteen examples written in
                LOOP.replace("range(X.shape[0])", "range(16)") + "\n" + VMAP,
                "per_example_loop raised IndexError",
            ),
            (  # the notebook's w and b instead of the arguments
                LOOP.replace(
                    "g_w(w, b, X[i], y[i])", "g_w(w_init_t, mg.tensor(0.0), X[i], y[i])"
                ).replace("    g_w =", "    w_init_t = mg.tensor(w_init)\n    g_w =")
                + "\n"
                + VMAP,
                "not the slope of example i's own loss",
            ),
            (LOOP + "\n" + VMAP_TODO, "now write per_example_vmap"),
            (LOOP_TODO + "\n" + VMAP, "now write per_example_loop"),
            (  # vmap slices X but not y: each call sees one example against all 16 labels
                LOOP + "\n" + VMAP.replace("(None, None, 0, 0)", "(None, None, 0, None)"),
                "per_example_vmap: row i is not the slope",
            ),
        ),
    ),
}
