"""Fixtures for the JupyterHub test (``make test-hub``): throwaway Unix users, a release
repository served by ``git daemon``, and the recipe's hub (deploy/jupyterhub) started on
127.0.0.1.

The tests need root (the hub switches to each student's Unix user) and the hub's environment
that ``deploy/jupyterhub/install.sh`` makes; ``make test-hub`` provides both and sets
``MINIGRAD_HUB_PREFIX``. Without it they skip. Everything listens on 127.0.0.1, every wait is
bounded, and the users, the hub, the proxy, the servers and the git daemon are removed or
stopped on the way out, after a failure too (and users left by a killed run are removed first).
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from classroom import GROUP, HANDOUT, MARK, MEMORY, NAMES, TEACHERS
from hubclient import wait_until
from hubserver import RECIPE, Hub, end_processes, free_port, memory_mib, processes

REPO = Path(__file__).resolve().parents[2]


def pytest_configure(config):
    config.addinivalue_line("markers", "hub: starts a real JupyterHub (make test-hub, as root)")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/hub/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.hub)


def pytest_terminal_summary(terminalreporter):
    if not MEMORY:
        return
    terminalreporter.section("memory (MiB; Private: pages no other process maps)")
    for who, entries in MEMORY.items():
        for label, figures in entries:
            values = ", ".join(f"{name} {value:.0f}" for name, value in figures.items())
            terminalreporter.write_line(f"{who:<10} {label:<22} {values}")


@pytest.fixture(scope="session")
def prefix() -> Path:
    """The hub's environment (install.sh's PREFIX); the tests skip without it."""
    value = os.environ.get("MINIGRAD_HUB_PREFIX")
    if not value:
        pytest.skip("needs the hub's environment and root: run `make test-hub`")
    if os.geteuid() != 0:
        pytest.fail("the hub test runs as root (it creates Unix users)", pytrace=False)
    path = Path(value)
    if not (path / "bin" / "jupyterhub").is_file():
        pytest.fail(f"no hub in {path}: run deploy/jupyterhub/install.sh {path}", pytrace=False)
    return path


def _run(*cmd: str, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr}")
    return done


# ---- Unix users ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Account:
    name: str
    password: str
    uid: int
    home: Path


def _gecos(name: str):
    done = subprocess.run(["getent", "passwd", name], capture_output=True, text=True)
    return done.stdout.split(":")[4] if done.returncode == 0 else None


def _remove_user(name: str) -> None:
    """Delete a test user and end its processes; refuse a user this test did not make."""
    gecos = _gecos(name)
    if gecos is None:
        return
    if gecos != MARK:
        raise RuntimeError(
            f"user {name} exists and is not a test user ({gecos!r}): not touching it"
        )
    uid = int(_run("id", "-u", name).stdout)
    end_processes(processes(uid, ""))
    subprocess.run(["userdel", "--remove", name], capture_output=True, timeout=60)


def _remove_group(group: str) -> None:
    """Delete a test group; refuse one with members that are not test users."""
    done = subprocess.run(["getent", "group", group], capture_output=True, text=True)
    if done.returncode != 0:
        return
    members = set(filter(None, done.stdout.strip().split(":")[3].split(",")))
    if members - set(NAMES):
        raise RuntimeError(f"group {group} has other members {sorted(members)}: not touching it")
    subprocess.run(["groupdel", group], capture_output=True, timeout=60)


def _remove_all() -> None:
    for name in NAMES:
        _remove_user(name)
    for group in (GROUP, TEACHERS):
        _remove_group(group)


@pytest.fixture(scope="session")
def accounts(prefix) -> list:
    """Three students: Unix users in the class group, random passwords, fresh home folders."""
    _remove_all()  # a run that was killed may have left them
    made = []
    try:
        _run("groupadd", GROUP)
        _run("groupadd", TEACHERS)  # PAM's admin check fails every login if it is missing
        for name in NAMES:
            password = secrets.token_urlsafe(12)
            _run("useradd", "--create-home", "--key", "HOME_MODE=0700", "--shell", "/bin/bash",
                 "--comment", MARK, "--groups", GROUP, name)  # fmt: skip
            _run("chpasswd", input=f"{name}:{password}\n")
            home = Path(os.path.expanduser(f"~{name}"))
            made.append(Account(name, password, int(_run("id", "-u", name).stdout), home))
        _check_students_can_run(prefix, made[0])
        yield made
    finally:
        _remove_all()


def _check_students_can_run(prefix: Path, student: Account) -> None:
    """The hub's Python, minigrad and git work as a student (not only as root)."""
    code = "import minigrad, viz, nbgitpuller; print(minigrad.__file__)"
    done = subprocess.run(
        ["runuser", "-u", student.name, "--", str(prefix / "bin" / "python"), "-c", code],
        capture_output=True, text=True, timeout=60, cwd="/",
    )  # fmt: skip
    if done.returncode != 0:
        pytest.fail(
            f"a student cannot use the hub's environment {prefix}: {done.stderr.strip()}",
            pytrace=False,
        )


# ---- the release repository ------------------------------------------------------------------
@dataclass(frozen=True)
class Release:
    url: str  # git://127.0.0.1:PORT/minigrad-release.git
    handout: Path  # the student copy that was published


@pytest.fixture(scope="session")
def release(prefix, tmp_path_factory):
    """A release repository holding notebook 02's handout, published with release.py and served
    read-only by ``git daemon`` on 127.0.0.1 (as a hosted repository would be)."""
    root = Path(tempfile.mkdtemp(prefix="minigrad-release-"))
    root.chmod(0o755)
    daemon = None
    try:
        handouts = tmp_path_factory.mktemp("handouts")
        _run(sys.executable, str(REPO / "tools" / "assignments.py"), "handouts", "--out",
             str(handouts), "--course", str(tmp_path_factory.mktemp("course")),
             str(REPO / "notebooks" / HANDOUT))  # fmt: skip
        _run("git", "init", "--quiet", "--bare", "--initial-branch=main",
             str(root / "minigrad-release.git"))  # fmt: skip
        work = root / "work"
        _run("git", "clone", "--quiet", str(root / "minigrad-release.git"), str(work))
        _run("git", "-C", str(work), "config", "user.name", "Teacher")
        _run("git", "-C", str(work), "config", "user.email", "teacher@example.edu")
        _run("git", "-C", str(work), "checkout", "--quiet", "-b", "main")
        _run(sys.executable, str(RECIPE / "release.py"), "publish", "--repo", str(work),
             "--push", str(handouts / HANDOUT))  # fmt: skip
        port = free_port()
        daemon = subprocess.Popen(
            ["git", "daemon", "--reuseaddr", "--listen=127.0.0.1", f"--port={port}",
             f"--base-path={root}", "--export-all", "--informative-errors", str(root)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        url = f"git://127.0.0.1:{port}/minigrad-release.git"
        wait_until(
            lambda: subprocess.run(["git", "ls-remote", url], capture_output=True).returncode == 0,
            "git daemon",
            30,
        )
        yield Release(url, handouts / HANDOUT)
    finally:
        if daemon is not None:
            os.killpg(daemon.pid, signal.SIGTERM)
            daemon.wait(timeout=10)
        shutil.rmtree(root, ignore_errors=True)


# ---- the hub ---------------------------------------------------------------------------------
@pytest.fixture(scope="session")
def hub(prefix, accounts, tmp_path_factory):
    state = tmp_path_factory.mktemp("hub-state")
    started = Hub(prefix, state)
    try:
        started.wait_up()
        yield started
    finally:
        started.stop()
        if os.environ.get("MINIGRAD_HUB_SHOW_LOG") == "1":
            print(started.log_path.read_text(errors="replace"))


@pytest.fixture(scope="session")
def record_memory():
    """``record_memory(who, label, pid, *figures)``: note memory figures of a process (names as
    :func:`hubclient.memory_mib` takes them) for the summary printed after the run."""

    def record(who: str, label: str, pid: int, *figures: str) -> dict:
        values = {figure: memory_mib(pid, figure) for figure in figures or ("VmRSS",)}
        MEMORY.setdefault(who, []).append((label, values))
        return values

    return record
