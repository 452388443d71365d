"""The live mirror page, its server-sent event stream, and the read-only JSON API
(view, history, health, camera). Anyone on the network may read; nothing here changes state.

Stream protocol (``GET /stream``), every message has an ``id`` (see :mod:`web.feed`):

- ``event: history`` — ``{"game": id, "reset": bool, "events": [{"seq", "at", "event"}, ...]}``,
  journal events the client has not seen, oldest first; ``reset`` means "a different
  game than you had: drop your history" (a new game, or a first connection);
- ``event: view`` — the current view (JSON), whenever it changes;
- ``event: health`` — ``{device: {"ok", "detail"}}`` whenever device health changes.

A reconnecting client sends its last id (browsers do with ``Last-Event-ID``; a new
``EventSource`` passes ``?since=``) and gets the journal events it missed and the
current view. After a table restart the view sequence starts again; the boot id in
the stream id tells, and the full current view is sent.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any, Iterator

from flask import Blueprint, Response, current_app, jsonify, render_template, request

from .feed import Feed, Position, parse_position

bp = Blueprint("mirror", __name__)

HISTORY_LIMIT = 500  # the most a page asks for at once


def table() -> Any:
    return current_app.extensions["refbox.table"]


def feed() -> Feed:
    feed: Feed = current_app.extensions["refbox.feed"]
    return feed


@bp.get("/")
def index() -> str:
    return render_template("mirror.html", view=table().view.text, name=current_app.config["TABLE_NAME"],
                           control=bool(current_app.config["CONTROL_PIN"]))


@bp.get("/api/view")
def view() -> Response:
    return Response(table().view.text, mimetype="application/json")


def _int_arg(name: str, default: int) -> int | None:
    """A query parameter that must be a plain decimal integer when given (None: it is not)."""
    text = request.args.get(name)
    if text is None:
        return default
    return int(text) if re.fullmatch(r"-?[0-9]{1,18}", text) else None


@bp.get("/api/history")
def history() -> Any:
    """The current game's journal, newest first: ``?after=SEQ`` only later events,
    ``?limit=N`` at most N (default and maximum 500)."""
    t = table()
    after = _int_arg("after", 0)
    limit = _int_arg("limit", HISTORY_LIMIT)
    if after is None or limit is None or after < 0 or not 1 <= limit <= HISTORY_LIMIT:
        got = ", ".join(f"{k}={v!r}" for k, v in request.args.items() if k in ("after", "limit"))
        return jsonify({"reason": f"after must be an integer >= 0 and limit an integer in 1..{HISTORY_LIMIT}, "
                                  f"got {got}"}), 400
    game = t.game_id
    entries = feed().history(game, after)
    return jsonify({
        "game": game,
        "header": t.session.header.to_dict(),
        "total": len(entries),
        "events": [e.to_dict() for e in reversed(entries[-limit:])],
    })


@bp.get("/api/health")
def health() -> Any:
    """Device health from the runtime: ``{device: {"ok": bool, "detail": str}}`` ({} when unknown)."""
    return jsonify(feed().health(max_age=1.0))


@bp.get("/api/camera")
def camera() -> Any:
    """The camera: ``{"camera": null}`` when the table has none, else ``connected``,
    ``last_error``, ``readings``, ``dice_network``, ``dice_parts`` (whether the dice
    reader looks only at what differs from the table), ``unreadable`` and ``reading_error`` (pictures
    the readers failed on, and why the last one failed while no picture has been read since),
    ``settling`` (what the settler saw in the last picture: an unsure die holding the throw, a hand, ...)
    and ``last``, the newest reading with the table's
    answer (``n``, ``kind`` dice/tiles, ``seen``, ``accepted``, ``reason`` and
    ``reason_text`` in the request's language, ``event`` when accepted)."""
    from refbox.i18n import translate_reason

    from .i18n import current_language

    worker = current_app.extensions.get("refbox.camera")
    if worker is None:
        return jsonify({"camera": None})
    st = dict(worker.status)
    last = st.get("last")
    if last and last.get("reason"):
        st["last"] = {**last, "reason_text": translate_reason(last["reason"], current_language())}
    return jsonify({"camera": st})


PICTURE_WIDTH = 960
"""The widest ``GET /api/camera/picture`` sends the camera's picture (pixels; a smaller one as it is)."""


@bp.get("/api/camera/picture")
def camera_picture() -> Any:
    """The camera's last picture, a JPEG at most :data:`PICTURE_WIDTH` pixels wide, with the dice read
    in it boxed and labelled (``vision.annotate.draw_dice``: green when read surely enough for a
    throw, red with a ``?`` when not) and the calibration's zones outlined and named, its ignored
    areas greyed (``camera.zones``; ``vision.annotate.draw_zones``), so that the operator sees which
    die is in doubt, what the camera sees of the table, and whether the calibration fits it. The operator's only (a login, or the PIN in ``X-Refbox-Pin``): it
    shows the players. 404 with the reason when the table has no camera or it gave no picture yet."""
    import cv2

    from vision.annotate import draw_dice, draw_zones

    from .auth import Refused, refusal, require_operator

    try:
        require_operator()
    except Refused as exc:
        return refusal(exc)
    worker = current_app.extensions.get("refbox.camera")
    picture = None if worker is None else worker.picture
    if picture is None:
        why = "this table has no camera" if worker is None else "the camera has given no picture yet"
        return jsonify({"accepted": False, "reason": why}), 404
    frame, dice, sure = picture
    zones = getattr(worker, "zones", None)  # (a calibration: its zones and ignored areas drawn, to check it against the picture)
    k = min(1.0, PICTURE_WIDTH / frame.shape[1])
    out = frame if k == 1.0 else cv2.resize(frame, (PICTURE_WIDTH, max(1, round(frame.shape[0] * k))), interpolation=cv2.INTER_AREA)
    # (drawn on the copy sent, not shrunk with it: labels as legible at any camera's size)
    out = draw_dice(out if zones is None else draw_zones(out, zones, k), dice, sure, k)
    ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:  # (OpenCV could not encode it: said, not a broken picture)
        return jsonify({"accepted": False, "reason": f"the camera's picture ({frame.shape}) could not be encoded"}), 500
    return Response(jpeg.tobytes(), mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


def _message(kind: str, pos: Position, data: str) -> str:
    return f"id: {pos}\nevent: {kind}\ndata: {data}\n\n"


@bp.get("/stream")
def stream() -> Response:
    t = table()
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    keepalive = float(app.config["SSE_KEEPALIVE"])
    health_every = float(app.config["HEALTH_INTERVAL"])
    boot: str = app.extensions["refbox.boot"]
    shared: Feed = app.extensions["refbox.feed"]
    since = parse_position(request.headers.get("Last-Event-ID") or request.args.get("since"))
    max_events = request.args.get("max", type=int)  # tests and benchmarks stop the stream
    box = t.subscribe()

    def events() -> Iterator[str]:
        game = since.game if since else -1
        jseq = since.jseq if since else 0
        vseq = since.vseq if since and since.boot == boot else -1
        sent_health: dict[str, Any] = {}
        views = 0
        last_write = time.monotonic()
        try:
            yield "retry: 1000\n\n"
            while max_events is None or views < max_events:
                v = box.get(timeout=min(keepalive, health_every))
                if v is None and box.closed:
                    return
                out = []
                health_now = shared.health(max_age=health_every)
                if health_now != sent_health:
                    sent_health = health_now
                    out.append(_message("health", Position(boot, max(game, 0), jseq, max(vseq, 0)), json.dumps(health_now)))
                if v is not None:
                    now_game = t.game_id
                    reset = now_game != game
                    # a first connection gets the newest few hundred events (what a page shows)
                    found = shared.history_message(now_game, jseq, v.seq, reset, HISTORY_LIMIT)
                    if found is not None:
                        game, (jseq, body) = now_game, found
                        out.append(_message("history", Position(boot, game, jseq, max(vseq, 0)), body))
                    if v.seq != vseq:
                        vseq = v.seq
                        views += 1
                        out.append(_message("view", Position(boot, game, jseq, vseq), v.text))
                if out:
                    last_write = time.monotonic()
                    yield "".join(out)
                elif time.monotonic() - last_write >= keepalive:
                    last_write = time.monotonic()
                    yield ": keepalive\n\n"
        finally:
            t.unsubscribe(box)

    return Response(events(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
