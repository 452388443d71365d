"""Languages of the people at the table: Ukrainian, Russian and English.

Standard gettext catalogues (``refbox/locale/{uk,ru,en}/LC_MESSAGES/refbox.po``,
compiled to ``.mo`` by ``scripts/i18n.sh compile`` or, when a ``.mo`` is missing or
older than its ``.po``, on first use). Numbers and dates follow the locale through
Babel; the match clock never does (it stays ``MM:SS``).

>>> gettext_for("uk", "Control panel")
'Панель керування'
>>> game_title("pig", "Pig", "ru")
'Свинья'
>>> format_decimal(1234.5, "uk") == "1\\xa0234,5"
True
>>> translate_reason("illegal roll [1] in pig (pig, turn Ann): the game is over, Bob won", "uk")
'недопустима подія roll [1] in pig (pig, turn Ann): гру закінчено, переміг Bob'

Refusals of events are written in English by the pure ``rules`` packages;
:func:`translate_reason` translates them at the edge by matching the message against
a catalogue of patterns (:data:`REASON_PATTERNS`, each a msgid with named
placeholders). A reason no pattern matches stays English; ``docs/i18n.md`` lists
what is covered.
"""

from __future__ import annotations

import datetime as _dt
import gettext as _gettext
import io
import logging
import re
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

log = logging.getLogger(__name__)

LANGUAGES: tuple[str, ...] = ("uk", "ru", "en")
DEFAULT_LANGUAGE = "en"
DOMAIN = "refbox"
LOCALE_DIR = Path(__file__).parent / "locale"
COOKIE = "refbox_lang"
#: Babel locale of each language (numbers, dates).
BABEL_LOCALES: Mapping[str, str] = {"uk": "uk_UA", "ru": "ru_RU", "en": "en_GB"}


class UnknownLanguage(ValueError):
    """A language code that is not one of :data:`LANGUAGES`."""


def N_(message: str) -> str:
    """Mark a string for extraction without translating it here."""
    return message


def check_language(lang: str, what: str = "language") -> str:
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"{what}: {lang!r} is not one of {list(LANGUAGES)}")
    return lang


# --- catalogues -------------------------------------------------------------------


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


def compile_catalogue(lang: str, locale_dir: Path = LOCALE_DIR, *, write: bool = True) -> bytes:
    """Compile one ``.po`` to ``.mo`` bytes (written beside it when ``write``).

    Fuzzy entries are left out, like ``msgfmt`` and ``pybabel compile`` do.
    """
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po_path(lang, locale_dir).open("rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    data = buf.getvalue()
    if write:
        target = mo_path(lang, locale_dir)
        tmp = target.with_suffix(".mo.tmp")
        tmp.write_bytes(data)
        tmp.replace(target)
    return data


def _is_stale(lang: str, locale_dir: Path) -> bool:
    mo, po = mo_path(lang, locale_dir), po_path(lang, locale_dir)
    return not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime


_lock = threading.Lock()


@lru_cache(maxsize=None)
def _load(lang: str, locale_dir: Path) -> _gettext.GNUTranslations:
    if not po_path(lang, locale_dir).exists():
        raise FileNotFoundError(f"no catalogue for {lang!r}: {po_path(lang, locale_dir)} is missing")
    with _lock:
        if _is_stale(lang, locale_dir):
            try:
                data = compile_catalogue(lang, locale_dir)
                log.info("compiled the %s catalogue to %s", lang, mo_path(lang, locale_dir))
            except OSError as exc:  # a read-only install: compile in memory, say so
                log.warning("cannot write %s (%s); using a catalogue compiled in memory",
                            mo_path(lang, locale_dir), exc)
                data = compile_catalogue(lang, locale_dir, write=False)
            return _gettext.GNUTranslations(io.BytesIO(data))
    with mo_path(lang, locale_dir).open("rb") as fh:
        return _gettext.GNUTranslations(fh)


def translations(lang: str, locale_dir: Path | None = None) -> _gettext.GNUTranslations:
    """The compiled catalogue of ``lang`` (cached; compiled first when needed)."""
    check_language(lang)
    return _load(lang, locale_dir or LOCALE_DIR)


def gettext_for(lang: str, message: str) -> str:
    return translations(lang).gettext(message)


def ngettext_for(lang: str, singular: str, plural: str, n: int) -> str:
    return translations(lang).ngettext(singular, plural, n)


def pgettext_for(lang: str, context: str, message: str) -> str:
    return translations(lang).pgettext(context, message)


def translator(lang: str) -> Callable[[str], str]:
    """A one-argument ``_`` for ``lang`` (what pure renderers take as a parameter)."""
    return translations(lang).gettext


# --- choosing the language ----------------------------------------------------------


def negotiate(request_lang: str | None, cookie: str | None, config_default: str,
              accept_languages: Iterable[str] = ()) -> str:
    """The language of one request: ``?lang=`` first, then the cookie, then the
    table's configured language; ``Accept-Language`` only when nothing else says.

    Unknown values are skipped, never an error (a stale cookie must not break a page).

    >>> negotiate("ru", "uk", "en"), negotiate(None, "uk", "en"), negotiate("xx", None, "uk")
    ('ru', 'uk', 'uk')
    """
    for cand in (request_lang, cookie):
        if cand:
            code = cand.strip().lower()[:2]
            if code in LANGUAGES:
                return code
    if config_default in LANGUAGES:
        return config_default
    for cand in accept_languages:
        code = cand.strip().lower()[:2]
        if code in LANGUAGES:
            return code
    return DEFAULT_LANGUAGE


# --- numbers and dates -------------------------------------------------------------


def format_decimal(value: float | int, lang: str) -> str:
    from babel.numbers import format_decimal as fd

    return fd(value, locale=BABEL_LOCALES[check_language(lang)])


def format_percent(value: float, lang: str) -> str:
    from babel.numbers import format_percent as fp

    return fp(value, locale=BABEL_LOCALES[check_language(lang)], decimal_quantization=False)


def format_datetime(value: _dt.datetime, lang: str, fmt: str = "medium") -> str:
    from babel.dates import format_datetime as fdt

    return fdt(value, format=fmt, locale=BABEL_LOCALES[check_language(lang)])


def format_date(value: _dt.date, lang: str, fmt: str = "long") -> str:
    from babel.dates import format_date as fd

    return fd(value, format=fmt, locale=BABEL_LOCALES[check_language(lang)])


#: The phases of rules/sports/match.py build_phases (tests check the list is complete).
PERIOD_NAMES: tuple[str, ...] = (
    "1st half", "half-time", "2nd half", "full time", "extra time 1st half",
    "extra time interval", "extra time 2nd half", "end of extra time", "kicks from the mark",
)


#: What the field sports refuse outside play (``no {what} during {period}``).
WHAT_NAMES: tuple[str, ...] = (
    "accumulated foul", "added time", "time-out", "goal", "foul", "kick", "card", "send_off",
    "four_seconds", "four_seconds_cancel", "four_seconds_end", "score", "substitution",
)


# --- games and options ---------------------------------------------------------------


def game_title(name: str, title: str, lang: str) -> str:
    """A game's name in ``lang`` (msgctxt ``game:NAME``; the English title in ``en``)."""
    out = pgettext_for(lang, f"game:{name}", title)
    return out or title


def action_text(name: str) -> str:
    """The English words of a button or event type (msgctxt ``action``): ``goal_home``
    is ``goal home``; :func:`action_name` gives them in ``lang``."""
    return name.replace("_", " ")


def action_name(name: str, lang: str) -> str:
    return pgettext_for(lang, "action", action_text(name))


def option_help(text: str, lang: str) -> str:
    return pgettext_for(lang, "option", text)


def period_name(text: str, lang: str) -> str:
    """A period's name from a view (``1st half``, ``half-time``, ...)."""
    return pgettext_for(lang, "period", text)


def display_text(text: str, lang: str) -> str:
    """A short scoreboard text (``TIME OUT``), before any transliteration."""
    return pgettext_for(lang, "display", text)


# --- refusals of events --------------------------------------------------------------

#: The envelopes built by ``rules.events``: IllegalEvent and MalformedEvent.
ENVELOPES: tuple[str, ...] = (
    N_("illegal {event} ({state}): {reason}"),
    N_("illegal {event}: {reason}"),
    N_("malformed event {event}: {reason}"),
)

#: Reasons the rules engines give, as patterns. A placeholder named ``reason`` or
#: ``why`` is itself translated (nested reasons); the others are copied as written.
REASON_PATTERNS: tuple[str, ...] = (
    # rules/session.py
    N_("nothing to undo"),
    N_("time {t} is before the last event's time {last}"),
    N_("undo takes no fields, got {fields}"),
    # rules/events.py (well-formedness)
    N_("an event must be a JSON object"),
    N_("'type' must be a snake_case verb, got {value}"),
    N_("'t' must be a non-negative number of seconds, got {value}"),
    N_("'source' must be one of {allowed}, got {value}"),
    N_("field names must be strings, got {value}"),
    N_("unknown event type {type} for {game}; known: {known}"),
    N_("unknown field(s) {fields} for {type}; allowed: {allowed}"),
    N_("{type} needs the field {name}"),
    N_("field {name}: {reason}"),
    N_("item {index}: {reason}"),
    N_("expected a whole number, got {value}"),
    N_("expected a number in {range}, got {value}"),
    N_("expected a number, got {value}"),
    N_("expected a string, got {value}"),
    N_("expected one of {allowed}, got {value}"),
    N_("expected at most {n} characters, got {count}"),
    N_("expected true or false, got {value}"),
    N_("expected a list, got {value}"),
    N_("expected a list of {n}, got {count}"),
    N_("expected a list of {range} items, got {count}"),
    N_("undo is handled by the session, not the game"),
    # refbox/table.py
    N_("button {button} does nothing in {game}; buttons: {buttons}"),
    N_("no new tile that can be played now among {tiles}"),
    N_("ambiguous: {n} placements ({ends}); confirm one on the control page"),
    # web/auth.py and web/api.py
    N_("control is off: no control PIN is configured (web.pin)"),
    N_("wrong PIN"),
    N_("too many wrong PINs from {client}; try again in {seconds} s"),
    N_("not allowed: log in at /login with the control PIN, or send the PIN in X-Refbox-Pin"),
    N_("missing or wrong CSRF token (header X-CSRF-Token)"),
    N_("the table did not answer within {seconds} s"),
    N_("the table could not record it: {error}"),
    N_("the body must be a JSON object ({body})"),
    N_("the body must be a JSON object ({body}), sent as Content-Type: application/json"),
    N_("the body must be a JSON object ({body}); it is not valid JSON: {error}"),
    N_("the body is not UTF-8 text ({body})"),
    N_("the body is not valid Unicode ({body}): it has a lone surrogate escape"),
    N_("the body is nested too deeply ({body})"),
    N_("after must be an integer >= 0 and limit an integer in 1..{limit}, got {got}"),
    N_("{game} has no tiles to place"),
    N_("tile must be two pip counts 0..6 like 6-2, got {value}"),
    # the most frequent engine refusals
    N_("the game is over"),
    N_("the game is over, {winner} won"),
    N_("the game is over, {loser} lost"),
    N_("the match is over"),
    N_("the match was abandoned"),
    N_("throw first"),
    N_("throw the five dice first"),
    N_("throw before stopping"),
    N_("throw at least once before stopping"),
    N_("not the time to throw"),
    N_("no tile has been played yet"),
    N_("the hand is still being played"),
    N_("it is {player}'s turn, not {name}'s"),
    N_("it is {team}'s kick"),
    N_("no player {name}; players: {players}"),
    N_("{kind} is not possible now; expected {expected}"),
    N_("no throws left ({n} agreed)"),
    N_("no throws left ({n} allowed)"),
    N_("no throws left: score a combination"),
    N_("throw {n} dice, got {count}"),
    N_("throw the {n} dice not kept, got {count}"),
    N_("throw all {n} live dice, got {count}"),
    N_("throw all {n} dice in hand, got {count}"),
    N_("the first throw is of all five dice, got {count}"),
    N_("the starting draw: throw one die, got {count}"),
    N_("keep only dice on the table {dice}"),
    N_("this sport has no time-outs"),
    N_("no time-outs in extra time"),
    N_("a time-out is already running"),
    N_("{team} has no time-out left in this half"),
    N_("a time-out of {team} is running"),
    N_("{team} has made all {n} substitutions"),
    N_("no {what} during {period}"),
    N_("no period is being played ({period})"),
    N_("the clock does not run during {period}"),
    N_("the clock does not run during {period}; call next_period"),
    N_("the clock is not running"),
    N_("the clock is already running"),
    N_("no time-out is running"),
    N_("no break countdown is running"),
    N_("the period is over; call period_end"),
    N_("the kicks are decided"),
    N_("kicks from the mark have not begun"),
)

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_NESTED = ("reason", "why")  # placeholders that hold a reason of their own


def _pattern_regex(msgid: str) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    seen: set[str] = set()
    for m in _PLACEHOLDER.finditer(msgid):
        parts.append(re.escape(msgid[pos:m.start()]))
        name = m.group(1)
        # a placeholder may take anything but must not be empty; the last one of a
        # message is greedy so "a: b: c" splits at the first separator
        group = f"(?P<{name}>.+?)" if name not in seen else f"(?P={name})"
        seen.add(name)
        parts.append(group)
        pos = m.end()
    parts.append(re.escape(msgid[pos:]))
    return re.compile("".join(parts) + r"\Z", re.S)


@lru_cache(maxsize=1)
def _compiled_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    # longer literal text first: "the game is over, {winner} won" before "the game is over"
    ordered = sorted(REASON_PATTERNS, key=lambda p: -len(_PLACEHOLDER.sub("", p)))
    return tuple((p, _pattern_regex(p)) for p in ordered)


def _match(text: str, table: tuple[tuple[str, re.Pattern[str]], ...]) -> tuple[str, dict[str, str]] | None:
    for msgid, rx in table:
        m = rx.match(text)
        if m:
            return msgid, m.groupdict()
    return None


def _covered(text: str) -> bool:
    found = _match(text, _compiled_patterns())
    return found is not None and all(_covered(v) for k, v in found[1].items() if k in _NESTED)


def _split_envelope(text: str) -> tuple[str, dict[str, str]] | None:
    """The envelope of a whole refusal message and its parts.

    The event description may itself hold ': ' (a malformed event is shown as JSON),
    so every ': ' is tried as the separator; the first one whose reason a pattern
    covers wins, else the first that fits the envelope at all.
    """
    fallback: tuple[str, dict[str, str]] | None = None
    start = 0
    while (cut := text.find(": ", start)) != -1:
        head, reason = text[:cut] + ": {reason}", text[cut + 2:]
        for msgid, rx in _compiled_envelopes():
            m = rx.match(head.replace("{reason}", "\x00"))
            if m:
                values = {k: v for k, v in m.groupdict().items() if k != "reason"}
                values["reason"] = reason
                if _covered(reason):
                    return msgid, values
                fallback = fallback or (msgid, values)
                break
        start = cut + 1
    return fallback


@lru_cache(maxsize=1)
def _compiled_envelopes() -> tuple[tuple[str, re.Pattern[str]], ...]:
    # the reason part is matched separately (see _split_envelope): a NUL stands for it
    return tuple((p, _pattern_regex(p.replace("{reason}", "\x00"))) for p in ENVELOPES)


def reason_pattern(text: str) -> str | None:
    """The pattern (msgid) a bare reason matches, or None when it is not covered."""
    found = _match(text, _compiled_patterns())
    return found[0] if found else None


def _translate_bare(text: str, lang: str) -> str:
    found = _match(text, _compiled_patterns())
    if found is None:
        return text
    msgid, values = found
    out: dict[str, str] = {}
    for k, v in values.items():
        if k in _NESTED:
            v = _translate_bare(v, lang)
        elif k == "period":  # the field sports' period names are in the catalogue too
            v = period_name(v, lang)
        elif k == "what":
            v = pgettext_for(lang, "what", v)
        elif k == "ends":  # refbox/table.py: "[6, 2] on left, [6, 2] on the first place"
            v = ", ".join(_tile_on_end(part, lang) for part in re.split(r", (?=\[)", v))
        out[k] = v
    return gettext_for(lang, msgid).format(**out)


#: Where a domino tile may go (``end`` of a ``play`` event; msgctxt ``end``).
END_NAMES: tuple[str, ...] = ("left", "right", "up", "down", "the first place")
_TILE_ON_END = re.compile(r"(?P<tile>\[[^\]]*\]) on (?P<end>.+)\Z")


def _tile_on_end(text: str, lang: str) -> str:
    m = _TILE_ON_END.match(text)
    if m is None or m.group("end") not in END_NAMES:
        return text
    return gettext_for(lang, N_("{tile} on {end}")).format(
        tile=m.group("tile"), end=pgettext_for(lang, "end", m.group("end")))


def translate_reason(text: str, lang: str) -> str:
    """Translate a refusal (a whole ``IllegalEvent``/``MalformedEvent`` message or a
    bare reason) into ``lang``. Event descriptions, names and values are kept as
    written; a reason no pattern covers is left in English.
    """
    check_language(lang)
    if lang == "en" or not text:
        return text
    found = _split_envelope(text)
    if found is None:
        return _translate_bare(text, lang)
    msgid, values = found
    values["reason"] = _translate_bare(values["reason"], lang)
    return gettext_for(lang, msgid).format(**values)


def is_translated_reason(text: str) -> bool:
    """True when the reason inside ``text`` (whole message or bare) is covered."""
    found = _split_envelope(text)
    return _covered(found[1]["reason"] if found else text)


def translate_error(exc: BaseException, lang: str) -> str:
    """:func:`translate_reason` of an exception's message."""
    return translate_reason(str(exc), lang)


def localized_info(info: Mapping[str, Any], lang: str) -> dict[str, Any]:
    """A game's ``info()`` with ``title`` and option ``help`` in ``lang``; the English
    title stays as ``title_en``."""
    out = dict(info)
    out["title_en"] = info["title"]
    out["title"] = game_title(info["name"], info["title"], lang)
    out["options"] = [dict(o, help=option_help(o["help"], lang)) for o in info["options"]]
    return out


def report_translator(lang: str, printed: _dt.date | None = None) -> dict[str, Any]:
    """Keyword arguments for ``rules.sports.report.report_html`` in ``lang``."""
    tr = translations(check_language(lang))
    out: dict[str, Any] = {"gettext": tr.gettext, "pgettext": tr.pgettext, "lang": lang}
    if printed is not None:
        out["printed"] = format_date(printed, lang)
    return out
