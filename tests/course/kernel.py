"""One Jupyter kernel that runs cell sources one at a time and hands back their outputs.

The answer-table test drives a notebook through it: the same kernel runs the lesson's cells in
order and, at each exercise, many candidate answers, so a notebook costs one kernel start-up.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellTimeoutError

REPO = Path(__file__).resolve().parents[2]


@contextmanager
def checkout_on_pythonpath():
    """Kernels started inside import this checkout's minigrad, viz and minigrad_course."""
    before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), before]))
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before


class Kernel:
    """A python3 kernel whose working folder is ``cwd``; use it as a context manager.

    Example:
        >>> with Kernel(Path(".")) as k:  # doctest: +SKIP
        ...     k.run("print(1 + 1)")[0]["text"]
        '2\\n'
    """

    def __init__(self, cwd: Path, timeout: float = 60):
        self.scratch = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("")])
        self.client = NotebookClient(
            self.scratch,
            timeout=timeout,
            kernel_name="python3",
            allow_errors=True,
            interrupt_on_timeout=True,
            resources={"metadata": {"path": str(cwd)}},
        )
        self._kernel = None

    def __enter__(self) -> Kernel:
        with checkout_on_pythonpath():
            self._kernel = self.client.setup_kernel()
            self._kernel.__enter__()
        return self

    def __exit__(self, *exc) -> bool:
        self._kernel.__exit__(*exc)
        return False

    def run(self, source: str) -> list:
        """Execute ``source`` as one cell; return its outputs (an error is an ``error``
        output; a cell stopped at the timeout gets a ``timeout`` error output)."""
        cell = nbformat.v4.new_code_cell(source)
        try:
            self.client.execute_cell(cell, 0)
        except CellTimeoutError:
            cell.outputs.append(
                nbformat.v4.new_output("error", ename="timeout", evalue="", traceback=[])
            )
        return list(cell.outputs)


def error_of(outputs: list) -> str | None:
    """``"Name: message"`` of the first error output, or None if the cell did not raise."""
    for out in outputs:
        if out.get("output_type") == "error":
            return f"{out.get('ename')}: {out.get('evalue')}".rstrip(": ")
    return None


def printed(outputs: list) -> str:
    """Everything the cell printed, stdout and stderr, in order."""
    return "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
