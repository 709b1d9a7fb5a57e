"""make_jaxpr: the traced program, its listing (golden strings), its equations, its constants,
the values it refuses to have (ConcretizationTypeError), and viz.draw_graph of it."""

import contextlib
import io
import pathlib
import re
import shutil

import numpy as np
import pytest

import minigrad as mg
import viz
from minigrad.func import ConcretizationTypeError, grad, jit, make_jaxpr
from minigrad.recording import modes


def listing(f, *args, **kwargs):
    return str(make_jaxpr(f)(*args, **kwargs))


# --- listings -------------------------------------------------------------------------------
def test_a_short_program_prints_on_one_line():
    out = listing(lambda x: x.sin() * 2.0, mg.ones(3))
    assert out == (
        "{ lambda ; a:f32[3]. let b:f32[3] = sin a; c:f32[3] = mul_scalar[value=2.0] b in (c,) }"
    )


def test_a_longer_program_prints_one_equation_per_line():
    out = listing(lambda x, y: (x * y).sum(), mg.ones(3), mg.ones(3))
    assert out == (
        "{ lambda ; a:f32[3] b:f32[3]. let\n"
        "    c:f32[3] = mul a b\n"
        "    d:f32[] = reduce_sum[dims=None keepdim=False] c\n"
        "  in (d,) }"
    )


def test_a_closed_over_tensor_is_a_constvar_before_the_semicolon():
    w = mg.ones(3, 2)
    closed = make_jaxpr(lambda x: (x @ w).tanh().sum())(mg.ones(4, 3))
    assert str(closed) == (
        "{ lambda a:f32[3,2]; b:f32[4,3]. let\n"
        "    c:f32[4,2] = matmul b a\n"
        "    d:f32[4,2] = tanh c\n"
        "    e:f32[] = reduce_sum[dims=None keepdim=False] d\n"
        "  in (e,) }"
    )
    assert closed.consts == [w] and closed.consts[0] is w
    assert [v.name for v in closed.jaxpr.constvars] == ["a"]


def test_the_program_of_grad_is_the_forward_and_the_backward_pass():
    def loss(w, x):
        return ((x @ w).tanh() ** 2).mean()

    assert str(make_jaxpr(grad(loss))(mg.ones(3, 2), mg.ones(4, 3))) == (
        "{ lambda ; a:f32[3,2] b:f32[4,3]. let\n"
        "    c:f32[3,2] = copy a\n"
        "    d:f32[4,2] = matmul b c\n"
        "    e:f32[4,2] = tanh d\n"
        "    f:f32[] = div_scalar[value=8.0] 1.0:f32[]\n"
        "    g:f32[4,2] = expand[shape=(4, 2)] f\n"
        "    h:f32[4,2] = mul g e\n"
        "    i:f32[4,2] = mul_scalar[value=2.0] h\n"
        "    j:f32[4,2] = tanh_grad i e\n"
        "    k:f32[3,4] = transpose[dims=(1, 0)] b\n"
        "    l:f32[3,2] = matmul k j\n"
        "  in (l,) }"
    )


def test_pytrees_in_and_out_literals_constants_and_static_arguments():
    params = {"w": mg.ones(3, 2), "b": mg.zeros(2)}
    out = listing(lambda p, x: {"y": x @ p["w"] + p["b"], "n": x.sum(1)}, params, mg.ones(4, 3))
    assert out == (
        "{ lambda ; a:f32[3,2] b:f32[2] c:f32[4,3]. let\n"
        "    d:f32[4,2] = matmul c a\n"
        "    e:f32[4,2] = add d b\n"
        "    f:f32[4] = reduce_sum[dims=(1,) keepdim=False] c\n"
        "  in (e, f) }"
    )
    # an input returned as it is, and a constant made inside: both are outputs
    out = listing(lambda x: (x, x * 2, mg.ones(2)), mg.ones(2))
    assert out == "{ lambda a:f32[2]; b:f32[2]. let c:f32[2] = mul_scalar[value=2] b in (b, c, a) }"
    # a static argument is part of the program (here: the exponent)
    closed = make_jaxpr(lambda x, n: x**n, static_argnums=1)(mg.ones(2), 3)
    assert str(closed) == "{ lambda ; a:f32[2]. let b:f32[2] = pow_scalar[value=3] a in (b,) }"
    # a Python number that is not static is traced, as a 0-d tensor
    out = listing(lambda x, s: x * s, mg.ones(2), 3.0)
    assert out == "{ lambda ; a:f32[2] b:f32[]. let c:f32[2] = mul a b in (c,) }"


def test_literals_params_and_comparisons_print_deterministically():
    out = listing(lambda x: mg.where(x > 0, x * 1.0001, 0.0), mg.ones(2))
    assert out == (
        "{ lambda ; a:f32[2]. let\n"
        "    b:bool[2] = gt a 0.0:f32[]\n"
        "    c:f32[2] = mul_scalar[value=1.0001] a\n"
        "    d:f32[2] = where[cond=b] c 0.0:f32[]\n"
        "  in (d,) }"
    )
    assert listing(lambda x: x[1:3, None, ...], mg.ones(5)) == (
        "{ lambda ; a:f32[5]. let b:f32[2,1] = get_item[key=(1:3, None, ...)] a in (b,) }"
    )
    assert listing(lambda x: x.double().argmax(), mg.ones(2)) == (
        "{ lambda ; a:f32[2]. let\n"
        "    b:f64[2] = convert_element_type[dtype=float64] a\n"
        "    c:i64[] = argmax[dim=None keepdim=False] b\n"
        "  in (c,) }"
    )
    assert listing(lambda x: x * mg.tensor(1e-8), mg.ones(1)) == (
        "{ lambda ; a:f32[1]. let b:f32[1] = mul a 1e-08:f32[] in (b,) }"
    )


def test_printing_is_deterministic_names_restart_and_dead_code_is_dropped():
    def f(x):
        unused = x.exp() * 3.0  # noqa: F841  (dropped: no output depends on it)
        return x.cos()

    first = listing(f, mg.ones(2))
    assert first == listing(f, mg.ones(2)) == "{ lambda ; a:f32[2]. let b:f32[2] = cos a in (b,) }"
    assert repr(make_jaxpr(f)(mg.ones(2))) == first


def test_names_go_on_after_z():
    def chain(x):
        for _ in range(30):
            x = x.sin()
        return x

    names = [e.outvars[0].name for e in make_jaxpr(chain)(mg.ones(1)).eqns]
    assert names[:2] == ["b", "c"] and names[24:27] == ["z", "ba", "bb"]


# --- the structure of a program ---------------------------------------------------------------
def test_eqns_invars_outvars_params_and_avals():
    w = mg.ones(3)
    closed = make_jaxpr(lambda x: (x * w).sum(dim=0))(mg.ones(3))
    assert closed.eqns is closed.jaxpr.eqns
    mul, total = closed.eqns
    assert mul.primitive.name == "mul" and mul.primitive.op is mg.ops.arith.Mul
    assert mul.invars == [closed.jaxpr.invars[0], closed.jaxpr.constvars[0]]
    assert mul.outvars == total.invars
    assert total.primitive.name == "reduce_sum" and total.params == {"dims": (0,), "keepdim": False}
    assert total.outvars == closed.jaxpr.outvars
    assert [str(a) for a in closed.in_avals] == ["ShapedArray(float32[3])"]
    assert [a.str_short() for a in closed.out_avals] == ["f32[]"]
    assert isinstance(closed.jaxpr.outvars[0], mg.func.Var)
    assert closed.jaxpr.debug_info.arg_names == ("x",)


def test_a_0d_constant_is_a_literal_unless_it_requires_grad():
    s = mg.tensor(2.0)
    (eqn,) = make_jaxpr(lambda x: x * s)(mg.ones(2)).eqns
    assert isinstance(eqn.invars[1], mg.func.Literal) and float(eqn.invars[1].val) == 2.0
    t = mg.tensor(2.0, requires_grad=True)
    closed = make_jaxpr(lambda x: x * t)(mg.ones(2))
    assert closed.consts == [t] and closed.eqns[0].invars[1] is closed.jaxpr.constvars[0]


def test_where_reads_its_condition_through_a_param():
    closed = make_jaxpr(lambda x: mg.where(x > 0, x, -x))(mg.ones(2))
    gt, neg, where = closed.eqns
    assert where.params["cond"] is gt.outvars[0]
    assert where.invars == [closed.jaxpr.invars[0], neg.outvars[0], gt.outvars[0]]


class StraightThrough(mg.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sign()

    @staticmethod
    def backward(ctx, g):
        return g


def test_a_custom_function_is_one_equation():
    closed = make_jaxpr(lambda x: StraightThrough.apply(x) * x)(mg.ones(3))
    assert [e.primitive.name for e in closed.eqns] == ["custom_function", "mul"]
    assert closed.eqns[0].primitive.op is StraightThrough
    assert "custom_function[fn=StraightThrough] a" in str(closed)


def test_jit_inside_make_jaxpr_is_inlined():
    inner = jit(lambda x: x.tanh())
    assert listing(lambda x: inner(x) + 1.0, mg.ones(2)) == (
        "{ lambda ; a:f32[2]. let b:f32[2] = tanh a; c:f32[2] = add_scalar[value=1.0] b in (c,) }"
    )


def test_the_tracer_is_gone_after_a_trace_even_a_failing_one():
    with pytest.raises(ConcretizationTypeError):
        make_jaxpr(lambda x: x if x.sum() > 0 else -x)(mg.ones(2))
    assert modes.state.tracer is None and not modes.state.active and not modes.state.hooks
    y = mg.tensor([1.0, 2.0], requires_grad=True)
    (y * y).sum().backward()
    assert y.grad.tolist() == [2.0, 4.0]


# --- what a trace does not have ------------------------------------------------------------
@pytest.mark.parametrize(
    "f, what",
    [
        (lambda x: x if x.sum() > 0 else -x, "bool()"),
        (lambda x: x * float(x.sum()), "float()"),
        (lambda x: x * int(x.sum()), "int()"),
        (lambda x: x * x.sum().item(), ".item()"),
        (lambda x: mg.tensor(x.tolist()), ".tolist()"),
        (lambda x: mg.tensor(x.numpy() * 2), ".numpy()"),
        (lambda x: mg.tensor(np.asarray(x) * 2), "np.asarray()"),
        (lambda x: x * len(range(x.sum().long())), "a Python int"),
    ],
)
def test_python_needing_a_value_raises_concretization_type_error(f, what):
    with pytest.raises(ConcretizationTypeError) as info:
        make_jaxpr(f)(mg.ones(3))
    message = str(info.value)
    assert isinstance(info.value, TypeError)
    assert what in message
    assert "computed from argument 'x'" in message or "argument 'x'" in message
    assert "static_argnums=(0,)" in message


def test_the_message_names_the_argument_and_its_position():
    def f(x, n, y):
        return y * (2.0 if n > 0 else 1.0)

    with pytest.raises(ConcretizationTypeError) as info:
        make_jaxpr(f)(mg.ones(2), mg.tensor(3), mg.ones(2))
    assert "bool[] computed from argument 'n' of f" in str(info.value)
    assert "static_argnums=(1,)" in str(info.value)


def test_a_traced_tensor_prints_its_type_without_values():
    seen = []
    make_jaxpr(lambda x: seen.append(repr(x)) or x)(mg.ones(2, 3))
    assert seen == ["Traced<f32[2,3], argument 'x' of <lambda>>"]


def test_boolean_mask_indexing_random_numbers_and_backward_are_refused():
    with pytest.raises(ConcretizationTypeError, match="boolean tensor"):
        make_jaxpr(lambda x: x[x > 0])(mg.ones(3))
    with pytest.raises(RuntimeError, match="random numbers inside a traced function"):
        make_jaxpr(lambda x: x * mg.rand(3))(mg.ones(3))
    assert mg.rand(2).shape == (2,)  # the generator is back
    w = mg.ones(3, requires_grad=True)
    with pytest.raises(ConcretizationTypeError, match="writes .grad"):
        make_jaxpr(lambda x: (x * w).sum().backward())(mg.ones(3))
    assert w.grad is None


def test_minigrad_code_reading_values_outside_an_op_is_refused_not_traced_from_zeros():
    # max(dim)'s backward keeps the indices its forward computed from the values
    with pytest.raises(ConcretizationTypeError, match="outside an op"):
        make_jaxpr(grad(lambda x: x.max(dim=0).values.sum()))(mg.ones(3))
    # class-index targets: cross_entropy checks and masks them with numpy
    with pytest.raises(ConcretizationTypeError, match="numpy's"):
        make_jaxpr(lambda x, y: mg.nn.functional.cross_entropy(x, y))(
            mg.ones(2, 3), mg.tensor([0, 1])
        )


def test_in_place_ops_write_into_the_functions_own_tensors_only():
    def f(x):
        y = x * 1.0
        y += 2.0
        y[0] = 5.0
        return y

    assert str(make_jaxpr(f)(mg.ones(3))) == (
        "{ lambda ; a:f32[3]. let\n"
        "    b:f32[3] = mul_scalar[value=1.0] a\n"
        "    c:f32[3] = add_scalar[value=2.0] b\n"
        "    d:f32[3] = copy_slices[idx=0] c 5.0:f32[]\n"
        "  in (d,) }"
    )
    assert jit(f)(mg.tensor([1.0, 2.0, 3.0])).tolist() == [5.0, 4.0, 5.0]
    with pytest.raises(ConcretizationTypeError, match="add_\\(\\) on an input"):
        make_jaxpr(lambda x: x.add_(1.0))(mg.ones(3))
    with pytest.raises(ConcretizationTypeError, match="on a view"):
        make_jaxpr(lambda x: (x * 1.0)[1:].mul_(2.0))(mg.ones(3))
    w = mg.ones(3)
    with pytest.raises(ConcretizationTypeError, match="copyto"):
        make_jaxpr(lambda x: w.add_(x))(mg.ones(3))
    assert w.tolist() == [1.0, 1.0, 1.0]


# --- bad arguments --------------------------------------------------------------------------
def test_bad_arguments_of_make_jaxpr():
    with pytest.raises(TypeError, match="expected a callable"):
        make_jaxpr(3)
    with pytest.raises(ValueError, match="argument 2 does not exist"):
        make_jaxpr(lambda x, y: x, static_argnums=2)
    with pytest.raises(TypeError, match="static_argnums must be an int"):
        make_jaxpr(lambda x: x, static_argnums="0")
    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        make_jaxpr(lambda x, n: x, static_argnums=1)(mg.ones(2), [1, 2])
    with pytest.raises(ValueError, match="is a Tensor"):
        make_jaxpr(lambda x, n: x, static_argnums=1)(mg.ones(2), mg.ones(2))
    with pytest.raises(TypeError, match="argument 1 of <lambda> is a str"):
        make_jaxpr(lambda x, s: x)(mg.ones(2), "relu")
    with pytest.raises(TypeError, match="output 1 is a str"):
        make_jaxpr(lambda x: (x, "done"))(mg.ones(2))
    with pytest.raises(NotImplementedError, match="dense tensors only"):
        make_jaxpr(lambda s: s.sum())(mg.eye(2).to_sparse())


def test_none_in_arguments_and_results_is_an_empty_tree():
    closed = make_jaxpr(lambda x, opt: (x.exp(), None))(mg.ones(2), None)
    assert str(closed) == "{ lambda ; a:f32[2]. let b:f32[2] = exp a in (b,) }"


# --- viz.draw_graph of a program -----------------------------------------------------------
def mlp_program():
    w = mg.ones(3, 2)
    return make_jaxpr(lambda x: ((x @ w) * 2.0).tanh().sum())(mg.ones(4, 3))


def test_draw_graph_of_a_program_dot_source():
    view = viz.draw_graph(mlp_program())
    src = view.source
    assert src.startswith("digraph jaxpr {")
    for line in (
        'b [label="b:f32[4,3]\\nargument x", shape=box',
        'a [label="a:f32[3,2]\\nconstant"',
        'e1 [label="e1: matmul"',
        'e2 [label="e2: mul_scalar[value=2.0]"',
        'e4 [label="e4: reduce_sum[dims=None keepdim=False]"',
        'out0 [label="output 0\\nf:f32[]"',
        'b -> e1 [label="b:f32[4,3]"];',
        'a -> e1 [label="a:f32[3,2]"];',
        'e1 -> e2 [label="c:f32[4,2]"];',
        'e4 -> out0 [label="f:f32[]"];',
    ):
        assert line in src, line
    assert view.to_text() == str(mlp_program()) + "\n"
    assert len(view) == 7
    assert viz.draw_graph(mlp_program()).source == src  # deterministic


def test_draw_graph_shows_literals_in_their_equation_and_collapses_long_programs():
    closed = make_jaxpr(grad(lambda x: (x.tanh() ** 2).mean()))(mg.ones(4))
    src = viz.draw_graph(closed).source
    assert 'e3 [label="e3: div_scalar[value=4.0]\\nwith 1.0:f32[]"' in src
    small = viz.draw_graph(closed, max_nodes=3)
    assert "... " in small.source and "equations ..." in small.source
    assert len([k for k in ("e1", "e2", "e3") if f"  {k} [" in small.source]) == 1
    with pytest.raises(ValueError):
        viz.draw_graph(closed, rankdir="UP")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_draw_graph_of_a_program_renders(tmp_path):
    out = viz.draw_graph(mlp_program(), rankdir="LR").render(tmp_path / "program.svg")
    text = (tmp_path / "program.svg").read_text()
    assert out == str(tmp_path / "program.svg")
    assert "<svg" in text and "reduce_sum" in text and "mul_scalar" in text


def test_the_docs_example_prints_what_the_page_shows():
    page = pathlib.Path(__file__).resolve().parents[2] / "docs" / "tensorflow-jax.md"
    text = page.read_text(encoding="utf-8")
    section = text[text.index("## JAX's traced programs and jit") :]
    code, shown = re.findall(r"```(?:python)?\n(.*?)```", section, re.S)[:2]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "docs/tensorflow-jax.md", "exec"), {})
    assert out.getvalue() == shown
