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
    # rules/dominoes/all_fives.py IllegalPlay: the tile and the open ends before the state
    N_("illegal play {tile} on open ends {ends} ({state}): {reason}"),
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
    # ({proposal}, {proposals}: "[6, 2] on left" or 'count {"pips": [3, 4]}')
    N_("confirm {proposal} on the control page or with CONFIRM"),
    N_("{n} possible readings ({proposals}); confirm one on the control page or with CHOOSE and CONFIRM"),
    N_("button {button}: there is no camera proposal to confirm now"),
    N_("button {button}: there is no camera proposal to choose now"),
    N_("selected proposal {n} of {count}"),
    N_("bad camera tiles: {reason}"),
    N_("bad camera dice: {reason}"),
    N_("{game} expects no throw now; the camera's dice {dice} are not used"),
    # refbox/camera.py (a reading while the operator has paused the camera)
    N_("the camera is paused: not sent to the table"),
    # rules/game.py Game.read_tiles
    N_("{game} proposes nothing for tiles {tiles}"),
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
    N_("a reading has dice and may have kept, each a list of values 1..6; got {body}"),
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
    # --- every other refusal of the engines (tests/i18n/test_reason_coverage.py) ---
    # rules/events.py, field validators of the games
    N_("text {text} is not valid Unicode (a lone surrogate)"),
    N_("expected a tile [a, b] with pips 0..{most}, got {value}"),
    N_("expected a foul code or a list of 1..6 codes, got {value}"),
    N_("expected foul codes from {codes}, got {value}"),
    N_("each foul counts once in a stroke, got {value}"),
    # what a billiards game expects instead ({expected} of "... is not possible now")
    N_("one of {types}"),
    N_("a choice (play or put_back)"),
    N_("draw_lots for who plays the re-spotted black"),
    # rules/billiards/five_pins.py, pyramid.py
    N_("a pins_by_cue foul needs the pins the cue ball knocked"),
    N_("in the free pyramid any ball may be struck: count it in 'balls'"),
    N_("a pot needs at least one ball (or the cue ball)"),
    N_("{count} balls scored but only {left} left on the table"),
    # rules/billiards/snooker.py ({ball} and {on} are ball colours, msgctxt "ball")
    N_("only reds can go down several in one stroke"),
    N_("{ball} is not on; the ball on is {on}"),
    N_("red is not on; the ball on is {on}"),
    N_("{count} reds went down but only {left} were on the table"),
    N_("{count} reds potted but only {left} on the table"),
    N_("a free ball is void when the offender is put back in"),
    N_("the free ball rule is off (option free_ball)"),
    N_("no free ball with only the black left"),
    N_("no free ball: the referee has not called one for this stroke"),
    N_("a free ball is a ball other than the ball on ({on})"),
    N_("a frame is conceded during one's own turn; it is {player}'s"),
    N_("a frame can be claimed only when the black is the last ball"),
    N_("the striker must lead by more than 7 to claim, leads by {lead}"),
    N_("a foul with {on} on costs at least {least}, not {value}"),
    N_("a foul costs at most {most}, not {value}"),
    # rules/billiards/straight_pool.py
    N_("there is no choice to make now"),
    N_("{count} balls pocketed but only {left} on the table"),
    N_("waiting for {player}'s choice: accept or rerack"),
    N_("an illegal break is only possible on an opening break"),
    # rules/dice/bank_on_dice.py, high_dice.py
    N_("no bets yet: punters bet before the throw"),
    N_("{player} is the banker; only punters bet"),
    N_("the stake is agreed before the banker throws"),
    N_("only the punter stops, after a failed throw"),
    # rules/dice/bluff.py, liars_dice.py
    N_("not the time to throw: challenge or accept the claim"),
    N_("nothing to {kind}: the leader has not claimed"),
    N_("no throws left to use the kept dice"),
    N_("only the replying player stops, after a throw"),
    N_("the leader claims after his throw"),
    N_("no announcement to answer"),
    N_("nothing to keep: a new sequence starts with a fresh throw"),
    N_("keep only dice of the cup passed on {dice}"),
    N_("throw before announcing"),
    N_("an announcement must exceed the last one {claim}"),
    N_("nothing can exceed this announcement: challenge it"),
    # rules/dice/game_of_13.py
    N_("throw first: a call applies to a throw's sum"),
    N_("{sum} does not divide by {divisor}"),
    N_("call how {sum} is used before the next throw"),
    N_("the first die shows 1..6, got {value}"),
    N_("the second die shows {low}..{high}, got {value}"),
    # rules/dice/martinetti.py
    N_("move the token before throwing again"),
    N_("{player} cannot claim: {why}"),
    N_("no overlooked number is open"),
    N_("needs {n} exactly"),
    N_("the dice allow fields {low}..{high}, got {value}"),
    # rules/dice/pig.py
    N_("the starting draw: throw one die"),
    # rules/dice/poker.py
    N_("{kept} kept: throw {n} dice, got {count}"),
    N_("{kept} is not among the dice {dice}"),
    N_("only dice thrown on the second throw may be thrown again: keep {dice}"),
    N_("say which dice are kept first (keep), or throw all five, got {count}"),
    # rules/dice/sea_dice.py
    N_("cannot score {category}: {why}"),
    N_("already filled"),
    N_("not a box of the Yacht card"),
    N_("not a combination of this mode"),
    N_("the dice {dice} do not make it"),
    N_("keeping all five leaves nothing to throw: score instead"),
    # rules/dice/thousand.py ({conditions}: one or more joined by " and ")
    N_("throw {n} dice (all five scored: throw them all again), got {count}"),
    N_("every scoring die is set aside automatically under these rules"),
    N_("nothing to set aside: throw first"),
    N_("{kept} is not part of the throw {dice}"),
    N_("{kept} does not all score; scoring dice: {scoring}"),
    N_("all five dice scored: throw them again to confirm the turn"),
    N_("all five dice scored: the next throw is compulsory"),
    N_("all five dice score: throw them again to confirm the turn"),
    N_("{conditions}: needs {need} in one turn, has {total}"),
    N_("not opened ({n} in one turn)"),
    N_("not admitted ({n} in one turn)"),
    N_("in the pit {low}-{high} at {score}"),
    N_("on the barrel at {score} (target {target})"),
    # rules/dominoes/all_fives.py ({stop}: how many stop tiles stay)
    N_("count the pips when a hand is over (domino or fish)"),
    N_("start a hand first (new_hand)"),
    N_("the hand is over: count the pips"),
    N_("{player} leads: any tile may be played"),
    N_("count the pips of the hand first"),
    N_("{tile} is already on the table"),
    N_("{player}'s hand is known ({tiles})"),
    N_("{player} holds {tiles}, which can be played"),
    N_("name one drawn tile at a time"),
    N_("only {n} can be drawn ({left} left, {stop})"),
    N_("the boneyard is down to the stop tile ({stop}): pass"),
    N_("1 stop tile stays"),
    N_("{n} stop tiles stay"),
    N_("draw first: {n} tile(s) can still be drawn from the boneyard"),
    N_("not blocked: {n} tile(s) can still be drawn from the boneyard"),
    N_("give either 'pips' (one number per player) or 'hands' (their tiles)"),
    N_("{player} won the last hand and leads the next one"),
    N_("{tile} is known to be in {player}'s hand"),
    N_("{tile} is already in {player}'s hand"),
    N_("'hands' needs one list per player ({n}), got {count}"),
    N_("'pips' needs one number per player ({n}), got {count}"),
    N_("{player} holds {n} tile(s), {count} given"),
    N_("{player} is known to hold {tiles}"),
    N_("{player} cannot hold {value} pips in {n} tile(s) (possible {low}..{high})"),
    N_("{tile} is given twice"),
    # rules/dominoes/all_fives.py read_table, count_proposals, seen_tile (the camera's tiles;
    # {places}: "left (on [1, 5]), right (on [0, 5])"; {refusal}: a whole refusal message)
    N_("{tile} touches {tiles}, where it is not a legal play; it could go on {places}:"
       " confirm on the control page or move the tile"),
    N_("the camera's tiles are not used now ({when})"),
    # AllFives.describe between hands and after the game ({when} above)
    N_("before hand {n}"),
    N_("won by {side}"),
    N_("{n} tile(s) off the line of play, the hands hold {need}: waiting until every hand is shown face up"),
    N_("{n} tile(s) with {total} pips in all off the line of play ({tiles}):"
       " split them between the players and enter the count"),
    N_("{n} tile(s) with {total} pips in all off the line of play ({tiles}):"
       " split them between the players and enter the count ({refusal})"),
    N_("camera tile {value}: unknown field(s) {fields}; fields: tile, touches, zone"),
    N_("camera tile {value}: 'zone' must be a name, got {zone}"),
    N_("camera tile {value}: 'touches' must be a list of tiles, got {touches}"),
    # rules/game.py seen_die
    N_("camera die {value}: unknown field(s) {fields}; fields: value, zone, moved"),
    N_("camera die {value}: 'value' must be a number 1..6, got {got}"),
    N_("camera die {value}: 'zone' must be a name, got {zone}"),
    N_("camera die {value}: 'moved' must be true or false, got {moved}"),
    N_("camera die {value}: expected a value 1..6 or an object with 'value'"),
    # rules/dominoes/all_fives.py IllegalPlay ({end}: msgctxt "end"; {fits}: "left (4), down (6)")
    N_("the first tile starts the line; there is no spinner yet"),
    N_("no open end shows {pips}"),
    N_("no open end shows {pips} or {other}"),
    N_("it fits several ends, name one: {fits}"),
    N_("there is no {end} end: the spinner is not down yet"),
    N_("the {end} end shows {pips}"),
    # rules/sports/match.py
    N_("{period} is under way"),
    N_("the break has {n} s left"),
    N_("no period clock to edit during {period}"),
    N_("give exactly one of 'elapsed' and 'remaining'"),
    N_("the clock must read 0..{length}"),
    N_("no 4-second count during {period}"),
    N_("no 4-second count to cancel"),
    N_("no 4-second count has run out"),
    N_("player {player} was substituted and may not return"),
    N_("the period has {n} s left on the clock"),
    N_("the period is {length} long; the clock shows {clock}"),
    N_("this clock has no length; give 'elapsed'"),
)

#: Joins the conditions of a ``{conditions}`` placeholder (Thousand: "not opened (...)
#: and in the pit 200-300 at 250").
AND = N_("{first} and {second}")

#: Snooker's balls (``{ball}`` and ``{on}``; msgctxt ``ball``); "colour" is any colour
#: after a red.
BALL_NAMES: tuple[str, ...] = ("red", "yellow", "green", "brown", "blue", "pink", "black", "colour")

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_NESTED = ("reason", "why", "stop", "when")  # placeholders that hold a reason of their own
_LISTED = ("conditions",)  # reasons of their own joined by " and "
_WHOLE = ("refusal",)  # a whole refusal message (envelope and reason) inside a reason
#: placeholders that hold a reason of their own or a plain value (an event type, a list)
_NESTED_OR_VALUE = ("expected",)
_PLAIN_VALUE = re.compile(r"[a-z][a-z0-9_]*|\[.*\]", re.S)
#: placeholders whose values are words with catalogue entries (msgctxt, known words)
_WORDS: dict[str, tuple[str, tuple[str, ...]]] = {}  # filled below the name lists


#: placeholders that can only hold one shape of text, so that a reason repeated after
#: "; " (All Fives: one per tile of a reading) is not taken for one long value
_SHAPES: dict[str, str] = {
    "tile": r"\[\d+, \d+\]",  # [5, 3]
    "tiles": r"[\[\]\d, ]+?",  # [5, 3], [0, 1] or [[6, 6], [6, 2]]
    "places": r"[a-z ]+ \(on \[\d+, \d+\]\)(?:, [a-z ]+ \(on \[\d+, \d+\]\))*",  # left (on [1, 5]), ...
}


def _pattern_regex(msgid: str) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    seen: set[str] = set()
    for m in _PLACEHOLDER.finditer(msgid):
        parts.append(re.escape(msgid[pos:m.start()]))
        name = m.group(1)
        # a placeholder may take anything but must not be empty; the last one of a
        # message is greedy so "a: b: c" splits at the first separator
        group = f"(?P<{name}>{_SHAPES.get(name, '.+?')})" if name not in seen else f"(?P={name})"
        seen.add(name)
        parts.append(group)
        pos = m.end()
    parts.append(re.escape(msgid[pos:]))
    return re.compile("".join(parts) + r"\Z", re.S)


_Table = tuple[tuple[str, re.Pattern[str], str], ...]


@lru_cache(maxsize=1)
def _compiled_patterns() -> _Table:
    # longer literal text first: "the game is over, {winner} won" before "the game is over";
    # a pattern that starts with a placeholder would try every start of a text that cannot
    # match, so it carries its longest literal piece to look for first
    ordered = sorted(REASON_PATTERNS, key=lambda p: -len(_PLACEHOLDER.sub("", p)))
    return tuple((p, _pattern_regex(p), max(_PLACEHOLDER.split(p)[::2], key=len) if p.startswith("{") else "")
                 for p in ordered)


def _match(text: str, table: _Table) -> tuple[str, dict[str, str]] | None:
    for msgid, rx, needle in table:
        if needle and needle not in text:
            continue
        m = rx.match(text)
        if m:
            return msgid, m.groupdict()
    return None


def untranslated(text: str) -> list[str]:
    """The parts of a bare reason that would stay English: the whole text when no
    pattern matches, else what its nested reasons and named words leave.

    >>> untranslated("the game is over, Ann won"), untranslated("no foo during half-time")
    ([], ['foo'])
    """
    found = _match(text, _compiled_patterns())
    if found is None:
        parts = _joined(text)
        return [text] if parts is None else [w for part in parts for w in untranslated(part)]
    left: list[str] = []
    for k, v in found[1].items():
        if k in _NESTED:
            left += untranslated(v)
        elif k in _LISTED:
            for part in v.split(" and "):
                left += untranslated(part)
        elif k in _NESTED_OR_VALUE:
            if not _PLAIN_VALUE.fullmatch(v):
                left += untranslated(v)
        elif k in _WORDS and v not in _WORDS[k][1]:
            left.append(v)
        elif k == "fits":
            left += [part for part in v.split(", ") if _end_pips(part) is None]
        elif k in _WHOLE:
            inner = _split_envelope(v)
            left += untranslated(inner[1]["reason"] if inner else v)
        elif k in _PART_LISTS:
            split, part_text = _PART_LISTS[k]
            left += [part for part in split.split(v) if part_text(part, "en") is None]
    return left


def _joined(text: str) -> list[str] | None:
    """Reasons joined by "; " (All Fives: one per tile of a camera reading) that no
    single pattern covers: the first cut whose left side a pattern matches, and the
    rest split in turn; None when there is no such cut."""
    start = 0
    while (cut := text.find("; ", start)) != -1:
        head, rest = text[:cut], text[cut + 2:]
        if _match(head, _compiled_patterns()) is not None:
            if _match(rest, _compiled_patterns()) is not None:
                return [head, rest]
            tail = _joined(rest)
            if tail is not None:
                return [head, *tail]
        start = cut + 1
    return None


def _covered(text: str) -> bool:
    return not untranslated(text)


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
        parts = _joined(text)
        return text if parts is None else "; ".join(_translate_bare(part, lang) for part in parts)
    msgid, values = found
    out: dict[str, str] = {}
    for k, v in values.items():
        if k in _NESTED or (k in _NESTED_OR_VALUE and not _PLAIN_VALUE.fullmatch(v)):
            v = _translate_bare(v, lang)
        elif k in _LISTED:
            parts = [_translate_bare(part, lang) for part in v.split(" and ")]
            v = parts[0]
            for part in parts[1:]:
                v = gettext_for(lang, AND).format(first=v, second=part)
        elif k in _WORDS:  # period names, the field sports' actions, snooker's balls
            v = pgettext_for(lang, _WORDS[k][0], v)
        elif k == "fits":  # all-fives: "left (4), down (6)"
            v = ", ".join(_end_pips(part, lang) or part for part in v.split(", "))
        elif k in _WHOLE:  # a whole refusal message, envelope and all
            v = translate_reason(v, lang)
        elif k in _PART_LISTS:  # "[6, 2] on left", "left (on [1, 5])", 'count {"pips": [3, 4]}'
            split, part_text = _PART_LISTS[k]
            v = ", ".join(part_text(part, lang) or part for part in split.split(v))
        out[k] = v
    return gettext_for(lang, msgid).format(**out)


_WORDS.update({
    "period": ("period", PERIOD_NAMES),
    "what": ("what", WHAT_NAMES),
    "ball": ("ball", BALL_NAMES),
    "on": ("ball", BALL_NAMES),
})


#: Where a domino tile may go (``end`` of a ``play`` event; msgctxt ``end``).
END_NAMES: tuple[str, ...] = ("left", "right", "up", "down", "the first place")
_WORDS["end"] = ("end", END_NAMES)
_END_PIPS = re.compile(r"(?P<end>\w+) (?P<pips>\(\d+\))\Z")


def _end_pips(text: str, lang: str = "en") -> str | None:
    """``left (4)`` (an open end and its pips) in ``lang``; None when it is not one."""
    m = _END_PIPS.match(text)
    if m is None or m.group("end") not in END_NAMES:
        return None
    return f"{pgettext_for(lang, 'end', m.group('end'))} {m.group('pips')}"


_TILE_ON_END = re.compile(r"(?P<tile>\[[^\]]*\]) on (?P<end>.+)\Z")


def _tile_on_end(text: str, lang: str) -> str | None:
    """``[6, 2] on left`` (a proposed play) in ``lang``; None when it is not one."""
    m = _TILE_ON_END.match(text)
    if m is None or m.group("end") not in END_NAMES:
        return None
    return gettext_for(lang, N_("{tile} on {end}")).format(
        tile=m.group("tile"), end=pgettext_for(lang, "end", m.group("end")))


_END_ON_TILE = re.compile(r"(?P<end>[a-z ]+) \(on (?P<tile>\[\d+, \d+\])\)\Z")


def _end_on_tile(text: str, lang: str) -> str | None:
    """``right (on [0, 2])`` (an open end and the tile that shows it) in ``lang``; None
    when it is not one."""
    m = _END_ON_TILE.match(text)
    if m is None or m.group("end") not in END_NAMES:
        return None
    return gettext_for(lang, N_("{end} (on {tile})")).format(
        end=pgettext_for(lang, "end", m.group("end")), tile=m.group("tile"))


_TYPED_EVENT = re.compile(r"(?P<type>[a-z][a-z0-9_]*) (?P<fields>\{.*\})\Z", re.S)


@lru_cache(maxsize=1)
def _event_types() -> frozenset[str]:
    from rules.registry import all_games

    return frozenset(t for game in all_games() for t in game.events)


def _proposal(text: str, lang: str) -> str | None:
    """A proposal the table describes (``refbox/table.py``): ``[6, 2] on left`` or an
    event type and its fields as JSON (``count {"pips": [3, 4]}``: the type in ``lang``,
    the fields as written); None when it is neither."""
    play = _tile_on_end(text, lang)
    if play is not None:
        return play
    m = _TYPED_EVENT.match(text)
    if m is None or m.group("type") not in _event_types():
        return None
    return f"{action_name(m.group('type'), lang)} {m.group('fields')}"


#: placeholders that hold a list of parts, each translated by a function (None: not one)
_PART_LISTS: dict[str, tuple[re.Pattern[str], Callable[[str, str], str | None]]] = {
    "ends": (re.compile(r", (?=\[)"), _tile_on_end),  # refbox/table.py: "[6, 2] on left, [6, 2] on up"
    "places": (re.compile(r", (?=[a-z])"), _end_on_tile),  # all_fives: "left (on [1, 5]), right (on [0, 5])"
    "proposal": (re.compile(r", (?=\[\d+, \d+\] on |[a-z_]+ \{)"), _proposal),
    "proposals": (re.compile(r", (?=\[\d+, \d+\] on |[a-z_]+ \{)"), _proposal),
}


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
