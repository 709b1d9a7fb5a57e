"""Renderer chain, text fallback, large graphs and collapse for ``viz.draw_graph``."""

import shutil
import sys
import time
import warnings

import pytest

import minigrad as mg
import viz
from viz import _render

# Drawing a 10^4-10^5-node graph takes well under a second; the guard catches a quadratic
# blow-up, not a slow or loaded machine.
GUARD_S = 20.0


def chain(n_pairs: int):
    x = mg.tensor([0.5], requires_grad=True)
    y = x
    for _ in range(n_pairs):
        y = (y * 1.0001).tanh()
    return y


def small():
    x = mg.tensor(3.0, requires_grad=True)
    return x**2 + 2 * x


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    """No renderer anywhere: PATH and the interpreter's folder are an empty dir, MINIGRAD_DOT
    unset, warning not yet given."""
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    monkeypatch.setattr(sys, "executable", str(empty / "python"))
    monkeypatch.delenv("MINIGRAD_DOT", raising=False)
    monkeypatch.setattr(_render, "_warned", False)
    return tmp_path


def test_text_fallback_warns_once_and_still_returns_text(no_dot):
    view = viz.draw_graph(small())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = view.render(no_dot / "g.svg")
        bundle = view._repr_mimebundle_()
        view.render(no_dot / "g.png", format="png")
    ours = [w for w in caught if issubclass(w.category, _render.GraphvizNotFoundWarning)]
    assert len(ours) == 1
    assert "apt-get install graphviz" in str(ours[0].message)
    assert "brew install graphviz" in str(ours[0].message)
    assert "conda install -c conda-forge graphviz" in str(ours[0].message)
    assert out.startswith(view.to_text())
    assert view.source in out
    assert (no_dot / "g.svg.txt").read_text() == out
    assert not (no_dot / "g.svg").exists()
    assert set(bundle) == {"text/plain"}
    assert bundle["text/plain"] == out


def test_minigrad_dot_fake_script_is_used(no_dot, monkeypatch):
    log = no_dot / "calls.log"
    fake = no_dot / "fake-dot"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\ncat > /dev/null\necho "<svg>fake</svg>"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("MINIGRAD_DOT", str(fake))
    view = viz.draw_graph(small())
    assert view._repr_mimebundle_()["image/svg+xml"] == "<svg>fake</svg>\n"
    assert view.render(no_dot / "out.svg") == str(no_dot / "out.svg")
    assert (no_dot / "out.svg").read_text() == "<svg>fake</svg>\n"
    assert log.read_text().split() == ["-Tsvg", "-Tsvg"]
    assert _render._warned is False


def test_broken_minigrad_dot_falls_through_to_text(no_dot, monkeypatch):
    bad = no_dot / "bad-dot"
    bad.write_text("#!/bin/sh\nexit 3\n")
    bad.chmod(0o755)
    monkeypatch.setenv("MINIGRAD_DOT", str(bad))
    with pytest.warns(_render.GraphvizNotFoundWarning):
        out = viz.draw_graph(small()).render(no_dot / "x.svg")
    assert "AddBackward0" in out and "digraph minigrad" in out


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")
def test_real_dot_renders_svg_and_png(tmp_path, monkeypatch):
    monkeypatch.delenv("MINIGRAD_DOT", raising=False)
    view = viz.draw_graph(small())
    assert view.render(tmp_path / "g.svg") == str(tmp_path / "g.svg")
    assert "<svg" in (tmp_path / "g.svg").read_text()
    view.render(tmp_path / "g.png", format="png")
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    bundle = view._repr_mimebundle_(exclude=["image/svg+xml"])
    assert set(bundle) == {"text/plain"}
    assert "<svg" in view._repr_mimebundle_()["image/svg+xml"]


def test_bad_arguments_name_the_argument():
    with pytest.raises(ValueError, match="cannot write .gif files"):
        viz.draw_graph(small()).render("/tmp/never.gif")
    with pytest.raises(
        ValueError, match=r"format must be one of \('svg', 'png', 'pdf'\), got 'gif'"
    ):
        viz.draw_graph(small()).render("/tmp/never", format="gif")
    with pytest.raises(ValueError, match="rankdir"):
        viz.draw_graph(small(), rankdir="up")


@pytest.mark.parametrize("bad", [3.0, None, "loss", [1.0]])
def test_draw_graph_of_a_non_tensor_is_a_type_error(bad):
    with pytest.raises(TypeError, match="expects a minigrad Tensor"):
        viz.draw_graph(bad)


def test_render_takes_the_format_from_the_extension(tmp_path, monkeypatch):
    """render("x.png") writes PNG (not SVG in a .png file); the extension decides."""
    calls = []
    monkeypatch.setattr(_render, "run_dot", lambda source, fmt: calls.append(fmt) or b"data")
    view = viz.draw_graph(small(), rankdir="TB")  # a given direction: nothing laid out yet
    for name in ("g.png", "g.SVG", "g.pdf"):
        assert view.render(tmp_path / name) == str(tmp_path / name)
    assert view.render(tmp_path / "noext", format="png") == str(tmp_path / "noext")
    assert view.render(tmp_path / "h.png", format="png") == str(tmp_path / "h.png")
    assert calls == ["png", "svg", "pdf", "png", "png"]
    with pytest.raises(ValueError, match="the extension says 'png' but format='svg'"):
        view.render(tmp_path / "g.png", format="svg")
    with pytest.raises(ValueError, match="has no extension"):
        view.render(tmp_path / "noext")
    with pytest.raises(ValueError, match=r"cannot write .jpg files; use a path ending in one of"):
        view.render(tmp_path / "g.jpg")
    assert calls == ["png", "svg", "pdf", "png", "png"]  # nothing ran for the refused ones


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz dot not installed")
def test_render_png_by_extension_with_real_dot(tmp_path, monkeypatch):
    monkeypatch.delenv("MINIGRAD_DOT", raising=False)
    viz.draw_graph(small()).render(tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    viz.draw_graph(small()).render(tmp_path / "g.pdf")
    assert (tmp_path / "g.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("rankdir", ["TB", "LR"])
def test_legend_is_one_node_on_the_last_rank(rankdir):
    """The key is a single node on the last rank, so the layout cannot put it over a box: TB, a
    row alone on the sink rank (below); LR, a column on the max rank after the deepest node
    (below it, adding no width). Only invisible edges from the deepest nodes lead to it."""
    source = viz.draw_graph(small(), rankdir=rankdir).source
    rank, minlen = ("sink", "") if rankdir == "TB" else ("max", ", minlen=0")
    assert source.count("  legend [") == 1 and f"{{ rank={rank}; legend; }}" in source
    into = [line.strip() for line in source.splitlines() if "-> legend" in line]
    assert into == [f"n4 -> legend [style=invis{minlen}];"]  # n4 (x): the one deepest node
    assert "cluster_legend" not in source and "legend ->" not in source
    one_row = rankdir == "TB"
    assert (source.split("  legend [")[1].count("<TR>") == 1) is one_row


def test_large_graph_builds_fast_and_collapses():
    y = chain(5000)  # 10,001 nodes
    start = time.perf_counter()
    view = viz.draw_graph(y)
    elapsed = time.perf_counter() - start
    assert elapsed < GUARD_S
    assert len(view) == 200  # 100 head + 1 summary + 99 tail
    assert "… 9,802 more nodes (MulBackward0 x4,901, TanhBackward0 x4,901)" in view.source
    assert "n1 [" in view.source and "n10001 [" in view.source
    assert "n5001 [" not in view.source
    assert "n100 -> more [weight=8];" in view.source and "more -> n9903 [weight=8];" in view.source


def test_collapse_small_limit_keeps_ends():
    view = viz.draw_graph(chain(10), max_nodes=5)
    names = [line.strip().split(" ", 1)[0] for line in view.to_text().splitlines()]
    assert names == ["n1", "n2", "more", "n20", "n21"]


def test_uncollapsed_10k_chain_to_text_without_recursion():
    limit = sys.getrecursionlimit()
    y = chain(5000)
    start = time.perf_counter()
    view = viz.draw_graph(y, max_nodes=None)
    text = view.to_text()
    assert time.perf_counter() - start < GUARD_S
    assert sys.getrecursionlimit() == limit
    lines = text.splitlines()
    assert len(lines) == 10001
    assert lines[0] == "n1 TanhBackward0 | (1,)"
    assert lines[-1].endswith("[depth 10000] n10001 leaf | (1,) float32")
    assert len(view.source.splitlines()) > 20000


def test_tuple_of_roots():
    x = mg.tensor(2.0, requires_grad=True)
    a, b = x * 3, x.exp()
    text = viz.draw_graph((a, b)).to_text()
    assert text.count("-> see") == 1
    assert text.startswith("n1 ") and "\nn2 " in text


def test_import_viz_is_light():
    import subprocess

    code = "import sys, viz; print(any(m in sys.modules for m in ('graphviz', 'matplotlib', 'ipywidgets')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_densified_leaf_shows_the_reason():
    emb = mg.nn.Embedding(20, 4, sparse=True)
    out = mg.nn.Linear(4, 20, bias=False)
    out.weight = emb.weight
    loss = out(emb(mg.tensor([1, 3]))).sum()
    loss.backward()
    source = viz.draw_graph(loss).source
    assert "densified: dense_met_sparse, caused by" in source


def test_frames_wrap_on_narrow_screens():
    x = mg.tensor(3.0, requires_grad=True)
    frame = viz.BackwardStepper(x**2 + 2 * x).frame_html(1)
    assert "flex-wrap:wrap" in frame


def test_sparse_op_outputs_show_their_bytes():
    w = mg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    S = mg.sparse_coo_tensor([[0, 1, 1], [1, 0, 2]], w, (2, 3))
    source = viz.draw_graph(S.to_dense().sum()).source
    assert "sparse_coo nnz=3 density=0.5 60 B" in source  # 3 entries x (2 x 8 + 4) bytes


def test_large_graph_draws_fast_at_the_default_limit():
    """Only the drawn nodes are described; the rest are counted and followed for edges."""
    y = chain(50_000)  # 100,001 nodes
    start = time.perf_counter()
    view = viz.draw_graph(y)
    assert (
        time.perf_counter() - start < GUARD_S
    )  # ~0.2 s here; bench_stepper.py has the real figure
    assert len(view) == 200 and "… 99,802 more nodes" in view.source


def test_an_input_used_twice_gets_one_arrow_per_edge():
    """``x * x``: MulBackward0's next_functions has two pairs for x, so the drawing has two
    arrows from it to x (the gradient reaches x twice and is summed there)."""
    x = mg.tensor(2.0, requires_grad=True)
    y = x * x
    edges = [line.strip() for line in viz.draw_graph(y).source.splitlines() if "->" in line]
    assert edges == ["n1 -> n2 [weight=8];"] * 2 + ["n2 -> legend [style=invis];"]
    z = x * 3.0
    edges = [line.strip() for line in viz.draw_graph(z).source.splitlines() if "->" in line]
    assert edges == ["n1 -> n2 [weight=8];", "n2 -> legend [style=invis];"]


def test_several_edges_into_the_collapsed_box_draw_one_arrow():
    """A kept node whose inputs were all collapsed draws one arrow into the summary box."""
    x = mg.tensor([0.5], requires_grad=True)
    p, q = x, x
    for _ in range(15):
        p, q = p.tanh(), q.sin()
    view = viz.draw_graph(p + q, max_nodes=3)  # keeps AddBackward0, collapses both chains
    edges = [line.strip() for line in view.source.splitlines() if "->" in line]
    assert edges[0] == "n1 -> more [weight=8];" and edges.count(edges[0]) == 1
