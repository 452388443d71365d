"""The club dashboard: every table of the club at once, live (docs/club.md).

Reads a ``refbox.club.ClubWatcher`` (anything with ``tables()``, ``wait(after,
timeout)``, ``version`` and ``status()``), given as ``app.config["CLUB_WATCHER"]``.
"""

from __future__ import annotations

import json
from typing import Any, Iterator

from flask import Blueprint, Flask, Response, current_app, redirect, render_template, request, url_for
from werkzeug.wrappers.response import Response as BaseResponse

bp = Blueprint("club", __name__)


def init_app(app: Flask, watcher: Any) -> None:
    """Register the dashboard; with no table (a club PC), ``/`` leads to it."""
    app.extensions["refbox.club"] = watcher
    if "jinja2.ext.InternationalizationExtension" not in app.jinja_env.extensions:
        app.jinja_env.add_extension("jinja2.ext.i18n")
        app.jinja_env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    app.register_blueprint(bp)
    if app.extensions.get("refbox.table") is None:
        app.add_url_rule("/", "club_home", lambda: redirect(url_for("club.page")))


def watcher() -> Any:
    return current_app.extensions["refbox.club"]


def tile(entry: dict[str, Any]) -> dict[str, Any]:
    """What a tile needs: the summary, not the whole view."""
    return {k: entry.get(k) for k in ("table", "status", "summary", "version", "updated")}


def tiles(w: Any = None) -> list[dict[str, Any]]:
    return [tile(e) for e in (w or watcher()).tables().values()]


@bp.get("/club")
def page() -> str:
    w = watcher()
    return render_template("club.html", tiles=tiles(), broker=w.status(), club_name=current_app.config.get("CLUB_NAME", ""))


@bp.get("/club/api/tables")
def tables_json() -> BaseResponse:
    return Response(json.dumps({"broker": watcher().status(), "tables": tiles()}, ensure_ascii=False),
                    mimetype="application/json")


@bp.get("/club/stream")
def stream() -> BaseResponse:
    """Server-sent events: ``tables`` (all tiles) first, then one ``table`` event per
    changed table and a ``broker`` event when the broker link comes or goes."""
    w = watcher()
    keepalive = float(current_app.config.get("SSE_KEEPALIVE", 15.0))
    max_events = request.args.get("max", type=int)  # tests stop the stream

    def events() -> Iterator[str]:
        sent = 0
        version = w.version
        broker = w.status()
        yield "retry: 1000\n\n"
        yield f"event: broker\ndata: {json.dumps(broker)}\n\n"
        yield f"event: tables\ndata: {json.dumps(tiles(w), ensure_ascii=False)}\n\n"
        sent += 1
        while max_events is None or sent < max_events:
            new = w.wait(version, keepalive)
            if new == version:
                yield ": keepalive\n\n"
                continue
            for entry in w.tables().values():
                if (entry.get("version") or 0) > version:
                    sent += 1
                    yield f"id: {entry['version']}\nevent: table\ndata: {json.dumps(tile(entry), ensure_ascii=False)}\n\n"
            version = new
            now = w.status()
            if now["connected"] != broker["connected"]:
                broker = now
                yield f"event: broker\ndata: {json.dumps(broker)}\n\n"

    return Response(events(), mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
