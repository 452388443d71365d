#!/usr/bin/env bash
# Run a Refbox table in simulation: mock buttons (keyboard and web page), an emulated
# serial display on a pseudo-terminal, sample photos as the camera, the web page on
# http://127.0.0.1:8080. Extra arguments go to `refbox run` (e.g. --config FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh run
exec .venv/bin/refbox run --sim "$@"
