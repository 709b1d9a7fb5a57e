"""Fixtures for the real-browser tests: Debian's Chromium driven by Playwright, JupyterLab, the
student site of ``make html`` and a record of what a page asks for outside its own files.

Run them with ``make test-browser`` (it installs Chromium and Playwright, and the npm packages
the sites carry, first).
Everything listens on 127.0.0.1 only, every wait is bounded, and the JupyterLab server (with its
kernels) is always stopped.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tools.course import notebooks
from tools.course_site import STATIC_FILES, build_site

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SERVER_START_TIMEOUT_S = 90


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives a real browser (make test-browser)")


def _missing(reason: str):
    """Fail under ``make test-browser`` (which installs everything); skip elsewhere."""
    if os.environ.get("MINIGRAD_REQUIRE_BROWSER") == "1":
        pytest.fail(reason, pytrace=False)
    pytest.skip(f"{reason} (run `make test-browser`)")


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    exe = shutil.which("chromium")
    if exe is None:
        _missing("Debian's chromium is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1200}, device_scale_factor=1)
    context.set_default_timeout(30_000)
    pg = context.new_page()
    try:
        yield pg
    finally:
        context.close()


@pytest.fixture(scope="session")
def html_deps() -> Path:
    """The npm packages the static sites carry (``make html-deps`` unpacks them)."""
    root = Path(
        os.environ.get("MINIGRAD_HTML_DEPS", REPO / ".venv" / "share" / "minigrad-html-deps")
    )
    missing = [pattern for pattern, _ in STATIC_FILES if not any(root.glob(pattern))]
    if missing:
        _missing(f"the site's npm packages are not in {root} (missing: {', '.join(missing)})")
    return root


@pytest.fixture(scope="session")
def student_site(html_deps, tmp_path_factory) -> Path:
    """The student site of ``make html``, built from the committed notebooks."""
    site = tmp_path_factory.mktemp("html") / "student"
    build_site(notebooks(), site, "student", html_deps)
    return site


class Requests:
    """What a page asked for outside its own files (aborted), and local files it did not get."""

    def __init__(self):
        self.outside: list[str] = []
        self.failed: list[str] = []


@pytest.fixture
def offline(page) -> Requests:
    """Abort and record every request of ``page`` that is not for a ``file://`` URL."""
    seen = Requests()

    def abort(route):
        seen.outside.append(route.request.url)
        route.abort()

    page.route(lambda url: not url.startswith("file://"), abort)
    page.on(
        "requestfailed",
        lambda r: r.url.startswith("file://") and seen.failed.append(f"{r.url}: {r.failure}"),
    )
    return seen


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, timeout: float = 5.0):
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read() or b"null")


@pytest.fixture
def jupyterlab(tmp_path):
    """A token-less JupyterLab on 127.0.0.1 serving a copy of notebooks/ with outputs cleared.

    Yields ``(base_url, root_dir)``. The finalizer shuts the kernels down through the REST API,
    then ends the server's process group (SIGTERM, then SIGKILL after 10 s).
    """
    root = tmp_path / "notebooks"
    shutil.copytree(NOTEBOOKS, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    settings = tmp_path / "lab-settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    # No news / update pop-ups over the notebook.
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    env = dict(
        os.environ,
        JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "lab-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "lab-workspaces"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
    )
    port = _free_port()
    log = (tmp_path / "jupyterlab.log").open("w")
    cmd = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        "--allow-root",  # CI runs as root
        "--IdentityProvider.token=",
        "--ServerApp.password=",
        "--ServerApp.terminals_enabled=False",
        f"--ServerApp.root_dir={root}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    proc = subprocess.Popen(
        cmd, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"JupyterLab exited ({proc.returncode}):\n{_tail(tmp_path)}")
            try:
                _get(f"{base}/api/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterLab not up in {SERVER_START_TIMEOUT_S} s") from None
                time.sleep(0.3)
        yield base, root
    finally:
        _stop(proc, base)
        log.close()


def _tail(tmp_path: Path, n: int = 40) -> str:
    lines = (tmp_path / "jupyterlab.log").read_text(errors="replace").splitlines()
    return "\n".join(lines[-n:])


def _stop(proc: subprocess.Popen, base: str) -> None:
    if proc.poll() is None:
        try:
            for kernel in _get(f"{base}/api/kernels"):
                req = urllib.request.Request(f"{base}/api/kernels/{kernel['id']}", method="DELETE")
                urllib.request.urlopen(req, timeout=10).close()
        except OSError:
            pass  # the server is going away anyway
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            break
        try:
            proc.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
