"""Processes of the hub test: the recipe's JupyterHub, started as root with the recipe's
configuration on free ports of 127.0.0.1, watched, and stopped with everything it started; and
the students' processes, found and measured in ``/proc`` (the test runs as root)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import requests
from classroom import GROUP, KERNEL_IDLE_S, SERVER_IDLE_S, TEACHERS
from hubclient import HubError, local_session, wait_until

RECIPE = Path(__file__).resolve().parents[2] / "deploy" / "jupyterhub"
HUB_START_S = 60


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def end_processes(pids, grace_s: float = 10) -> None:
    """SIGTERM each pid, then SIGKILL whatever is left after ``grace_s`` seconds."""
    for sig, wait in ((signal.SIGTERM, grace_s), (signal.SIGKILL, 5)):
        alive = [p for p in pids if Path(f"/proc/{p}").exists()]
        for pid in alive:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + wait
        while alive and time.monotonic() < deadline:
            time.sleep(0.2)
            alive = [p for p in alive if Path(f"/proc/{p}").exists()]


class Hub:
    """The recipe's JupyterHub, started as root in a fresh state folder."""

    def __init__(self, prefix: Path, state: Path):
        self.state = state
        self.base = f"http://127.0.0.1:{free_port()}"
        self.log_path = state / "jupyterhub.log"
        cmd = [
            str(prefix / "bin" / "jupyterhub"),
            "-f", str(RECIPE / "jupyterhub_config.py"),
            f"--JupyterHub.bind_url={self.base}",
            f"--JupyterHub.hub_bind_url=http://127.0.0.1:{free_port()}",
            f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{free_port()}",
            f"--PAMAuthenticator.allowed_groups={GROUP}",
            f"--PAMAuthenticator.allowed_groups={TEACHERS}",
            f"--PAMAuthenticator.admin_groups={TEACHERS}",
        ]  # fmt: skip
        env = {
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8",
            "HOME": str(state),
            "MINIGRAD_HUB_SERVER_IDLE_S": str(SERVER_IDLE_S),
            "MINIGRAD_HUB_KERNEL_IDLE_S": str(KERNEL_IDLE_S),
        }
        self.log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            cmd, cwd=state, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def tail(self, n: int = 60) -> str:
        lines = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(lines[-n:])

    def wait_up(self) -> None:
        def up():
            if self.proc.poll() is not None:
                raise HubError(f"jupyterhub exited ({self.proc.returncode}):\n{self.tail()}")
            try:
                return local_session().get(f"{self.base}/hub/api", timeout=5).status_code == 200
            except requests.ConnectionError:
                return False

        wait_until(up, "the hub and its proxy to answer", HUB_START_S)

    def child(self, marker: str) -> int:
        """The pid of the one process the hub started whose command line has ``marker``."""
        pids = [pid for pid in self.children() if marker in " ".join(describe([pid]))]
        if len(pids) != 1:
            raise HubError(f"expected one child of the hub matching {marker!r}: {pids}")
        return pids[0]

    def children(self) -> list:
        """Pids whose parent is the hub: the proxy, the culler, the students' servers."""
        kids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == self.proc.pid:
                kids.append(int(stat.parent.name))
        return kids

    def stop(self) -> tuple:
        """SIGTERM the hub, which stops the servers, the culler and the proxy; then kill
        whatever it started that is still there. ``(exit code, pids it left running)``; the
        code is None if it had to be killed after 30 s."""
        if self.proc.poll() is not None:
            return self.proc.returncode, []
        started = self.children()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            code = None
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        time.sleep(0.5)  # children the hub signalled may still be exiting
        left = [pid for pid in started if Path(f"/proc/{pid}").exists()]
        end_processes(left, grace_s=5)
        self.log.close()
        return code, left


def processes(uid: int, marker: str) -> list:
    """Pids of the processes owned by ``uid`` whose command line contains ``marker``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            owner = proc.stat().st_uid
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue  # it ended meanwhile
        if owner == uid and marker in cmdline:
            found.append(int(proc.name))
    return found


def describe(pids) -> list:
    """``pid: command line`` of each pid, for a failure message."""
    lines = []
    for pid in pids:
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            cmd = "(ended)"
        lines.append(f"{pid}: {cmd[:200]}")
    return lines


def memory_mib(pid: int, figure: str = "VmRSS") -> float:
    """One memory figure of process ``pid``, in MiB.

    ``VmRSS`` (resident now) and ``VmHWM`` (peak resident) come from ``/proc/<pid>/status``;
    ``Private`` (resident pages no other process maps: what one more student adds, as the
    libraries' pages are shared by every student's processes) and ``Pss`` (resident, shared
    pages split between their users) from ``/proc/<pid>/smaps_rollup``.
    """
    source = "status" if figure.startswith("Vm") else "smaps_rollup"
    fields = ("Private_Clean", "Private_Dirty") if figure == "Private" else (figure,)
    values = {}
    for line in Path(f"/proc/{pid}/{source}").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in fields:
            values[key] = int(rest.split()[0]) / 1024  # kB
    if len(values) != len(fields):
        raise HubError(f"/proc/{pid}/{source} has no {figure}")
    return sum(values.values())
