"""``make lab`` starts a JupyterLab that works as root, on 127.0.0.1 only, with token auth on.

The test clones this repository into a temporary directory, copies the working tree's Makefile
over the clone's (so an uncommitted Makefile change is what gets tested), points the clone's
``.venv`` at this repository's already built venv, and runs
``make -o .venv/.stamp -o graphviz-dot lab LAB_PORT=<free port> LAB_ARGS=--no-browser``.
``-o`` keeps make from remaking those prerequisites of ``venv``: the clone's fresh
pyproject.toml is newer than the stamp, which would re-run ``pip install -e`` into the shared
venv (pointing it at the clone), and ``graphviz-dot`` may run apt-get when ``dot`` is missing.

It then checks that the ``== open http://127.0.0.1:PORT/lab?token=...`` line make prints is
right: that URL serves the JupyterLab page; the REST API refuses a request without the token;
the server listens on 127.0.0.1 and nowhere else; and, when run as root, make says it passes
``--allow-root``. Every wait is bounded, only 127.0.0.1 is contacted, and the server's process
group is always stopped (SIGTERM, then SIGKILL after 10 s).
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / ".venv"
START_TIMEOUT_S = 90
POLL_S = 0.3
ROOT_NOTE = "== running as root: passing --allow-root to JupyterLab"
OPEN_RE = re.compile(r"^== open (http://127\.0\.0\.1:(\d+)/lab\?token=([0-9a-f]+))$", re.M)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _request(port: int, path: str, headers: dict[str, str] | None = None):
    """One GET to 127.0.0.1:port, redirects not followed. Returns (status, headers, body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        conn.request("GET", path, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.headers, r.read()
    finally:
        conn.close()


def _listen_addresses(port: int) -> set[str] | None:
    """Local addresses with a TCP socket listening on ``port`` (Linux /proc), else None."""
    found: set[str] = set()
    try:
        tables = [(Path("/proc/net/tcp"), 4), (Path("/proc/net/tcp6"), 16)]
        texts = [(p.read_text(), n) for p, n in tables if p.exists()]
    except OSError:
        return None
    if not texts:
        return None
    for text, nbytes in texts:
        for line in text.splitlines()[1:]:
            fields = line.split()
            addr_hex, port_hex = fields[1].split(":")
            if fields[3] != "0A" or int(port_hex, 16) != port:  # 0A: LISTEN
                continue
            raw = bytes.fromhex(addr_hex)
            # /proc prints each 32-bit word in host (little-endian) order.
            raw = b"".join(raw[i : i + 4][::-1] for i in range(0, nbytes, 4))
            family = socket.AF_INET if nbytes == 4 else socket.AF_INET6
            found.add(socket.inet_ntop(family, raw))
    return found


def _stop(proc: subprocess.Popen) -> None:
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


def test_make_lab_serves_on_localhost_with_token(tmp_path):
    for tool in ("make", "git"):
        if shutil.which(tool) is None:
            pytest.skip(f"`{tool}` is not on PATH")
    if not (VENV / "bin" / "jupyter").exists():
        pytest.skip(f"{VENV}/bin/jupyter does not exist (run `make venv` first)")

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True, timeout=120)
    shutil.copy2(REPO / "Makefile", clone / "Makefile")
    (clone / ".venv").symlink_to(VENV, target_is_directory=True)

    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    env.update(
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        JUPYTER_CONFIG_DIR=str(tmp_path / "config"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp_path / "lab-settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp_path / "lab-workspaces"),
    )
    port = _free_port()
    cmd = [
        "make",
        "-o",
        ".venv/.stamp",
        "-o",
        "graphviz-dot",
        "lab",
        f"LAB_PORT={port}",
        "LAB_ARGS=--no-browser",
    ]
    log_path = tmp_path / "make-lab.log"

    def log_text() -> str:
        return log_path.read_text(errors="replace")

    def fail(why: str):
        pytest.fail(f"{why}\n--- make lab log ---\n{log_text()[-4000:]}", pytrace=False)

    with log_path.open("w") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=clone,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            # Wait for make's "== open" line, then for the server to answer with that token.
            deadline = time.monotonic() + START_TIMEOUT_S
            match = None
            while True:
                if proc.poll() is not None:
                    fail(f"`make lab` exited ({proc.returncode}) before the server was up")
                if match is None:
                    match = OPEN_RE.search(log_text())
                if match is not None:
                    try:
                        auth = {"Authorization": f"token {match.group(3)}"}
                        if _request(port, "/api/status", auth)[0] == 200:
                            break
                    except OSError:
                        pass
                if time.monotonic() > deadline:
                    fail(f"no '== open' line or no server answer in {START_TIMEOUT_S} s")
                time.sleep(POLL_S)

            url, url_port, token = match.groups()
            assert int(url_port) == port, f"printed URL {url} is not on LAB_PORT={port}"

            # (a) The printed URL opens JupyterLab.
            with urllib.request.urlopen(url, timeout=10) as r:
                assert r.status == 200
                page = r.read().decode("utf-8", "replace")
            assert "JupyterLab" in page, page[:500]

            # (b) Token auth is on: the API refuses a request without it.
            status, headers, _ = _request(port, "/api/status")
            refused = status in (401, 403) or (
                status in (301, 302, 303, 307) and "/login" in headers.get("Location", "")
            )
            assert refused, f"/api/status without the token answered {status}"

            # (c) It listens on 127.0.0.1 (the URL's host) and on no other address.
            addrs = _listen_addresses(port)
            if addrs is not None:
                assert addrs == {"127.0.0.1"}, f"listening on {addrs}, not only 127.0.0.1"
            assert f"http://127.0.0.1:{port}/lab" in log_text().replace(url, ""), (
                "JupyterLab's own log does not say it runs at 127.0.0.1"
            )

            # (d) As root, make passes --allow-root and says so.
            if os.geteuid() == 0:
                assert ROOT_NOTE in log_text()
            else:
                assert ROOT_NOTE not in log_text()
        finally:
            _stop(proc)
