"""More op families for the differential suite: dtypes, losses, reductions, products.

``diff_programs`` draws float inputs and the issue's first families; these add what a
PyTorch user meets next: integer, bool and 0-d tensors mixed with floats and Python numbers
(type promotion), clamp/where/maximum with mixed dtypes, dtype conversions, more losses and
activations, softmax with ``dtype=``, the reductions with options (``correction``, several
dims, ``cumsum``, ``argmax``, ``all``), and every shape ``matmul`` takes (1-D included).
Same style: one function ``(draw, env) -> code | None`` per family; :data:`FAMILIES` is
``diff_programs.FAMILIES`` with these added (the suite draws from it).
"""

from __future__ import annotations

import hypothesis.strategies as st
from diff_programs import FAMILIES as FIRST_FAMILIES
from diff_programs import PLAIN, Env, dim_of, literal, nested, pick, shapes

INT_VALUES = (-3, -2, -1, 0, 1, 2, 3, 5)
# Python numbers of each kind: promotion treats a bool, an int and a float differently.
SCALARS = ("2", "-1", "0", "True", "False", "0.5", "-1.5", "2.0", "-0.0")
DTYPES = ("float32", "float64", "int64", "int32", "bool")


def typed_input(draw, env: Env):
    """An integer, bool or 0-d tensor (no grad: integers cannot), or a 0-d float."""
    kind = draw(st.sampled_from(["int", "bool", "zero_dim", "zero_dim_int"]))
    name = env.new_name("i")
    if kind in ("int", "bool"):
        shape = draw(shapes)
        n = 1
        for s in shape:
            n *= s
        if kind == "bool":
            vals = draw(st.lists(st.booleans(), min_size=n, max_size=n))
            return f"{name} = lib.tensor({_nested_any(vals, shape)})"
        vals = draw(st.lists(st.sampled_from(INT_VALUES), min_size=n, max_size=n))
        dtype = draw(st.sampled_from(["int64", "int64", "int32"]))
        return f"{name} = lib.tensor({_nested_any(vals, shape)}, dtype=lib.{dtype})"
    if kind == "zero_dim_int":
        return f"{name} = lib.tensor({draw(st.sampled_from(INT_VALUES))})"
    dtype = draw(st.sampled_from(["float32", "float64"]))
    rg = ", requires_grad=True" if draw(st.booleans()) else ""
    value = literal(draw(st.sampled_from(PLAIN)))
    return f"{name} = lib.tensor({value}, dtype=lib.{dtype}{rg})"


def _nested_any(values, shape) -> str:
    """``nested`` for ints and bools (``nested`` writes floats)."""
    if not shape:
        return repr(values[0])
    step = len(values) // shape[0]
    inner = [_nested_any(values[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(inner) + "]"


def _partner(draw, env, x):
    """A tensor of any dtype that broadcasts with ``x`` (0-d ones often), or a Python number."""
    import torch

    sx = env.values[x].shape

    def fits(t):
        try:
            torch.broadcast_shapes(sx, t.shape)
            return True
        except RuntimeError:
            return False

    if draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(SCALARS))
    return pick(draw, env.tensors(fits)) or draw(st.sampled_from(SCALARS))


PROMOTING = ("+", "-", "*", "/", "==", "<", ">", "<=", "!=")


def promotion(draw, env):
    """Binary ops, maximum/minimum and where over operands of mixed dtypes and dims."""
    x = pick(draw, env.tensors())
    if x is None:
        return None
    y = _partner(draw, env, x)
    kind = draw(st.sampled_from(["op", "op", "rop", "maximum", "where", "inplace"]))
    new = env.new_name()
    if kind == "op":
        return f"{new} = {x} {draw(st.sampled_from(PROMOTING))} {y}"
    if kind == "rop":
        return f"{new} = {y} {draw(st.sampled_from(PROMOTING[:4]))} {x}"
    if kind == "maximum":
        if y in SCALARS:
            y = f"lib.tensor({y})"
        return f"{new} = lib.{draw(st.sampled_from(['maximum', 'minimum']))}({x}, {y})"
    if kind == "where":
        c = pick(draw, env.tensors(lambda u: u.dtype == __import__("torch").bool))
        c = c or f"{x} > 0"
        return f"{new} = lib.where({c}, {x}, {y})"
    op = draw(st.sampled_from(["add_", "mul_", "sub_", "div_"]))
    return f"{x}.{op}({y})"  # an in-place op keeps x's dtype or refuses the promotion


def clamp(draw, env):
    """clamp/clip with numbers, tensors of other dtypes, one bound or two."""
    x = pick(draw, env.tensors())
    if x is None:
        return None
    lo = draw(st.sampled_from(["-0.5", "0", "-1", "None", "t"]))
    hi = draw(st.sampled_from(["1.5", "2", "None", "t", "-1.0"]))
    bounds = []
    for name, b in (("min", lo), ("max", hi)):
        if b == "t":
            b = _partner(draw, env, x)
        if b != "None":
            bounds.append(f"{name}={b}")
    fn = draw(st.sampled_from(["clamp", "clip"]))
    if draw(st.booleans()):
        return f"{env.new_name()} = {x}.{fn}({', '.join(bounds)})"
    return f"{env.new_name()} = lib.{fn}({x}, {', '.join(bounds)})"


CONVERT = ("float()", "double()", "int()", "long()", "bool()", "to(lib.float32)",
           "to(lib.float64)", "to(dtype=lib.int64)", "type_as({y})", "to({y}.dtype)")  # fmt: skip


def convert(draw, env):
    """dtype conversions (a float's gradient flows through float-to-float ones only)."""
    x = pick(draw, env.tensors())
    if x is None:
        return None
    op = draw(st.sampled_from(CONVERT))
    if "{y}" in op:
        op = op.format(y=pick(draw, env.tensors()))
    return f"{env.new_name()} = {x}.{op}"


def prod_cumsum(draw, env):
    """Reductions with their options, over floats, ints and bools."""
    x = pick(draw, env.tensors())
    if x is None:
        return None
    t = env.values[x]
    d = dim_of(draw, t)
    keep = draw(st.booleans())
    new = env.new_name()
    dims = _two_dims(draw, t)
    ops = [
        f"{x}.sum(dim={dims}, keepdim={keep})",
        f"{x}.sum(dtype=lib.float64)",
        f"{x}.mean(dim={dims})",
        f"{x}.var(dim={d}, correction=0)",
        f"{x}.std(dim={d}, unbiased=False, keepdim={keep})",
        f"{x}.var(correction={draw(st.sampled_from([0, 1, 2]))})",
        f"{x}.std()",
        f"{x}.amax(dim={dims})",
        f"{x}.amin(dim={dims}, keepdim={keep})",
        f"{x}.logsumexp(dim={dims})",
        f"{x}.cumsum(dim={d})",
        f"lib.cumsum({x}, {d}, dtype=lib.float64)",
        f"{x}.argmax()",
        f"{x}.argmin(dim={d}, keepdim={keep})",
        f"{x}.max()",
        f"lib.max({x}, dim={d})[1]",
        f"{x}.all()",
        f"{x}.any(dim={d})",
        f"{x}.mean()",
    ]
    return f"{new} = {draw(st.sampled_from(ops))}"


def _two_dims(draw, t):
    """A tuple of distinct dims of ``t`` (empty for a 0-d tensor)."""
    if t.dim() == 0:
        return "()"
    ds = draw(st.lists(st.integers(-t.dim(), t.dim() - 1), min_size=1, max_size=2))
    if len({d % t.dim() for d in ds}) < len(ds):
        ds = ds[:1]
    return "(" + ", ".join(map(str, ds)) + ",)"


def products(draw, env):
    """matmul of every rank pairing (1-D included), mm, mv, dot, outer, bmm."""
    x = pick(draw, env.floats(lambda t: 1 <= t.dim() <= 3))
    if x is None:
        return None
    t = env.values[x]
    k = t.shape[-1]
    new = env.new_name()
    if draw(st.integers(0, 3)) == 0:  # a fresh partner of the right inner size
        rank = draw(st.integers(1, 3))
        shape = (*draw(shapes)[: rank - 1], k) if rank > 1 else (k,)
        shape = shape[::-1] if rank == 2 else shape
        y = _fresh(draw, env, shape, t.dtype)
        return f"{y[0]}\n{new} = lib.matmul({x}, {y[1]})"
    ys = env.floats(lambda u: u.dim() >= 1 and u.shape[0 if u.dim() == 1 else -2] == k)
    y = pick(draw, ys) or x
    u = env.values[y]
    fn = "matmul"
    if t.dim() == 2 and u.dim() == 2:
        fn = draw(st.sampled_from(["mm", "matmul"]))
    elif t.dim() == 2 and u.dim() == 1:
        fn = draw(st.sampled_from(["mv", "matmul"]))
    elif t.dim() == 1 and u.dim() == 1:
        fn = draw(st.sampled_from(["dot", "matmul"]))
    elif t.dim() == 3 and u.dim() == 3:
        fn = draw(st.sampled_from(["bmm", "matmul"]))
    if t.dim() == 1 and draw(st.integers(0, 3)) == 0:
        fn, y = "outer", pick(draw, env.floats(lambda u: u.dim() == 1))
    return f"{new} = lib.{fn}({x}, {y})"


def _fresh(draw, env, shape, dtype):
    """(statement, name) of a new float tensor of ``shape``, of ``dtype`` most of the time."""
    n = 1
    for s in shape:
        n *= s
    vals = draw(st.lists(st.sampled_from(PLAIN), min_size=n, max_size=n))
    dt = str(dtype).rsplit(".", 1)[-1] if draw(st.integers(0, 4)) else "float64"
    name = env.new_name("x")
    return f"{name} = lib.tensor({nested(vals, shape)}, dtype=lib.{dt}, requires_grad=True)", name


ACTIVATIONS = (
    "leaky_relu({x}, 0.2)", "gelu({x})", "gelu({x}, approximate='tanh')", "silu({x})",
    "elu({x})", "softplus({x})", "softplus({x}, beta=2.0, threshold=1.0)", "hardtanh({x})",
    "logsigmoid({x})", "relu6({x})", "softsign({x})", "relu({x})", "sigmoid({x})",
)  # fmt: skip


def activation(draw, env):
    x = pick(draw, env.floats())
    if x is None:
        return None
    return f"{env.new_name()} = lib.nn.functional.{draw(st.sampled_from(ACTIVATIONS)).format(x=x)}"


def softmax_more(draw, env):
    """softmax/log_softmax as methods, with ``dtype=``, of 0-d and integer tensors."""
    x = pick(draw, env.tensors())
    if x is None:
        return None
    d = dim_of(draw, env.values[x])
    fn = draw(st.sampled_from(["softmax", "log_softmax"]))
    dt = draw(st.sampled_from(["", "", ", dtype=lib.float64", ", dtype=lib.float32"]))
    if draw(st.booleans()):
        return f"{env.new_name()} = {x}.{fn}({d}{dt})"
    return f"{env.new_name()} = lib.nn.functional.{fn}({x}, dim={d}{dt})"


def loss_more(draw, env):
    """The losses beyond the first family, with their options."""
    x = pick(draw, env.floats(lambda t: t.dim() >= 1))
    if x is None:
        return None
    t = env.values[x]
    same = env.floats(lambda u: u.shape == t.shape)
    y = pick(draw, same) or x
    red = draw(st.sampled_from(["mean", "sum", "none"]))
    new = env.new_name()
    F = "lib.nn.functional"
    kind = draw(st.sampled_from(["smooth", "huber", "bce", "mse_b", "class", "class", "probs"]))
    if kind == "smooth":
        beta = draw(st.sampled_from(["1.0", "0.5", "0.0"]))
        return f"{new} = {F}.smooth_l1_loss({x}, {y}, reduction={red!r}, beta={beta})"
    if kind == "huber":
        delta = draw(st.sampled_from(["1.0", "0.5", "2.0"]))
        return f"{new} = {F}.huber_loss({x}, {y}, reduction={red!r}, delta={delta})"
    if kind == "bce":
        return (
            f"{new} = {F}.binary_cross_entropy({x}.sigmoid(), {y}.detach().sigmoid(),"
            f" reduction={red!r})"
        )
    if kind == "mse_b":  # a target of another shape: PyTorch broadcasts (with a warning)
        z = pick(draw, env.floats()) or x
        return f"{new} = {F}.mse_loss({x}, {z}, reduction={red!r})"
    n, c = (t.shape[0], t.shape[1]) if t.dim() >= 2 else (None, t.shape[0])
    if kind == "probs":
        return f"{new} = {F}.cross_entropy({x}, {y}.detach().softmax({1 if n else 0}))"
    m = n if n is not None else 1
    tgt = draw(st.lists(st.integers(-1, c - 1), min_size=m, max_size=m))
    tgt_text = f"lib.tensor({tgt})" if n is not None else f"lib.tensor({tgt[0]})"
    if t.dim() > 2:  # (N, C, d1, ...) takes (N, d1, ...) targets: class 0 everywhere
        tgt_text = f"lib.zeros({t.shape[0]}, *{x}.shape[2:], dtype=lib.int64)"
    fn = draw(st.sampled_from(["cross_entropy", "nll_loss"]))
    opts = [f"reduction={red!r}"]
    if draw(st.booleans()):
        opts.append("ignore_index=-1")
    if fn == "cross_entropy" and draw(st.booleans()):
        opts.append(f"label_smoothing={draw(st.sampled_from(['0.1', '0.5']))}")
    if draw(st.integers(0, 3)) == 0:
        opts.append(f"weight=lib.linspace(0.5, 1.5, {c}, dtype={x}.dtype)")
    inp = f"{x}.log_softmax({1 if n else 0})" if fn == "nll_loss" else x
    return f"{new} = {F}.{fn}({inp}, {tgt_text}, {', '.join(opts)})"


FAMILIES = {
    **FIRST_FAMILIES,
    "typed_input": typed_input,
    "promotion": promotion,
    "clamp": clamp,
    "convert": convert,
    "prod_cumsum": prod_cumsum,
    "products": products,
    "activation": activation,
    "softmax_more": softmax_more,
    "loss_more": loss_more,
}
