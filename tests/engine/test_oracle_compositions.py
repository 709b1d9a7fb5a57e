"""PyTorch as an oracle: random compositions of ops, and misuse errors side by side.

A seeded generator writes small random programs: a chain of 3-8 ops over 2-3 float64 inputs,
each op drawn from a table of (name, eligibility, fn) where ``fn(L, a, b)`` is written once
against the shared API and run with ``L = minigrad`` and ``L = torch``. Every intermediate
value, the first derivatives of a scalar built from *all* intermediates, and a
second-derivative (double backward) product are compared with PyTorch in float64.
"""

import numpy as np
import pytest

import minigrad as mg

pytestmark = pytest.mark.oracle
torch = pytest.importorskip("torch")

RTOL, ATOL = 1e-9, 1e-12
N_PROGRAMS = 50
INPUT_SHAPES = [(3, 4), (4,), (3, 1), (2, 3, 4), (1, 4), ()]


# --- the op table ------------------------------------------------------------------------------------
# Each entry: name -> (arity, ok(a, b_or_None, rng) -> params or None, fn(L, a, b, **params)).
# `ok` sees numpy values, so domain restrictions (log of positives, no overflow) are exact.


def _all(a, *_):
    return {}


def _bounded(limit):
    return lambda a, *_: {} if a.size and np.abs(a).max() < limit else None


def _positive(a, *_):
    return {} if a.size and a.min() > 0.1 else None


def _away_from_zero(a, *_):
    return {} if a.size and np.abs(a).min() > 0.25 else None


def _dim(min_ndim=1, need_len=1):
    def ok(a, _b, rng):
        if a.ndim < min_ndim:
            return None
        dims = [d for d in range(a.ndim) if a.shape[d] >= need_len]
        if not dims:
            return None
        d = int(rng.choice(dims))
        return {"dim": d if rng.random() < 0.5 else d - a.ndim}

    return ok


def _dim_keep(a, b, rng):
    p = _dim()(a, b, rng)
    if p is not None:
        p["keepdim"] = bool(rng.random() < 0.5)
    return p


def _broadcasts(a, b, *_):
    try:
        np.broadcast_shapes(a.shape, b.shape)
    except ValueError:
        return None
    return {}


def _div_ok(a, b, rng):
    p = _broadcasts(a, b)
    return p if p is not None and b.size and np.abs(b).min() > 0.25 else None


def _pow_ok(a, b, rng):
    p = _broadcasts(a, b)
    ok = p is not None and a.size and a.min() > 0.1 and np.abs(b).max() < 3 and a.max() < 5
    return p if ok else None


def _matmul_ok(a, b, rng):
    if a.ndim == 0 or b.ndim == 0:
        return None
    k = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if a.shape[-1] != k:
        return None
    try:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        return None
    return {}


def _index_ok(a, _b, rng):
    if a.ndim == 0 or a.shape[0] == 0:
        return None
    idx = rng.integers(-a.shape[0], a.shape[0], size=int(rng.integers(1, 5))).tolist()
    return {"idx": idx}  # repeated indices must add up in the gradient


def _cat_ok(a, b, rng):
    if a.ndim == 0:
        return None
    dims = [
        d for d in range(a.ndim) if a.shape[:d] + a.shape[d + 1 :] == b.shape[:d] + b.shape[d + 1 :]
    ]
    if b.ndim != a.ndim or not dims:
        return None
    return {"dim": int(rng.choice(dims))}


def _permute_ok(a, _b, rng):
    if a.ndim < 2:
        return None
    return {"dims": [int(d) for d in rng.permutation(a.ndim)]}


def _reshape_ok(a, _b, rng):
    n = a.size
    options = [(-1,), (1, -1), (n, 1)] + ([(2, -1)] if n % 2 == 0 and n else [])
    return {"shape": options[int(rng.integers(len(options)))]}


OPS = {
    # unary elementwise
    "sin": (1, _all, lambda L, a, b: a.sin()),
    "cos": (1, _all, lambda L, a, b: a.cos()),
    "tanh": (1, _all, lambda L, a, b: a.tanh()),
    "sigmoid": (1, _all, lambda L, a, b: a.sigmoid()),
    "relu": (1, _all, lambda L, a, b: a.relu()),
    "abs": (1, _away_from_zero, lambda L, a, b: a.abs()),
    "neg": (1, _all, lambda L, a, b: -a),
    "exp": (1, _bounded(3.0), lambda L, a, b: a.exp()),
    "log": (1, _positive, lambda L, a, b: a.log()),
    "sqrt": (1, _positive, lambda L, a, b: a.sqrt()),
    "square": (1, _bounded(30.0), lambda L, a, b: a * a),
    "cube": (1, _bounded(5.0), lambda L, a, b: a**3),
    "pow_half": (1, _positive, lambda L, a, b: a**0.5),
    "reciprocal": (1, _away_from_zero, lambda L, a, b: 1.0 / a),
    "clamp": (1, _all, lambda L, a, b: a.clamp(-0.5, 0.5)),
    "rpow": (1, _bounded(4.0), lambda L, a, b: 2.0**a),
    "affine": (1, _all, lambda L, a, b: 1.5 - a * 2.5 + 0.25),
    "scaled_div": (1, _all, lambda L, a, b: a / 4.0),
    # binary, broadcasting
    "add": (2, _broadcasts, lambda L, a, b: a + b),
    "sub": (2, _broadcasts, lambda L, a, b: a - b),
    "mul": (2, _broadcasts, lambda L, a, b: a * b),
    "div": (2, _div_ok, lambda L, a, b: a / b),
    "pow": (2, _pow_ok, lambda L, a, b: a**b),
    "where": (2, _broadcasts, lambda L, a, b: L.where(a > b, a, b)),
    "matmul": (2, _matmul_ok, lambda L, a, b: a @ b),
    "cat": (2, _cat_ok, lambda L, a, b, dim: L.cat([a, b], dim)),
    # reductions
    "sum_all": (1, _all, lambda L, a, b: a.sum()),
    "sum": (1, _dim_keep, lambda L, a, b, dim, keepdim: a.sum(dim, keepdim=keepdim)),
    "mean": (1, _dim_keep, lambda L, a, b, dim, keepdim: a.mean(dim, keepdim=keepdim)),
    "amax": (1, _dim_keep, lambda L, a, b, dim, keepdim: a.amax(dim, keepdim=keepdim)),
    "max_dim": (1, _dim_keep, lambda L, a, b, dim, keepdim: a.max(dim, keepdim=keepdim).values),
    "var": (1, _dim(need_len=2), lambda L, a, b, dim: a.var(dim)),
    "logsumexp": (1, _dim_keep, lambda L, a, b, dim, keepdim: a.logsumexp(dim, keepdim=keepdim)),
    "softmax": (1, _dim(), lambda L, a, b, dim: a.softmax(dim)),
    "log_softmax": (1, _dim(), lambda L, a, b, dim: a.log_softmax(dim)),
    # shapes and indexing
    "reshape": (1, _reshape_ok, lambda L, a, b, shape: a.reshape(*shape)),
    "permute": (1, _permute_ok, lambda L, a, b, dims: a.permute(*dims)),
    "transpose": (1, _dim(min_ndim=2), lambda L, a, b, dim: a.transpose(dim, -1)),
    "unsqueeze": (1, _all, lambda L, a, b: a.unsqueeze(0)),
    "flatten": (1, _all, lambda L, a, b: a.flatten()),
    "index": (1, _index_ok, lambda L, a, b, idx: a[idx]),
    "slice": (1, _dim(min_ndim=1, need_len=2), lambda L, a, b, dim: a.transpose(0, dim)[1:]),
    "stack": (1, _all, lambda L, a, b: L.stack([a, a * 2.0], 0)),
}


def generate(seed):
    """A random program: input shapes and a list of (op, operand index or None, params)."""
    rng = np.random.default_rng(seed)
    n_inputs = int(rng.integers(2, 4))
    shapes = [INPUT_SHAPES[int(i)] for i in rng.choice(len(INPUT_SHAPES), n_inputs)]
    values = [rng.uniform(-1.5, 1.5, s) for s in shapes]
    depth = int(rng.integers(3, 9))
    program = []
    pool = list(values)  # numpy shadow values, to decide eligibility
    current = 0
    names = sorted(OPS)
    while len(program) < depth:
        name = names[int(rng.integers(len(names)))]
        arity, ok, fn = OPS[name]
        a = pool[current]
        other = int(rng.integers(len(pool))) if arity == 2 else None
        params = ok(a, None if other is None else pool[other], rng)
        if params is None:
            continue
        with torch.no_grad():
            args = [torch.tensor(a), None if other is None else torch.tensor(pool[other])]
            out = fn(torch, *args, **params).numpy()
        if out.size and not np.isfinite(out).all() or out.size and np.abs(out).max() > 1e4:
            continue
        program.append((name, other, params))
        pool.append(out)
        current = len(pool) - 1
    return values, program


def run(L, values, program, seed):
    """Run a program with library L; returns (inputs, all intermediates, scalar loss)."""
    inputs = [L.tensor(v, dtype=L.float64, requires_grad=True) for v in values]
    pool = list(inputs)
    current = 0
    for name, other, params in program:
        _, _, fn = OPS[name]
        b = None if other is None else pool[other]
        pool.append(fn(L, pool[current], b, **params))
        current = len(pool) - 1
    rng = np.random.default_rng(seed + 1000)
    loss = 0.0
    for t in pool[len(inputs) :]:
        weights = L.tensor(rng.standard_normal(tuple(t.shape)), dtype=L.float64)
        loss = loss + (t * weights).sum()
    return inputs, pool[len(inputs) :], loss


def describe(values, program):
    lines = [f"inputs: {[v.shape for v in values]}"]
    lines += [f"  {name}(cur{'' if o is None else f', pool[{o}]'}) {p}" for name, o, p in program]
    return "\n".join(lines)


def assert_close(got, want, what, program_text):
    got = np.asarray(got.detach().numpy() if hasattr(got, "detach") else got)
    want = want.detach().numpy()
    assert got.shape == want.shape, f"{what}: shape {got.shape} vs {want.shape}\n{program_text}"
    np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=f"{what}\n{program_text}")


@pytest.mark.parametrize("seed", range(N_PROGRAMS))
def test_random_composition_matches_torch(seed):
    values, program = generate(seed)
    text = describe(values, program)
    m_in, m_vals, m_loss = run(mg, values, program, seed)
    t_in, t_vals, t_loss = run(torch, values, program, seed)
    for i, (mv, tv) in enumerate(zip(m_vals, t_vals)):
        assert mv.dtype is mg.float64
        assert_close(mv.detach().numpy(), tv, f"value of step {i}", text)
    assert_close(m_loss.detach().numpy(), t_loss, "loss", text)

    m_grads = mg.autograd.grad(m_loss, m_in, create_graph=True, allow_unused=True)
    t_grads = torch.autograd.grad(t_loss, t_in, create_graph=True, allow_unused=True)
    for i, (mg_g, t_g) in enumerate(zip(m_grads, t_grads)):
        assert (mg_g is None) == (t_g is None), f"input {i} used?\n{text}"
        if t_g is not None:
            assert_close(mg_g.detach().numpy(), t_g, f"gradient of input {i}", text)

    # double backward: d/dx <grad(x), v> for a fixed random v
    rng = np.random.default_rng(seed + 2000)
    vs = [rng.standard_normal(v.shape) for v in values]
    m_dot = sum((g * mg.tensor(v)).sum() for g, v in zip(m_grads, vs) if g is not None)
    t_dot = sum((g * torch.tensor(v)).sum() for g, v in zip(t_grads, vs) if g is not None)
    if not isinstance(t_dot, torch.Tensor) or not t_dot.requires_grad:
        return  # the program is linear in every input: no second derivative graph
    m_gg = mg.autograd.grad(m_dot, m_in, allow_unused=True, materialize_grads=True)
    t_gg = torch.autograd.grad(t_dot, t_in, allow_unused=True, materialize_grads=True)
    for i, (mg_g, t_g) in enumerate(zip(m_gg, t_gg)):
        assert_close(mg_g.detach().numpy(), t_g, f"second derivative product, input {i}", text)


def test_the_generator_covers_the_op_table():
    used = {name for seed in range(N_PROGRAMS) for name, _, _ in generate(seed)[1]}
    missing = set(OPS) - used
    assert len(missing) <= len(OPS) // 4, f"ops never drawn: {sorted(missing)}"


# --- misuse: the same exception class in both ----------------------------------------------------


def _backward_twice(L):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


def _inplace_on_leaf(L):
    L.tensor([1.0, 2.0], requires_grad=True).add_(1.0)


def _version_mismatch(L):
    x = L.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2.0
    y = h.sin()
    h.mul_(3.0)
    y.sum().backward()


def _non_scalar_backward(L):
    (L.tensor([1.0, 2.0], requires_grad=True) * 2.0).backward()


def _wrong_grad_shape(L):
    (L.tensor([1.0, 2.0], requires_grad=True) * 2.0).backward(L.ones(3))


def _int_requires_grad(L):
    L.tensor([1, 2], requires_grad=True)


def _backward_without_grad_fn(L):
    L.tensor([1.0, 2.0]).sum().backward()


def _unused_input(L):
    x = L.tensor([1.0], requires_grad=True)
    z = L.tensor([1.0], requires_grad=True)
    L.autograd.grad((x * 2.0).sum(), [x, z])


def _requires_grad_false_on_non_leaf(L):
    (L.tensor([1.0], requires_grad=True) * 2.0).requires_grad_(False)


def _custom_wrong_grad_count(L):
    class Bad(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g, g

    Bad.apply(L.tensor([1.0], requires_grad=True)).sum().backward()


def _save_non_tensor(L):
    class Bad(L.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 2.0

        @staticmethod
        def backward(ctx, g):
            return g

    Bad.apply(L.tensor([1.0], requires_grad=True))


MISUSE = {
    "backward_twice": (_backward_twice, "Trying to backward through the graph a second time"),
    "inplace_on_leaf": (
        _inplace_on_leaf,
        "a leaf Variable that requires grad is being used in an in-place operation.",
    ),
    "version_mismatch": (_version_mismatch, "is at version 1; expected version 0 instead"),
    "non_scalar_backward": (
        _non_scalar_backward,
        "grad can be implicitly created only for scalar outputs",
    ),
    "wrong_grad_shape": (_wrong_grad_shape, "Mismatch in shape: grad_output[0] has a shape of"),
    "int_requires_grad": (
        _int_requires_grad,
        "Only Tensors of floating point and complex dtype can require gradients",
    ),
    "backward_without_grad_fn": (
        _backward_without_grad_fn,
        "element 0 of tensors does not require grad and does not have a grad_fn",
    ),
    "unused_input": (
        _unused_input,
        "appears to not have been used in the graph. Set allow_unused=True",
    ),
    "requires_grad_false_on_non_leaf": (
        _requires_grad_false_on_non_leaf,
        "you can only change requires_grad flags of leaf variables.",
    ),
    "custom_wrong_grad_count": (
        _custom_wrong_grad_count,
        "returned an incorrect number of gradients",
    ),
    "save_non_tensor": (_save_non_tensor, "save_for_backward can only save variables"),
}


def _raised(case, L):
    try:
        case(L)
    except Exception as e:  # noqa: BLE001  (we compare whatever was raised)
        return e
    return None


@pytest.mark.parametrize("name", MISUSE)
def test_misuse_raises_the_same_exception_class_as_torch(name):
    case, phrase = MISUSE[name]
    t_exc = _raised(case, torch)
    m_exc = _raised(case, mg)
    assert t_exc is not None, "the oracle case must raise in torch"
    assert m_exc is not None, f"minigrad did not raise; torch raised {type(t_exc).__name__}"
    assert type(m_exc) is type(t_exc), f"{type(m_exc).__name__} vs torch {type(t_exc).__name__}"
    assert phrase in str(t_exc), f"the oracle's wording changed: {t_exc}"
    assert phrase in str(m_exc), f"minigrad says: {m_exc}"
