"""What a domino table answers to the camera's tiles and to the keypad's CHOOSE and
CONFIRM comes out in Ukrainian and Russian (rules/dominoes/all_fives.py ``read_table``,
``count_proposals``, ``seen_tile``; refbox/table.py; rules/game.py ``read_tiles``).

Every message is produced by driving a real table (real SQLite journal, the real engine)
into the situation, never written here in English; the test then checks which pattern
covers it, that nothing of it would stay English (``i18n.untranslated``), and that in
uk and ru no Latin word is left once what is copied as written is taken away: tiles and
lists, JSON fields, quoted names, the state summary and the event in a nested
refusal's envelope (docs/i18n.md, "Left as written") and the keypad's button labels
CHOOSE and CONFIRM (printed on the box, docs/keypad.md).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from refbox import i18n
from refbox.journal import Journal
from refbox.table import Table

CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґЁё]")
TWO = {"game": "all-fives", "players": ["Ann", "Bob"]}
THREE = {"game": "all-fives", "players": ["Ann", "Bob", "Cat"]}


def P(a: int, b: int, end: str | None = None) -> dict[str, Any]:
    return {"type": "play", "tile": [a, b]} | ({"end": end} if end else {})


# open ends 5 (on the lead 5-1) and 5 (on 0-5): a 5-x touching the middle 1-0 fits neither
TWO_FIVES = [P(5, 1), P(1, 0, "right"), P(0, 5, "right")]
# two players, five tiles each: Ann plays out, Bob keeps one tile
TWO_DOMINO = [P(6, 6), P(6, 1, "right"), P(6, 2, "left"), P(6, 3, "up"), P(6, 4, "down"), P(1, 0, "right"),
              P(2, 2, "left"), P(3, 3, "up"), P(4, 4, "down")]
# three players, five tiles each: Ann plays out, Bob and Cat keep one each
THREE_DOMINO = [P(6, 6), P(6, 1, "right"), P(6, 2, "left"), P(6, 3, "up"), P(6, 4, "down"), P(1, 0, "right"),
                P(2, 2, "left"), P(3, 3, "up"), P(4, 4, "down"), P(0, 5, "right"), P(2, 5, "left"),
                P(3, 5, "up"), P(4, 0, "down")]


@pytest.fixture
def tables(tmp_path):
    made: list[Table] = []

    def make(header: dict[str, Any], events: list[dict[str, Any]]) -> Table:
        table = Table(Journal(tmp_path / f"j{len(made)}.sqlite3"), header)
        made.append(table)
        for e in events:
            r = table.handle(e)
            assert r.accepted, r.reason
        return table

    yield make
    for table in made:
        table.journal.close()


def laid(table: Table) -> list[list[int]]:
    return [p["tile"] for p in table.view.data["layout"]]


def _copied(text: str) -> str:
    """``text`` without what is copied as written (see the module's docstring)."""
    text = re.sub(r"\((?:all-fives|pig)[^()]*(?:\([^()]*\)[^()]*)*\)", " ", text)  # state summary
    text = re.sub(r"(?:недопустима подія|недопустимое событие) [a-z_]+", " ", text)  # the event sent
    text = re.sub(r"\{[^{}]*\}", " ", text)  # JSON fields
    text = re.sub(r"\[[^\[\]]*\]", " ", text)
    text = re.sub(r"\[[\[\], ]*\]", " ", text)  # what is left of nested lists
    text = re.sub(r"'[^']*'", " ", text)
    text = re.sub(r"\b(?:CHOOSE|CONFIRM|Ann|Bob|Cat|pig|tile|touches|zone)\b", " ", text)
    return text


def assert_translated(reason: str, pattern: str) -> dict[str, str]:
    """``reason`` is covered by ``pattern`` and fully translated in uk and ru."""
    assert i18n.reason_pattern(reason) == pattern, reason
    assert i18n.untranslated(reason) == [], reason
    out = {}
    for lang in ("uk", "ru"):
        text = i18n.translate_reason(reason, lang)
        assert text != reason and CYRILLIC.search(text), text
        left = re.findall(r"[A-Za-z]{2,}", _copied(text))
        assert not left, (lang, text, left)
        out[lang] = text
    return out


def test_a_contact_that_is_no_legal_play(tables):
    table = tables(TWO, [{"type": "new_hand"}, *TWO_FIVES])
    r = table.handle_tiles([{"tile": [5, 3], "touches": [[0, 1]]}])
    assert not r.accepted
    out = assert_translated(r.reason, "{tile} touches {tiles}, where it is not a legal play; it could go on {places}:"
                                      " confirm on the control page or move the tile")
    assert out["uk"].startswith("[5, 3] торкається [0, 1], але туди її поставити не можна;")
    assert "на лівий кінець (до [1, 5]), правий кінець (до [0, 5]): підтвердьте на панелі керування" in out["uk"]
    assert "на левый конец (к [1, 5]), правый конец (к [0, 5]): подтвердите на панели управления" in out["ru"]


def test_two_contacts_in_one_reading_are_translated_one_by_one(tables):
    """read_table joins one reason per new tile with "; "."""
    table = tables(TWO, [{"type": "new_hand"}, *TWO_FIVES])
    r = table.handle_tiles([{"tile": [5, 3], "touches": [[0, 1]]}, {"tile": [5, 4], "touches": [[0, 1]]}])
    assert not r.accepted and r.reason.count("where it is not a legal play") == 2
    assert i18n.untranslated(r.reason) == []
    for lang, word in (("uk", "торкається"), ("ru", "касается")):
        out = i18n.translate_reason(r.reason, lang)
        parts = out.split("; ")
        assert [p[:6] for p in parts if p.startswith("[")] == ["[5, 3]", "[5, 4]"], out
        assert [p for p in parts if word in p] == [parts[0], parts[2]], out
        assert not re.findall(r"[A-Za-z]{2,}", _copied(out)), out


def test_camera_tiles_the_engine_cannot_read(tables):
    table = tables(TWO, [{"type": "new_hand"}, *TWO_FIVES])
    cases = [
        ({"tile": [5, 3], "where": [1, 2]}, "camera tile {value}: unknown field(s) {fields}; fields: tile, touches, zone"),
        ({"tile": [5, 3], "zone": 3}, "camera tile {value}: 'zone' must be a name, got {zone}"),
        ({"tile": [5, 3], "touches": 3}, "camera tile {value}: 'touches' must be a list of tiles, got {touches}"),
        ({"tile": [5, 9]}, "expected a tile [a, b] with pips 0..{most}, got {value}"),
    ]
    for entry, inner in cases:
        r = table.handle_tiles([entry])
        assert not r.accepted and r.reason.startswith("bad camera tiles: ")
        assert i18n.reason_pattern(r.reason[len("bad camera tiles: "):]) == inner
        out = assert_translated(r.reason, "bad camera tiles: {reason}")
        assert out["uk"].startswith("неправильні кісточки від камери: ")
        assert out["ru"].startswith("неправильные костяшки от камеры: ")


def test_the_keypad_with_no_proposal_and_choosing_one(tables):
    table = tables(TWO, [{"type": "new_hand"}, *TWO_FIVES])
    for button in ("confirm", "choose"):
        r = table.handle_press(button)
        assert not r.accepted
        out = assert_translated(r.reason, f"button {{button}}: there is no camera proposal to {button} now")
        assert out["uk"].startswith(f"кнопка '{button}': зараз немає пропозиц")
    r = table.handle_tiles([[5, 3]])  # both fives: two placements wait
    out = assert_translated(r.reason, "ambiguous: {n} placements ({ends}); confirm one on the control page")
    assert "([5, 3] на лівий кінець, [5, 3] на правий кінець)" in out["uk"]
    r = table.handle_press("choose")
    out = assert_translated(r.reason, "selected proposal {n} of {count}")
    assert (out["uk"], out["ru"]) == ("вибрано пропозицію 2 з 2", "выбрано предложение 2 из 2")


def test_the_count_waits_until_every_hand_is_shown(tables):
    table = tables(TWO | {"options": {"hand_size": 5}}, [{"type": "new_hand"}, *TWO_DOMINO])
    r = table.handle_tiles(laid(table))
    out = assert_translated(r.reason, "{n} tile(s) off the line of play, the hands hold {need}:"
                                      " waiting until every hand is shown face up")
    assert out["uk"].startswith("кісточок поза рядом: 0, а на руках — 1: ")
    assert out["ru"].startswith("костяшек вне ряда: 0, а на руках — 1: ")


def test_one_count_to_confirm_names_the_event_in_the_language(tables):
    table = tables(TWO | {"options": {"hand_size": 5}}, [{"type": "new_hand"}, *TWO_DOMINO])
    r = table.handle_tiles(laid(table) + [[5, 5]])
    out = assert_translated(r.reason, "confirm {proposal} on the control page or with CONFIRM")
    assert out["uk"] == 'підтвердьте підрахунок {"hands": [[], [[5, 5]]]} на панелі керування або кнопкою CONFIRM'
    assert out["ru"] == 'подтвердите подсчёт {"hands": [[], [[5, 5]]]} на панели управления или кнопкой CONFIRM'


def test_several_possible_counts(tables):
    table = tables(THREE | {"options": {"hand_size": 5}}, [{"type": "new_hand"}, *THREE_DOMINO])
    r = table.handle_tiles(laid(table) + [[1, 2], [6, 5]])
    out = assert_translated(r.reason, "{n} possible readings ({proposals}); confirm one on the control page"
                                      " or with CHOOSE and CONFIRM")
    assert out["uk"].startswith('можливих прочитань — 2 (підрахунок {"pips": [0, 3, 11]}, підрахунок {"pips"')
    assert out["ru"].endswith("подтвердите одно на панели управления или кнопками CHOOSE и CONFIRM")


def fished(tables) -> tuple[Table, list[list[int]]]:
    """A blocked hand with 26 tiles in the hands (too many splits to propose)."""
    table = tables(TWO, [{"type": "new_hand"}, P(6, 6), {"type": "draw", "count": 13}, {"type": "fish"}])
    off = [[a, b] for a in range(7) for b in range(a, 7) if (a, b) != (6, 6)][:26]
    return table, off


def test_too_many_splits_give_the_total(tables):
    table, off = fished(tables)
    r = table.handle_tiles(off)
    out = assert_translated(r.reason, "{n} tile(s) with {total} pips in all off the line of play ({tiles}):"
                                      " split them between the players and enter the count")
    total = sum(a + b for a, b in off)
    assert out["uk"].startswith(f"кісточок поза рядом: 26, разом {total} очок ([0, 0], [0, 1], ")
    assert out["ru"].endswith("]): распределите их между игроками и введите подсчёт")


def test_the_refused_count_from_the_zones_is_given_in_the_language(tables):
    table, off = fished(tables)
    r = table.handle_tiles([{"tile": t, "zone": "Ann"} for t in off])  # all in Ann's zone: she holds 6
    out = assert_translated(r.reason, "{n} tile(s) with {total} pips in all off the line of play ({tiles}):"
                                      " split them between the players and enter the count ({refusal})")
    assert out["uk"].endswith("розподіліть їх між гравцями й введіть підрахунок (недопустима подія count"
                              f" {off}, []] (all-fives, hand 1 over (fish), count the pips):"
                              " у Ann кісточок: 6, вказано 26)".replace(f"{off}", "[" + str(off)))
    assert out["ru"].endswith("(all-fives, hand 1 over (fish), count the pips): у Ann костяшек: 6, указано 26)")


def test_tiles_after_the_count_are_not_used(tables):
    table = tables(TWO | {"options": {"hand_size": 5}}, [{"type": "new_hand"}, *TWO_DOMINO,
                                                         {"type": "count", "pips": [0, 10]}])
    r = table.handle_tiles([[5, 3]])
    out = assert_translated(r.reason, "the camera's tiles are not used now ({when})")
    assert out["uk"] == "кісточки з камери зараз не використовуються (перед коном 2)"
    assert out["ru"] == "костяшки с камеры сейчас не используются (перед коном 2)"


def test_tiles_after_the_game_are_not_used(tables):
    table = tables(TWO | {"options": {"target": 5}}, [{"type": "new_hand"}, P(5, 5)])  # 10 at once
    assert table.view.data.get("winner") == "Ann" or table.session.state.winner == 0
    r = table.handle_tiles([[5, 5], [5, 3]])
    out = assert_translated(r.reason, "the camera's tiles are not used now ({when})")
    assert out["uk"] == "кісточки з камери зараз не використовуються (гру виграв Ann)"
    assert out["ru"] == "костяшки с камеры сейчас не используются (игру выиграл Ann)"


def test_a_game_that_reads_no_tiles(tables):
    table = tables({"game": "pig", "players": ["Ann", "Bob"]}, [])
    r = table.handle_tiles([[1, 1]])
    out = assert_translated(r.reason, "{game} proposes nothing for tiles {tiles}")
    assert (out["uk"], out["ru"]) == ("гра pig нічого не пропонує для кісточок [[1, 1]]",
                                      "игра pig ничего не предлагает для костяшек [[1, 1]]")


def test_a_part_no_pattern_knows_is_reported():
    assert i18n.untranslated("[5, 3] touches [0, 1], where it is not a legal play; it could go on"
                             " sideways (on [1, 5]): confirm on the control page or move the tile")
    assert i18n.untranslated('confirm dance {"x": 1} on the control page or with CONFIRM') == ['dance {"x": 1}']
    assert i18n.untranslated("no new tile that can be played now among [[6, 6]]; a reason nobody wrote")
