"""The JupyterHub recipe's files, without a hub: the configuration's settings hang together, the
installs are pinned, and release.py publishes only student copies and builds the right link.
(``make test-hub`` runs the recipe for real, as root: tests/hub.)"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from traitlets.config import Config

from tools.assignments import write_handouts
from tools.course import NOTEBOOKS

ROOT = Path(__file__).resolve().parents[1]
RECIPE = ROOT / "deploy" / "jupyterhub"
_spec = importlib.util.spec_from_file_location("hub_release", RECIPE / "release.py")
release = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(release)

NOTEBOOK = "02_graphs_and_the_chain_rule.ipynb"


def load_config(monkeypatch, **env) -> Config:
    """The hub's configuration as JupyterHub would load it, with ``env`` set."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    config = Config()
    source = (RECIPE / "jupyterhub_config.py").read_text()
    exec(compile(source, "jupyterhub_config.py", "exec"), {"get_config": lambda: config})
    return config


def test_the_hub_runs_pam_the_local_spawner_and_the_proxy_from_its_own_environment(monkeypatch):
    c = load_config(monkeypatch)
    prefix = Path(sys.prefix)
    assert c.JupyterHub.authenticator_class == "pam"
    assert c.JupyterHub.spawner_class == "localprocess"
    assert c.PAMAuthenticator.admin_groups <= c.PAMAuthenticator.allowed_groups
    assert c.Spawner.cmd == [str(prefix / "bin" / "jupyterhub-singleuser")]
    assert c.Spawner.environment["PATH"].split(":")[0] == str(prefix / "bin")
    assert c.ConfigurableHTTPProxy.command == [
        str(prefix / "proxy" / "node_modules" / ".bin" / "configurable-http-proxy")
    ]
    assert "127.0.0.1" in c.JupyterHub.bind_url and "127.0.0.1" in c.JupyterHub.hub_bind_url


def test_the_culler_is_a_service_with_a_role_that_lets_it_stop_servers(monkeypatch):
    c = load_config(monkeypatch)
    (service,) = c.JupyterHub.services
    (role,) = c.JupyterHub.load_roles
    assert role["services"] == [service["name"]]
    assert {"list:users", "read:users:activity", "read:servers", "delete:servers"} <= set(
        role["scopes"]
    )
    assert service["command"][1:3] == ["-m", "jupyterhub_idle_culler"]
    assert "--timeout=2400" in service["command"] and "--cull-every=300" in service["command"]
    assert "--MappingKernelManager.cull_idle_timeout=1200" in c.Spawner.args
    assert "--MappingKernelManager.cull_connected=True" in c.Spawner.args


def test_the_idle_limits_come_from_the_environment_and_set_every_interval(monkeypatch):
    c = load_config(monkeypatch, MINIGRAD_HUB_SERVER_IDLE_S="20", MINIGRAD_HUB_KERNEL_IDLE_S="60")
    command = c.JupyterHub.services[0]["command"]
    assert "--timeout=20" in command and "--cull-every=5" in command
    assert c.JupyterHub.last_activity_interval == 5
    assert c.Spawner.environment["JUPYTERHUB_ACTIVITY_INTERVAL"] == "5"
    assert "--MappingKernelManager.cull_idle_timeout=60" in c.Spawner.args
    assert "--MappingKernelManager.cull_interval=10" in c.Spawner.args


def test_every_install_is_pinned():
    lines = [
        line.split("#")[0].strip()
        for line in (RECIPE / "requirements.txt").read_text().splitlines()
        if line.split("#")[0].strip()
    ]
    assert {re.split("==", line)[0] for line in lines} >= {
        "jupyterhub",
        "jupyterhub-idle-culler",
        "nbgitpuller",
        "jupyterlab",
    }
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+==[0-9][0-9A-Za-z.]*", line) for line in lines)
    assert "jupyterhub==6." in "\n".join(lines)
    assert re.search(
        r"^CHP_VERSION=\$\{CHP_VERSION:-\d+\.\d+\.\d+\}$", (RECIPE / "install.sh").read_text(), re.M
    )


def test_install_script_is_valid_bash():
    subprocess.run(["bash", "-n", str(RECIPE / "install.sh")], check=True)


def _handout(tmp_path: Path) -> Path:
    return write_handouts([NOTEBOOKS / NOTEBOOK], tmp_path / "handouts", tmp_path / "course")[0]


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "release"
    for args in (
        ["init", "--quiet", "--initial-branch=main", str(repo)],
        ["-C", str(repo), "config", "user.name", "Teacher"],
        ["-C", str(repo), "config", "user.email", "teacher@example.edu"],
    ):
        subprocess.run(["git", *args], check=True)
    return repo


def test_a_handout_is_a_student_copy_and_the_teachers_notebook_is_not(tmp_path):
    assert release.student_copy_problems(_handout(tmp_path)) == []
    problems = release.student_copy_problems(NOTEBOOKS / NOTEBOOK)
    assert any("tagged ['solution']" in p for p in problems)
    assert any("(['check']) has stored outputs" in p for p in problems)
    assert any("holds a solution or hidden tests" in p for p in problems)  # the grading cell


def test_publish_refuses_the_teachers_notebook(tmp_path):
    with pytest.raises(SystemExit, match=r"02_graphs_and_the_chain_rule.ipynb is not a student"):
        release.publish(_repo(tmp_path), [NOTEBOOKS / NOTEBOOK], push=False, message=None)


def test_publish_commits_a_handout_once(tmp_path):
    repo, handout = _repo(tmp_path), _handout(tmp_path)
    first = release.publish(repo, [handout], push=False, message=None)
    assert (repo / NOTEBOOK).read_bytes() == handout.read_bytes()
    log = subprocess.run(["git", "-C", str(repo), "log", "--format=%s"], capture_output=True)
    assert log.stdout.decode().strip() == "Release 02_graphs_and_the_chain_rule"
    assert release.publish(repo, [handout], push=False, message=None) == first  # nothing new


def test_publish_names_a_missing_repository(tmp_path):
    with pytest.raises(SystemExit, match="is not a git working copy"):
        release.publish(tmp_path, [_handout(tmp_path)], push=False, message=None)


def test_the_link_pulls_the_branch_into_the_target_and_opens_the_notebook():
    url = release.link(
        "https://hub.example.edu/", "https://git.example.edu/c/rel", "week2", "course", NOTEBOOK
    )
    parts = urlsplit(url)
    assert parts.path == "/hub/user-redirect/git-pull"
    assert parse_qs(parts.query) == {
        "repo": ["https://git.example.edu/c/rel"],
        "branch": ["week2"],
        "targetpath": ["course"],
        "urlpath": [f"lab/tree/course/{NOTEBOOK}"],
    }
