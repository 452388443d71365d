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
- gives templates ``lang`` (for ``<html lang>``), ``languages`` (code, own name)
  for the language switch, the filters ``number`` and ``datetime`` (Babel, by
  locale; the match clock is never reformatted) and ``names``: the names the page's
  script shows that live as data (games, families, periods, buttons and event
  types) in the request's language. ``templates/strings.html`` puts them, with
  every other word the scripts write (each through ``_()``), into the one JSON
  object ``base.html`` gives the scripts as
  ``<script type="application/json" id="strings">{{ page_strings() }}</script>``
  (rendered once per language: :func:`page_strings`).
"""

from __future__ import annotations

import datetime as _dt
import json
from functools import lru_cache
from typing import Any

from flask import Flask, Response, g, request
from markupsafe import Markup

from refbox import i18n

LANGUAGE_KEY = "LANGUAGE"  # app.config: the table's configured language

#: Each language's name in itself (the language switch: the same in every language).
LANGUAGE_NAMES: dict[str, tuple[str, str]] = {
    "uk": ("Укр", "Українська"), "ru": ("Рус", "Русский"), "en": ("Eng", "English"),
}


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
    """Names that live as data, in ``lang``, for the page's scripts: games (by id),
    families, periods of the field sports, and the words of buttons and event types."""
    from rules import all_games

    tr = i18n.translations(lang)
    games = all_games()
    words = sorted({w for g in games for w in (*g.keypad, *g.events)} | {"undo"})
    return {
        "games": {g.name: i18n.game_title(g.name, g.title, lang) for g in games},
        "families": {g.family: tr.pgettext("family", g.family) for g in games},
        "periods": {p: tr.pgettext("period", p) for p in i18n.PERIOD_NAMES},
        "actions": {w: tr.pgettext("action", i18n.action_text(w)) for w in words},
    }


def page_strings() -> Markup:
    """The ``#strings`` block's JSON (``templates/strings.html``) in the request's
    language, rendered once per language and app: some 300 messages that do not
    change while the process runs."""
    from flask import current_app, render_template

    cache: dict[str, Markup] = current_app.extensions.setdefault("refbox.strings", {})
    lang = current_language()
    if lang not in cache:
        cache[lang] = Markup(render_template("strings.html").strip())
    return cache[lang]


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
    app.context_processor(lambda: {"lang": current_language(),
                                   "languages": [(code, *LANGUAGE_NAMES[code]) for code in i18n.LANGUAGES],
                                   "names": js_catalogue(current_language()),
                                   "page_strings": page_strings})
