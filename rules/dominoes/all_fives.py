"""All Fives / Muggins, П'ятірка / Пятёрка (000:1345-1393 UA, 001:758-786 RU).

Double-six set, 2-4 players or pair against pair. Whenever a placed tile makes the
open ends sum to a multiple of five, its player scores that sum. A hand ends when
a player plays out ("domino") or the game is blocked ("fish"); the winner adds the
opponents' pips, rounded to the nearest five and divided by five. The game stops
the moment a player (or pair) reaches the target, even in the middle of a hand.

The tiles are real and dealt face down, so the engine never knows a hidden hand.
It keeps what a referee at the table can know: the layout, how many tiles each
player holds, how many are left in the boneyard, and any tile named when drawn
or shown; the events say what happened at the table (``play`` names the tile and
the end it joins, ``draw``, ``pass``, ``fish``, ``count``, ``new_hand``).

>>> from rules import Session
>>> s = Session.start({"game": "all-fives", "players": ["Ann", "Bob"]})
>>> for e in ({"type": "new_hand"}, {"type": "play", "tile": [5, 5]},
...           {"type": "play", "tile": [5, 0], "end": "right"}):
...     _ = s.submit(e)
>>> v = s.view()
>>> [p["score"] for p in v["players"]], v["ends_terms"], v["turn"]
([10, 10], [10, 0], 'Ann')
>>> s.submit({"type": "play", "tile": [6, 1], "end": "left"})
Traceback (most recent call last):
...
rules.dominoes.all_fives.IllegalPlay: illegal play [6, 1] on open ends (5, 0; up 5, down 5) (all-fives, hand 1, turn Ann): the left end shows 5
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from ..events import Event, IllegalEvent, MalformedEvent, Opt, integer, list_of, text
from ..game import BadOptions, BadPlayers, Game, Option, TileAnswer
from .layout import ENDS, Layout
from .tiles import FULL_SET, Tile, canonical, fmt_tile, fmt_tiles, is_double, pips, round_to_five, tile_field

PHASES = ("deal", "play", "count", "over")
SET_SIZE = len(FULL_SET)


class IllegalPlay(IllegalEvent):
    """A placement the layout refuses; the message shows the tile and the open ends:
    ``illegal play [3, 5] on open ends (6, 2) (all-fives, hand 1, turn Bob): ...``."""

    def __init__(self, event: Event, tile: Tile, ends: str, reason: str, state: str) -> None:
        super().__init__(event, reason, state)
        self.tile = tile
        self.open_ends = ends
        where = f" ({state})" if state else ""
        self.args = (f"illegal play {fmt_tile(tile)} on open ends {ends}{where}: {reason}",)


@dataclass(frozen=True)
class Placement:
    """One tile on the table: oriented inner half first, the end it joined
    (``lead`` for the first tile of the hand), who played it and what it scored."""

    tile: Tile
    end: str
    player: int
    points: int


@dataclass(frozen=True)
class Award:
    player: int
    points: int
    reason: str  # "play" | "bonus"


@dataclass(frozen=True)
class HandResult:
    hand: int
    end: str  # "domino" | "fish"
    winner: int | None  # player; None for a tied fish
    pips: tuple[int, ...]
    bonus: int


@dataclass(frozen=True)
class AllFivesState:
    players: tuple[str, ...]
    scores: tuple[int, ...]  # per side (a player, or a pair with ``teams``)
    # house rules
    teams: bool = False
    target: int = 100
    closing: str = "two_sides"
    stop_tiles: int = 1
    divide_bonus: bool = True
    hand_size: int = 7
    end_double: str = "full"
    # the hand
    phase: str = "deal"
    hand: int = 0
    turn: int | None = None
    leader: int | None = None  # who led the current (or last) hand
    next_leader: int | None = None  # fixed by the last hand's winner; None = free choice
    layout: Layout = Layout()
    placements: tuple[Placement, ...] = ()
    counts: tuple[int, ...] = ()  # tiles in each player's hand
    known: tuple[frozenset[Tile], ...] = ()  # tiles known to be in each hand
    boneyard: int = SET_SIZE
    passes: int = 0  # consecutive passes
    hand_points: tuple[int, ...] = ()  # per side, this hand
    hand_end: str | None = None  # "domino" | "fish" while counting
    domino_by: int | None = None
    last_score: Award | None = None
    last_hand: HandResult | None = None
    winner: int | None = None  # side

    def side(self, player: int) -> int:
        return player % 2 if self.teams else player

    @property
    def sides(self) -> int:
        return 2 if self.teams else len(self.players)

    def side_name(self, side: int) -> str:
        if self.teams:
            return f"{self.players[side]} & {self.players[side + 2]}"
        return self.players[side]

    @property
    def drawable(self) -> int:
        """Tiles that may still be drawn: the stop tile(s) always stay."""
        return max(0, self.boneyard - self.stop_tiles)

    def hidden_tiles(self) -> frozenset[Tile]:
        """Tiles neither on the table nor known in a hand (in hands or the boneyard)."""
        seen = set(self.layout.tiles())
        for k in self.known:
            seen |= k
        return frozenset(FULL_SET) - seen


_STATE_FIELDS = frozenset(f.name for f in fields(AllFivesState))


def _evolve(state: AllFivesState, **changes: Any) -> AllFivesState:
    """``dataclasses.replace`` without re-running ``__init__`` over every field: a
    journal replay makes one copy per event (budget: 10,000 events in 0.5 s)."""
    unknown = changes.keys() - _STATE_FIELDS
    if unknown:
        raise TypeError(f"AllFivesState has no field(s) {sorted(unknown)}")
    new = object.__new__(AllFivesState)
    new.__dict__.update(state.__dict__)
    new.__dict__.update(changes)
    return new


def _tiles_field(value: Any) -> tuple[Tile, ...]:
    return tuple(list_of(tile_field, 0, SET_SIZE)(value))


class AllFives(Game[AllFivesState]):
    name = "all-fives"
    title = "All Fives (Muggins)"
    native = "П'ятірка / Пятёрка"
    family = "dominoes"
    source = "000:1345-1393"
    min_players = 2
    max_players = 4
    options = (
        Option("target", 100, "points that win the game at once (usually 100, 250 or 500)", lo=5, hi=1000),
        Option(
            "double_closing",
            "two_sides",
            "the spinner stops counting once covered on two sides (the text's 'as a rule'),"
            " or counts its free sides at half value until covered on all four",
            choices=("two_sides", "four_sides"),
        ),
        Option("hand_size", "auto", "tiles dealt to each player: auto = 7 for two players, 5 for three, four or pairs",
               choices=("auto", 5, 7)),
        Option("teams", False, "four players as two pairs: players 1 & 3 against 2 & 4, scores pooled"),
        Option("stop_tiles", 1, "tiles that always stay in the boneyard (the 'stop tile')", lo=0, hi=6),
        Option("bonus_divide_by_5", True, "the hand bonus is the rounded pip total divided by 5 (the text);"
               " false: the rounded total itself"),
        Option("end_double_value", "full", "an ordinary double at an open end counts both halves or one",
               choices=("full", "half")),
    )
    events = {
        "new_hand": {"leader": Opt(text(40))},
        "play": {"tile": tile_field, "end": Opt(text(10, ENDS)), "player": Opt(text(40))},
        "draw": {"count": Opt(integer(1, SET_SIZE)), "tile": Opt(tile_field), "player": Opt(text(40))},
        "pass": {"player": Opt(text(40))},
        "fish": {},
        "count": {"pips": Opt(list_of(integer(0, 168), 2, 4)), "hands": Opt(list_of(_tiles_field, 2, 4))},
    }
    keypad = {
        "new_hand": {"type": "new_hand"},
        "draw": {"type": "draw"},
        "pass": {"type": "pass"},
        "fish": {"type": "fish"},
    }

    # --- set-up -------------------------------------------------------------------

    def setup(self, players: Sequence[str], options: Mapping[str, Any]) -> AllFivesState:
        names = self.check_players(players)
        n = len(names)
        teams = bool(options["teams"])
        if teams and n != 4:
            raise BadPlayers(f"all-fives in pairs needs 4 players, got {n}")
        size = options["hand_size"]
        if size == "auto":
            size = 7 if n == 2 else 5
        if SET_SIZE - n * size < options["stop_tiles"]:
            raise BadOptions(
                f"option 'hand_size': {size} tiles each for {n} players leaves"
                f" {SET_SIZE - n * size} in the boneyard, fewer than stop_tiles={options['stop_tiles']}"
            )
        sides = 2 if teams else n
        return AllFivesState(
            players=names,
            scores=(0,) * sides,
            teams=teams,
            target=options["target"],
            closing=options["double_closing"],
            stop_tiles=options["stop_tiles"],
            divide_bonus=options["bonus_divide_by_5"],
            hand_size=size,
            end_double=options["end_double_value"],
            counts=(0,) * n,
            known=(frozenset(),) * n,
            hand_points=(0,) * sides,
        )

    def describe(self, state: AllFivesState) -> str:
        if state.winner is not None:
            return f"won by {state.side_name(state.winner)}"
        if state.phase == "deal":
            return f"before hand {state.hand + 1}"
        if state.phase == "count":
            return f"hand {state.hand} over ({state.hand_end}), count the pips"
        return f"hand {state.hand}, turn {state.players[state.turn or 0]}"

    def legal_types(self, state: AllFivesState) -> tuple[str, ...]:
        return {
            "deal": ("new_hand",),
            "play": ("play", "draw", "pass", "fish"),
            "count": ("count",),
            "over": (),
        }[state.phase]

    def from_reading(self, state: AllFivesState, dice: Sequence[int]) -> Event | None:
        return None  # tiles, not dice: see ``from_tiles``

    def from_tiles(self, state: AllFivesState, tiles: Sequence[Sequence[int]]) -> list[Event]:
        """The plays a camera reading of the tiles on the table proposes (:func:`new_tile_proposals`)."""
        return new_tile_proposals(state, tiles)

    def read_tiles(self, state: AllFivesState, tiles: Sequence[Any]) -> TileAnswer:
        """A camera reading with geometry: plays while a hand is played, the count after it (:func:`read_table`)."""
        return read_table(state, tiles)

    # --- events -------------------------------------------------------------------

    def _apply(self, state: AllFivesState, event: Event) -> AllFivesState:
        if state.phase == "over":
            raise self.illegal(event, state, f"the game is over, {state.side_name(state.winner or 0)} won")
        if event.type == "new_hand":
            return self._new_hand(state, event)
        if event.type == "count":
            if state.phase != "count":
                raise self.illegal(event, state, "count the pips when a hand is over (domino or fish)")
            return self._count(state, event)
        if state.phase != "play":
            what = "start a hand first (new_hand)" if state.phase == "deal" else "the hand is over: count the pips"
            raise self.illegal(event, state, what)
        player = self._player_on_turn(state, event)
        if event.type in ("draw", "pass") and state.layout.empty:
            raise self.illegal(event, state, f"{state.players[player]} leads: any tile may be played")
        if event.type == "play":
            return self._play(state, event, player)
        if event.type == "draw":
            return self._draw(state, event, player)
        if event.type == "pass":
            return self._pass(state, event, player)
        return self._fish(state, event)

    def _player_index(self, state: AllFivesState, event: Event, name: str) -> int:
        if name not in state.players:
            raise self.illegal(event, state, f"no player {name!r}; players: {list(state.players)}")
        return state.players.index(name)

    def _player_on_turn(self, state: AllFivesState, event: Event) -> int:
        turn = state.turn if state.turn is not None else 0
        name = event.get("player")
        if name is not None and self._player_index(state, event, name) != turn:
            raise self.illegal(event, state, f"it is {state.players[turn]}'s turn, not {name}'s")
        return turn

    def _new_hand(self, state: AllFivesState, event: Event) -> AllFivesState:
        if state.phase == "play":
            raise self.illegal(event, state, "the hand is still being played")
        if state.phase == "count":
            raise self.illegal(event, state, "count the pips of the hand first")
        name = event.get("leader")
        if state.next_leader is not None:
            leader = state.next_leader
            if name is not None and self._player_index(state, event, name) != leader:
                raise self.illegal(
                    event, state, f"{state.players[leader]} won the last hand and leads the next one"
                )
        elif name is not None:
            leader = self._player_index(state, event, name)
        else:
            # The first hand: by lot (the table says who, default the first player).
            # After a tied fish nobody won: [REC] the same player leads again.
            leader = state.leader if state.leader is not None else 0
        n = len(state.players)
        return _evolve(
            state,
            phase="play",
            hand=state.hand + 1,
            turn=leader,
            leader=leader,
            next_leader=None,
            layout=Layout(),
            placements=(),
            counts=(state.hand_size,) * n,
            known=(frozenset(),) * n,
            boneyard=SET_SIZE - n * state.hand_size,
            passes=0,
            hand_points=(0,) * state.sides,
            hand_end=None,
            domino_by=None,
        )

    def _check_holdable(self, state: AllFivesState, event: Event, tile: Tile, player: int, verb: str) -> None:
        """Refuse a tile that is on the table or known to be elsewhere."""
        c = canonical(tile)
        if c in state.layout.tiles():
            raise self.illegal(event, state, f"{fmt_tile(c)} is already on the table")
        for other, known in enumerate(state.known):
            if other != player and c in known:
                raise self.illegal(event, state, f"{fmt_tile(c)} is known to be in {state.players[other]}'s hand")
        if verb == "play" and len(state.known[player]) >= state.counts[player] and c not in state.known[player]:
            raise self.illegal(
                event, state, f"{state.players[player]}'s hand is known ({fmt_tiles(state.known[player])})"
            )

    def _play(self, state: AllFivesState, event: Event, player: int) -> AllFivesState:
        tile: Tile = event["tile"]
        self._check_holdable(state, event, tile, player, "play")
        lay = state.layout
        ends = lay.open_ends()
        end: str | None = event.get("end")
        if lay.empty:
            if end not in (None, "left", "right"):
                raise self._illegal_play(event, state, tile, "the first tile starts the line; there is no spinner yet")
            end = None
        else:
            fits = [e for e, v in ends.items() if v in tile]
            if end is None:
                if not fits:
                    raise self._illegal_play(event, state, tile, f"no open end shows {_halves(tile)}")
                if len(fits) > 1:
                    where = ", ".join(f"{e} ({ends[e]})" for e in fits)
                    raise self._illegal_play(event, state, tile, f"it fits several ends, name one: {where}")
                end = fits[0]
            elif end not in ends:
                raise self._illegal_play(event, state, tile, f"there is no {end} end: the spinner is not down yet")
            elif end not in fits:
                raise self._illegal_play(event, state, tile, f"the {end} end shows {ends[end]}")
        new_lay = lay.place(tile, end)
        total = sum(new_lay.terms(state.closing, state.end_double))
        points = total if total > 0 and total % 5 == 0 else 0
        oriented = new_lay.line[0] if end is None else new_lay.outer_tile(end)
        counts = list(state.counts)
        counts[player] -= 1
        known = list(state.known)
        known[player] = known[player] - {canonical(tile)}
        changes: dict[str, Any] = {
            "layout": new_lay,
            "placements": state.placements + (Placement(oriented, end or "lead", player, points),),
            "counts": tuple(counts),
            "known": tuple(known),
            "passes": 0,
            "turn": (player + 1) % len(state.players),
        }
        if counts[player] == 0:
            changes.update(phase="count", hand_end="domino", domino_by=player, turn=None)
        if points:
            changes.update(self._award(state, player, points, "play"))  # reaching the target ends all
        return _evolve(state, **changes)

    def _playable_known(self, state: AllFivesState, player: int) -> list[Tile]:
        ends = set(state.layout.open_ends().values())
        return sorted(t for t in state.known[player] if state.layout.empty or ends & set(t))

    def _refuse_if_can_play(self, state: AllFivesState, event: Event, player: int) -> None:
        playable = self._playable_known(state, player)
        if playable:
            raise self.illegal(
                event, state, f"{state.players[player]} holds {fmt_tiles(playable)}, which can be played"
            )

    def _draw(self, state: AllFivesState, event: Event, player: int) -> AllFivesState:
        tile: Tile | None = event.get("tile")
        count = event.get("count")
        if tile is not None and count not in (None, 1):
            raise self.illegal(event, state, "name one drawn tile at a time")
        n = 1 if count is None else count
        if n > state.drawable:
            stop = "1 stop tile stays" if state.stop_tiles == 1 else f"{state.stop_tiles} stop tiles stay"
            if state.drawable == 0:
                raise self.illegal(event, state, f"the boneyard is down to the stop tile ({stop}): pass")
            raise self.illegal(event, state, f"only {state.drawable} can be drawn ({state.boneyard} left, {stop})")
        self._refuse_if_can_play(state, event, player)
        known = list(state.known)
        if tile is not None:
            self._check_holdable(state, event, tile, player, "draw")
            if canonical(tile) in known[player]:
                raise self.illegal(
                    event, state, f"{fmt_tile(canonical(tile))} is already in {state.players[player]}'s hand"
                )
            known[player] = known[player] | {canonical(tile)}
        counts = list(state.counts)
        counts[player] += n
        return _evolve(state, counts=tuple(counts), known=tuple(known), boneyard=state.boneyard - n)

    def _pass(self, state: AllFivesState, event: Event, player: int) -> AllFivesState:
        if state.drawable > 0:
            raise self.illegal(
                event, state, f"draw first: {state.drawable} tile(s) can still be drawn from the boneyard"
            )
        self._refuse_if_can_play(state, event, player)
        passes = state.passes + 1
        if passes >= len(state.players):
            return _evolve(state, passes=passes, phase="count", hand_end="fish", turn=None)
        return _evolve(state, passes=passes, turn=(player + 1) % len(state.players))

    def _fish(self, state: AllFivesState, event: Event) -> AllFivesState:
        if state.drawable > 0:
            raise self.illegal(
                event, state, f"not blocked: {state.drawable} tile(s) can still be drawn from the boneyard"
            )
        if state.layout.empty:
            raise self.illegal(event, state, "no tile has been played yet")
        return _evolve(state, phase="count", hand_end="fish", turn=None)

    # --- end of a hand ------------------------------------------------------------

    def _count(self, state: AllFivesState, event: Event) -> AllFivesState:
        n = len(state.players)
        pip_list, hands = event.get("pips"), event.get("hands")
        if (pip_list is None) == (hands is None):
            raise self.illegal(event, state, "give either 'pips' (one number per player) or 'hands' (their tiles)")
        known = state.known
        if hands is not None:
            if len(hands) != n:
                raise self.illegal(event, state, f"'hands' needs one list per player ({n}), got {len(hands)}")
            self._check_hands(state, event, hands)
            known = tuple(frozenset(canonical(t) for t in h) for h in hands)
            values = tuple(sum(pips(t) for t in h) for h in hands)
        else:
            if len(pip_list) != n:
                raise self.illegal(event, state, f"'pips' needs one number per player ({n}), got {len(pip_list)}")
            values = tuple(pip_list)
            self._check_pips(state, event, values)
        if state.hand_end == "domino":
            winner: int | None = state.domino_by
            assert winner is not None
            raw = sum(v for p, v in enumerate(values) if state.side(p) != state.side(winner))
        else:
            low = min(values)
            holders = [p for p, v in enumerate(values) if v == low]
            winner = holders[0] if len({state.side(p) for p in holders}) == 1 else None
            raw = (
                0
                if winner is None
                else sum(v for p, v in enumerate(values) if state.side(p) != state.side(winner)) - low
            )
        bonus = round_to_five(raw)
        if state.divide_bonus:
            bonus //= 5
        result = HandResult(state.hand, state.hand_end or "fish", winner, values, bonus)
        changes: dict[str, Any] = {
            "known": known, "last_hand": result, "phase": "deal", "next_leader": winner, "hand_end": None
        }
        if winner is not None and bonus:
            changes.update(self._award(state, winner, bonus, "bonus"))
        return _evolve(state, **changes)

    def _check_hands(self, state: AllFivesState, event: Event, hands: Sequence[Sequence[Tile]]) -> None:
        on_table = state.layout.tiles()
        seen: dict[Tile, int] = {}
        for p, hand in enumerate(hands):
            name = state.players[p]
            if len(hand) != state.counts[p]:
                raise self.illegal(event, state, f"{name} holds {state.counts[p]} tile(s), {len(hand)} given")
            tiles = set()
            for c in (canonical(t) for t in hand):
                if c in on_table:
                    raise self.illegal(event, state, f"{fmt_tile(c)} is already on the table")
                if c in seen:
                    raise self.illegal(event, state, f"{fmt_tile(c)} is given twice")
                seen[c] = p
                tiles.add(c)
            missing = state.known[p] - tiles
            if missing:
                raise self.illegal(event, state, f"{name} is known to hold {fmt_tiles(missing)}")

    def _check_pips(self, state: AllFivesState, event: Event, values: Sequence[int]) -> None:
        hidden = sorted(pips(t) for t in state.hidden_tiles())
        for p, value in enumerate(values):
            sure = sum(pips(t) for t in state.known[p])
            unknown = state.counts[p] - len(state.known[p])
            lo = sure + sum(hidden[:unknown])
            hi = sure + sum(hidden[len(hidden) - unknown:]) if unknown else sure
            if not lo <= value <= hi:
                tiles = state.counts[p]
                raise self.illegal(
                    event, state,
                    f"{state.players[p]} cannot hold {value} pips in {tiles} tile(s) (possible {lo}..{hi})",
                )

    def _award(self, state: AllFivesState, player: int, points: int, reason: str) -> dict[str, Any]:
        """The changes that give ``points`` to the player's side; the game ends at the target."""
        side = state.side(player)
        scores = list(state.scores)
        scores[side] += points
        hand_points = list(state.hand_points)
        hand_points[side] += points
        changes: dict[str, Any] = {
            "scores": tuple(scores), "hand_points": tuple(hand_points), "last_score": Award(player, points, reason)
        }
        if scores[side] >= state.target:
            changes.update(phase="over", winner=side, turn=None, hand_end=None)
        return changes

    def _illegal_play(self, event: Event, state: AllFivesState, tile: Tile, reason: str) -> IllegalPlay:
        where = self.describe(state)
        return IllegalPlay(event, tile, fmt_open_ends(state.layout), reason, f"{self.name}, {where}")

    # --- chances ------------------------------------------------------------------

    def odds(self, params: Mapping[str, str]) -> Mapping[str, Fraction]:
        """``refbox odds all-fives --table 5-5,5-0@right,3-5@left [--seen 1-2,6-6]
        [--closing four_sides]``: for a tile drawn at random from those not on the
        table and not ``seen`` (e.g. your own hand), the chance it fits an open end,
        and the chances of the best score it could make (``best_0``, ``best_5``, ...;
        they sum to 1).

        >>> odds = AllFives().odds({"table": "5-5,5-0@right,3-5@left"})
        >>> odds["draw_fits"], odds["best_5"]  # 0-2 or 2-5 make 3 + 2
        (Fraction(3, 5), Fraction(2, 25))
        >>> odds = AllFives().odds({"table": "5-5,5-0@right,3-5@left", "closing": "four_sides"})
        >>> odds["best_10"], odds["best_15"]  # 2-5 up or 0-3 left: 10; 0-2 right: 3 + 5 + 5 + 2
        (Fraction(2, 25), Fraction(1, 25))
        """
        allowed = {"table", "seen", "closing"}
        unknown = sorted(set(params) - allowed)
        if unknown:
            raise ValueError(f"unknown odds parameter(s) {unknown} for {self.name}; allowed: {sorted(allowed)}")
        closing = params.get("closing", "two_sides")
        if closing not in ("two_sides", "four_sides"):
            raise ValueError(f"--closing must be two_sides or four_sides, got {closing!r}")
        layout = Layout()
        for item in _split(params.get("table", "")):
            tile_text, _, end = item.partition("@")
            tile = _parse_tile(tile_text, "--table")
            ends = layout.open_ends()
            if canonical(tile) in layout.tiles():
                raise ValueError(f"--table: {fmt_tile(tile)} is placed twice")
            if layout.empty:
                end = ""
            elif not end:
                fits = [e for e, v in ends.items() if v in tile]
                if len(fits) != 1:
                    raise ValueError(f"--table: say where {tile_text} goes, e.g. {tile_text}@left")
                end = fits[0]
            elif end not in ends or ends[end] not in tile:
                raise ValueError(f"--table: {tile_text} does not fit the {end} end (open ends {ends})")
            layout = layout.place(tile, end or None)
        seen = {canonical(_parse_tile(t, "--seen")) for t in _split(params.get("seen", ""))}
        pool = sorted(frozenset(FULL_SET) - layout.tiles() - seen)
        if not pool:
            raise ValueError("no tile is left to draw")
        best: dict[int, int] = {}
        fitting = 0
        for tile in pool:
            scores = []
            for end, value in layout.open_ends().items() if not layout.empty else [("", tile[0])]:
                if value in tile:
                    total = sum(layout.place(tile, end or None).terms(closing))
                    scores.append(total if total > 0 and total % 5 == 0 else 0)
            if scores:
                fitting += 1
            top = max(scores, default=0)
            best[top] = best.get(top, 0) + 1
        out = {"draw_fits": Fraction(fitting, len(pool))}
        out.update({f"best_{k}": Fraction(v, len(pool)) for k, v in sorted(best.items())})
        return out

    # --- outputs ------------------------------------------------------------------

    def view(self, state: AllFivesState, now: float) -> dict[str, Any]:
        lay = state.layout
        terms = lay.terms(state.closing, state.end_double)
        spinner = lay.spinner_tile
        players = []
        for p, name in enumerate(state.players):
            entry: dict[str, Any] = {"name": name, "score": state.scores[state.side(p)], "tiles": state.counts[p]}
            if state.teams:
                entry["team"] = state.side(p)
            players.append(entry)
        last = state.last_score
        result = state.last_hand
        next_leader: int | None = None
        if state.phase == "deal":
            next_leader = state.next_leader if state.next_leader is not None else (state.leader or 0)
        return {
            "players": players,
            "teams": (
                [
                    {"name": state.side_name(s), "players": [state.players[s], state.players[s + 2]],
                     "score": state.scores[s]}
                    for s in range(2)
                ]
                if state.teams
                else None
            ),
            "turn": None if state.turn is None else state.players[state.turn],
            "phase": state.phase,
            "hand": state.hand,
            "target": state.target,
            "double_closing": state.closing,
            "open_ends": lay.open_ends(),
            "ends_terms": list(terms),
            "ends_sum": sum(terms),
            "spinner": None if spinner is None else list(spinner),
            "layout": [
                {"tile": list(pl.tile), "end": pl.end, "player": state.players[pl.player], "points": pl.points}
                for pl in state.placements
            ],
            "line": [list(t) for t in lay.line],
            "arms": {"up": [list(t) for t in lay.up], "down": [list(t) for t in lay.down]},
            "boneyard": state.boneyard,
            "drawable": state.drawable,
            "passes": state.passes,
            "hand_points": list(state.hand_points),
            "last_score": (
                None
                if last is None
                else {"player": state.players[last.player], "points": last.points, "for": last.reason}
            ),
            "last_hand": (
                None
                if result is None
                else {
                    "hand": result.hand,
                    "end": result.end,
                    "winner": None if result.winner is None else state.players[result.winner],
                    "pips": list(result.pips),
                    "bonus": result.bonus,
                }
            ),
            "hand_end": state.hand_end,
            "next_leader": None if next_leader is None else state.players[next_leader],
            "dead_ends": state.phase == "play" and not lay.empty and not any(
                set(t) & set(lay.open_ends().values()) for t in state.hidden_tiles() | _all_known(state)
            ),
            "winner": None if state.winner is None else state.side_name(state.winner),
        }


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _parse_tile(text: str, param: str) -> Tile:
    """``5-3`` (or ``5x3``) -> (5, 3); the message names the parameter."""
    parts = text.replace("x", "-").split("-")
    try:
        return tile_field([int(p) for p in parts])
    except ValueError:
        raise ValueError(f"{param}: expected tiles like 5-3, got {text!r}") from None


def _all_known(state: AllFivesState) -> frozenset[Tile]:
    out: frozenset[Tile] = frozenset()
    for k in state.known:
        out |= k
    return out


def _halves(tile: Tile) -> str:
    return str(tile[0]) if is_double(tile) else f"{tile[0]} or {tile[1]}"


def fmt_open_ends(layout: Layout) -> str:
    """``(6, 2)``: left and right; with the spinner down, ``(3, 2; up 5, down 5)``."""
    ends = layout.open_ends()
    if not ends:
        return "() (the table is empty)"
    line = f"{ends['left']}, {ends['right']}"
    if "up" in ends:
        return f"({line}; up {ends['up']}, down {ends['down']})"
    return f"({line})"


# --- for the table: the camera and the referee ---------------------------------------


def proposals(state: AllFivesState, tile: Sequence[int], ends: Iterable[str] | None = None) -> list[Event]:
    """Every legal placement of ``tile``, newly seen on the table, as ``play`` events.

    One proposal: the camera's play. Several: ambiguous, the operator confirms one.
    None: the tile cannot be played now (already down, no end fits, not in play).
    ``ends``, when the camera can tell which open end(s) the tile touches, keeps
    only those placements (an empty answer then means it does not fit there).

    >>> game = AllFives()
    >>> s = game.setup(["Ann", "Bob"], game.resolve_options({}))
    >>> s = game.apply(s, Event("new_hand"))
    >>> [e.to_dict() for e in proposals(s, [6, 2])]
    [{'type': 'play', 'tile': [6, 2], 'source': 'camera'}]
    >>> s = game.apply(s, Event("play", {"tile": [6, 2]}))
    >>> [e["end"] for e in proposals(s, [2, 3])], [e["end"] for e in proposals(s, [4, 4])]
    (['right'], [])
    >>> s = game.apply(s, Event("play", {"tile": [2, 2], "end": "right"}))
    >>> [e["end"] for e in proposals(s, [6, 2])], [e["end"] for e in proposals(s, [2, 3])]
    ([], ['right', 'up', 'down'])
    >>> [e["end"] for e in proposals(s, [2, 3], ends=["up"])]
    ['up']
    """
    t = tile_field(list(tile))
    if state.phase != "play":
        return []
    c = canonical(t)
    if c in state.layout.tiles():
        return []
    turn = state.turn if state.turn is not None else 0
    if any(c in k for p, k in enumerate(state.known) if p != turn):
        return []
    mine = state.known[turn]
    if len(mine) >= state.counts[turn] and c not in mine:
        return []  # the player's whole hand is known, and this tile is not in it
    if state.layout.empty:
        return [Event("play", {"tile": list(t)}, source="camera")]
    wanted = None if ends is None else set(ends)
    return [
        Event("play", {"tile": list(t), "end": end}, source="camera")
        for end, value in state.layout.open_ends().items()
        if value in t and (wanted is None or end in wanted)
    ]


@dataclass(frozen=True)
class SeenTile:
    """One tile of a camera reading, as plain data (no pixels): the pips, the tiles it
    touches with matching halves (canonical; None when the camera gave no geometry)
    and the table zone it lies in (a player's name or seat number, or None)."""

    tile: Tile
    touches: tuple[Tile, ...] | None = None
    zone: str | None = None


def seen_tile(value: Any) -> SeenTile:
    """``[a, b]`` or ``{"tile": [a, b], "touches": [[c, d], ...], "zone": "Ann"}``.

    >>> seen_tile([5, 3]), seen_tile({"tile": [5, 3], "touches": [[5, 5]]}).touches
    (SeenTile(tile=(5, 3), touches=None, zone=None), ((5, 5),))
    """
    if isinstance(value, Mapping):
        unknown = sorted(set(value) - {"tile", "touches", "zone"})
        if unknown:
            raise ValueError(f"camera tile {dict(value)!r}: unknown field(s) {unknown}; fields: tile, touches, zone")
        tile = tile_field(value.get("tile"))
        touches = value.get("touches")
        zone = value.get("zone")
        if zone is not None and not isinstance(zone, str):
            raise ValueError(f"camera tile {dict(value)!r}: 'zone' must be a name, got {zone!r}")
        if touches is None:
            return SeenTile(tile, None, zone)
        if not isinstance(touches, list | tuple):
            raise ValueError(f"camera tile {dict(value)!r}: 'touches' must be a list of tiles, got {touches!r}")
        return SeenTile(tile, tuple(canonical(tile_field(t)) for t in touches), zone)
    return SeenTile(tile_field(value))


def _end_tile(layout: Layout, end: str) -> Tile:
    """The placed tile (canonical) a tile joined to ``end`` would touch: the
    spinner for its free sides, else the outermost tile of that end."""
    if end in layout.free_spinner_sides():
        spinner = layout.spinner_tile
        assert spinner is not None
        return canonical(spinner)
    return canonical(layout.outer_tile(end))


def _contact(state: AllFivesState, seen: SeenTile, options: list[Event]) -> tuple[list[Event], str]:
    """Keep the placements on the open end(s) the tile physically touches.

    Geometry counts only when the tile touches a tile of the layout; no contact (or
    none reported) leaves the options as they are. A contact that fits no legal
    placement gives no option and the reason."""
    lay = state.layout
    placed = lay.tiles()
    touched = [t for t in (seen.touches or ()) if t in placed]
    if lay.empty or not touched:
        return options, ""
    kept = [e for e in options if _end_tile(lay, e["end"]) in touched]
    if kept or not options:
        return kept, ""
    legal = ", ".join(f"{e['end']} (on {fmt_tile(_end_tile(lay, e['end']))})" for e in options)
    return [], (
        f"{fmt_tile(seen.tile)} touches {fmt_tiles(touched)}, where it is not a legal play;"
        f" it could go on {legal}: confirm on the control page or move the tile"
    )


def _off_layout(state: AllFivesState, seen: Iterable[SeenTile]) -> dict[Tile, SeenTile]:
    """The tiles seen that are not in the line of play, by canonical tile (the first
    sighting of each; tiles of the layout, seen or missed, do not count)."""
    placed = state.layout.tiles()
    off: dict[Tile, SeenTile] = {}
    for item in seen:
        if canonical(item.tile) not in placed:
            off.setdefault(canonical(item.tile), item)
    return off


def read_table(state: AllFivesState, seen: Iterable[Any]) -> TileAnswer:
    """What a settled camera reading means now, with the reason when nothing.

    While a hand is played: a new tile (not in the layout) becomes ``play`` events on
    the open end(s) it fits; when it fits several, the layout tile it touches picks the
    end (``touches``); when geometry too leaves several (the free sides of the spinner)
    the operator chooses. A tile whose contact contradicts every legal end is refused
    with the reason. While counting (``phase`` "count"): see :func:`count_proposals`.

    >>> game = AllFives()
    >>> s = game.apply(game.setup(["Ann", "Bob"], game.resolve_options({})), Event("new_hand"))
    >>> for e in ({"tile": [5, 5]}, {"tile": [5, 0], "end": "right"}, {"tile": [0, 2], "end": "right"}):
    ...     s = game.apply(s, Event("play", e))
    >>> [e["end"] for e in read_table(s, [[5, 5], [5, 3]]).events]
    ['left', 'up', 'down']
    >>> len(read_table(s, [{"tile": [5, 3], "touches": [[5, 5]]}]).events)  # all three are the spinner's sides
    3
    >>> s = game.apply(s, Event("play", {"tile": [5, 1], "end": "up"}))
    >>> read_table(s, [{"tile": [1, 3], "touches": [[1, 5]]}]).events[0].to_dict()
    {'type': 'play', 'tile': [1, 3], 'end': 'up', 'source': 'camera'}
    >>> print(read_table(s, [{"tile": [2, 3], "touches": [[5, 5]]}]).reason)
    [2, 3] touches [5, 5], where it is not a legal play; it could go on right (on [0, 2]): confirm on the control page or move the tile
    """
    items = [seen_tile(x) for x in seen]
    if state.phase == "count":
        return count_proposals(state, items)
    if state.phase != "play":
        return TileAnswer((), f"the camera's tiles are not used now ({AllFives().describe(state)})")
    new = _off_layout(state, items)
    events: list[Event] = []
    reasons: list[str] = []
    for item in new.values():
        kept, why = _contact(state, item, proposals(state, item.tile))
        events += kept
        if why:
            reasons.append(why)
    if events:
        return TileAnswer(tuple(events), "; ".join(reasons))
    if reasons:
        return TileAnswer((), "; ".join(reasons))
    return TileAnswer((), f"no new tile that can be played now among {[list(i.tile) for i in items]}")


def new_tile_proposals(state: AllFivesState, seen: Iterable[Any]) -> list[Event]:
    """Proposals for the tiles a camera reading of the table shows that are not yet
    in the layout (tiles of the layout the camera misses, hidden by a hand, are
    ignored). One new tile with one placement is the usual case; anything else is
    for the operator to confirm. Entries may carry geometry (see :func:`read_table`).

    >>> game = AllFives()
    >>> s = game.apply(game.setup(["Ann", "Bob"], game.resolve_options({})), Event("new_hand"))
    >>> s = game.apply(s, Event("play", {"tile": [6, 2]}))
    >>> [e.to_dict() for e in new_tile_proposals(s, [[2, 6], [2, 3]])]
    [{'type': 'play', 'tile': [2, 3], 'end': 'right', 'source': 'camera'}]
    """
    if state.phase != "play":
        return []
    return list(read_table(state, seen).events)


MAX_COUNT_OPTIONS = 8  # more possible splits than this: the operator enters the count


def _zone_player(state: AllFivesState, zone: str | None) -> int | None:
    """A zone named after a player, or after a seat (``1``..``4`` or ``seat 2``)."""
    if zone is None:
        return None
    if zone in state.players:
        return state.players.index(zone)
    digits = zone.lower().removeprefix("seat").strip()
    if digits.isdigit() and 1 <= int(digits) <= len(state.players):
        return int(digits) - 1
    return None


def _splits(state: AllFivesState, tiles: Sequence[Tile], limit: int = 5000) -> set[tuple[int, ...]] | None:
    """Every pips-per-player the tiles could be dealt as, honouring how many tiles
    each player holds and the tiles known in a hand; None when there are too many."""
    n = len(state.players)
    owner = {t: p for p, known in enumerate(state.known) for t in known}
    frontier = {(tuple(state.counts), (0,) * n)}
    for t in tiles:
        nxt = set()
        for room, values in frontier:
            who = [owner[t]] if t in owner else range(n)
            for p in who:
                if room[p] > 0:
                    nxt.add((room[:p] + (room[p] - 1,) + room[p + 1:],
                             values[:p] + (values[p] + pips(t),) + values[p + 1:]))
        frontier = nxt
        if len(frontier) > limit:
            return None
    return {values for _, values in frontier}


def count_proposals(state: AllFivesState, seen: Sequence[SeenTile]) -> TileAnswer:
    """The ``count`` event a camera reading at the end of a hand proposes: the tiles
    that are not in the line of play are the players' hands once all are shown.

    ``hands`` when they can be told apart: every tile lies in a zone named after a
    player (or a seat), or only one player holds tiles. Otherwise ``pips`` for each way
    the tiles can be split that the tile counts allow (a few at most); beyond that,
    the total is given in the reason for the operator to split. The operator always
    confirms (``confirm``): a count closes the hand.

    >>> game = AllFives()
    >>> s = game.apply(game.setup(["Ann", "Bob"], game.resolve_options({})), Event("new_hand"))
    >>> s = game.apply(s, Event("play", {"tile": [6, 6]}))
    >>> s = _evolve(s, phase="count", hand_end="fish", turn=None, counts=(1, 1))  # a blocked hand, shortened
    >>> count_proposals(s, [SeenTile((6, 6)), SeenTile((1, 2))]).reason.split(":")[0]
    '1 tile(s) off the line of play, the hands hold 2'
    >>> answer = count_proposals(s, [SeenTile((6, 6)), SeenTile((1, 2)), SeenTile((0, 4))])
    >>> [list(e["pips"]) for e in answer.events], answer.confirm
    ([[3, 4], [4, 3]], True)
    >>> count_proposals(s, [SeenTile((1, 2), zone="Bob"), SeenTile((0, 4), zone="Ann")]).events[0].to_dict()["hands"]
    [[[0, 4]], [[1, 2]]]
    """
    off = _off_layout(state, seen)
    need = sum(state.counts)
    total = sum(pips(t) for t in off)
    if len(off) != need:
        return TileAnswer((), (
            f"{len(off)} tile(s) off the line of play, the hands hold {need}:"
            " waiting until every hand is shown face up"
        ), confirm=True)
    tiles = sorted(off)
    game = GAMES[0]
    refusals: list[str] = []

    def legal(event: Event) -> bool:
        try:
            game.apply(state, event)
        except (IllegalEvent, MalformedEvent) as exc:
            refusals.append(str(exc))
            return False
        return True

    n = len(state.players)
    owners = [_zone_player(state, off[t].zone) for t in tiles]
    holders = [p for p in range(n) if state.counts[p]]
    hands: list[list[list[int]]] | None = None
    if all(o is not None for o in owners):
        hands = [[list(t) for t, o in zip(tiles, owners) if o == p] for p in range(n)]
    elif len(holders) <= 1:
        hands = [[list(t) for t in tiles] if p in holders else [] for p in range(n)]
    if hands is not None:
        event = Event("count", {"hands": hands}, source="camera")
        if legal(event):
            return TileAnswer((event,), "", confirm=True)
    splits = _splits(state, tiles)
    if splits is not None and len(splits) <= MAX_COUNT_OPTIONS:
        events = tuple(e for e in (Event("count", {"pips": list(v)}, source="camera") for v in sorted(splits))
                       if legal(e))
        if events:
            return TileAnswer(events, "", confirm=True)
    why = f" ({refusals[0]})" if refusals else ""
    return TileAnswer((), (
        f"{len(tiles)} tile(s) with {total} pips in all off the line of play ({fmt_tiles(tiles)}):"
        f" split them between the players and enter the count{why}"
    ), confirm=True)


def legal_plays(state: AllFivesState) -> list[Event]:
    """Every placement of every tile the player on turn might hold."""
    turn = state.turn if state.turn is not None else 0
    known = state.known[turn] if state.known else frozenset()
    pool = known if known and len(known) >= state.counts[turn] else state.hidden_tiles() | known
    return [e for t in sorted(pool) for e in proposals(state, t)]


def tile_accounts(state: AllFivesState) -> dict[str, Any]:
    """Where the 28 tiles are, as far as the table knows: on the table, known in
    a hand, or hidden (in a hand or the boneyard), with the counts that must agree.

    >>> game = AllFives()
    >>> s = game.apply(game.setup(["A", "B"], game.resolve_options({})), Event("new_hand"))
    >>> acc = tile_accounts(s)
    >>> len(acc["hidden"]), acc["hidden_slots"], acc["boneyard"]
    (28, 14, 14)
    """
    hidden = state.hidden_tiles()
    return {
        "table": sorted(state.layout.tiles()),
        "known": [sorted(k) for k in state.known],
        "hidden": sorted(hidden),
        "hand_counts": list(state.counts),
        "boneyard": state.boneyard,
        # hidden tiles are either in hands (beyond the known ones) or in the boneyard
        "hidden_slots": sum(c - len(k) for c, k in zip(state.counts, state.known)),
    }


GAMES = (AllFives(),)
