"""Typical answers to notebook 06's exercises (see ``tests/course/answers/__init__.py``)."""

from tests.course.answers import Exercise

_JAC = """def jacobian_by_columns(f, x):
{}
"""
_SOLUTION = """    columns = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        _, column = mg.func.jvp(f, (x,), (e_j,))
        columns.append(column)
    return mg.stack(columns, dim=1)"""
_ANSWER_3 = 'answer_3 = {{"a": "{}", "b": "{}", "c": "{}"}}'

EXERCISES = {
    1: Exercise(
        right=(
            "answer_1 = [4 * 3 + 4 * (-1), 1 * 3 + np.cos(1.0) * (-1)]",
            "answer_1 = [8.0, 2.4597]",
            "answer_1 = (8, 2.46)",
            "answer_1 = np.array([8, 3 - np.cos(1)])",
            """answer_1 = mg.func.jvp(
    lambda x: mg.stack([x[0] ** 2 * x[1], x[0] + mg.sin(x[1])]),
    (mg.tensor([2.0, 1.0], dtype=mg.float64),),
    (mg.tensor([3.0, -1.0], dtype=mg.float64),),
)[1]""",
        ),
        wrong=(
            ("answer_1 = [11.0, 12 - np.cos(1.0)]  # v^T J", "that is v^T J"),
            ("answer_1 = [2 * 3 + 4 * (-1), 3 - np.cos(1.0)]", "power rule"),
            ("answer_1 = [11.0, 3 - np.cos(2.0)]  # the old point", "at x = (1, 2)"),
            ("answer_1 = [[4.0, 4.0], [1.0, np.cos(1.0)]]", "the Jacobian J itself"),
            ("answer_1 = [8.0, 3 - np.sin(1.0)]", "write the four partial derivatives"),
        ),
    ),
    2: Exercise(
        right=(
            _JAC.format(_SOLUTION),
            _JAC.format(
                """    n = x.shape[0]
    columns = [mg.func.jvp(f, (x,), (mg.tensor(np.eye(n)[j]),))[1].numpy() for j in range(n)]
    return np.stack(columns, axis=1)"""
            ),
            _JAC.format(
                """    rows = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        rows.append(mg.func.jvp(f, (x,), (e_j,))[1])
    return mg.stack(rows).T"""
            ),
            _JAC.format(
                """    fwAD = mg.autograd.forward_ad
    columns = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        with fwAD.dual_level():
            columns.append(fwAD.unpack_dual(f(fwAD.make_dual(x, e_j)))[1])
    return mg.stack(columns, dim=1)"""
            ),
        ),
        wrong=(
            (_JAC.format(_SOLUTION.replace("dim=1", "dim=0")), "not one under the other"),
            (
                _JAC.format(
                    """    columns = []
    e = mg.zeros_like(x)
    for j in range(x.shape[0]):
        e[j] = 1.0
        _, column = mg.func.jvp(f, (x,), (e,))
        columns.append(column)
    return mg.stack(columns, dim=1)"""
                ),
                "make a fresh one for every j",
            ),
            (
                _JAC.format(_SOLUTION.replace("mg.zeros_like(x)", "mg.zeros(x.shape[0])")),
                "must match its primal",
            ),
            (_JAC.format("    return mg.func.jacfwd(f)(x)"), "not with jacfwd or jacrev"),
            (
                _JAC.format(
                    """    columns = []
    for j in range(x.shape[0]):
        e_j = mg.zeros_like(x)
        e_j[j] = 1.0
        _, column = mg.func.jvp(f, (x,), (e_j,))
        columns.append(column * x[j])
    return mg.stack(columns, dim=1)"""
                ),
                "column j is the JVP of g at x along e_j",
            ),
            (_JAC.format("    return jacobian_helper(f, x)"), "raised NameError"),
        ),
    ),
    3: Exercise(
        right=(
            _ANSWER_3.format("jacrev", "jacfwd", "jacrev"),
            _ANSWER_3.format("JACREV", "Jacfwd", "jacrev"),
            _ANSWER_3.format("reverse", "forward", "reverse"),
            'answer_3 = dict(c="rev", b="fwd", a="rev")',
        ),
        wrong=(
            (_ANSWER_3.format("jacfwd", "jacrev", "jacfwd"), "all three are swapped"),
            (_ANSWER_3.format("jacrev", "jacrev", "jacrev"), "look at (b)"),
            (_ANSWER_3.format("jacfwd", "jacfwd", "jacfwd"), "look at (a) and (c)"),
            (_ANSWER_3.format("jacrev", "jacfwd", "jacfwd"), "(c) has 100 inputs"),
            (
                _ANSWER_3.format("jacrev", "jacrev", "jacfwd"),
                "count the inputs (n) and outputs (m)",
            ),
        ),
    ),
}
