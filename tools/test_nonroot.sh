#!/usr/bin/env bash
# `make test` as a student or teacher without root would run it: `make test-nonroot` (as root).
#
#   tools/test_nonroot.sh [make targets ...]     (default: test)
#
# 1. creates the user $NONROOT_USER (default minigrad-student; useradd -m, no sudo rights) if
#    missing, and clears what an earlier run left in its home;
# 2. clones this repository's HEAD commit (committed files only) into ~/minigrad-sparse;
# 3. hides the system's Graphviz and Open MPI programs from that user's run: in a private mount
#    namespace (unshare -m), /usr/bin gets an overlay whose upper layer holds a whiteout for
#    each of them (`dot`, `mpirun`, `mpicc`, ... vanish; /usr/bin stays as it is outside);
# 4. as the user (runuser, a clean environment): checks that it has no root, no sudo and none of
#    those programs, runs `make venv` (so dot and Open MPI must come from PyPI into .venv),
#    checks that mpi4py loads the venv's own libmpi and that viz and the MPI launcher find
#    graphviz-pure and mpirun beside the venv's python (not on PATH, as in a `make lab`
#    kernel), then runs the make targets, with
#    MINIGRAD_REQUIRE_MPI=1 (the distributed tests fail instead of skipping without MPI).
# PYTEST_ADDOPTS, when set, is passed on to the user's run (e.g. a --deselect while debugging).
# Exit status: that of the first step that failed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
USER_NAME=${NONROOT_USER:-minigrad-student}
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(test)
# The programs to hide, as the user's PATH names them (/bin is /usr/bin on Debian 12). The
# packages' other files stay: the point is that nothing finds these commands.
HIDE=(dot mpirun mpiexec mpicc mpicxx mpic++ mpiCC mpif77 mpif90 mpifort orterun orted
      ompi_info opal_wrapper mpirun.openmpi mpiexec.openmpi mpicc.openmpi mpicxx.openmpi)

say() { printf '== test-nonroot: %s\n' "$*"; }
die() { printf 'error: test-nonroot: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run it as root: it creates a user and a mount namespace"
for tool in useradd runuser unshare mount git; do
    command -v "$tool" >/dev/null 2>&1 || die "needs $tool"
done
commit=$(git -C "$ROOT" rev-parse HEAD)
[ -z "$(git -C "$ROOT" status --porcelain --untracked-files=no)" ] ||
    say "note: uncommitted changes are not tested (the clone is of $commit)"

# --- 1. the user and its fresh home -----------------------------------------------------------
if ! id -u "$USER_NAME" >/dev/null 2>&1; then
    say "creating user $USER_NAME (no sudo)"
    useradd --create-home --shell /bin/bash "$USER_NAME"
fi
home=$(getent passwd "$USER_NAME" | cut -d: -f6)
[ -d "$home" ] || die "$USER_NAME has no home directory ($home)"
clone="$home/minigrad-sparse"
rm -rf "$clone" "$home/.cache" "$home/.local" "$home/.jupyter" "$home/.ipython" "$home/.config"

# --- 2. a fresh clone of HEAD -------------------------------------------------------------------
say "cloning $commit into $clone"
git clone --quiet --no-checkout --no-hardlinks "$ROOT" "$clone"
git -C "$clone" checkout --quiet --detach "$commit"
chown -R "$USER_NAME:" "$clone"

# --- 3. the overlay that hides the system's dot and Open MPI ------------------------------------
layer=$(mktemp -d /tmp/test-nonroot.XXXXXX)
trap 'rm -rf "$layer"' EXIT
mkdir "$layer/upper" "$layer/work"
for name in "${HIDE[@]}"; do mknod "$layer/upper/$name" c 0 0; done  # an overlayfs whiteout
chmod 755 "$layer"

# --- 4. the user's run, inside the namespace -----------------------------------------------------
user_script=$(cat <<'EOF'
set -euo pipefail
say() { printf '== test-nonroot (%s): %s\n' "$(id -un)" "$*"; }
die() { printf 'error: test-nonroot: %s\n' "$*" >&2; exit 1; }
[ "$(id -u)" != 0 ] || die "running as root"
if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then die "the user can sudo"; fi
for tool in dot mpirun mpicc; do
    if found=$(command -v "$tool"); then die "$tool is still visible: $found"; fi
done
say "no root, no sudo, no dot, no mpirun, no mpicc on PATH ($PATH)"
cd ~/minigrad-sparse
start=$SECONDS
make venv
say "make venv took $((SECONDS - start)) s"
for tool in mpirun mpicc graphviz-pure; do
    [ -x ".venv/bin/$tool" ] || die ".venv/bin/$tool is missing: the PyPI route was not taken"
done
.venv/bin/python - <<'PY'
import sys
from mpi4py import MPI  # noqa: F401  (loads libmpi)

libs = {line.split()[-1] for line in open("/proc/self/maps") if "libmpi.so" in line}
venv_lib = sys.prefix + "/lib/"
print("== libmpi loaded by mpi4py:", ", ".join(sorted(libs)))
sys.exit(0 if libs and all(lib.startswith(venv_lib) for lib in libs) else 1)
PY
.venv/bin/python - <<'PY'
# What a `make lab` kernel finds: .venv/bin is not on this PATH, the tools are beside python.
import os, sys
from minigrad.distributed.run import find_mpirun
from viz import _render

here = os.path.dirname(sys.executable)
found = {"mpirun": find_mpirun(), "renderers": _render.candidates()}
print("== found beside", here, "with PATH", os.environ["PATH"], ":", found)
assert found["mpirun"] == os.path.join(here, "mpirun"), found
assert found["renderers"] == [os.path.join(here, "graphviz-pure")], found
PY
start=$SECONDS
make "$@"
say "make $* took $((SECONDS - start)) s"
EOF
)

say "running as $USER_NAME, with ${HIDE[*]} hidden from /usr/bin: make venv, then make ${TARGETS[*]}"
start=$SECONDS
env_vars=(HOME="$home" USER="$USER_NAME" LOGNAME="$USER_NAME" SHELL=/bin/bash LANG=C.UTF-8
          PATH=/usr/local/bin:/usr/bin:/bin MINIGRAD_REQUIRE_MPI=1)
[ -z "${PYTEST_ADDOPTS:-}" ] || env_vars+=(PYTEST_ADDOPTS="$PYTEST_ADDOPTS")
unshare --mount --propagation private -- bash -c '
    set -euo pipefail
    layer=$1; user=$2; shift 2
    mount -t overlay overlay \
        -o "lowerdir=/usr/bin,upperdir=$layer/upper,workdir=$layer/work" /usr/bin
    exec "$@"
' unshare-step "$layer" "$USER_NAME" \
    runuser -u "$USER_NAME" -- env -i "${env_vars[@]}" \
    bash -c "$user_script" user-step "${TARGETS[@]}"
say "passed in $((SECONDS - start)) s (clone of $commit in $clone)"
