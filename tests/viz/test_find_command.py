"""Renderers are found beside the interpreter too: a kernel's PATH often lacks ``.venv/bin``.

Each test builds a fake environment in a temp dir: ``venv/bin/python`` (only its folder
matters, it is never run) as ``sys.executable``, shell scripts standing in for ``dot`` and
``graphviz-pure``, and a PATH that does not contain ``venv/bin``.
"""

import sys
import warnings

import pytest

import minigrad as mg
import viz
from viz import _render


def _script(folder, name: str, svg: str):
    """An executable ``folder/name`` that reads DOT on stdin and prints ``svg``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\ncat > /dev/null\necho '{svg}'\n")
    path.chmod(0o755)
    return path


@pytest.fixture
def fake_env(monkeypatch, tmp_path):
    """``(venv_bin, path_dir)``: the interpreter's folder and the only folder on PATH, both empty."""
    venv_bin = tmp_path / "venv" / "bin"
    path_dir = tmp_path / "usr-bin"
    venv_bin.mkdir(parents=True)
    path_dir.mkdir()
    monkeypatch.setattr(sys, "executable", str(venv_bin / "python"))
    monkeypatch.setenv("PATH", str(path_dir))
    monkeypatch.delenv("MINIGRAD_DOT", raising=False)
    monkeypatch.setattr(_render, "_warned", False)
    return venv_bin, path_dir


def test_a_command_beside_the_interpreter_is_found_without_being_on_path(fake_env):
    venv_bin, _ = fake_env
    pure = _script(venv_bin, "graphviz-pure", "<svg>pure</svg>")
    assert _render.find_command("graphviz-pure") == str(pure)
    assert _render.find_command("dot") is None


def test_path_is_searched_when_nothing_is_beside_the_interpreter(fake_env):
    _, path_dir = fake_env
    dot = _script(path_dir, "dot", "<svg>dot</svg>")
    assert _render.find_command("dot") == str(dot)


def test_beside_the_interpreter_comes_before_path(fake_env):
    venv_bin, path_dir = fake_env
    _script(path_dir, "dot", "<svg>system</svg>")
    mine = _script(venv_bin, "dot", "<svg>venv</svg>")
    assert _render.find_command("dot") == str(mine)


def test_a_file_that_is_not_executable_is_not_a_command(fake_env):
    venv_bin, _ = fake_env
    (venv_bin / "dot").write_text("not a program\n")
    assert _render.find_command("dot") is None


def test_dot_anywhere_comes_before_graphviz_pure(fake_env):
    venv_bin, path_dir = fake_env
    pure = _script(venv_bin, "graphviz-pure", "<svg>pure</svg>")
    dot = _script(path_dir, "dot", "<svg>dot</svg>")
    assert _render.candidates() == [str(dot), str(pure)]


def test_graphviz_pure_beside_the_interpreter_draws_when_there_is_no_dot(fake_env):
    venv_bin, _ = fake_env
    _script(venv_bin, "graphviz-pure", "<svg>pure</svg>")
    x = mg.tensor(3.0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", _render.GraphvizNotFoundWarning)
        bundle = viz.draw_graph(x * x)._repr_mimebundle_()
    assert bundle["image/svg+xml"] == "<svg>pure</svg>\n"
    assert _render._warned is False


def test_the_warning_says_where_it_looked_and_how_to_install_without_root(fake_env):
    x = mg.tensor(3.0, requires_grad=True)
    with pytest.warns(_render.GraphvizNotFoundWarning) as caught:
        viz.draw_graph(x * x)._repr_mimebundle_()
    message = str(caught[0].message)
    assert "beside this Python or on PATH" in message
    assert "pip install 'minigrad-sparse[viz-portable]'" in message
    assert "without root" in message
