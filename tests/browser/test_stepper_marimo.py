"""viz.BackwardStepper in marimo, which runs anywidgets but not ipywidgets' controls.

A marimo app (written here) shows a stepper by its last expression (marimo calls the stepper's
``_display_``, which returns its anywidget); ``marimo run`` serves it on 127.0.0.1. In Chromium
every control steps (tests/browser/stepper_controls.py), a marimo button then shows the step
Python sees (browser -> Python), and another sets ``stepper.step`` (Python -> browser).

marimo is not a dependency of the project: ``make browser-deps`` installs it into its own
folder (``MINIGRAD_MARIMO``, default ``.venv/share/minigrad-marimo``), which only the marimo
server's process puts on its path, so the project's environment stays as locked.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from stepper_controls import STEPPER, assert_icons_and_legend, button, drill, shown_step, wait_step

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
MARIMO = Path(os.environ.get("MINIGRAD_MARIMO", REPO / ".venv" / "share" / "minigrad-marimo"))
START_TIMEOUT_S = 90

APP = """\
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo

    import minigrad as mg
    import viz

    return mg, mo, viz


@app.cell
def _(mg, viz):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    x.name = "x"
    stepper = viz.BackwardStepper((x**2 + 2 * x).sum())
    return (stepper,)


@app.cell
def _(stepper):
    stepper
    return


@app.cell
def _(mo, stepper):
    ask = mo.ui.button(label="ask python")
    jump = mo.ui.button(label="python: step 5", on_click=lambda _: setattr(stepper, "step", 5))
    mo.hstack([ask, jump])
    return (ask,)


@app.cell
def _(ask, mo, stepper):
    ask.value
    mo.md(f"python sees step {stepper.step}")
    return
"""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def marimo_app(tmp_path):
    """``marimo run`` of APP on 127.0.0.1; yields its URL; the process group always ends."""
    if not (MARIMO / "marimo").is_dir():
        reason = f"marimo is not installed in {MARIMO} (run `make browser-deps`)"
        if os.environ.get("MINIGRAD_REQUIRE_BROWSER") == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    app = tmp_path / "stepper_app.py"
    app.write_text(APP)
    port = _free_port()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(MARIMO), str(REPO)]))
    env["MARIMO_SKIP_UPDATE_CHECK"] = "1"
    log = (tmp_path / "marimo.log").open("w")
    cmd = [sys.executable, "-m", "marimo", "run", str(app), "--headless", "--no-token"]
    cmd += ["--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(
        cmd, cwd=tmp_path, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                log.flush()
                raise RuntimeError(f"marimo exited:\n{(tmp_path / 'marimo.log').read_text()}")
            try:
                urllib.request.urlopen(url, timeout=5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"marimo not up in {START_TIMEOUT_S} s") from None
                time.sleep(0.3)
        yield url
    finally:
        for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
            try:
                os.killpg(proc.pid, sig)
                proc.wait(timeout=wait)
                break
            except ProcessLookupError:
                break
            except subprocess.TimeoutExpired:
                continue
        log.close()


def test_every_control_steps_in_marimo_and_python_follows(marimo_app, page, tmp_path):
    page.goto(marimo_app, wait_until="domcontentloaded", timeout=60_000)
    stepper = page.locator(STEPPER).first
    stepper.wait_for(state="visible", timeout=60_000)
    wait_step(page, stepper, 1)
    assert_icons_and_legend(stepper)
    drill(page, stepper, [f"n{k}" for k in range(1, 6)])

    button(stepper, "next step").click()
    k = shown_step(stepper)[0]
    page.get_by_role("button", name="ask python").click()
    page.get_by_text(f"python sees step {k}").wait_for(timeout=15_000)
    page.get_by_role("button", name="python: step 5").click()
    wait_step(page, stepper, 5)
    shot = tmp_path / "marimo.png"
    page.screenshot(path=str(shot))
    print(f"screenshot: {shot}")
