from fractions import Fraction

import pytest
from tests.rules.dice.dice_props import check_properties

from rules import IllegalEvent, Session, get_game


def play(s, *events):
    for e in events:
        s.submit(e)
    return s.view()


def R(*d):
    return {"type": "roll", "dice": list(d)}


def C(*d):
    return {"type": "claim", "dice": list(d)}


ACCEPT = {"type": "accept"}
CHALLENGE = {"type": "challenge"}


def start(**options):
    return Session.start({"game": "bluff", "players": ["Ann", "Bob"], "options": options})


def test_caught_bluff_and_true_claim():
    v = play(start(), R(2, 2, 5, 1, 3), C(6, 6, 6, 1, 2), CHALLENGE)
    assert v["winner"] == "Bob" and v["revealed"] == [2, 2, 5, 1, 3] and "bluffed" in v["last_result"]
    v = play(start(), R(6, 6, 6, 1, 2), C(6, 6, 1, 2, 3), CHALLENGE)  # true (even better): the caller loses
    assert v["winner"] == "Ann"


def test_accepted_claim_reply_against_revealed_dice_or_claim():
    v = play(start(), R(4, 4, 1, 2, 3), C(5, 5, 5, 1, 2), ACCEPT, R(5, 5, 1, 2, 3))
    assert v["winner"] == "Bob"  # pair of 5s beats the revealed pair of 4s
    v = play(start(compare="claim"), R(4, 4, 1, 2, 3), C(5, 5, 5, 1, 2), ACCEPT, R(5, 5, 1, 2, 3))
    assert v["winner"] == "Ann"  # but not the claimed three 5s
    v = play(start(), R(4, 4, 1, 2, 3), C(4, 4, 1, 2, 3), ACCEPT, R(4, 4, 3, 2, 1))
    assert v["winner"] == "Ann"  # a tie favours the leader


def test_more_throws_keeps_and_alternating_leader():
    s = start(max_throws=2, best_of=3)
    with pytest.raises(IllegalEvent, match=r"\(bluff, game 1, lead, Ann to act, throw 0\): the leader claims after"):
        s.submit(C(1, 1, 1, 1, 1))
    play(s, R(6, 6, 1, 2, 3), {"type": "keep", "dice": [6, 6]}, R(6, 1, 1))
    with pytest.raises(IllegalEvent, match="no throws left"):
        s.submit(R(1, 2, 3, 4, 5))
    v = play(s, C(6, 6, 6, 1, 1), ACCEPT, R(1, 2, 3, 4, 6), {"type": "stop"})
    assert v["players"][0]["score"] == 1 and v["leader"] == "Bob" and v["turn"] == "Bob" and v["winner"] is None
    with pytest.raises(IllegalEvent, match="not the time to throw"):
        play(s, R(1, 1, 1, 1, 1), C(1, 1, 1, 1, 1), R(1, 2, 3, 4, 5))


def test_odds():
    odds = get_game("bluff").odds({"claim": "6,6,6,6,6"})
    assert odds == {"reply_beats": 0, "claim_true": Fraction(1, 7776)}


@pytest.mark.parametrize("options", [{}, {"max_throws": 3, "best_of": 5, "compare": "claim", "ranking": "indian"}])
def test_properties(options):
    check_properties({"game": "bluff", "players": ["A", "B"], "options": options}, seeds=range(4))


def test_options_for_a_called_true_claim_and_ties():
    v = play(start(true_claim_called="replay"), R(6, 6, 6, 1, 2), C(6, 6, 1, 2, 3), CHALLENGE)
    assert v["winner"] is None and v["game_no"] == 1 and v["phase"] == "lead" and v["turn"] == "Ann"
    assert "replayed" in v["last_result"]
    v = play(start(tie="replier"), R(4, 4, 1, 2, 3), C(4, 4, 1, 2, 3), ACCEPT, R(4, 4, 3, 2, 1))
    assert v["winner"] == "Bob"
