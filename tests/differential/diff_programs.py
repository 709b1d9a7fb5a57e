"""Random PyTorch programs over minigrad's public API, for the differential suite.

A program is a list of statements in PyTorch's spelling with the module called ``lib``
(``v2 = lib.cat([x0, v1], dim=0)``), so the same text runs with ``import minigrad as lib``
and ``import torch as lib``. Statements are drawn one at a time from the variables the
program has made so far (their PyTorch values give the shapes to draw operands for), so a
program stays mostly well-formed; the odd statement both libraries refuse is part of the
test too (their exception classes are compared).

Each op family is one small function ``(draw, env) -> code | None`` in :data:`FAMILIES`;
None means the family has nothing to apply to yet. ``draw`` is hypothesis' ``data.draw``,
so a failing program shrinks to a short one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import hypothesis.strategies as st

# Values inputs are made of: exact in float32 and float64, so both libraries start equal.
PLAIN = (-2.0, -1.5, -1.0, -0.5, -0.25, 0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0)
SPECIAL = (-0.0, math.nan, math.inf, -math.inf)
FLOAT_DTYPES = ("float64", "float64", "float32")


@dataclass
class Statement:
    """One line of a program, the op family that made it, and how it ended."""

    code: str
    family: str
    error: str | None = None  # the exception class both libraries raised, if they did


@dataclass
class Env:
    """What a program has made so far: variable name -> the PyTorch value."""

    values: dict = field(default_factory=dict)
    count: int = 0

    def new_name(self, prefix: str = "v") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def tensors(self, pred=lambda t: True) -> list[str]:
        """Names of non-empty dense (strided) tensors satisfying ``pred``."""
        import torch

        return [
            n
            for n, v in self.values.items()
            if isinstance(v, torch.Tensor)
            and v.layout == torch.strided
            and v.numel() > 0
            and _holds(pred, v)
        ]

    def floats(self, pred=lambda t: True) -> list[str]:
        return self.tensors(lambda t: t.is_floating_point() and pred(t))

    def grads(self, pred=lambda t: True) -> list[str]:
        """Float tensors that require grad."""
        return self.floats(lambda t: t.requires_grad and pred(t))


def _holds(pred, t) -> bool:
    """``pred(t)``; False where PyTorch refuses to describe ``t`` (a split piece whose base
    was modified in place raises on ``is_leaf``)."""
    try:
        return bool(pred(t))
    except RuntimeError:
        return False


def literal(x: float) -> str:
    """A float as source text that both libraries read back exactly."""
    if math.isnan(x):
        return 'float("nan")'
    if math.isinf(x):
        return 'float("inf")' if x > 0 else '-float("inf")'
    return repr(x)


def nested(values, shape) -> str:
    """``values`` (flat) as a nested list literal of ``shape``."""
    if not shape:
        return literal(values[0])
    step = len(values) // shape[0] if shape[0] else 0
    inner = [nested(values[i * step : (i + 1) * step], shape[1:]) for i in range(shape[0])]
    return "[" + ", ".join(inner) + "]"


shapes = st.lists(st.integers(1, 4), min_size=0, max_size=3).map(tuple)


def draw_input(draw, env: Env, shape=None) -> str:
    """``x1 = lib.tensor([...], dtype=lib.float64, requires_grad=True)``."""
    shape = draw(shapes) if shape is None else shape
    n = math.prod(shape)
    special = draw(st.integers(0, 9)) == 0
    pool = PLAIN + SPECIAL if special else PLAIN
    values = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    dtype = draw(st.sampled_from(FLOAT_DTYPES))
    rg = draw(st.booleans()) or draw(st.booleans())
    name = env.new_name("x")
    flag = ", requires_grad=True" if rg else ""
    return f"{name} = lib.tensor({nested(values, shape)}, dtype=lib.{dtype}{flag})"


def pick(draw, names: list[str]) -> str | None:
    return draw(st.sampled_from(sorted(names))) if names else None


def dim_of(draw, t, allow_none=False):
    if t.dim() == 0:
        return None if allow_none else 0
    choices = list(range(-t.dim(), t.dim()))
    return draw(st.sampled_from(choices + ([None] if allow_none else [])))


# --- op families -------------------------------------------------------------------------
UNARY = (
    "exp", "log", "sqrt", "sin", "cos", "tanh", "sigmoid", "relu", "abs", "neg", "sign",
    "square", "log1p", "expm1", "reciprocal", "rsqrt", "floor", "ceil", "trunc", "frac",
    "atan", "sinh", "clone", "detach", "t_if_2d",
)  # fmt: skip


def unary(draw, env):
    x = pick(draw, env.floats())
    if x is None:
        return None
    op = draw(st.sampled_from(UNARY))
    if op == "t_if_2d":
        op = "t" if env.values[x].dim() <= 2 else "clone"
    return f"{env.new_name()} = {x}.{op}()"


BINARY = ("+", "-", "*", "/", "**")


def binary(draw, env):
    x = pick(draw, env.tensors())
    if x is None:
        return None
    op = draw(st.sampled_from(BINARY))
    kind = draw(st.sampled_from(["tensor", "tensor", "scalar", "rscalar", "zero"]))
    if kind == "zero":
        return f"{env.new_name()} = {x} / {draw(st.sampled_from(['0.0', '-0.0']))}"
    if kind != "tensor":
        c = draw(st.sampled_from(["2.0", "-1.5", "0.5", "3", "2", "-1"]))
        return (
            f"{env.new_name()} = {x} {op} {c}"
            if kind == "scalar"
            else (f"{env.new_name()} = {c} {op} {x}")
        )
    y = _broadcastable_partner(draw, env, x)
    return f"{env.new_name()} = {x} {op} {y}"


def _broadcastable_partner(draw, env, x):
    """Another tensor that broadcasts with ``x`` (most of the time), or ``x`` itself."""
    import torch

    sx = env.values[x].shape

    def fits(t):
        try:
            torch.broadcast_shapes(sx, t.shape)
            return True
        except RuntimeError:
            return False

    ok = env.tensors(fits)
    if draw(st.integers(0, 9)) == 0:
        ok = env.tensors()  # now and then a clash: both must refuse alike
    return pick(draw, ok) or x


COMPARE = ("==", "<", ">=", "!=")


def compare(draw, env):
    x = pick(draw, env.tensors())
    if x is None:
        return None
    y = _broadcastable_partner(draw, env, x)
    op = draw(st.sampled_from(COMPARE))
    if draw(st.booleans()):
        y = draw(st.sampled_from(["0.5", "0", "-0.0"]))
    return f"{env.new_name()} = {x} {op} {y}"


REDUCE = ("sum", "mean", "prod", "amax", "amin", "std", "var", "logsumexp", "max", "min", "norm")


def reduction(draw, env):
    x = pick(draw, env.floats())
    if x is None:
        return None
    t = env.values[x]
    op = draw(st.sampled_from(REDUCE))
    if op == "norm":
        return f"{env.new_name()} = {x}.norm()"
    d = dim_of(draw, t, allow_none=op not in ("logsumexp",))
    keep = draw(st.booleans())
    if d is None:
        return f"{env.new_name()} = {x}.{op}()"
    if op in ("max", "min"):
        return f"{env.new_name()} = {x}.{op}(dim={d}, keepdim={keep}).values"
    return f"{env.new_name()} = {x}.{op}(dim={d}, keepdim={keep})"


def matmul(draw, env):
    x = pick(draw, env.floats(lambda t: t.dim() >= 1))
    if x is None:
        return None
    k = env.values[x].shape[-1]
    ys = env.floats(lambda t: t.dim() >= 1 and t.shape[0 if t.dim() == 1 else -2] == k)
    y = pick(draw, ys)
    if y is None:
        return None
    return f"{env.new_name()} = {x} @ {y}"


def basic_index(draw, env):
    x = pick(draw, env.tensors(lambda t: t.dim() >= 1))
    if x is None:
        return None
    return f"{env.new_name()} = {x}[{_basic_key(draw, env.values[x])}]"


def _basic_key(draw, t) -> str:
    parts = []
    for n in t.shape[: draw(st.integers(1, t.dim()))]:
        kind = draw(st.sampled_from(["int", "slice", "all", "step", "neg"]))
        if kind == "int":
            parts.append(str(draw(st.integers(-n, n - 1))))
        elif kind == "slice":
            a = draw(st.integers(0, n - 1))
            parts.append(f"{a}:{draw(st.integers(a, n))}")
        elif kind == "step":
            parts.append("::2")
        elif kind == "neg":
            parts.append("-1:")
        else:
            parts.append(":")
    if draw(st.integers(0, 4)) == 0:
        parts.append("None")
    return ", ".join(parts)


def _advanced_key(draw, env, t) -> str:
    n = t.shape[0]
    kind = draw(st.sampled_from(["list", "tensor", "mask", "2d"]))
    idx = draw(st.lists(st.integers(-n, n - 1), min_size=1, max_size=4))
    if kind == "list":
        return str(idx)
    if kind == "tensor":
        return f"lib.tensor({idx})"
    if kind == "mask":
        mask = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        return f"lib.tensor({mask})"
    if t.dim() >= 2:
        m = t.shape[1]
        jdx = draw(st.lists(st.integers(0, m - 1), min_size=len(idx), max_size=len(idx)))
        return f"lib.tensor({idx}), lib.tensor({jdx})"
    return f":, lib.tensor({idx})" if t.dim() >= 2 else str(idx)


def advanced_index(draw, env):
    x = pick(draw, env.tensors(lambda t: t.dim() >= 1))
    if x is None:
        return None
    return f"{env.new_name()} = {x}[{_advanced_key(draw, env, env.values[x])}]"


def setitem(draw, env):
    x = pick(draw, env.floats(lambda t: t.dim() >= 1))
    if x is None:
        return None
    t = env.values[x]
    key = _basic_key(draw, t) if draw(st.booleans()) else _advanced_key(draw, env, t)
    value = _value_for(draw, env, x)
    op = draw(st.sampled_from(["=", "=", "+=", "*="]))
    return f"{x}[{key}] {op} {value}"


def _value_for(draw, env, x) -> str:
    kind = draw(st.sampled_from(["scalar", "scalar", "tensor", "nan"]))
    if kind == "scalar":
        return draw(st.sampled_from(["-0.96", "5.0", "0.0", "2"]))
    if kind == "nan":
        return 'float("nan")'
    scalars = env.floats(lambda t: t.dim() <= 1 and t.numel() == 1)
    return pick(draw, scalars) or "1.25"


def view(draw, env):
    x = pick(draw, env.tensors())
    if x is None:
        return None
    t = env.values[x]
    d = dim_of(draw, t)
    ops = ["unsqueeze(0)", "flatten()", "reshape(-1)", "view(-1)", "squeeze()", "T"]
    if t.dim() >= 1:
        ops += [f"unsqueeze({d})", f"squeeze({d})", f"narrow({d}, 0, 1)", f"expand(2, *{x}.shape)"]
        ops += [f"split(1, dim={d})[0]", f"chunk(2, dim={d})[-1]", f"unbind({d})[0]"]
    if t.dim() >= 2:
        ops += ["transpose(0, -1)", "permute(1, 0, *range(2, " + str(t.dim()) + "))", "mT"]
    op = draw(st.sampled_from(ops))
    return f"{env.new_name()} = {x}.{op}"


INPLACE = (
    "add_({y})", "sub_({y})", "mul_({y})", "div_({y})", "add_(1.5)", "mul_(-1.0)",
    "clamp_(-0.35, 1.32)", "clamp_(min=0.0)", "zero_()", "fill_(2.5)", "fill_(float('nan'))",
    "copy_({y})", "relu_()", "exp_()", "log_()", "sqrt_()", "neg_()", "abs_()", "sign_()",
    "tanh_()", "sigmoid_()", "pow_(2)", "floor_()",
)  # fmt: skip


def inplace(draw, env):
    x = pick(draw, env.floats())
    if x is None:
        return None
    op = draw(st.sampled_from(INPLACE))
    if "{y}" in op:
        op = op.format(y=_broadcastable_partner(draw, env, x))
    return f"{x}.{op}"


def join(draw, env):
    x = pick(draw, env.tensors())
    if x is None:
        return None
    t = env.values[x]
    same = env.tensors(lambda u: u.shape == t.shape)
    ys = draw(st.lists(st.sampled_from(sorted(same)), min_size=1, max_size=3))
    kind = draw(st.sampled_from(["cat", "stack", "where"]))
    if kind == "where":
        c = pick(draw, env.tensors(lambda u: u.dtype == __import__("torch").bool)) or f"{x} > 0"
        other = draw(st.sampled_from([ys[0], "0.0", "1"]))
        return f"{env.new_name()} = lib.where({c}, {x}, {other})"
    d = dim_of(draw, t) if kind == "cat" else draw(st.integers(0, t.dim()))
    if kind == "cat" and t.dim() == 0:
        return f"{env.new_name()} = lib.cat([{x}, {', '.join(ys)}])"
    return f"{env.new_name()} = lib.{kind}([{x}, {', '.join(ys)}], dim={d})"


def softmax(draw, env):
    x = pick(draw, env.floats(lambda t: t.dim() >= 1))
    if x is None:
        return None
    d = dim_of(draw, env.values[x])
    fn = draw(st.sampled_from(["softmax", "log_softmax"]))
    return f"{env.new_name()} = lib.nn.functional.{fn}({x}, dim={d})"


def loss(draw, env):
    x = pick(draw, env.floats())
    if x is None:
        return None
    t = env.values[x]
    same = env.floats(lambda u: u.shape == t.shape)
    kind = draw(st.sampled_from(["mse_loss", "l1_loss", "bce_logits", "cross_entropy"]))
    if kind == "cross_entropy":
        if t.dim() != 2:
            return None
        tgt = draw(st.lists(st.integers(0, t.shape[1] - 1), min_size=t.shape[0]))
        tgt = tgt[: t.shape[0]]
        return f"{env.new_name()} = lib.nn.functional.cross_entropy({x}, lib.tensor({tgt}))"
    y = pick(draw, same)
    if kind == "bce_logits":
        kind = "binary_cross_entropy_with_logits"
        y = f"{y}.detach().sigmoid()"
    red = draw(st.sampled_from(["mean", "sum", "none"]))
    return f"{env.new_name()} = lib.nn.functional.{kind}({x}, {y}, reduction={red!r})"


def sparse(draw, env):
    xs = env.floats(lambda t: t.dim() == 2)
    x = pick(draw, xs)
    if x is None:
        return None
    k = env.values[x].shape[1]
    y = pick(draw, env.floats(lambda t: t.dim() == 2 and t.shape[0] == k))
    if y is None:
        return None
    kind = draw(st.sampled_from(["mm", "matmul", "sum"]))
    s = f"{x}.to_sparse()"
    if kind == "mm":
        return f"{env.new_name()} = lib.sparse.mm({s}, {y})"
    if kind == "matmul":
        return f"{env.new_name()} = {s} @ {y}"
    return f"{env.new_name()} = lib.sparse.sum({s})"


def embedding(draw, env):
    w = pick(draw, env.floats(lambda t: t.dim() == 2))
    if w is None:
        return None
    n = env.values[w].shape[0]
    idx = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4))
    sp = draw(st.booleans())
    return f"{env.new_name()} = lib.nn.functional.embedding(lib.tensor({idx}), {w}, sparse={sp})"


def backward(draw, env):
    y = pick(draw, env.grads())
    if y is None:
        return None
    kind = draw(st.sampled_from(["sum", "sum", "scalar", "grad", "grad_create", "seed"]))
    retain = ", retain_graph=True" if draw(st.booleans()) else ""
    t = env.values[y]
    if kind == "scalar" and t.numel() == 1:
        return f"{y}.backward({retain.lstrip(', ')})"
    if kind == "seed":
        return f"{y}.backward(lib.ones_like({y}){retain})"
    if kind in ("grad", "grad_create"):
        leaves = env.grads(lambda u: u.is_leaf)
        x = pick(draw, leaves)
        if x is None:
            return None
        create = ", create_graph=True" if kind == "grad_create" else ""
        name = env.new_name("g")
        return f"{name} = lib.autograd.grad({y}.sum(), {x}{retain}{create}, allow_unused=True)[0]"
    return f"{y}.sum().backward({retain.lstrip(', ')})"


def grad_meta(draw, env):
    y = pick(draw, env.grads())
    if y is None:
        return None
    kind = draw(st.sampled_from(["retain", "hook", "hook", "detach", "no_grad", "zero_grad"]))
    if kind == "retain":
        return f"{y}.retain_grad()"
    if kind == "hook":
        f = draw(st.sampled_from(["lambda g: g * 2", "lambda g: None", "lambda g: g.clamp(-1, 1)"]))
        return f"_ = {y}.register_hook({f})"
    if kind == "detach":
        return f"{env.new_name()} = {y}.detach()"
    if kind == "zero_grad":
        return f"{y}.grad = None"
    t = env.values[y]
    key = _basic_key(draw, t) if t.dim() else "..."
    return f"with lib.no_grad():\n    {env.new_name()} = {y}[{key}]"


FAMILIES = {
    "unary": unary,
    "binary": binary,
    "compare": compare,
    "reduction": reduction,
    "matmul": matmul,
    "basic_index": basic_index,
    "advanced_index": advanced_index,
    "setitem": setitem,
    "view": view,
    "inplace": inplace,
    "join": join,
    "softmax": softmax,
    "loss": loss,
    "sparse": sparse,
    "embedding": embedding,
    "backward": backward,
    "grad_meta": grad_meta,
}
