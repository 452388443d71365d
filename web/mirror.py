"""The live mirror page and its server-sent event stream."""

from __future__ import annotations

from typing import Iterator

from flask import Blueprint, Response, current_app, render_template, request

bp = Blueprint("mirror", __name__)


def table():  # type: ignore[no-untyped-def]
    return current_app.extensions["refbox.table"]


@bp.get("/")
def index() -> str:
    return render_template("mirror.html", view=table().view.text, name=current_app.config["TABLE_NAME"])


@bp.get("/api/view")
def view() -> Response:
    return Response(table().view.text, mimetype="application/json")


@bp.get("/stream")
def stream() -> Response:
    """Server-sent events: one ``view`` event per new view (id = view sequence);
    a comment line every few seconds keeps proxies from closing the stream."""
    t = table()
    keepalive = float(current_app.config["SSE_KEEPALIVE"])
    box = t.subscribe()
    max_events = request.args.get("max", type=int)  # tests and benchmarks stop the stream

    def events() -> Iterator[str]:
        sent = 0
        try:
            yield "retry: 1000\n\n"
            while max_events is None or sent < max_events:
                v = box.get(timeout=keepalive)
                if v is None and box.closed:
                    return
                if v is None:
                    yield ": keepalive\n\n"
                    continue
                sent += 1
                yield f"id: {v.seq}\nevent: view\ndata: {v.text}\n\n"
        finally:
            t.unsubscribe(box)

    return Response(events(), mimetype="text/event-stream", headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
