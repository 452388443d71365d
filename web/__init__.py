"""Flask app factory: the live mirror page, the control API, server-sent events.

Like Flask's flaskr tutorial: ``create_app(table, test_config=None)``, blueprints,
no module-level app. Pages read immutable views only.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask


def create_app(table: Any, test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the web app for one table (``refbox.table.Table`` or anything with its API);
    with ``CLUB_WATCHER`` (a ``refbox.club.ClubWatcher``) also the club dashboard,
    ``/club``. ``table`` may be ``None`` for the club dashboard alone."""
    app = Flask(__name__)
    app.config.from_mapping(CONTROL_PIN="", SSE_KEEPALIVE=15.0, TABLE_NAME="table-1")
    if test_config:
        app.config.from_mapping(test_config)
    app.extensions["refbox.table"] = table

    from . import api, mirror

    if table is not None:  # a club PC runs the club dashboard only
        app.register_blueprint(mirror.bp)
        app.register_blueprint(api.bp)
    club_watcher = app.config.get("CLUB_WATCHER")
    if club_watcher is not None:
        from . import club

        club.init_app(app, club_watcher)
    return app
