"""The hub test's class: who the students are, what they get, and how short the idle limits are.

Shared by ``conftest.py`` (which makes the users, the release and the hub) and ``test_hub.py``.
"""

import os

NAMES = ("mghub-ada", "mghub-ben", "mghub-cyd")  # throwaway Unix users, one per student
GROUP = "mghub-class"  # the students' Unix group (the recipe's STUDENTS)
TEACHERS = "mghub-teachers"  # the admins' group, empty here (the recipe's TEACHERS)
MARK = "minigrad-sparse make test-hub"  # the users' GECOS field: only these are ours to delete
# The student copy released and run; MINIGRAD_HUB_HANDOUT=11_sparse_applications.ipynb measures
# another notebook's kernel in the hub (notebook 02 is the quickest to run in CI).
HANDOUT = os.environ.get("MINIGRAD_HUB_HANDOUT", "02_graphs_and_the_chain_rule.ipynb")
TARGET = "minigrad-course"  # the folder nbgitpuller pulls into, in each home
# The recipe's limits are 2400 s (server) and 1200 s (kernel); the test shortens them to see the
# cullers at work within a minute. A server's activity reaches the hub every 5 s here.
SERVER_IDLE_S = 20
KERNEL_IDLE_S = 10
CHECK_EVERY_S = 5  # the recipe's check_every() for both limits above
MEMORY: dict = {}  # student -> {figure: MiB}, printed after the run
