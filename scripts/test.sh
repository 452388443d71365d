#!/usr/bin/env bash
# Run the whole Refbox test suite (sets the machine up first). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
