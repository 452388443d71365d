"""The web page in the viewer's language: one language per request.

``init_app(app)`` (called by ``create_app``):

- enables ``jinja2.ext.i18n`` and installs ``_``, ``gettext``, ``ngettext`` and
  ``pgettext`` callables that look up the request's translations in ``flask.g``
  (new-style gettext: ``{{ _("%(n)s fouls", n=3) }}`` formats and escapes);
- before each request chooses the language: ``?lang=uk|ru|en``, then the
  ``refbox_lang`` cookie, then the table's ``LANGUAGE`` setting
  (``table.language``), then ``Accept-Language`` (``refbox.i18n.negotiate``);
- remembers a ``?lang=`` choice in the cookie;
- adds ``reason_text`` (the refusal in the request's language) beside ``reason`` to
  JSON answers of refused events, leaving ``reason`` itself unchanged;
- gives templates ``lang`` (for ``<html lang>``), the filters ``number`` and
  ``datetime`` (Babel, by locale; the match clock is never reformatted) and
  ``i18n_js``: what the page's script needs in the request's language (its own
  messages :data:`JS_MESSAGES`, the games' names, the period names), for
  ``<script id="i18n" type="application/json">{{ i18n_js|tojson }}</script>``.
"""

from __future__ import annotations

import datetime as _dt
import json
from functools import lru_cache
from typing import Any

from flask import Flask, Response, g, request

from refbox import i18n

LANGUAGE_KEY = "LANGUAGE"  # app.config: the table's configured language

#: Texts the mirror page's script writes itself (brace placeholders, filled in JS).
JS_MESSAGES: tuple[str, ...] = (
    i18n.N_("live"),
    i18n.N_("reconnecting…"),
    i18n.N_("{turn} to play"),
    i18n.N_("series {total}"),
    i18n.N_("{winner} wins"),
    i18n.N_("accepted: {event}"),
    i18n.N_("refused: {reason}"),
    i18n.N_("fouls {n}"),
    i18n.N_("timeouts {n}"),
)


def current_language() -> str:
    return str(getattr(g, "lang", i18n.DEFAULT_LANGUAGE))


def _tr() -> Any:
    tr = getattr(g, "translations", None)
    return tr if tr is not None else i18n.translations(i18n.DEFAULT_LANGUAGE)


def _gettext(message: str) -> str:
    return str(_tr().gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> str:
    return str(_tr().ngettext(singular, plural, n))


def _pgettext(context: str, message: str) -> str:
    return str(_tr().pgettext(context, message))


def _npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return str(_tr().npgettext(context, singular, plural, n))


def choose_language() -> None:
    from flask import current_app

    accept = [lang for lang, _q in request.accept_languages]
    g.lang = i18n.negotiate(
        request.args.get("lang"),
        request.cookies.get(i18n.COOKIE),
        str(current_app.config.get(LANGUAGE_KEY, i18n.DEFAULT_LANGUAGE)),
        accept,
    )
    g.translations = i18n.translations(g.lang)


def remember_and_translate(response: Response) -> Response:
    asked = request.args.get("lang")
    if asked and asked in i18n.LANGUAGES:
        response.set_cookie(i18n.COOKIE, asked, max_age=365 * 24 * 3600, samesite="Lax")
    # only refusals are rewritten (4xx): the views served as JSON are never re-parsed
    if 400 <= response.status_code < 500 and response.is_json and not response.direct_passthrough:
        data = response.get_json(silent=True)
        if isinstance(data, dict) and isinstance(data.get("reason"), str) and data.get("accepted") is False:
            data["reason_text"] = i18n.translate_reason(data["reason"], current_language())
            response.set_data(json.dumps(data, ensure_ascii=False).encode("utf-8"))
    return response


def _number(value: Any) -> str:
    return i18n.format_decimal(value, current_language())


def _datetime(value: Any, fmt: str = "medium") -> str:
    if isinstance(value, int | float):
        value = _dt.datetime.fromtimestamp(value)
    return i18n.format_datetime(value, current_language(), fmt)


@lru_cache(maxsize=None)
def js_catalogue(lang: str) -> dict[str, dict[str, str]]:
    """Messages, game names and period names in ``lang`` for the page's script."""
    from rules import all_games

    tr = i18n.translations(lang)
    return {
        "messages": {m: tr.gettext(m) for m in JS_MESSAGES},
        "games": {g.name: i18n.game_title(g.name, g.title, lang) for g in all_games()},
        "periods": {p: tr.pgettext("period", p) for p in i18n.PERIOD_NAMES},
    }


def init_app(app: Flask) -> None:
    """Per-request translations for the app's templates (see the module docstring)."""
    if "jinja2.ext.InternationalizationExtension" not in app.jinja_env.extensions:
        app.jinja_env.add_extension("jinja2.ext.i18n")
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        _gettext, _ngettext, newstyle=True, pgettext=_pgettext, npgettext=_npgettext
    )
    app.jinja_env.filters["number"] = _number
    app.jinja_env.filters["datetime"] = _datetime
    app.before_request(choose_language)
    app.after_request(remember_and_translate)
    app.context_processor(lambda: {"lang": current_language(), "languages": i18n.LANGUAGES,
                                   "i18n_js": js_catalogue(current_language())})
