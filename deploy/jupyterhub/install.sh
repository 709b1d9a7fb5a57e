#!/usr/bin/env bash
# Install the course's JupyterHub into one environment, as root:
#
#   deploy/jupyterhub/install.sh [PREFIX]        (default PREFIX: /opt/minigrad-hub)
#
# PREFIX gets a Python venv with the hub, JupyterLab, nbgitpuller, the idle culler and this
# checkout's minigrad + viz (requirements.txt, pinned), and configurable-http-proxy from npm in
# PREFIX/proxy (pinned below). Students' servers run from the same venv as the students' own
# Unix users, so PREFIX must be readable by everyone (this script checks that) and lie outside
# any home folder. Needs python3 with venv (Debian: python3-venv), node >= 20 with npm, git (for
# nbgitpuller); Graphviz and Open MPI for the notebooks (apt: graphviz openmpi-bin
# libopenmpi-dev). Run it again to update: pip and npm install in place.
set -euo pipefail

PREFIX=${1:-/opt/minigrad-hub}
# The interpreter the venv is made from. It must be runnable by every student, so not one under
# /root (pyenv's, for example): Debian's /usr/bin/python3 is.
PYTHON=${PYTHON:-/usr/bin/python3}
# configurable-http-proxy (npm). 5.x needs Node >= 20; with an older Node (Debian 12's apt has
# 18) use CHP_VERSION=4.6.3, the last 4.x, or Node 20 from NodeSource.
CHP_VERSION=${CHP_VERSION:-5.3.0}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)

die() { echo "install.sh: error: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root: the hub switches to each student's Unix user"
case "$PREFIX" in /*) ;; *) die "PREFIX must be an absolute path, got '$PREFIX'";; esac
for tool in git node npm; do
    command -v "$tool" >/dev/null || die "'$tool' is not installed (Debian: apt-get install git nodejs npm)"
done
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "${CHP_VERSION%%.*}" -ge 5 ] && [ "$node_major" -lt 20 ]; then
    die "configurable-http-proxy $CHP_VERSION needs Node >= 20, this is $(node --version); install Node 20 or run with CHP_VERSION=4.6.3"
fi
"$PYTHON" -c 'import sys, venv; sys.exit(sys.version_info < (3, 10))' 2>/dev/null ||
    die "$PYTHON is not a Python >= 3.10 with the venv module (Debian: apt-get install python3-venv)"

# Every folder above PREFIX must let other users through, or students cannot start Python.
dir=$(dirname "$PREFIX")
while [ "$dir" != / ]; do
    if [ -d "$dir" ] && [ "$(( 0$(stat -c '%a' "$dir") & 01 ))" = 0 ]; then
        die "$dir is not searchable by other users (mode $(stat -c '%a' "$dir")); pick a PREFIX outside it, e.g. /opt/minigrad-hub"
    fi
    dir=$(dirname "$dir")
done
base=$("$PYTHON" -c 'import sys; print(sys.base_prefix)')
case "$base" in /root/*|/root) die "$PYTHON lives under /root, which students cannot read; use PYTHON=/usr/bin/python3";; esac

echo "== hub environment in $PREFIX (from $PYTHON, $("$PYTHON" --version 2>&1))"
umask 022
[ -x "$PREFIX/bin/python" ] || "$PYTHON" -m venv "$PREFIX"
"$PREFIX/bin/python" -m pip install --quiet --upgrade pip
"$PREFIX/bin/python" -m pip install --quiet -r "$HERE/requirements.txt"
# The course, not editable (students never read the checkout, which may be under /root); the
# second install rebuilds it from this checkout even when its version number did not change.
"$PREFIX/bin/python" -m pip install --quiet "$REPO[viz,notebooks,distributed]"
"$PREFIX/bin/python" -m pip install --quiet --force-reinstall --no-deps "$REPO"

echo "== configurable-http-proxy $CHP_VERSION (npm) in $PREFIX/proxy"
if ! [ -f "$PREFIX/proxy/node_modules/configurable-http-proxy/package.json" ] ||
   ! grep -q "\"version\": \"$CHP_VERSION\"" "$PREFIX/proxy/node_modules/configurable-http-proxy/package.json"; then
    mkdir -p "$PREFIX/proxy"
    npm install --silent --no-fund --no-audit --prefix "$PREFIX/proxy" "configurable-http-proxy@$CHP_VERSION"
fi
chmod -R a+rX "$PREFIX"
"$PREFIX/bin/jupyterhub" --version >/dev/null
"$PREFIX/proxy/node_modules/.bin/configurable-http-proxy" --version
# What a student's server will do: start this Python as another user and import the course.
(cd / && runuser -u nobody -- "$PREFIX/bin/python" -c 'import minigrad, viz, jupyterlab, nbgitpuller') ||
    die "another user cannot run $PREFIX/bin/python with the course (see the error above)"
echo "== done: start the hub with $PREFIX/bin/jupyterhub -f $HERE/jupyterhub_config.py"
