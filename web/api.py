"""Control API: submit events and button presses. Needs the control PIN
(``X-Refbox-Pin`` header); with no PIN configured the control API is off."""

from __future__ import annotations

import hmac
from typing import Any

from flask import Blueprint, current_app, jsonify, request
from werkzeug.wrappers import Response

bp = Blueprint("api", __name__, url_prefix="/api")

TIMEOUT = 5.0


def _authorised() -> tuple[bool, str]:
    pin = current_app.config["CONTROL_PIN"]
    if not pin:
        return False, "the control API is off: no control PIN is configured (web.pin)"
    given = request.headers.get("X-Refbox-Pin", "")
    if not hmac.compare_digest(given.encode(), str(pin).encode()):
        return False, "wrong or missing PIN (header X-Refbox-Pin)"
    return True, ""


def _answer(result: Any) -> tuple[Response, int]:
    return jsonify(result.to_dict()), (200 if result.accepted else 422)


@bp.before_request
def guard() -> Any:
    if request.method == "GET":
        return None
    ok, reason = _authorised()
    if not ok:
        return jsonify({"accepted": False, "reason": reason}), 403
    return None


@bp.post("/events")
def post_event() -> Any:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        return jsonify({"accepted": False, "reason": "the body must be a JSON object (an event)"}), 400
    table = current_app.extensions["refbox.table"]
    return _answer(table.submit(data, "web").result(TIMEOUT))


@bp.post("/press/<button>")
def press(button: str) -> Any:
    table = current_app.extensions["refbox.table"]
    presser = current_app.extensions.get("refbox.press")
    if presser is not None:  # through the (mock) keypad, as a finger would
        return _answer(presser(button).result(TIMEOUT))
    return _answer(table.press(button, "web").result(TIMEOUT))


@bp.get("/buttons")
def buttons() -> Any:
    """The logical buttons of the current game (what the keypad and the page can press)."""
    table = current_app.extensions["refbox.table"]
    return jsonify(sorted([*table.session.game.keypad, "undo"]))
