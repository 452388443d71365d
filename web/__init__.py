"""Flask app factory: the live mirror page, the control panel and API, server-sent events.

Like Flask's flaskr tutorial: ``create_app(table, test_config=None)``, blueprints,
no module-level app. Pages read immutable views only; every change goes through
the table's queue (``submit``/``press``/``new_game``/``reading``).

Config keys (``test_config`` or the runtime): ``CONTROL_PIN`` (empty: the control
panel and API are off), ``TABLE_NAME``, ``SECRET_KEY`` (generated at start-up when
not given: sessions then end with the process), ``SSE_KEEPALIVE`` (s),
``LOGIN_LIMIT`` wrong PINs per ``LOGIN_WINDOW`` seconds per client address,
``RATE_CLOCK`` (a monotonic clock, injectable for tests), ``HEALTH_INTERVAL`` (s).

>>> from refbox.journal import Journal
>>> from refbox.table import Table
>>> app = create_app(Table(Journal(":memory:"), {"game": "pig", "players": ["Ann", "Bob"]}), {"TESTING": True})
>>> app.test_client().get("/api/view").json["turn"]
'Ann'
"""

from __future__ import annotations

import secrets
import time
from typing import Any, Mapping

from flask import Flask
from werkzeug.exceptions import HTTPException

from .auth import RateLimiter
from .feed import Feed


def create_app(table: Any, test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the web app for one table (``refbox.table.Table`` or anything with its API);
    with ``CLUB_WATCHER`` (a ``refbox.club.ClubWatcher``) also the club dashboard,
    ``/club``. ``table`` may be ``None`` for the club dashboard alone."""
    app = Flask(__name__)
    app.config.from_mapping(
        CONTROL_PIN="",
        SSE_KEEPALIVE=15.0,
        TABLE_NAME="table-1",
        SECRET_KEY=None,
        LOGIN_LIMIT=5,
        LOGIN_WINDOW=60.0,
        RATE_CLOCK=time.monotonic,
        HEALTH_INTERVAL=5.0,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_HTTPONLY=True,
        MAX_CONTENT_LENGTH=64 * 1024,  # an event is a few hundred bytes; refuse floods early (413)
    )
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config["SECRET_KEY"]:
        # no key configured: a fresh one per process (logins end when the table restarts)
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    app.extensions["refbox.table"] = table
    app.extensions["refbox.boot"] = secrets.token_hex(4)
    app.extensions["refbox.limiter"] = RateLimiter(
        int(app.config["LOGIN_LIMIT"]), float(app.config["LOGIN_WINDOW"]), app.config["RATE_CLOCK"]
    )
    app.extensions["refbox.feed"] = Feed(table, app)

    from . import i18n

    i18n.init_app(app)  # per-request translations (docs/i18n.md)

    from . import api, auth, mirror

    app.register_error_handler(HTTPException, api.http_error)
    if table is not None:  # a club PC runs the club dashboard only
        app.register_blueprint(mirror.bp)
        app.register_blueprint(auth.bp)
        app.register_blueprint(api.bp)
    club_watcher = app.config.get("CLUB_WATCHER")
    if club_watcher is not None:
        from . import club

        club.init_app(app, club_watcher)
    return app
