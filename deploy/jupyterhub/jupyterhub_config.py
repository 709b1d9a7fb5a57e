"""JupyterHub 6.x for a class taking the minigrad-sparse course, on one Linux server.

Start it as root from the environment ``install.sh`` made, in a folder for the hub's state
(its database and cookie secret)::

    cd /srv/minigrad-hub && /opt/minigrad-hub/bin/jupyterhub -f /path/to/jupyterhub_config.py

What it sets up (docs/teaching.md, "A JupyterHub for a class", says it step by step):

* login with the server's own Unix accounts (PAM): members of the Unix group ``STUDENTS`` may log
  in, members of ``TEACHERS`` are the hub's admins. A university swaps in its single sign-on
  (OAuth or LTI, see the guide) and keeps the rest;
* each student's JupyterLab runs as that student's Unix user (the local process spawner), from
  this same environment, in their home folder, on 127.0.0.1;
* configurable-http-proxy (npm, installed by ``install.sh``) in front, on ``BIND_URL``;
* each server shuts down its own kernels after ``KERNEL_IDLE_S`` idle seconds, open browser tab
  or not, and ``jupyterhub-idle-culler``, a hub service, stops a student's server (with any
  kernel left) after ``SERVER_IDLE_S`` seconds without activity;
* nbgitpuller is installed in the environment, so a release link pulls the course's student
  copies into each home.

Site settings are the constants below. The two idle limits can also come from the environment
(``MINIGRAD_HUB_SERVER_IDLE_S``, ``MINIGRAD_HUB_KERNEL_IDLE_S``): ``make test-hub`` shortens
them to watch the culler work; it overrides the addresses and groups on the command line.
"""

import os
import sys

c = get_config()  # noqa: F821 (defined by JupyterHub when it loads this file)

# ---- Site settings ---------------------------------------------------------------------------
# Where students connect. Put a TLS reverse proxy (nginx, Apache, Caddy) in front and leave this
# on 127.0.0.1, or give configurable-http-proxy a certificate with c.JupyterHub.ssl_cert/ssl_key.
BIND_URL = "http://127.0.0.1:8000"
STUDENTS = "minigrad-students"  # Unix group whose members may log in
TEACHERS = "minigrad-teachers"  # Unix group whose members are admins (and may log in)
# Shut down a kernel after this long idle, even with its notebook open in a tab (seconds).
KERNEL_IDLE_S = int(os.environ.get("MINIGRAD_HUB_KERNEL_IDLE_S", 1200))
# Stop a student's server after this long without activity (seconds). A kernel's shutdown counts
# as activity, so a student who walks away loses the kernels after 20 minutes and the server 40
# minutes later: everything they held is freed about an hour after their last action.
SERVER_IDLE_S = int(os.environ.get("MINIGRAD_HUB_SERVER_IDLE_S", 2400))

# ---- Derived: nothing to edit below for a standard set-up -------------------------------------
# This file is run by the environment's own jupyterhub, so the environment is sys.prefix.
PREFIX = sys.prefix
PROXY = os.path.join(PREFIX, "proxy", "node_modules", ".bin", "configurable-http-proxy")


def check_every(limit_s: int) -> int:
    """How often to look for idle servers and kernels, and to record activity: a sixth of the
    limit, between 5 s and 5 min (so a server lives at most about 1.2 times its limit idle)."""
    return max(5, min(300, limit_s // 6))


# The hub, and the proxy it starts and stops with it.
c.JupyterHub.bind_url = BIND_URL
c.JupyterHub.hub_bind_url = "http://127.0.0.1:8081"
c.ConfigurableHTTPProxy.command = [PROXY]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:8001"
c.JupyterHub.cleanup_servers = True  # stopping the hub stops the students' servers
c.JupyterHub.last_activity_interval = check_every(SERVER_IDLE_S)

# Login: the server's Unix accounts (PAM). See the module docstring for single sign-on.
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.allowed_groups = {STUDENTS, TEACHERS}
c.PAMAuthenticator.admin_groups = {TEACHERS}

# Each student's server: this environment's JupyterLab, as the student, in the student's home.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [os.path.join(PREFIX, "bin", "jupyterhub-singleuser")]
c.Spawner.ip = "127.0.0.1"
c.Spawner.notebook_dir = "~"
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120  # seconds; a class logging in at once starts many servers
c.Spawner.http_timeout = 90
c.Spawner.environment = {
    # The environment's tools first (the kernel finds what pip installed there), then the
    # system's (git for nbgitpuller, Graphviz's dot, Open MPI's mpirun).
    "PATH": os.pathsep.join([os.path.join(PREFIX, "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(check_every(SERVER_IDLE_S)),
}
c.Spawner.args = [
    # Kernels idle for KERNEL_IDLE_S seconds are shut down, even with a browser tab open
    # (cull_connected): a kernel that ran notebook 11 holds about 300 MiB until it stops.
    f"--MappingKernelManager.cull_idle_timeout={KERNEL_IDLE_S}",
    f"--MappingKernelManager.cull_interval={check_every(KERNEL_IDLE_S)}",
    "--MappingKernelManager.cull_connected=True",
]

# The idle culler: a hub service with only the permissions it needs.
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [
            sys.executable,
            "-m",
            "jupyterhub_idle_culler",
            f"--timeout={SERVER_IDLE_S}",
            f"--cull-every={check_every(SERVER_IDLE_S)}",
        ],
    }
]
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
