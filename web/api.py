"""The JSON control API (``/api/...``). Reading is open; every POST needs control
(see :mod:`web.auth`: the ``X-Refbox-Pin`` header, or a login session plus its CSRF
token). Changes go through the table's queue like a button press; the answer says
accepted or refused, and why.

The API is described in ``web/openapi.json`` (served at ``/api/openapi.json``).
"""

from __future__ import annotations

import concurrent.futures
import json
import math
from importlib import resources
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, request
from werkzeug.exceptions import HTTPException

from refbox.camera import tell_when_taken
from rules.game import KEPT_ZONE

from .auth import Refused, refusal, require_control

bp = Blueprint("api", __name__, url_prefix="/api")

TIMEOUT = 5.0


def _table() -> Any:
    return current_app.extensions["refbox.table"]


def _answer(future: "concurrent.futures.Future[Any]") -> Any:
    try:
        result = future.result(TIMEOUT)
    except concurrent.futures.TimeoutError:
        return jsonify({"accepted": False, "reason": f"the table did not answer within {TIMEOUT:g} s"}), 503
    except Exception as exc:  # the journal failed; the table keeps its state
        return jsonify({"accepted": False, "reason": f"the table could not record it: {exc}"}), 500
    return jsonify(result.to_dict()), (200 if result.accepted else 422)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:40]} is too large for a number")
    return value


def _json_object(what: str) -> dict[str, Any]:
    """The body as a JSON object, strictly: standard JSON (no NaN or Infinity, which
    Python's json would take and then send back as invalid JSON), valid Unicode (no lone
    surrogates), numbers that fit a float, nested no deeper than the interpreter can walk."""
    if not request.is_json:
        raise Refused(400, f"the body must be a JSON object ({what}), sent as Content-Type: application/json")
    try:
        data = json.loads(request.get_data().decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
        json.dumps(data, ensure_ascii=False).encode("utf-8")  # lone surrogates ("\ud800") fail here
    except UnicodeDecodeError:
        raise Refused(400, f"the body is not UTF-8 text ({what})") from None
    except UnicodeEncodeError:
        raise Refused(400, f"the body is not valid Unicode ({what}): it has a lone surrogate escape") from None
    except RecursionError:
        raise Refused(400, f"the body is nested too deeply ({what})") from None
    except ValueError as exc:
        raise Refused(400, f"the body must be a JSON object ({what}); it is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise Refused(400, f"the body must be a JSON object ({what})")
    return data


@bp.before_request
def guard() -> Any:
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    try:
        require_control()
    except Refused as exc:
        return refusal(exc)
    return None


@bp.errorhandler(Refused)
def refused(exc: Refused) -> Any:
    return refusal(exc)


def http_error(exc: HTTPException) -> Any:
    """Flask's own refusals (no such route, wrong method, ...): JSON with the reason under
    ``/api/`` and ``/club/api/`` like every other API answer, Flask's page elsewhere."""
    if not request.path.startswith(("/api/", "/club/api/")):
        return exc
    headers = {"Allow": exc.get_response().headers["Allow"]} if exc.code == 405 else {}
    return jsonify({"accepted": False, "reason": f"{exc.name}: {exc.description}"}), exc.code or 500, headers


@bp.post("/events")
def post_event() -> Any:
    """Any event of the current game, e.g. ``{"type": "roll", "dice": [3, 5]}``."""
    return _answer(_table().submit(_json_object("an event"), "web"))


@bp.post("/press/<button>")
def press(button: str) -> Any:
    """A logical button, as on the keypad (``GET /api/buttons``)."""
    presser = current_app.extensions.get("refbox.press")
    if presser is not None:  # through the (mock) keypad, as a finger would
        return _answer(presser(button))
    return _answer(_table().press(button, "web"))


@bp.post("/undo")
def undo() -> Any:
    return _answer(_table().submit({"type": "undo"}, "web"))


@bp.post("/new-game")
def new_game() -> Any:
    """``{"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 50}}``."""
    return _answer(_table().new_game(_json_object("a game header: game, players, options")))


@bp.post("/reading")
def reading() -> Any:
    """Confirm (or correct) what the camera reads: ``{"dice": [3, 5, 6]}`` goes through
    the game's ``read_dice`` exactly as a settled camera reading would; with
    ``"kept": [6, 6]`` (the dice set aside, in the kept zone) as one from a camera
    with a kept zone: the game's ``keep`` when they differ from its kept dice, then
    the roll of ``dice``."""
    data = _json_object('{"dice": [...]}')
    bad = Refused(400, f"a reading has dice and may have kept, each a list of values 1..6; got {json.dumps(data)}")

    def values(key: str) -> list[int]:
        v = data.get(key, [])
        if not isinstance(v, list) or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in v):
            raise bad
        return v

    if not set(data) <= {"dice", "kept"} or "dice" not in data:
        raise bad
    dice, kept = values("dice"), values("kept")
    if "kept" not in data:
        answer = _table().reading(dice)
    else:
        answer = _table().reading([{"value": d, "zone": KEPT_ZONE} for d in kept] + [{"value": d, "zone": None} for d in dice])
    # once the table takes it, the camera is told: a throw it held for a die in doubt is this one (the dice
    # it sees: those set aside and those thrown, vision.settle.entered_on)
    tell_when_taken(current_app.extensions.get("refbox.camera"), answer, [*kept, *dice])
    return _answer(answer)


def _camera() -> Any:
    worker = current_app.extensions.get("refbox.camera")
    if worker is None:
        raise Refused(404, "this table has no camera")
    return worker


@bp.get("/camera/zones")
def camera_zones() -> Any:
    """The camera's calibration (``camera.zones``, vision/zones.py): ``{"calibration": {"size": [w, h], "zones":
    {name: polygon}, "ignore": [polygon]} or null, "file": where a calibration saved here is kept, or null,
    "frame": [w, h] of the camera's last picture, or null}`` (a calibration without a size is in its pixels)."""
    worker = _camera()
    zones, picture = worker.calibration, worker.picture
    frame = None if picture is None else [int(picture[0].shape[1]), int(picture[0].shape[0])]
    return jsonify({"calibration": None if zones is None else zones.to_calibration(), "file": worker.zones_file, "frame": frame})


@bp.post("/camera/zones")
def save_camera_zones() -> Any:
    """A calibration drawn on the control page, the same object as a calibration file: checked (refused
    with the key and the reason, 422), kept in the table's calibration file and used by the camera from its
    next picture on; ``{"accepted": true, "calibration": ..., "file": ...}``. A calibration of no zones,
    ``{"zones": {}}``, leaves the camera without zones (``calibration``: null)."""
    from vision.zones import CalibrationError

    worker = _camera()
    data = _json_object('a calibration: {"size": [w, h], "zones": {name: [[x, y], ...]}, "ignore": [[[x, y], ...]]}')
    if worker.zones_file is None:
        raise Refused(409, "this table keeps no calibration file (its journal is in memory): set camera.zones to the file to keep it in")
    try:
        zones = worker.save_zones(data)
    except CalibrationError as exc:
        raise Refused(422, str(exc)) from None
    except OSError as exc:
        raise Refused(500, f"the calibration could not be written to {worker.zones_file}: {exc}; the camera keeps its zones") from None
    return jsonify({"accepted": True, "calibration": None if zones is None else zones.to_calibration(), "file": worker.zones_file})


@bp.post("/camera/pause")
def pause_camera() -> Any:
    """``{"paused": true}``: the camera goes on reading (the control page shows what it reads) but sends nothing
    to the table, and the pages say to enter throws by hand; ``{"paused": false}``: it takes throws again (dice
    lying as it read them while paused are no throw). ``{"accepted": true, "paused": ...}``. The pause is kept
    beside the journal and holds after a restart (500 when it cannot be kept: nothing changes)."""
    worker = _camera()
    data = _json_object('{"paused": true} or {"paused": false}')
    unknown = sorted(set(data) - {"paused"})
    if unknown or not isinstance(data.get("paused"), bool):
        raise Refused(422, f'expected {{"paused": true}} or {{"paused": false}}, got {json.dumps(data)[:200]}')
    try:
        worker.pause(data["paused"])
    except OSError as exc:
        state = "paused" if worker.status["paused"] else "not paused"
        raise Refused(500, f"the pause could not be kept in {worker.pause_file}: {exc}; the camera is {state}, as before") from None
    return jsonify({"accepted": True, "paused": worker.status["paused"]})


@bp.get("/buttons")
def buttons() -> Any:
    """The logical buttons of the current game (what the keypad and the page can press)."""
    return jsonify(sorted([*_table().session.game.keypad, "undo"]))


@bp.get("/games")
def games() -> Any:
    """Every game with its players range, house-rule options and event types; the
    title and option descriptions in the request's language (``title_en`` in English)."""
    from refbox.i18n import localized_info
    from rules import all_games

    from .i18n import current_language

    return jsonify([localized_info(g.info(), current_language()) for g in all_games()])


@bp.get("/game")
def game() -> Any:
    """The current game: header, catalogue entry, event types legal now, buttons."""
    from refbox.i18n import localized_info

    from .i18n import current_language

    t = _table()
    session = t.session
    try:
        legal = list(session.game.legal_types(session.state))
    except Exception:  # a game that cannot tell: offer all its events
        legal = sorted(session.game.events)
    return jsonify({
        "id": t.game_id,
        "header": session.header.to_dict(),
        "info": localized_info(session.game.info(), current_language()),
        "legal": legal,
        "buttons": sorted([*session.game.keypad, "undo"]),
    })


@bp.get("/proposals")
def proposals() -> Any:
    """Dominoes: every legal placement of ``?tile=6-2`` now, as ``play`` events to confirm
    one of (what an ambiguous camera reading of a new tile would propose)."""
    from rules.dominoes import proposals as tile_proposals

    t = _table()
    if t.session.game.family != "dominoes":
        raise Refused(422, f"{t.session.game.name} has no tiles to place")
    text = request.args.get("tile", "")
    try:
        tile = [int(p) for p in text.replace(",", "-").split("-")]
        if len(tile) != 2 or not all(0 <= p <= 6 for p in tile):
            raise ValueError
    except ValueError:
        raise Refused(400, f"tile must be two pip counts 0..6 like 6-2, got {text!r}") from None
    return jsonify([e.to_dict() for e in tile_proposals(t.session.state, tile)])


@bp.get("/openapi.json")
def openapi() -> Response:
    text = resources.files("web").joinpath("openapi.json").read_text(encoding="utf-8")
    return Response(text, mimetype="application/json")
