"""The bugs the fuzzing found, one plain example each (they stay fixed)."""

from __future__ import annotations

import pytest

from refbox.config import ConfigError, load
from refbox.journal import Journal
from refbox.table import Table
from rules import IllegalEvent, MalformedEvent, Session
from rules.replay import ReplayError, replay_lines


def test_bluff_challenge_or_accept_before_any_claim_is_illegal():
    # was: IndexError in hand_key (challenge compared the cup with an empty claim),
    # and accept moved to the reply with no claim at all
    s = Session.start({"game": "bluff", "players": ["Ann", "Bob"]})
    s.submit({"type": "roll", "dice": [2, 2, 5, 1, 3]})
    for kind in ("challenge", "accept"):
        with pytest.raises(IllegalEvent, match=f"nothing to {kind}: the leader has not claimed"):
            s.submit({"type": kind})
    assert s.view()["phase"] == "lead"


def test_lone_surrogate_text_is_malformed_not_a_journal_crash():
    # was: UnicodeEncodeError from the journal (JSON "\ud800" from the web page)
    table = Table(Journal(":memory:"), {"game": "futsal", "players": ["A", "B"]}, clock=lambda: 5.0)
    assert table.handle({"type": "clock_start"}).accepted
    r = table.handle({"type": "clock_stop", "reason": "\ud800"})
    assert not r.accepted and "not valid Unicode" in r.reason
    assert table.view.data["clock_running"] is True and table.journal.count(table.game_id) == 1
    r.reason.encode("utf-8")  # the reason itself can be logged and sent


def test_non_object_event_is_refused_by_the_table():
    # was: TypeError building the refusal (dict(None))
    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    for junk in (None, [], "roll", 3):
        r = table.handle(junk)  # type: ignore[arg-type]
        assert not r.accepted and "an event must be a JSON object" in r.reason


def test_deeply_nested_replay_line_names_the_line():
    # was: RecursionError from json.loads
    with pytest.raises(ReplayError, match="line 2: not valid JSON"):
        replay_lines(['{"game": "pig", "players": ["A", "B"]}', "[" * 100_000])


@pytest.mark.parametrize("raw, says", [
    (b"\xff\xfe[table]\n", "is not UTF-8 text"),
    (b"a = " + b"[" * 5000, "nested too deeply"),
])
def test_config_file_that_is_not_text_or_too_deep(tmp_path, raw, says):
    # was: UnicodeDecodeError / RecursionError out of refbox.config.load
    path = tmp_path / "refbox.toml"
    path.write_bytes(raw)
    with pytest.raises(ConfigError, match=says) as err:
        load(path)
    assert str(path) in str(err.value)


def test_config_path_that_is_a_directory(tmp_path):
    # was: IsADirectoryError out of refbox.config.load
    with pytest.raises(ConfigError, match="cannot be read"):
        load(tmp_path)


def test_malformed_event_keeps_its_type():
    with pytest.raises(MalformedEvent):
        Session.start({"game": "pig", "players": ["A", "B"]}).submit({"type": "roll", "dice": ["\udfff"]})


@pytest.mark.parametrize("options", [[1, 2], "target", 3])
def test_header_options_that_are_not_an_object_are_a_bad_header(options):
    # was: TypeError/ValueError out of Game.resolve_options (dict(options))
    from rules.session import BadHeader

    with pytest.raises(BadHeader, match="options of pig must be a JSON object"):
        Session.start({"game": "pig", "players": ["A", "B"], "options": options})
    with pytest.raises(ReplayError, match="line 1: bad header"):
        replay_lines([f'{{"game": "pig", "players": ["A", "B"], "options": {options!r}}}'.replace("'", '"')])


def test_new_game_with_a_header_that_is_not_an_object_is_refused():
    # was: TypeError building the refusal (dict(None)) in Table.handle_new_game
    table = Table(Journal(":memory:"), {"game": "pig", "players": ["A", "B"]})
    r = table.handle_new_game(None)  # type: ignore[arg-type]
    assert not r.accepted and "header must be a JSON object" in r.reason
