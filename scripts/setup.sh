#!/usr/bin/env bash
# Set up a fresh machine for Refbox: system packages (when run as root and missing),
# a virtual environment in .venv with the project and its dependencies.
# Usage: scripts/setup.sh [run|test]   (test also installs what the test suite needs)
set -euo pipefail
cd "$(dirname "$0")/.."
want="${1:-run}"

# Debian packages. run: sqlite3 is in Python; test: the real broker, browser, unit checker.
APT_RUN=(python3-venv)
APT_TEST=(mosquitto chromium systemd openssl)
# the firmware's MicroPython check runs the npm package below under node
[ "$want" = test ] && ! command -v npm >/dev/null && APT_TEST+=(nodejs npm)
apt_needed=()
for p in "${APT_RUN[@]}" $([ "$want" = test ] && echo "${APT_TEST[@]}"); do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || apt_needed+=("$p")
done
if [ ${#apt_needed[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
        echo "setup: installing Debian packages: ${apt_needed[*]}"
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${apt_needed[@]}" >/dev/null
    else
        echo "setup: missing Debian packages: ${apt_needed[*]} (run as root, or: sudo apt-get install ${apt_needed[*]})" >&2
    fi
fi

PY="${PYTHON:-python3}"
if ! "$PY" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "setup: Python >= 3.11 is needed, $("$PY" --version) found" >&2
    exit 1
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
extras=""
[ "$want" = test ] && extras="[test]"
stamp=".venv/.refbox-installed$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "setup: installing Python packages into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -e ".$extras"
    touch "$stamp"
fi
# test: MicroPython (WebAssembly build) for tests/firmware_bridge/test_micropython.py
MICROPYTHON_NPM="@micropython/micropython-webassembly-pyscript"
if [ "$want" = test ] && command -v npm >/dev/null && [ ! -f "$(npm root -g)/$MICROPYTHON_NPM/micropython.mjs" ]; then
    echo "setup: installing the npm package $MICROPYTHON_NPM"
    npm install -g --silent "$MICROPYTHON_NPM" >/dev/null
fi
# gettext catalogues: .po (in git) -> .mo (not in git); see docs/i18n.md
.venv/bin/python -m refbox.i18n_catalog compile >/dev/null
