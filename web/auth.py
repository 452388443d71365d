"""Who may change the table: the control PIN, the login session, CSRF, and a rate limit
on wrong PINs.

Two ways in, both need ``CONTROL_PIN`` to be configured (empty: control is off):

- a browser logs in once at ``/login`` with the PIN and gets a signed session cookie
  (Flask session); every state-changing request it makes must then carry the
  session's CSRF token in the ``X-CSRF-Token`` header (forms: a ``csrf`` field);
- an API client sends the PIN in ``X-Refbox-Pin`` with each request (no cookie, no token).

Wrong PINs, from either way, count against the client's address: after
``LOGIN_LIMIT`` failures within ``LOGIN_WINDOW`` seconds the address gets 429 until
the oldest failure ages out.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections import deque
from typing import Any, Callable

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

bp = Blueprint("auth", __name__)


class RateLimiter:
    """At most ``limit`` failures per ``window`` seconds per key; ``clock`` is monotonic seconds.

    >>> now = [0.0]
    >>> rl = RateLimiter(2, 60, lambda: now[0])
    >>> rl.fail("a"); rl.retry_after("a")
    0.0
    >>> rl.fail("a"); rl.retry_after("a")
    60.0
    >>> now[0] = 30; rl.retry_after("a"), rl.retry_after("b")
    (30.0, 0.0)
    >>> now[0] = 60; rl.retry_after("a")
    0.0
    """

    MAX_KEYS = 10_000  # bounded memory whatever the clients do

    def __init__(self, limit: int, window: float, clock: Callable[[], float]) -> None:
        if limit < 1:
            raise ValueError(f"LOGIN_LIMIT must be at least 1, got {limit}")
        if window <= 0:
            raise ValueError(f"LOGIN_WINDOW must be positive, got {window}")
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        times = self._failures.get(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            self._failures.pop(key, None)
        return times

    def retry_after(self, key: str) -> float:
        """Seconds until ``key`` may try again (0: now)."""
        now = self.clock()
        times = self._recent(key, now)
        if len(times) < self.limit:
            return 0.0
        return max(0.0, times[-self.limit] + self.window - now)

    def fail(self, key: str) -> None:
        now = self.clock()
        times = self._recent(key, now)
        if key not in self._failures:
            if len(self._failures) >= self.MAX_KEYS:  # forget the oldest-seen client
                self._failures.pop(next(iter(self._failures)))
            self._failures[key] = times
        times.append(now)

    def reset(self, key: str) -> None:
        self._failures.pop(key, None)


class Refused(Exception):
    """A control request that may not go through: HTTP status and the reason."""

    def __init__(self, status: int, reason: str, retry_after: float = 0.0) -> None:
        super().__init__(reason)
        self.status, self.reason, self.retry_after = status, reason, retry_after


def _pin() -> str:
    return str(current_app.config["CONTROL_PIN"] or "")


def _pin_tag(pin: str) -> str:
    """Binds a login to the PIN it was made with: changing the PIN logs everyone out."""
    return hashlib.sha256(f"{current_app.config['SECRET_KEY']}:{pin}".encode()).hexdigest()[:16]


def _client() -> str:
    return request.remote_addr or "unknown"


def check_pin(given: str) -> None:
    """Raise :class:`Refused` (403 wrong, 429 too many) unless ``given`` is the PIN; failures count."""
    pin = _pin()
    if not pin:
        raise Refused(403, "control is off: no control PIN is configured (web.pin)")
    limiter: RateLimiter = current_app.extensions["refbox.limiter"]
    wait = limiter.retry_after(_client())
    if wait > 0:
        raise Refused(429, f"too many wrong PINs from {_client()}; try again in {math.ceil(wait)} s", wait)
    if not hmac.compare_digest(given.encode(), pin.encode()):
        limiter.fail(_client())
        raise Refused(403, "wrong PIN")


def logged_in() -> bool:
    pin = _pin()
    tag = session.get("control")
    return bool(pin) and isinstance(tag, str) and hmac.compare_digest(tag, _pin_tag(pin))


def csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str):
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def require_operator() -> bool:
    """For what only the operator may see (the camera's picture): the PIN header, or a login. True
    when it was the PIN header (which needs no CSRF token)."""
    if not _pin():
        raise Refused(403, "control is off: no control PIN is configured (web.pin)")
    if "X-Refbox-Pin" in request.headers:
        check_pin(request.headers["X-Refbox-Pin"])
        return True
    if not logged_in():
        raise Refused(403, "not allowed: log in at /login with the control PIN, or send the PIN in X-Refbox-Pin")
    return False


def require_control() -> None:
    """For every state-changing request: the PIN header, or a login plus its CSRF token."""
    if require_operator():
        return
    given = request.headers.get("X-CSRF-Token") or request.form.get("csrf", "")
    if not given or not hmac.compare_digest(given.encode(), str(session.get("csrf", "")).encode()):
        raise Refused(403, "missing or wrong CSRF token (header X-CSRF-Token)")


def refusal(exc: Refused) -> tuple[Response, int, dict[str, str]]:
    headers = {"Retry-After": str(math.ceil(exc.retry_after))} if exc.status == 429 else {}
    return jsonify({"accepted": False, "reason": exc.reason}), exc.status, headers


@bp.get("/login")
def login_form() -> Any:
    if logged_in():
        return redirect(url_for("auth.control"))
    return render_template("login.html", name=current_app.config["TABLE_NAME"], error="", enabled=bool(_pin()))


@bp.post("/login")
def login() -> Any:
    try:
        check_pin(request.form.get("pin", ""))
    except Refused as exc:
        headers = {"Retry-After": str(math.ceil(exc.retry_after))} if exc.status == 429 else {}
        from refbox.i18n import translate_reason

        from .i18n import current_language

        page = render_template("login.html", name=current_app.config["TABLE_NAME"],
                               error=translate_reason(exc.reason, current_language()), enabled=bool(_pin()))
        return page, exc.status, headers
    current_app.extensions["refbox.limiter"].reset(_client())
    session.clear()
    session["control"] = _pin_tag(_pin())
    csrf_token()
    return redirect(url_for("auth.control"))


@bp.post("/logout")
def logout() -> Any:
    try:
        require_control()
    except Refused as exc:
        return refusal(exc)
    session.clear()
    return redirect(url_for("mirror.index"))


@bp.get("/control")
def control() -> Any:
    if not logged_in():
        return redirect(url_for("auth.login_form"))
    table = current_app.extensions["refbox.table"]
    return render_template("control.html", name=current_app.config["TABLE_NAME"], view=table.view.text,
                           csrf=csrf_token())
