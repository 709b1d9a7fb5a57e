"""A student at a JupyterHub, driven over HTTP the way a browser and JupyterLab drive it.

:class:`Student` logs in through the hub's login form (the hub's authenticator checks the
password), asks the hub's REST API for a token, starts and stops its server through the REST
API, follows an nbgitpuller link, and runs a notebook in a kernel of its own server: the
notebook is read through the server's contents API, and every code cell is sent as an
``execute_request`` over the kernel's websocket (the Jupyter messaging protocol, JSON frames with
a ``channel`` field). Every request and every wait is bounded.

Only the project's test dependencies are used: ``requests`` and ``websocket-client`` (both come
with JupyterLab, in ``.venv``).
"""

from __future__ import annotations

import datetime
import json
import time
import uuid
from dataclasses import dataclass, field
from urllib.parse import urlencode

import requests
import websocket

HTTP_TIMEOUT_S = 30  # any one HTTP request
SERVER_START_S = 150  # a server from "start" to "ready" (three start at once on two cores)
PULL_S = 120  # an nbgitpuller pull
CELL_S = 120  # one notebook cell
# The requests JupyterLab's front end makes when it opens (its page, then its settings and the
# listings it shows): "serving the page" in the memory figures.
LAB_OPENING = (
    "lab",
    "lab/api/settings",
    "lab/api/translations",
    "lab/api/workspaces",
    "api/kernelspecs",
    "api/contents",
    "api/sessions",
    "api/me",
)


class HubError(AssertionError):
    """A step of the session failed; the message says which step and what came back."""


def check(response: requests.Response, step: str, *ok: int) -> requests.Response:
    """``response`` if its status is one of ``ok`` (default: any 2xx), else a :class:`HubError`."""
    good = response.status_code in ok if ok else 200 <= response.status_code < 300
    if not good:
        raise HubError(
            f"{step}: HTTP {response.status_code} from {response.request.method} "
            f"{response.url}\n{response.text[:2000]}"
        )
    return response


def wait_until(condition, what: str, timeout_s: float, every_s: float = 0.5):
    """Call ``condition()`` until it returns something truthy; a :class:`HubError` after
    ``timeout_s`` seconds names ``what`` was awaited."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise HubError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(every_s)


@dataclass
class CellRun:
    """What one code cell did: its index in the notebook, the reply status, the text it
    printed or displayed (``text/plain``), and the error (``ename: evalue``) if it raised."""

    index: int
    status: str
    text: str
    error: str = ""


def local_session() -> requests.Session:
    """A requests session that ignores proxy settings: every request goes to 127.0.0.1."""
    session = requests.Session()
    session.trust_env = False
    return session


@dataclass
class Student:
    """One student at the hub at ``base`` (``http://127.0.0.1:PORT``): ``web`` is the browser
    (cookies), ``rest`` the token-authenticated REST client."""

    name: str
    password: str
    base: str
    web: requests.Session = field(default_factory=local_session)
    rest: requests.Session = field(default_factory=local_session)
    token: str = ""

    # ---- the hub -------------------------------------------------------------------------
    def login(self) -> requests.Response:
        """Post the login form (with its XSRF token) as a browser does; the hub's answer."""
        check(self.web.get(f"{self.base}/hub/login", timeout=HTTP_TIMEOUT_S), "login page")
        form = {
            "username": self.name,
            "password": self.password,
            "_xsrf": self.web.cookies.get("_xsrf", path="/hub/") or "",
        }
        return self.web.post(
            f"{self.base}/hub/login", data=form, allow_redirects=False, timeout=HTTP_TIMEOUT_S
        )

    def request_token(self) -> None:
        """A REST API token for this student, asked for with the login cookie (as the hub's
        token page does)."""
        xsrf = self.web.cookies.get("_xsrf", path="/hub/") or ""
        r = self.web.post(
            f"{self.base}/hub/api/users/{self.name}/tokens",
            json={"note": "make test-hub", "expires_in": 3600},
            headers={"X-XSRFToken": xsrf},
            timeout=HTTP_TIMEOUT_S,
        )
        self.token = check(r, f"{self.name}: token").json()["token"]

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        """A request with this student's token: ``path`` is relative to the hub's root."""
        headers = {"Authorization": f"token {self.token}", **kwargs.pop("headers", {})}
        kwargs.setdefault("timeout", HTTP_TIMEOUT_S)
        return self.rest.request(method, f"{self.base}/{path}", headers=headers, **kwargs)

    def server(self) -> dict | None:
        """The hub's model of this student's default server, or None if it has none."""
        user = check(self.api("GET", f"hub/api/users/{self.name}"), f"{self.name}: user").json()
        return user.get("servers", {}).get("")

    def start_server(self) -> None:
        """Ask the hub to start this student's server; wait until the hub says it is ready."""
        check(
            self.api("POST", f"hub/api/users/{self.name}/server"), f"{self.name}: start", 201, 202
        )
        wait_until(
            lambda: (self.server() or {}).get("ready"),
            f"{self.name}'s server to be ready",
            SERVER_START_S,
        )

    def stop_server(self) -> None:
        """Ask the hub to stop this student's server; wait until the hub has no server for it."""
        check(
            self.api("DELETE", f"hub/api/users/{self.name}/server"), f"{self.name}: stop", 202, 204
        )
        wait_until(lambda: self.server() is None, f"{self.name}'s server to stop", 60)

    # ---- the student's own server ----------------------------------------------------------
    def user_api(self, method: str, path: str, **kwargs) -> requests.Response:
        """A request to this student's server, ``path`` relative to ``/user/NAME/``."""
        return self.api(method, f"user/{self.name}/{path}", **kwargs)

    def open_lab(self) -> None:
        """Load what JupyterLab loads when it opens (:data:`LAB_OPENING`)."""
        for path in LAB_OPENING:
            check(self.user_api("GET", path), f"{self.name}: GET {path}")

    def follow(self, link: str) -> requests.Response:
        """Open ``link`` in the logged-in browser session, following redirects (the hub's
        user-redirect, then the server's own OAuth login)."""
        return check(self.web.get(link, timeout=HTTP_TIMEOUT_S), f"{self.name}: open {link}")

    def git_pull(self, repo: str, branch: str, targetpath: str) -> list:
        """Run nbgitpuller's pull (what its link's page calls) and return its progress events;
        a :class:`HubError` unless the last event says the pull finished."""
        query = urlencode({"repo": repo, "branch": branch, "targetpath": targetpath})
        events = []
        with self.user_api("GET", f"git-pull/api?{query}", stream=True, timeout=PULL_S) as r:
            check(r, f"{self.name}: git-pull")
            for line in r.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    events.append(json.loads(line[len("data:") :]))
                    if events[-1].get("phase") in ("finished", "error"):
                        break
        if not events or events[-1].get("phase") != "finished":
            raise HubError(f"{self.name}: nbgitpuller did not finish: {events[-3:]}")
        return events

    def read_notebook(self, path: str) -> dict:
        """The notebook at ``path`` (relative to the home folder), through the contents API."""
        r = check(self.user_api("GET", f"api/contents/{path}"), f"{self.name}: read {path}")
        return r.json()["content"]

    def start_kernel(self, path: str) -> str:
        """A session for the notebook at ``path`` (its kernel starts in the notebook's folder);
        the kernel's id."""
        body = {"path": path, "type": "notebook", "name": "", "kernel": {"name": "python3"}}
        r = check(self.user_api("POST", "api/sessions", json=body), f"{self.name}: session")
        return r.json()["kernel"]["id"]

    def kernels(self) -> list:
        """The kernels this student's server is running."""
        return check(self.user_api("GET", "api/kernels"), f"{self.name}: kernels").json()

    def run_cells(self, kernel_id: str, notebook: dict) -> list:
        """Execute every code cell of ``notebook`` in the kernel, in order; a :class:`CellRun`
        each."""
        ws_base = self.base.replace("http://", "ws://", 1)
        ws = websocket.create_connection(
            f"{ws_base}/user/{self.name}/api/kernels/{kernel_id}/channels",
            header=[f"Authorization: token {self.token}"],
            timeout=CELL_S,
            http_no_proxy=["127.0.0.1"],
        )
        session = uuid.uuid4().hex
        try:
            return [
                self._execute(ws, session, index, "".join(cell["source"]))
                for index, cell in enumerate(notebook["cells"])
                if cell["cell_type"] == "code"
            ]
        finally:
            ws.close()

    def _execute(self, ws, session: str, index: int, code: str) -> CellRun:
        msg_id = uuid.uuid4().hex
        ws.send(json.dumps(_execute_request(msg_id, session, self.name, code)))
        text, error, status, idle = [], "", "", False
        deadline = time.monotonic() + CELL_S
        while not (status and idle):
            if time.monotonic() > deadline:
                raise HubError(f"{self.name}: cell {index} did not finish in {CELL_S} s")
            msg = json.loads(ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if kind == "execute_reply":
                status = content["status"]
            elif kind == "status":
                idle = content["execution_state"] == "idle"
            elif kind == "stream":
                text.append(content["text"])
            elif kind in ("execute_result", "display_data"):
                text.append(content["data"].get("text/plain", "") + "\n")
            elif kind == "error":
                error = f"{content['ename']}: {content['evalue']}"
        return CellRun(index, status, "".join(text), error)


def _execute_request(msg_id: str, session: str, username: str, code: str) -> dict:
    """A Jupyter ``execute_request`` message (messaging protocol 5.3) for the shell channel."""
    now = datetime.datetime.now(datetime.timezone.utc).isoformat()
    return {
        "channel": "shell",
        "header": {
            "msg_id": msg_id,
            "session": session,
            "username": username,
            "msg_type": "execute_request",
            "version": "5.3",
            "date": now,
        },
        "parent_header": {},
        "metadata": {},
        "content": {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        },
        "buffers": [],
    }
