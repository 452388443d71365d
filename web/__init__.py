"""Flask app factory: the live mirror page, the control API, server-sent events.

Like Flask's flaskr tutorial: ``create_app(table, test_config=None)``, blueprints,
no module-level app. Pages read immutable views only.
"""

from __future__ import annotations

from typing import Any, Mapping

from flask import Flask


def create_app(table: Any, test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the web app for one table (``refbox.table.Table`` or anything with its API)."""
    app = Flask(__name__)
    app.config.from_mapping(CONTROL_PIN="", SSE_KEEPALIVE=15.0, TABLE_NAME="table-1")
    if test_config:
        app.config.from_mapping(test_config)
    app.extensions["refbox.table"] = table
    from . import i18n  # per-request translations (docs/i18n.md)
    i18n.init_app(app)

    from . import api, mirror

    app.register_blueprint(mirror.bp)
    app.register_blueprint(api.bp)
    return app
