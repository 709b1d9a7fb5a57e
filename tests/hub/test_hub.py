"""A class on the recipe's JupyterHub (deploy/jupyterhub), end to end: ``make test-hub``.

Three students log in (PAM checks their Unix passwords), get a server each through the hub's
REST API (running as their own Unix user), open the nbgitpuller release link, which pulls the
handout of notebook 02 into their home, and run it in a kernel of their own server over the
kernel's websocket. The printed outputs the teacher's copy checks with nbval must come out the
same. Then two servers are stopped through the API, the idle culler stops the third (after its
server shut its idle kernel down), and stopping the hub leaves nothing running.

The tests run in file order and share the hub, the students and their servers.
"""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from classroom import CHECK_EVERY_S, HANDOUT, KERNEL_IDLE_S, NAMES, SERVER_IDLE_S, TARGET
from hubclient import HubError, Student, check, wait_until
from hubserver import describe, processes

REPO = Path(__file__).resolve().parents[2]
RELEASE_PY = REPO / "deploy" / "jupyterhub" / "release.py"
SERVER = "jupyterhub-singleuser"  # in the command line of each student's server
KERNEL = "ipykernel_launcher"  # in the command line of each kernel
LOGIN_COOKIE = "jupyterhub-hub-login"  # what the hub sets once the password is right
HIDDEN = {"check", "reveal", "exercise", "solution", "grading"}  # outputs that differ by design


def each(function, items) -> list:
    """``function`` on every item at once (the class arrives together); the results in order."""
    with ThreadPoolExecutor(len(items)) as pool:
        return list(pool.map(function, items))


def one_process(uid: int, marker: str) -> int:
    pids = processes(uid, marker)
    assert len(pids) == 1, f"expected one process of uid {uid} matching {marker!r}, got {pids}"
    return pids[0]


@pytest.fixture(scope="module")
def students(hub, accounts, record_memory) -> list:
    """``(Student, Account)`` pairs: each logged in, with a token and a ready server, which has
    served JupyterLab's opening requests. Records each server's RSS before and after them."""

    def arrive(account):
        student = Student(account.name, account.password, hub.base)
        check(student.login(), f"{account.name}: login", 302)
        assert LOGIN_COOKIE in student.web.cookies, f"{account.name}: no login cookie"
        student.request_token()
        student.start_server()
        pid = one_process(account.uid, SERVER)
        record_memory(account.name, "server started", pid, "VmRSS", "Private")
        student.open_lab()
        record_memory(account.name, "server, lab opened", pid, "VmRSS", "Private")
        return student, account

    return each(arrive, accounts)


@pytest.fixture(scope="module")
def pulled(students, release) -> list:
    """Each student opened the release link; the final page of the link, per student."""

    def pull(pair):
        student, account = pair
        link = subprocess.run(
            [sys.executable, str(RELEASE_PY), "link", "--hub", student.base, "--repo-url",
             release.url, "--target", TARGET, "--open", HANDOUT],
            capture_output=True, text=True, check=True, timeout=30,
        ).stdout.strip()  # fmt: skip
        page = student.follow(link)
        student.git_pull(release.url, "main", TARGET)
        return page

    return each(pull, students)


def test_a_wrong_password_is_refused(hub, accounts):
    intruder = Student(accounts[0].name, accounts[0].password + "x", hub.base)
    answer = intruder.login()
    assert answer.status_code == 403, answer.text[:500]
    assert LOGIN_COOKIE not in intruder.web.cookies


def test_each_server_runs_as_its_student_in_their_home(students):
    for student, account in students:
        assert processes(account.uid, SERVER), f"no server runs as {account.name}"
        body = {"type": "file", "format": "text", "content": "written through my server\n"}
        check(student.user_api("PUT", "api/contents/probe.txt", json=body), "write a file")
        probe = account.home / "probe.txt"
        assert probe.read_text() == body["content"]
        assert probe.stat().st_uid == account.uid


def test_students_cannot_reach_each_other(students):
    (ada, _), (ben, ben_account) = students[0], students[1]
    peek = subprocess.run(
        ["runuser", "-u", ada.name, "--", "ls", str(ben_account.home)],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    assert peek.returncode != 0 and "Permission denied" in peek.stderr, peek
    assert ada.user_api("GET", "api/contents").status_code == 200
    theirs = ada.api("GET", f"user/{ben.name}/api/contents")
    assert theirs.status_code in (403, 404), theirs.text[:300]
    their_user = ada.api("GET", f"hub/api/users/{ben.name}")
    assert their_user.status_code in (403, 404), their_user.text[:300]


def test_the_release_link_pulls_the_handout_into_each_home(students, pulled, release):
    for (student, account), page in zip(students, pulled):
        assert page.url.split("?")[0].endswith(f"/user/{student.name}/git-pull"), page.url
        copy = account.home / TARGET / HANDOUT
        assert copy.read_bytes() == release.handout.read_bytes()
        assert copy.stat().st_uid == account.uid  # the student's git cloned it


def _known_outputs(teacher: dict, handout: dict) -> dict:
    """{cell id: printed text} of the handout's code cells whose output nbval checks in the
    teacher's copy (``# NBVAL_CHECK_OUTPUT``), leaving out exercises, checks and reveals."""
    stored = {cell.get("id"): cell for cell in teacher["cells"]}
    known = {}
    for cell in handout["cells"]:
        source = "".join(cell["source"])
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell["cell_type"] != "code" or "NBVAL_CHECK_OUTPUT" not in source or tags & HIDDEN:
            continue
        outputs = stored[cell["id"]].get("outputs", [])
        if all(o["output_type"] == "stream" for o in outputs):
            known[cell["id"]] = "".join("".join(o["text"]) for o in outputs)
    return known


def test_each_student_runs_the_handout_in_their_own_kernel(hub, students, pulled, record_memory):
    import nbformat

    teacher = nbformat.read(REPO / "notebooks" / HANDOUT, as_version=4)

    def work(pair):
        student, account = pair
        notebook = student.read_notebook(f"{TARGET}/{HANDOUT}")
        kernel_id = student.start_kernel(f"{TARGET}/{HANDOUT}")
        kernel = one_process(account.uid, kernel_id)  # its connection file names it
        runs = student.run_cells(kernel_id, notebook)
        time.sleep(1)  # let the last replies settle before reading memory
        record_memory(student.name, "kernel after the run", kernel, "VmHWM", "VmRSS", "Private")
        server = one_process(account.uid, SERVER)
        record_memory(student.name, "server after the run", server, "VmRSS", "Private")
        return notebook, runs

    results = each(work, students)
    record_memory("shared", "jupyterhub", hub.proc.pid, "VmRSS")
    record_memory("shared", "proxy", hub.child("configurable-http-proxy"), "VmRSS")
    record_memory("shared", "idle culler", hub.child("jupyterhub_idle_culler"), "VmRSS")
    for (student, _), (notebook, runs) in zip(students, results):
        code_cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
        failed = [(r.index, r.error or r.status) for r in runs if r.status != "ok" or r.error]
        assert failed == [], f"{student.name}: cells failed: {failed}"
        assert len(runs) == len(code_cells)
        by_id = {notebook["cells"][r.index]["id"]: r.text for r in runs}
        known = _known_outputs(teacher, notebook)
        assert len(known) >= 3, f"too few checked outputs in {HANDOUT}: {sorted(known)}"
        differ = {cid: (by_id[cid], text) for cid, text in known.items() if by_id[cid] != text}
        assert differ == {}, f"{student.name}: outputs differ from the teacher's copy"


def test_idle_kernels_and_servers_are_culled(hub, students):
    *stopped, (last, account) = students
    each(lambda pair: pair[0].stop_server(), stopped)
    for student, acct in stopped:
        gone = lambda uid=acct.uid: processes(uid, "") == []  # noqa: E731
        try:
            wait_until(gone, f"{student.name}'s processes to end", 15)
        except HubError as exc:
            raise HubError(f"{exc}: {describe(processes(acct.uid, ''))}") from None

    slack = 3 * CHECK_EVERY_S + 15  # check intervals, activity reports, a loaded machine
    # Watched in /proc, not through the server's API: a request would count as activity.
    wait_until(lambda: processes(account.uid, KERNEL) == [], f"{last.name}'s idle kernel to be culled",
               KERNEL_IDLE_S + slack, every_s=1)  # fmt: skip
    # The server forgets the kernel just after its process ends.
    wait_until(lambda: last.kernels() == [], "the server to list no kernel", 10, every_s=2)
    wait_until(lambda: last.server() is None, f"the idle culler to stop {last.name}'s server",
               SERVER_IDLE_S + slack, every_s=1)  # fmt: skip
    wait_until(lambda: processes(account.uid, "") == [], f"{last.name}'s processes to end", 30)
    assert f"Culling server {last.name}" in hub.log_path.read_text(errors="replace")


def test_stopping_the_hub_ends_everything(hub, accounts):
    code, left = hub.stop()
    assert code == 0, f"the hub exited with {code}:\n{hub.tail()}"
    assert left == [], f"the hub left processes running: {left}"
    assert [a.name for a in accounts if processes(a.uid, "")] == []
    assert sorted(a.name for a in accounts) == sorted(NAMES)
