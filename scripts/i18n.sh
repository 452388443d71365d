#!/usr/bin/env bash
# The gettext catalogues (docs/i18n.md).
#   scripts/i18n.sh update    extract every message (Python, Jinja templates, game names,
#                             option descriptions, refusal patterns, scoreboard words) into
#                             refbox/locale/refbox.pot and merge it into the uk/ru/en .po files
#   scripts/i18n.sh compile   .po -> .mo (also done by scripts/setup.sh, and on first use)
#   scripts/i18n.sh check     untranslated, fuzzy or placeholder-broken entries; exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
    if [ -x .venv/bin/python ]; then PY=.venv/bin/python; else PY=python3; fi
fi
exec env PYTHONPATH=. "$PY" -m refbox.i18n_catalog "${1:-check}"
