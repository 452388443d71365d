"""A simulated All Fives table: real shuffled tiles, players who follow the rules,
and the events a referee box would receive from them. Used by the property tests
and to write golden playthroughs. The table knows the hidden hands; the engine never does."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

from rules import Session
from rules.dominoes import FULL_SET, Tile, canonical, proposals, tile_accounts
from rules.dominoes.all_fives import AllFivesState


def fits(state: AllFivesState, tile: Tile) -> bool:
    """The tile matches an open end (whatever the engine knows about hands)."""
    return state.layout.empty or bool(set(tile) & set(state.layout.open_ends().values()))


@dataclass
class Table:
    rng: random.Random
    session: Session
    hands: list[list[Tile]] = field(default_factory=list)
    boneyard: list[Tile] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def state(self) -> AllFivesState:
        return self.session.state

    def submit(self, event: dict[str, Any]) -> None:
        self.session.submit(event)
        self.events.append(event)

    # --- what happens at the table ---------------------------------------------

    def deal(self) -> None:
        tiles = list(FULL_SET)
        self.rng.shuffle(tiles)
        tiles = [t if self.rng.random() < 0.5 else (t[1], t[0]) for t in tiles]
        n, size = len(self.state.players), self.state.hand_size
        self.hands = [tiles[i * size:(i + 1) * size] for i in range(n)]
        self.boneyard = tiles[n * size:]
        event: dict[str, Any] = {"type": "new_hand"}
        if self.state.hand == 0 and self.rng.random() < 0.5:
            event["leader"] = self.rng.choice(self.state.players)
        self.submit(event)

    def turn(self) -> None:
        st = self.state
        p = st.turn
        assert p is not None
        hand = self.hands[p]
        options = [e for t in hand for e in proposals(st, t)]
        if options:
            choice = self.rng.choice(options).to_dict()
            del choice["source"]
            tile = tuple(choice["tile"])
            if len([e for e in options if canonical(tuple(e["tile"])) == canonical(tile)]) == 1:
                if self.rng.random() < 0.3:
                    choice.pop("end", None)  # unambiguous: the engine finds the end
            if self.rng.random() < 0.2:
                choice["player"] = st.players[p]
            hand.remove(tile)  # type: ignore[arg-type]
            self.submit(choice)
            return
        if st.drawable > 0:
            drawn: list[Tile] = []
            while len(drawn) < st.drawable:
                tile = self.boneyard.pop()
                drawn.append(tile)
                if fits(st, tile):
                    break
            if self.rng.random() < 0.5:
                for tile in drawn:
                    self.hands[p].append(tile)
                    self.submit({"type": "draw", "tile": list(tile)})
            else:
                self.hands[p].extend(drawn)
                self.submit({"type": "draw", "count": len(drawn)} if len(drawn) > 1 else {"type": "draw"})
            return
        if self.rng.random() < 0.1 and all(not any(fits(st, t) for t in h) for h in self.hands):
            self.submit({"type": "fish"})
        else:
            self.submit({"type": "pass"})

    def count(self) -> None:
        if self.rng.random() < 0.5:
            self.submit({"type": "count", "hands": [[list(t) for t in h] for h in self.hands]})
        else:
            self.submit({"type": "count", "pips": [sum(a + b for a, b in h) for h in self.hands]})

    def step(self) -> None:
        phase = self.state.phase
        if phase == "deal":
            self.deal()
        elif phase == "play":
            self.turn()
        elif phase == "count":
            self.count()


def new_table(seed: int, players: list[str], options: dict[str, Any] | None = None) -> Table:
    header = {"game": "all-fives", "players": players, "options": options or {}}
    return Table(random.Random(seed), Session.start(header))


def play_game(table: Table, max_events: int = 5000, check: Callable[[Table], None] | None = None) -> Table:
    while table.state.phase != "over" and len(table.events) < max_events:
        table.step()
        if check is not None:
            check(table)
    return table


def check_conservation(table: Table) -> None:
    """28 tiles, 168 pips, each suit on 7 tiles, across the layout, the hands and the
    boneyard, as the engine accounts for them and as the real table has them."""
    st = table.state
    acc = check_accounts(st)
    # the engine agrees with the real table
    if table.hands and st.phase in ("play", "count"):
        assert acc["hand_counts"] == [len(h) for h in table.hands]
        assert acc["boneyard"] == len(table.boneyard)
        for k, h in zip(acc["known"], table.hands):
            assert set(k) <= {canonical(t) for t in h}
        assert set(acc["table"]).isdisjoint(canonical(t) for h in table.hands for t in h)


def check_accounts(st: AllFivesState) -> dict[str, Any]:
    """The engine's own tile accounts add up (any state, real table or not)."""
    acc = tile_accounts(st)
    known = [t for k in acc["known"] for t in k]
    everything = acc["table"] + known + acc["hidden"]
    assert sorted(everything) == sorted(FULL_SET), "a tile is missing or counted twice"
    assert sum(a + b for a, b in everything) == 168
    for suit in range(7):
        assert sum(1 for t in everything if suit in t) == 7
    assert len(acc["hidden"]) == acc["hidden_slots"] + acc["boneyard"]
    assert len(acc["table"]) + sum(acc["hand_counts"]) + acc["boneyard"] == 28
    assert all(c >= len(k) for c, k in zip(acc["hand_counts"], acc["known"]))
    # the line of play joins half to half, and the arms join the spinner
    lay = st.layout
    assert all(lay.line[i][1] == lay.line[i + 1][0] for i in range(len(lay.line) - 1))
    for arm in (lay.up, lay.down):
        if arm:
            assert lay.spinner is not None and arm[0][0] == lay.line[lay.spinner][0]
            assert all(arm[i][1] == arm[i + 1][0] for i in range(len(arm) - 1))
    assert all(c >= 0 for c in acc["hand_counts"]) and 0 <= acc["boneyard"] <= 28
    return acc
