"""Turning DOT into SVG/PNG without ever raising: a chain of renderers, then a text fallback.

The chain: the ``MINIGRAD_DOT`` environment variable (path to a ``dot`` executable) → ``dot`` →
the optional ``graphviz-pure`` command (extra ``viz-portable``; it draws SVG and PNG, not PDF) →
``None``, in which case the caller shows text and :func:`warn_missing` warns once per process.
Each command is looked up beside the running Python first, then on PATH (:func:`find_command`).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings

from . import _errors as errors

TIMEOUT = 60.0  # seconds for one dot run
FORMATS = ("svg", "png", "pdf")
_warned = False


class GraphvizNotFoundWarning(UserWarning):
    """No working Graphviz renderer: ``viz`` fell back to a text rendering."""


def find_command(name: str) -> str | None:
    """The path of the command ``name``: beside ``sys.executable`` first, then on PATH.

    A Jupyter kernel started from a venv (``make lab``) runs ``.venv/bin/python`` without
    ``.venv/bin`` on its PATH, so a renderer pip installed into the venv (``graphviz-pure``)
    is found only by looking beside the interpreter.
    """
    beside = shutil.which(name, path=os.path.dirname(sys.executable))
    return beside or shutil.which(name)


def candidates() -> list:
    """Executables to try, in order (duplicates removed)."""
    found = []
    env = os.environ.get("MINIGRAD_DOT")
    if env:
        found.append(env)
    for name in ("dot", "graphviz-pure"):
        path = find_command(name)
        if path:
            found.append(path)
    return list(dict.fromkeys(found))


def run_dot(source: str, fmt: str):
    """``source`` rendered as ``fmt`` bytes by the first renderer that works, else None."""
    for exe in candidates():
        try:
            done = subprocess.run(
                [exe, f"-T{fmt}"],
                input=source.encode(),
                capture_output=True,
                timeout=TIMEOUT,
                check=False,
            )
        except (OSError, subprocess.SubprocessError, ValueError):
            continue
        if done.returncode == 0 and done.stdout:
            return done.stdout
    return None


def warn_missing() -> None:
    """Warn, once per process, that Graphviz is missing and how to install it."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(errors.INSTALL_HINT, GraphvizNotFoundWarning, stacklevel=3)


def check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValueError(errors.BAD_FORMAT.format(formats=FORMATS, got=fmt))


def format_for(path, fmt: str | None) -> str:
    """The format to write ``path`` in: its extension's, or ``fmt`` when it has none.

    ``render("graph.png")`` writes PNG; an unknown extension, or one that disagrees with an
    explicit ``fmt``, is an error rather than a file whose name lies about its content.
    """
    ext = path.suffix[1:].lower()
    if not ext:
        if fmt is None:
            raise ValueError(errors.NO_FORMAT.format(path=str(path), formats=FORMATS))
        check_format(fmt)
        return fmt
    if ext not in FORMATS:
        raise ValueError(errors.BAD_EXTENSION.format(path=str(path), ext=ext, formats=FORMATS))
    if fmt is not None and fmt != ext:
        raise ValueError(errors.FORMAT_MISMATCH.format(path=str(path), ext=ext, got=fmt))
    return ext
