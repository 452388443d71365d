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


K = lambda *d: {"type": "keep", "dice": list(d)}  # noqa: E731
ACCEPT = {"type": "accept"}
CHALLENGE = {"type": "challenge"}


def start(n=3, **options):
    return Session.start({"game": "liars-dice", "players": ["Ann", "Bob", "Cid"][:n], "options": options})


def test_worked_example_liar_1_next_claim_must_exceed():
    s = start()
    play(s, R(3, 3, 3, 2, 2), C(3, 3, 3, 2, 2), ACCEPT, K(3, 3, 3), R(4, 4))
    with pytest.raises(IllegalEvent, match=r"must exceed the last one \[3, 3, 3, 2, 2\]"):
        s.submit(C(3, 3, 3, 2, 2))
    play(s, C(4, 4, 4, 2, 2))  # the text's minimum
    s.submit({"type": "undo"})
    v = play(s, C(3, 3, 3, 4, 4))  # also higher under the [REC] triple-then-pair order
    assert v["claim_name"] == "full house" and v["turn"] == "Cid" and v["phase"] == "respond"
    s = start(fullhouse_by_triple_only=True)
    play(s, R(3, 3, 3, 2, 2), C(3, 3, 3, 2, 2), ACCEPT, R(1, 1, 1, 1, 1))
    with pytest.raises(IllegalEvent, match="must exceed"):
        s.submit(C(3, 3, 3, 4, 4))


def test_challenge_of_a_lie_and_elimination():
    s = start(2, stakes_per_player=2)
    v = play(s, R(1, 2, 3, 4, 6), C(6, 6, 1, 2, 3), CHALLENGE)
    # Ann lied: 1 to the centre, 1 to Bob; she is out and Bob takes the centre
    assert [p["stakes"] for p in v["players"]] == [0, 4] and v["centre"] == 0
    assert v["over"] and v["winner"] == "Bob" and v["revealed"] == [1, 2, 3, 4, 6]
    v = s.submit({"type": "undo"}).view()
    assert v["phase"] == "respond" and v["turn"] == "Bob" and v["cup_hidden"]


def test_accept_passes_the_cup_and_throwing_is_required():
    s = start()
    play(s, R(5, 5, 1, 2, 3), C(5, 5, 6, 4, 3), ACCEPT)
    with pytest.raises(IllegalEvent, match=r"\(liars-dice, throw, Bob to act, last claim \[5, 5, 6, 4, 3\]\): throw the 5"):
        s.submit(R(1, 1))
    with pytest.raises(IllegalEvent, match="keep only dice of the cup"):
        s.submit(K(6))
    with pytest.raises(IllegalEvent, match="throw before announcing"):
        s.submit(C(6, 6, 6, 6, 6))
    v = play(s, K(5, 5), R(5, 1, 2), C(5, 5, 5, 2, 1), CHALLENGE)  # true: Cid pays the centre
    assert [p["stakes"] for p in v["players"]] == [3, 3, 2] and v["turn"] == "Cid" and v["claim"] is None


def test_five_sixes_can_only_be_challenged():
    s = start()
    v = play(s, R(1, 1, 1, 1, 1), C(6, 6, 6, 6, 6))
    with pytest.raises(IllegalEvent, match="nothing can exceed this announcement"):
        s.submit(ACCEPT)
    assert v["turn"] == "Bob"


def test_odds():
    game = get_game("liars-dice")
    assert game.odds({"claim": "1,1,1,1,1"})["at_least_claim"] == Fraction(6, 7776)
    assert game.odds({"claim": "6,4,3,2,1"})["at_least_claim"] == 1  # the lowest hand


@pytest.mark.parametrize("options", [{}, {"ranking": "indian", "fullhouse_by_triple_only": True, "stakes_per_player": 2}])
def test_properties(options):
    check_properties({"game": "liars-dice", "players": ["A", "B", "C"], "options": options}, seeds=range(3))
