"""Refusals of events come out in Ukrainian and Russian for the covered kinds."""

import re

import pytest

from refbox import i18n
from rules import Session

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґЁё]")


def refusals(header, events, bad):
    s = Session.start(header)
    for e in events:
        s.submit(e)
    out = []
    for e in bad:
        with pytest.raises(ValueError) as info:
            s.submit(e)
        out.append(str(info.value))
    return out


PIG = {"game": "pig", "players": ["Ann", "Bob"]}
FUTSAL = {"game": "futsal", "players": ["Lviv", "Kyiv"]}

CASES = [
    # session.py: undo, time order
    (PIG, [], {"type": "undo"}, "nothing to undo"),
    (PIG, [{"type": "roll", "dice": [3], "t": 5}], {"type": "roll", "dice": [3], "t": 1},
     "time {t} is before the last event's time {last}"),
    (PIG, [], {"type": "undo", "x": 1}, "undo takes no fields, got {fields}"),
    # events.py: well-formedness
    (PIG, [], {"type": "Roll"}, "'type' must be a snake_case verb, got {value}"),
    (PIG, [], {"type": "roll", "dice": [3], "t": -1}, "'t' must be a non-negative number of seconds, got {value}"),
    (PIG, [], {"type": "roll", "dice": [3], "source": "moon"}, "'source' must be one of {allowed}, got {value}"),
    (PIG, [], {"type": "jump"}, "unknown event type {type} for {game}; known: {known}"),
    (PIG, [], {"type": "roll", "dice": [3], "colour": "red"}, "unknown field(s) {fields} for {type}; allowed: {allowed}"),
    (PIG, [], {"type": "roll"}, "{type} needs the field {name}"),
    (PIG, [], {"type": "roll", "dice": [7]}, "field {name}: {reason}"),
    (PIG, [], {"type": "roll", "dice": "x"}, "field {name}: {reason}"),
    # engines
    (PIG, [], {"type": "stop"}, "throw at least once before stopping"),
    (FUTSAL, [{"type": "clock_start", "t": 0}, {"type": "timeout", "team": "home", "t": 10}],
     {"type": "timeout", "team": "away", "t": 11}, None),
    (FUTSAL, [], {"type": "clock_stop"}, "the clock is not running"),
    (FUTSAL, [{"type": "clock_start", "t": 0}], {"type": "clock_start", "t": 1}, "the clock is already running"),
]


@pytest.mark.parametrize("header, before, bad, pattern", CASES, ids=[c[2]["type"] + str(i) for i, c in enumerate(CASES)])
@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_covered_refusals_are_translated(header, before, bad, pattern, lang):
    (message,) = refusals(header, before, [bad])
    assert i18n.is_translated_reason(message), message
    tail = next(t for t in _tails(message) if i18n.is_translated_reason(t) and i18n.reason_pattern(t))
    if pattern is not None:
        assert i18n.reason_pattern(tail) == pattern
    out = i18n.translate_reason(message, lang)
    assert not out.startswith(("illegal", "malformed"))
    out_reason = i18n.translate_reason(tail, lang)
    assert out.endswith(out_reason) and out_reason != tail
    assert CYRILLIC.search(out_reason)
    # no English word of the matched patterns is left once the copied values are removed
    left = set(re.findall(r"[a-z]{4,}", _strip_values(out_reason))) & _pattern_words(tail)
    assert not left, (out_reason, left)


def _tails(message):
    """Every suffix after ': ' (the bare reason hides behind the event and state)."""
    parts = message.split(": ")
    return [": ".join(parts[i:]) for i in range(1, len(parts))]


def _pattern_words(reason):
    words = set()
    for tail in [reason, *_tails(reason)]:
        p = i18n.reason_pattern(tail)
        if p:
            words |= set(re.findall(r"[a-z]{4,}", re.sub(r"\{\w+\}|\w*_\w*", " ", p)))
    return words


def _strip_values(text):
    # names, event types and values are copied as written: drop quoted values, lists, JSON
    return re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]|\{[^}]*\}|\w*_\w*", " ", text)


def test_translation_keeps_names_and_numbers():
    (message,) = refusals(PIG, [{"type": "roll", "dice": [3], "t": 5}], [{"type": "roll", "dice": [3], "t": 1}])
    assert i18n.translate_reason(message, "uk").endswith("час 1.0 раніший за час останньої події 5.0")
    assert i18n.translate_reason(message, "ru").endswith("время 1.0 раньше времени последнего события 5.0")


def test_winner_is_named_in_the_translation():
    s = Session.start({"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 10, "finish_round": False}})
    s.submit({"type": "roll", "dice": [6]})
    s.submit({"type": "roll", "dice": [6]})
    s.submit({"type": "stop"})
    with pytest.raises(ValueError) as info:
        s.submit({"type": "roll", "dice": [2]})
    assert i18n.translate_reason(str(info.value), "uk").endswith("гру закінчено, переміг Ann")
    assert i18n.translate_reason(str(info.value), "ru").endswith("игра окончена, победил Ann")


def test_english_and_uncovered_reasons_are_left_as_written():
    msg = "illegal roll [3] in pig (pig, turn Ann): a reason nobody wrote a pattern for"
    assert i18n.translate_reason(msg, "en") == msg
    assert not i18n.is_translated_reason(msg)
    assert i18n.translate_reason(msg, "uk") == (
        "недопустима подія roll [3] in pig (pig, turn Ann): a reason nobody wrote a pattern for")


def test_every_pattern_is_translated_with_its_placeholders():
    for p in i18n.REASON_PATTERNS + i18n.ENVELOPES:
        for lang in ("uk", "ru"):
            out = i18n.gettext_for(lang, p)
            assert out != p or not re.search(r"[a-z]", re.sub(r"\{\w+\}", "", p)), (lang, p)
            assert sorted(re.findall(r"\{(\w+)\}", out)) == sorted(re.findall(r"\{(\w+)\}", p))


def test_patterns_are_those_the_rules_write():
    """Every literal refusal pattern occurs in the sources it claims to cover."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sources = "".join(p.read_text(encoding="utf-8") for d in ("rules", "refbox", "web")
                      for p in (root / d).rglob("*.py") if p.name != "i18n.py")
    sources = re.sub(r'"\n\s*f?"', "", sources)  # a message split over lines: "...):"\n  f" split ..."
    for p in i18n.REASON_PATTERNS:
        literal = max(re.split(r"\{\w+\}", p), key=len)
        if p in _WORD_FILLED:  # f"not {word} (...)" with word = "admitted" or "opened", ...
            template, word = _WORD_FILLED[p]
            assert template in sources and f'"{word}"' in sources, p
            continue
        if p in _WITH_SUFFIX:  # a suffix of its own glued on: f"... count{why}" with why = f" ({...})"
            assert all(piece in sources for piece in _WITH_SUFFIX[p]), p
            continue
        assert literal.strip() in sources or _glued(literal, sources), p


_WORD_FILLED = {
    "not admitted ({n} in one turn)": ('f"not {word} (', "admitted"),
    "not opened ({n} in one turn)": ('f"not {word} (', "opened"),
    # refbox/table.py: f"button {button!r}: there is no camera proposal to {button} now"
    "button {button}: there is no camera proposal to confirm now": ("there is no camera proposal to {button} now",
                                                                    "confirm"),
    "button {button}: there is no camera proposal to choose now": ("there is no camera proposal to {button} now",
                                                                   "choose"),
}

_WITH_SUFFIX = {
    "{n} tile(s) with {total} pips in all off the line of play ({tiles}): split them between the players and enter"
    " the count ({refusal})": ("): split them between the players and enter the count{why}", 'why = f" ({'),
}


def _glued(literal, sources, parts=3):
    """A literal an engine glues from at most ``parts`` pieces of its sources (Thousand's
    ``f"throw {n} dice{hint}, got {count}"`` with the hint's own text)."""
    if literal in sources:
        return True
    if parts == 1:
        return False
    for cut in range(len(literal) - 5, 4, -1):
        if literal[:cut] in sources and _glued(literal[cut:], sources, parts - 1):
            return True
    return False


def test_period_names_and_what_inside_a_reason_are_translated():
    s = Session.start(FUTSAL)
    for e in ({"type": "clock_start", "t": 0}, {"type": "clock_stop", "t": 1200}, {"type": "period_end", "t": 1200}):
        s.submit(e)
    messages = []
    for e in ({"type": "timeout", "team": "home", "t": 1210}, {"type": "clock_start", "t": 1211}):
        with pytest.raises(ValueError) as info:
            s.submit(e)
        messages.append(str(info.value))
    assert messages[0].endswith("no time-out during half-time")
    assert i18n.translate_reason(messages[0], "uk").endswith("тайм-аут неможливо: перерва")
    assert i18n.translate_reason(messages[0], "ru").endswith("тайм-аут невозможно: перерыв")
    assert messages[1].endswith("the clock does not run during half-time; call next_period")
    assert i18n.translate_reason(messages[1], "uk").endswith("годинник не йде: перерва; подайте next_period")


def test_the_tables_domino_refusals_are_translated(tmp_path):
    """What refbox/table.py answers to a camera reading of tiles (docs/vision-dominoes.md)."""
    from refbox.journal import Journal
    from refbox.table import Table

    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "all-fives", "players": ["Ann", "Bob"]})
    assert table.handle({"type": "new_hand"}).accepted
    assert table.handle_tiles([[6, 6]]).accepted
    nothing = table.handle_tiles([[6, 6]]).reason
    assert i18n.reason_pattern(nothing) == "no new tile that can be played now among {tiles}"
    assert i18n.translate_reason(nothing, "uk") == "серед [[6, 6]] немає нової кісточки, яку можна поставити зараз"
    ambiguous = table.handle_tiles([[6, 6], [6, 2]]).reason
    assert i18n.reason_pattern(ambiguous) == "ambiguous: {n} placements ({ends}); confirm one on the control page"
    ru = i18n.translate_reason(ambiguous, "ru")
    assert ru.startswith("неоднозначно: возможных ходов — ") and ru.endswith("; подтвердите один на панели управления")
    assert "[6, 2] на левый конец" in ru and " on " not in ru, ru
    uk = i18n.translate_reason(ambiguous, "uk")
    assert "[6, 2] на правий кінець" in uk and not re.search(r"\b(on|left|right|up|down)\b", uk), uk
    table.journal.close()
