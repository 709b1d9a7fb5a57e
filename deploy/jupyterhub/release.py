"""Release student copies to a class on JupyterHub: a git commit, and the nbgitpuller link.

The release repository is a git repository that holds only what students get (the handouts of
``make handouts``, or the release copies of the grading flow), hosted where the hub can clone it
(GitHub, a university GitLab). Each week the teacher adds that week's copies and sends the class
one link; opening it makes nbgitpuller clone the repository into the student's home, or, the next
times, merge the new files in while keeping every change the student made to earlier ones.

* ``publish --repo DIR NOTEBOOK...`` copies the notebooks into the top folder of the working copy
  ``DIR``, commits them and, with ``--push``, pushes the branch. It refuses a notebook that still
  holds a cell a student must not see (tagged ``solution`` or ``grading``), or stored outputs of
  ``check`` or ``reveal`` cells.
* ``link --hub URL --repo-url URL [--open NOTEBOOK]`` prints the link to send: the hub's
  ``/hub/user-redirect/git-pull`` with the repository, its branch, the folder it lands in
  (``--target``, default ``minigrad-course``) and the notebook JupyterLab opens afterwards.

Usage::

    python deploy/jupyterhub/release.py publish --repo ~/minigrad-release --push handouts/02_*.ipynb
    python deploy/jupyterhub/release.py link --hub https://hub.example.edu \\
        --repo-url https://github.com/example/minigrad-release --open 02_graphs_and_the_chain_rule.ipynb
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

HIDDEN_TAGS = {"solution"}  # cells a student copy must not contain
# nbgrader's markers: a release keeps its grading cells, but with these regions taken out.
HIDDEN_REGIONS = ("### BEGIN SOLUTION", "### BEGIN HIDDEN TESTS")
ANSWER_TAGS = {"check", "reveal"}  # cells whose stored outputs would show an answer
DEFAULT_TARGET = "minigrad-course"


def student_copy_problems(path: Path) -> list:
    """What makes the notebook at ``path`` unfit for students: one line per offending cell."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    problems = []
    for index, cell in enumerate(nb.get("cells", [])):
        tags = set(cell.get("metadata", {}).get("tags", []))
        source = "".join(cell.get("source", ""))
        if tags & HIDDEN_TAGS:
            problems.append(f"cell {index} is tagged {sorted(tags & HIDDEN_TAGS)}")
        elif any(marker in source for marker in HIDDEN_REGIONS):
            problems.append(f"cell {index} holds a solution or hidden tests (### BEGIN ...)")
        elif tags & ANSWER_TAGS and cell.get("outputs"):
            problems.append(f"cell {index} ({sorted(tags & ANSWER_TAGS)}) has stored outputs")
    return problems


def git(repo: Path, *args: str) -> str:
    """Run ``git args`` in ``repo``; its output, or a SystemExit that quotes git's error."""
    done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"release.py: git {' '.join(args)} failed in {repo}:\n{done.stderr}")
    return done.stdout.strip()


def publish(repo: Path, notebooks: list, push: bool, message: str | None) -> str:
    """Copy ``notebooks`` into ``repo``, commit them (and push); the commit's hash."""
    if not (repo / ".git").exists():
        raise SystemExit(f"release.py: --repo {repo} is not a git working copy (no .git)")
    for nb in notebooks:
        if nb.suffix != ".ipynb" or not nb.is_file():
            raise SystemExit(f"release.py: {nb} is not a notebook file (NAME.ipynb)")
        problems = student_copy_problems(nb)
        if problems:
            raise SystemExit(
                f"release.py: {nb} is not a student copy: {'; '.join(problems)}. "
                "Release the handouts (make handouts), not the teacher's notebooks."
            )
    for nb in notebooks:
        shutil.copyfile(nb, repo / nb.name)
    git(repo, "add", "--", *(nb.name for nb in notebooks))
    if git(repo, "status", "--porcelain", "--", *(nb.name for nb in notebooks)):
        names = ", ".join(nb.stem for nb in notebooks)
        git(repo, "commit", "--quiet", "-m", message or f"Release {names}")
    if push:
        git(repo, "push", "--quiet", "origin", "HEAD")
    return git(repo, "rev-parse", "HEAD")


def link(hub: str, repo_url: str, branch: str, target: str, notebook: str | None) -> str:
    """The nbgitpuller link that pulls ``repo_url``'s ``branch`` into ``~/target``."""
    query = {"repo": repo_url, "branch": branch, "targetpath": target}
    query["urlpath"] = f"lab/tree/{target}" + (f"/{notebook}" if notebook else "")
    return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{urlencode(query)}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    pub = sub.add_parser("publish", help="commit student copies to the release repository")
    pub.add_argument(
        "--repo", type=Path, required=True, help="the release repository's working copy"
    )
    pub.add_argument("--push", action="store_true", help="push the branch to origin afterwards")
    pub.add_argument("--message", help="the commit message (default: Release NAME, ...)")
    pub.add_argument("notebooks", type=Path, nargs="+", help="student copies (NAME.ipynb)")
    lnk = sub.add_parser("link", help="print the nbgitpuller link for the class")
    lnk.add_argument("--hub", required=True, help="the hub's address, e.g. https://hub.example.edu")
    lnk.add_argument("--repo-url", required=True, help="where the hub clones the repository from")
    lnk.add_argument("--branch", default="main", help="the branch to pull (default: main)")
    lnk.add_argument("--target", default=DEFAULT_TARGET, help="folder in each home")
    lnk.add_argument("--open", dest="notebook", help="the notebook JupyterLab opens after the pull")
    args = parser.parse_args(argv)
    if args.command == "publish":
        print(publish(args.repo, args.notebooks, args.push, args.message))
    else:
        print(link(args.hub, args.repo_url, args.branch, args.target, args.notebook))
    return 0


if __name__ == "__main__":
    sys.exit(main())
