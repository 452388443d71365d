"""Sea dice / Морські кістки, Yacht (000:74-87): five dice, twelve rounds.

In each of 12 rounds every player takes a turn of up to ``max_throws`` (3)
throws: after a throw he may ``keep`` the good dice and rethrow the rest, then
``score`` a combination his dice make. The text names the combinations (yacht,
four = four of a face and one other, full = three and two of another, large
straight 2-6, small straight 1-5, three, pair) but gives no values: the default
table is RULES.md's [REC] (``values``: pair/three/four the matching dice, full the
sum, straights 30), and a Yacht is always 50 ("never changes").

``scoring_mode=choose_per_round`` [REC]: any combination the dice make may be
scored every round (repeats allowed), ``none`` scores 0. ``yacht_card``: the
classic twelve-box Yacht card (ones..sixes, full house, four of a kind, little
and big straight, choice, yacht), each box once. ``bank_unused_throws`` keeps the
throws a player did not use for a later turn (the text's garbled clause; off
[REC]). The highest total after 12 rounds wins; equal totals share the win.

>>> from rules import Session
>>> s = Session.start({"game": "sea-dice", "players": ["Ann", "Bob"]})
>>> _ = s.submit({"type": "roll", "dice": [2, 3, 4, 5, 6]})
>>> s.submit({"type": "score", "category": "large_straight"}).view()["players"][0]["score"]
30
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..events import Event, dice, list_of, integer, text
from ..game import BadOptions, Option
from ._dicekit import DiceGame, Outcome, check_params, is_sub_multiset, leaders, roll_outcomes, sub_multisets, throw_distribution

DICE = 5
YACHT = 50
ROUNDS = 12
FREE = ("pair", "three", "four", "full", "small_straight", "large_straight", "yacht", "none")
CARD = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "full_house", "four_of_a_kind", "little_straight", "big_straight", "choice", "yacht",
)  # fmt: skip
DEFAULT_VALUES = "pair=sum,three=sum,four=sum,full=sum,small_straight=30,large_straight=30"


def parse_values(spec: str) -> dict[str, int | None]:
    """``pair=sum,...,small_straight=30`` -> {name: points or None for "sum of the dice"}."""
    out: dict[str, int | None] = {}
    for item in spec.split(","):
        name, _, value = item.strip().partition("=")
        if name not in FREE[:6]:
            raise BadOptions(f"option 'values': unknown combination {name!r}; known: {list(FREE[:6])} (yacht is fixed)")
        if value == "sum":
            out[name] = None
        elif value.isdigit():
            out[name] = int(value)
        else:
            raise BadOptions(f"option 'values': {name} must be 'sum' or a whole number, got {value!r}")
    missing = sorted(set(FREE[:6]) - set(out))
    if missing:
        raise BadOptions(f"option 'values': no value for {missing}")
    return out


def combination_score(category: str, hand: Sequence[int], values: Mapping[str, int | None]) -> int | None:
    """Points of ``category`` for ``hand`` in choose-per-round scoring, None when the
    dice do not make it.

    >>> v = parse_values(DEFAULT_VALUES)
    >>> combination_score("pair", (6, 6, 5, 5, 1), v), combination_score("four", (2, 2, 2, 2, 2), v)
    (12, None)
    """
    counts = Counter(hand)
    sizes = sorted(counts.values(), reverse=True)
    best = {k: max((f for f, c in counts.items() if c >= k), default=None) for k in (2, 3)}
    if category == "none":
        return 0
    if category == "yacht":
        return YACHT if sizes == [5] else None
    made: int | None  # the points when "sum" is the value
    if category == "pair":
        made = None if best[2] is None else 2 * best[2]
    elif category == "three":
        made = None if best[3] is None else 3 * best[3]
    elif category == "four":
        made = 4 * counts.most_common(1)[0][0] if sizes == [4, 1] else None
    elif category == "full":
        made = sum(hand) if sizes == [3, 2] else None
    elif category == "small_straight":
        made = 0 if sorted(hand) == [1, 2, 3, 4, 5] else None
    else:  # large_straight
        made = 0 if sorted(hand) == [2, 3, 4, 5, 6] else None
    if made is None:
        return None
    fixed = values[category]
    return made if fixed is None else fixed


def card_score(box: str, hand: Sequence[int]) -> int:
    """Classic Yacht card box score (0 when the dice do not make it)."""
    counts = Counter(hand)
    sizes = sorted(counts.values(), reverse=True)
    if box in CARD[:6]:
        face = CARD.index(box) + 1
        return face * counts[face]
    if box == "full_house":
        return sum(hand) if sizes == [3, 2] else 0
    if box == "four_of_a_kind":
        face, c = counts.most_common(1)[0]
        return 4 * face if c >= 4 else 0
    if box == "little_straight":
        return 30 if sorted(hand) == [1, 2, 3, 4, 5] else 0
    if box == "big_straight":
        return 30 if sorted(hand) == [2, 3, 4, 5, 6] else 0
    if box == "choice":
        return sum(hand)
    return YACHT if sizes == [5] else 0


@dataclass(frozen=True)
class SeaState:
    players: tuple[str, ...]
    scores: tuple[int, ...]
    max_throws: int
    card_mode: bool
    bank_unused: bool
    values: tuple[tuple[str, int | None], ...]
    banks: tuple[int, ...]
    cards: tuple[tuple[tuple[str, int], ...], ...]  # yacht_card: the boxes each player filled
    round: int = 1
    turn: int = 0
    throws: int = 0
    held: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    last_scored: str | None = None
    over: bool = False
    tied: tuple[str, ...] = ()
    winner: str | None = None


class SeaDice(DiceGame[SeaState]):
    name = "sea-dice"
    title = "Sea dice (Yacht)"
    native = "Морські кістки"
    source = "000:74-87"
    min_players = 1
    max_players = 10
    options = (
        Option("max_throws", 3, "throws per turn (usually 1 to 3)", lo=1, hi=5),
        Option(
            "scoring_mode",
            "choose_per_round",
            "choose_per_round: score any combination the dice make, repeats allowed [REC];"
            " yacht_card: the classic 12-box Yacht card, each box once",
            choices=("choose_per_round", "yacht_card"),
        ),
        Option("bank_unused_throws", False, "throws not used in a turn are saved for a later turn [REC false]"),
        Option(
            "values",
            DEFAULT_VALUES,
            "house values of the combinations: 'sum' (of the matching dice; the whole hand for full) or points;"
            " yacht is always 50",
        ),
    )
    events = {
        "roll": {"dice": dice(1, DICE)},
        "keep": {"dice": list_of(integer(1, 6), 0, DICE)},
        "score": {"category": text(20, FREE + CARD[:-1])},
    }

    def resolve_options(self, given: Mapping[str, Any] | None) -> Mapping[str, Any]:
        options = super().resolve_options(given)
        parse_values(options["values"])  # refused here, with the header, not at set-up
        return options

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> SeaState:
        names = self.check_players(players)
        n = len(names)
        values = parse_values(options["values"])
        return SeaState(
            names,
            (0,) * n,
            options["max_throws"],
            options["scoring_mode"] == "yacht_card",
            options["bank_unused_throws"],
            tuple(values.items()),
            (0,) * n,
            ((),) * n,
        )

    def allowed(self, state: SeaState) -> int:
        return state.max_throws + state.banks[state.turn]

    def describe(self, state: SeaState) -> str:
        if state.over:
            return "game over"
        return f"round {state.round}, turn {state.players[state.turn]}, throw {state.throws}/{self.allowed(state)}"

    def is_over(self, state: SeaState) -> bool:
        return state.over

    def categories(self, state: SeaState) -> dict[str, int]:
        """What each category would score now (only those the rules allow)."""
        if not state.throws or state.over:
            return {}
        if state.card_mode:
            used = {b for b, _ in state.cards[state.turn]}
            return {b: card_score(b, state.dice) for b in CARD if b not in used}
        values = dict(state.values)
        out = {}
        for c in FREE:
            points = combination_score(c, state.dice, values)
            if points is not None:
                out[c] = points
        return out

    def chance_outcomes(self, state: SeaState) -> tuple[Outcome, ...]:
        if state.over or state.throws >= self.allowed(state):
            return ()
        return roll_outcomes(DICE - len(state.held))

    def decisions(self, state: SeaState) -> list[dict[str, Any]]:
        if state.over or not state.throws:
            return []
        out: list[dict[str, Any]] = [{"type": "score", "category": c} for c in self.categories(state)]
        if state.throws < self.allowed(state):
            out += [{"type": "keep", "dice": list(k)} for k in sub_multisets(state.dice) if len(k) < DICE]
        return out

    def _apply(self, state: SeaState, event: Event) -> SeaState:
        if state.over:
            raise self.illegal(event, state, "the game is over")
        if event.type == "roll":
            if state.throws >= self.allowed(state):
                raise self.illegal(event, state, "no throws left: score a combination")
            need = DICE - len(state.held)
            if len(event["dice"]) != need:
                raise self.illegal(event, state, f"throw the {need} dice not kept, got {len(event['dice'])}")
            return replace(state, throws=state.throws + 1, dice=state.held + event["dice"])
        if not state.throws:
            raise self.illegal(event, state, "throw first")
        if event.type == "keep":
            if state.throws >= self.allowed(state):
                raise self.illegal(event, state, "no throws left: score a combination")
            if not is_sub_multiset(event["dice"], state.dice):
                raise self.illegal(event, state, f"keep only dice on the table {list(state.dice)}")
            if len(event["dice"]) == DICE:
                raise self.illegal(event, state, "keeping all five leaves nothing to throw: score instead")
            return replace(state, held=tuple(sorted(event["dice"])))
        options = self.categories(state)
        category = event["category"]
        if category not in options:
            if state.card_mode:
                why = "already filled" if category in CARD else "not a box of the Yacht card"
            else:
                why = "not a combination of this mode" if category in CARD else f"the dice {list(state.dice)} do not make it"
            raise self.illegal(event, state, f"cannot score {category}: {why}")
        return self._scored(state, category, options[category])

    def _scored(self, state: SeaState, category: str, points: int) -> SeaState:
        me = state.turn
        scores = tuple(s + (points if k == me else 0) for k, s in enumerate(state.scores))
        cards = state.cards
        if state.card_mode:
            cards = tuple(c + ((category, points),) if k == me else c for k, c in enumerate(cards))
        banks = state.banks
        if state.bank_unused:
            left = self.allowed(state) - state.throws
            banks = tuple(left if k == me else b for k, b in enumerate(banks))
        state = replace(
            state,
            scores=scores,
            cards=cards,
            banks=banks,
            throws=0,
            held=(),
            last_scored=f"{state.players[me]}: {category} {points}",
        )
        nxt = (me + 1) % len(state.players)
        if nxt == 0 and state.round == ROUNDS:
            top = leaders(state.players, scores)
            one = len(top) == 1
            return replace(state, over=True, winner=top[0] if one else None, tied=() if one else tuple(top))
        return replace(state, turn=nxt, round=state.round + (nxt == 0))

    def view(self, state: SeaState, now: float) -> dict[str, Any]:
        players = []
        for k, (p, s) in enumerate(zip(state.players, state.scores)):
            entry: dict[str, Any] = {"name": p, "score": s}
            if state.card_mode:
                entry["card"] = dict(state.cards[k])
            if state.bank_unused:
                entry["banked_throws"] = state.banks[k]
            players.append(entry)
        return {
            "players": players,
            "turn": None if state.over else state.players[state.turn],
            "round": state.round,
            "rounds": ROUNDS,
            "throws": state.throws,
            "throws_allowed": self.allowed(state),
            "dice": list(state.dice),
            "held": list(state.held),
            "can_score": self.categories(state),
            "last_scored": state.last_scored,
            "winner": state.winner,
            "tied": list(state.tied),
            "over": state.over,
        }

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds sea-dice``: the chance that one throw of five dice makes each
        combination (choose-per-round definitions)."""
        check_params(params, (), self.name)
        values = parse_values(DEFAULT_VALUES)
        out = {c: Fraction(0) for c in FREE[:-1]}
        for hand, p in throw_distribution(DICE).items():
            for c in out:
                if combination_score(c, hand, values) is not None:
                    out[c] += p
        return out


GAMES = (SeaDice(),)
