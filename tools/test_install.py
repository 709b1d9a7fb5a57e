"""``pip install .`` works outside the checkout: ``make test-install``.

1. Copies the files git knows of (tracked, and untracked ones not ignored: what the next commit
   would hold) into a temporary source folder, so the build writes nothing into the checkout
   and sees no ``.venv`` or ``build/``.
2. Makes a clean venv in another temporary folder, outside the checkout, and pip installs the
   copy there, not editable, with the ``viz`` extra and what runs a notebook (nbclient,
   ipykernel), at the versions of requirements.lock (hashes left out: pip cannot hash a
   folder, and the lock's hashes are checked by ``make venv``).
3. From a third temporary folder, in that venv's Python: every top-level package the checkout
   has (pyproject.toml's ``include`` patterns) imports from the venv's site-packages, never
   from the checkout, with viz's package data; then notebook 02, read from the checkout, runs
   cell by cell in a kernel of that venv, working directory the temporary folder, and every
   ``# NBVAL_CHECK_OUTPUT`` cell prints what the committed notebook shows.

Usage: python tools/test_install.py [--notebook notebooks/02_...ipynb] [--keep]
Exit status 0 when everything above held; otherwise 1, with what went wrong.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "notebooks" / "02_graphs_and_the_chain_rule.ipynb"
RUNNER = ("nbclient", "ipykernel")  # run a notebook; in requirements.lock via the extras

# Runs in the new venv's Python, from the scratch folder: argv = packages, notebook, scratch.
CHILD = r"""
import importlib, json, pathlib, sys, sysconfig
import nbclient, nbformat

packages, notebook, scratch = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
site = pathlib.Path(sysconfig.get_paths()["purelib"]).resolve()
for name in packages:
    origin = pathlib.Path(importlib.import_module(name).__file__).resolve()
    assert site in origin.parents, f"{name} imports from {origin}, not from {site}"
    print(f"{name}: {origin}")
import viz
for data in ("_stepper.js", "_stepper.css"):
    assert (pathlib.Path(viz.__file__).parent / data).is_file(), f"viz/{data} was not installed"


def streams(outputs):
    # each stream's whole text: a kernel may send one print in several chunks
    text = {}
    for o in outputs:
        if o.get("output_type") == "stream":
            text[o["name"]] = text.get(o["name"], "") + o.get("text", "")
    return text


nb = nbformat.read(notebook, as_version=4)
expected = {
    i: streams(cell.get("outputs", []))
    for i, cell in enumerate(nb.cells)
    if cell.cell_type == "code" and cell.source.lstrip().startswith("# NBVAL_CHECK_OUTPUT")
}
probe = "import minigrad, sys; print(sys.executable); print(minigrad.__file__)"
nb.cells.append(nbformat.v4.new_code_cell(probe))
nbclient.NotebookClient(
    nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": scratch}}
).execute()
for i, texts in expected.items():
    got = streams(nb.cells[i].outputs)
    assert got == texts, f"cell {i} printed {got!r}, the committed notebook shows {texts!r}"
kernel_python, kernel_minigrad = streams(nb.cells[-1].outputs)["stdout"].split()
assert pathlib.Path(kernel_python).parent == pathlib.Path(sys.executable).parent, kernel_python
assert site in pathlib.Path(kernel_minigrad).resolve().parents, kernel_minigrad
print(f"{pathlib.Path(notebook).name}: {len(nb.cells) - 1} cells ran in {kernel_python}, "
      f"{len(expected)} checked outputs as committed")
"""


def git_files() -> list[str]:
    """Tracked files and untracked files that are not ignored, relative to the checkout."""
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return [f for f in out.split("\0") if f and (ROOT / f).is_file()]


def copy_sources(dest: pathlib.Path) -> None:
    for name in git_files():
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)


def top_level_packages() -> list[str]:
    """The checkout's packages that pyproject.toml's ``include`` patterns select."""
    text = (ROOT / "pyproject.toml").read_text()
    match = re.search(
        r"^\[tool\.setuptools\.packages\.find\]\s*\ninclude\s*=\s*\[(.*?)\]", text, re.M
    )
    if match is None:
        raise SystemExit("pyproject.toml has no [tool.setuptools.packages.find] include = [...]")
    patterns = re.findall(r'"([^"]+)"', match.group(1))
    return sorted(
        d.name
        for d in ROOT.iterdir()
        if (d / "__init__.py").is_file() and any(fnmatch.fnmatch(d.name, p) for p in patterns)
    )


def pins_without_hashes(lock: pathlib.Path, dest: pathlib.Path) -> pathlib.Path:
    """requirements.lock's ``name==version ; marker`` lines, as a pip constraints file."""
    lines = [
        line.rstrip(" \\")
        for line in lock.read_text().splitlines()
        if line and not line[0].isspace() and not line.startswith("#")
    ]
    dest.write_text("\n".join(lines) + "\n")
    return dest


def run(cmd: list, **kwargs) -> None:
    shown = ["<the checks above>" if arg == CHILD else str(arg) for arg in cmd]
    print("$", " ".join(shown), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notebook", type=pathlib.Path, default=NOTEBOOK)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders")
    args = parser.parse_args(argv)
    notebook = args.notebook.resolve()
    if not notebook.is_file():
        parser.error(f"--notebook {args.notebook}: no such file")
    start = time.monotonic()
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="minigrad-install-test-"))
    if ROOT in tmp.parents:
        parser.error(f"the temporary folder {tmp} is inside the checkout; set TMPDIR elsewhere")
    try:
        src, venv, scratch = tmp / "src", tmp / "venv", tmp / "scratch"
        scratch.mkdir()
        copy_sources(src)
        run([sys.executable, "-m", "venv", venv])
        python = venv / "bin" / "python"
        constraints = pins_without_hashes(ROOT / "requirements.lock", tmp / "constraints.txt")
        run([python, "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
        run([python, "-m", "pip", "install", "--quiet", "-c", constraints, f"{src}[viz]", *RUNNER])
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        packages = json.dumps(top_level_packages())
        run([python, "-c", CHILD, packages, notebook, scratch], cwd=scratch, env=env)
    except subprocess.CalledProcessError as err:
        print(f"error: test-install: {err}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"== test-install passed in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
