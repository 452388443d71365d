"""Screenshots of the mirror page in Ukrainian, Russian and English (docs/i18n.md).

Runs a real table (a futsal match, its journal in a temporary folder),
serves the real web app on a free local port and photographs ``/?lang=uk|ru|en``
with headless Chromium (Debian's /usr/bin/chromium through Playwright). Writes
``docs/img/mirror-<game>-<lang>.png`` and prints the files with their sizes.

    PYTHONPATH=. .venv/bin/python docs/img/make_i18n_screenshots.py [--out docs/img]
"""

from __future__ import annotations

import argparse
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
GAMES: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {
    # a futsal match in the 13th minute of the 1st half, the clock stopped by the timekeeper
    "futsal": (
        {"game": "futsal", "players": ["Шахтар", "Динамо"]},
        [{"type": "clock_start", "t": 0}, {"type": "goal", "team": "home", "player": 7, "t": 95},
         {"type": "foul", "team": "away", "player": 4, "t": 130},
         {"type": "card", "team": "away", "player": 4, "color": "yellow", "t": 131},
         {"type": "foul", "team": "home", "player": 10, "t": 402},
         {"type": "goal", "team": "away", "player": 9, "t": 517},
         {"type": "foul", "team": "away", "player": 5, "t": 640},
         {"type": "clock_stop", "t": 754.2}],
    ),
}


def shoot(out: Path, langs: tuple[str, ...] = ("uk", "ru", "en")) -> list[Path]:
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from refbox.journal import Journal
    from refbox.table import Table
    from web import create_app

    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            for game, (header, events) in GAMES.items():
                table = Table(Journal(Path(tmp) / f"{game}.sqlite3"), header, tick=0.05)
                table.start()
                server = None
                try:
                    for e in events:
                        result = table.submit(e, "web").result(5)
                        if not result.accepted:
                            raise SystemExit(f"{game}: event {e} refused: {result.reason}")
                    app = create_app(table, {"TABLE_NAME": "стіл-1", "CONTROL_PIN": "1234"})
                    server = make_server("127.0.0.1", 0, app, threaded=True)
                    threading.Thread(target=server.serve_forever, daemon=True).start()
                    for lang in langs:
                        page = browser.new_page(viewport={"width": 1000, "height": 700})
                        page.goto(f"http://127.0.0.1:{server.server_port}/?lang={lang}")
                        page.wait_for_selector("#status.live")  # the stream delivered the view
                        page.wait_for_selector("#history-list li")
                        time.sleep(0.3)
                        path = out / f"mirror-{game}-{lang}.png"
                        page.screenshot(path=str(path), full_page=True)
                        page.close()
                        written.append(path)
                finally:
                    if server is not None:
                        server.shutdown()
                    table.stop()
        finally:
            browser.close()
    return written


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=Path(__file__).parent)
    args = p.parse_args()
    for path in shoot(args.out):
        print(f"{path}  {path.stat().st_size} bytes")


if __name__ == "__main__":
    main()
