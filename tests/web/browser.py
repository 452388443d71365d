"""A real table behind a real HTTP server, and Debian's Chromium driven by Playwright
(used by the browser tests and by docs/img/make_screenshots.py)."""

from __future__ import annotations

import os
import re
import threading
import time
from pathlib import Path
from typing import Any, Callable

from werkzeug.serving import BaseWSGIServer, make_server

from refbox.journal import Journal
from refbox.table import Table
from web import create_app

CHROMIUM = os.environ.get("REFBOX_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None (they fail, never skip, on it)."""
    if not Path(CHROMIUM).exists():
        return (f"Chromium not found at {CHROMIUM}: install Debian's chromium (apt-get install chromium; "
                "scripts/setup.sh APT_TEST) or set REFBOX_CHROMIUM")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is missing: pip install -e '.[test]'"
    return None


class Served:
    """A table (journal at ``path``) and the web app on 127.0.0.1:``port`` (0: any free port);
    ``stop`` ends both like a crash or power cut would end the process; ``start`` again
    on the same journal is the restarted table."""

    def __init__(self, path: Path, header: dict[str, Any] | None, pin: str = "2468", port: int = 0,
                 clock: Callable[[], float] = time.time, **config: Any) -> None:
        self.path, self.pin = path, pin
        self.table = Table(Journal(path), header, tick=0.05, clock=clock)
        self.table.start()
        self.app = create_app(self.table, {"CONTROL_PIN": pin, "TABLE_NAME": "table-7", "SSE_KEEPALIVE": 5.0,
                                           "HEALTH_INTERVAL": 0.5, **config})
        self.server: BaseWSGIServer = make_server("127.0.0.1", port, self.app, threaded=True)
        self.port = self.server.server_port
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.server.serve_forever, name="test-web", daemon=True)
        self.thread.start()

    def submit(self, event: dict[str, Any]) -> Any:
        result = self.table.submit(event, "web").result(5)
        assert result.accepted, result.reason
        return result

    def log_in(self, page: Any) -> None:
        """Log ``page`` in with the control PIN and wait for the control page."""
        page.goto(self.url + "/login")
        page.fill("#pin", self.pin)
        page.click("#login-button")
        page.wait_for_url(re.compile(r"/control$"))

    def stop(self) -> None:
        self.server.shutdown()
        self.table.stop()  # closes every viewer's mailbox: open streams end
        self.server.server_close()
        self.thread.join(5)
        self.table.journal.close()
