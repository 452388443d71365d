"""View -> display fields: the one pure mapping every display back end shares.

A view (see ``docs/events.md``) is a JSON-able dict; a scoreboard has a fixed set
of digit groups. :meth:`DisplayFields.from_view` decides what goes in each group,
for clock games (futsal: match clock, shot clock, scores, fouls, period, horn)
and for turn-based games (Pig: two players' scores, the turn total, the round).
Nothing here opens a device; the serial link, the LED back ends and the standard
wire formats all start from a :class:`DisplayFields`.

>>> view = {"game": "futsal", "clock": "12:34", "clock_running": True,
...         "period": "2nd half", "horn": False,
...         "home": {"name": "Lviv", "score": 3, "fouls": 5},
...         "away": {"name": "Kyiv", "score": 2, "fouls": 1}}
>>> f = DisplayFields.from_view(view)
>>> f.clock, f.home_score, f.away_fouls, f.period, f.period_number
('12:34', 3, 1, '2', 2)
>>> pig = {"game": "pig", "players": [{"name": "Ann", "score": 13}, {"name": "Bob", "score": 40}],
...        "turn": "Bob", "turn_total": 7, "round": 3, "winner": None}
>>> g = DisplayFields.from_view(pig)
>>> g.home_score, g.away_score, g.shot_clock, g.turn, g.period
(13, 40, '7', 'away', '3')
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping

TURN_TOTAL_PLACES = ("shot_clock", "clock", "off")
PAIRINGS = ("seats", "leaders")
SIDES = ("home", "away")

#: futsal's period names (rules/sports/futsal.py PERIODS) as one 7-segment character
#: and as the number the standard formats carry.
DEFAULT_PERIOD_LABELS: Mapping[str, tuple[str, int]] = {
    "1st half": ("1", 1),
    "half-time": ("H", 1),
    "2nd half": ("2", 2),
    "full time": ("F", 2),
    "extra time": ("E", 3),
    "penalties": ("P", 4),
}


class LayoutError(ValueError):
    """A layout setting or a view could not be mapped; the message names the key."""


@dataclass(frozen=True)
class LayoutConfig:
    """How a view lands on the digit groups.

    - ``turn_total_on``: where a turn-based game shows the running turn total
      (``shot_clock``, ``clock`` or ``off``).
    - ``pairing``: with two players, ``seats`` keeps player 1 on the home side and
      player 2 on the away side (scores never swap sides); ``leaders`` always shows
      the two leading scores. With three or more players the two leaders are shown.
    - ``period_labels``: period name -> (7-segment text, number).
    - ``shot_clock_tenths_below``: a numeric shot clock below this shows tenths.
    """

    turn_total_on: str = "shot_clock"
    pairing: str = "seats"
    period_labels: Mapping[str, tuple[str, int]] = field(default_factory=lambda: dict(DEFAULT_PERIOD_LABELS))
    shot_clock_tenths_below: float = 5.0

    def __post_init__(self) -> None:
        if self.turn_total_on not in TURN_TOTAL_PLACES:
            raise LayoutError(
                f"layout.turn_total_on: {self.turn_total_on!r} is not allowed; allowed: {list(TURN_TOTAL_PLACES)}"
            )
        if self.pairing not in PAIRINGS:
            raise LayoutError(f"layout.pairing: {self.pairing!r} is not allowed; allowed: {list(PAIRINGS)}")
        for name, label in self.period_labels.items():
            if not (isinstance(label, tuple) and len(label) == 2 and isinstance(label[0], str)
                    and 1 <= len(label[0]) <= 2 and isinstance(label[1], int)):
                raise LayoutError(
                    f"layout.period_labels[{name!r}]: expected (text of 1-2 characters, number), got {label!r}"
                )
        if not (isinstance(self.shot_clock_tenths_below, (int, float)) and 0 <= self.shot_clock_tenths_below <= 99):
            raise LayoutError(
                f"layout.shot_clock_tenths_below: expected a number in 0..99, got {self.shot_clock_tenths_below!r}"
            )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> "LayoutConfig":
        """Build from a config section; unknown keys are refused, naming the allowed ones."""
        allowed = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise LayoutError(f"layout: unknown key(s) {unknown}; allowed: {allowed}")
        values = dict(data)
        if "period_labels" in values:
            values["period_labels"] = {k: tuple(v) for k, v in values["period_labels"].items()}
        return cls(**values)


@dataclass(frozen=True)
class DisplayFields:
    """What a scoreboard shows, already cut to digit groups (None = blank digits).

    ``clock`` is ``MM:SS``, ``SS.t`` or empty; ``shot_clock`` up to 3 digits (or
    ``S.t``); ``period`` is 1-2 characters for the 7-segment period digit and
    ``period_number`` the number the standard wire formats carry; ``turn`` is the
    side whose turn it is (turn-based games), for a possession arrow; ``message`` a
    short English status word (:data:`MESSAGES`: ``TIME OUT``, ``HALF TIME``, ...) that
    a display with a message group translates and shows.
    """

    clock: str = ""
    clock_running: bool = False
    shot_clock: str = ""
    home_score: int | None = None
    away_score: int | None = None
    home_fouls: int | None = None
    away_fouls: int | None = None
    home_timeouts: int | None = None
    away_timeouts: int | None = None
    period: str = ""
    period_number: int | None = None
    horn: bool = False
    home_name: str = ""
    away_name: str = ""
    turn: str | None = None
    message: str = ""

    @classmethod
    def from_view(cls, view: Mapping[str, Any], config: LayoutConfig | None = None) -> "DisplayFields":
        """Map a game's view; raises :class:`LayoutError` naming the bad key."""
        config = config or LayoutConfig()
        if not isinstance(view, Mapping):
            raise LayoutError(f"a view must be a mapping, got {type(view).__name__}")
        if isinstance(view.get("home"), Mapping) and isinstance(view.get("away"), Mapping):
            return cls._from_teams(view, config)
        return cls._from_players(view, config)

    # -- team sports (futsal and the like) ---------------------------------
    @classmethod
    def _from_teams(cls, view: Mapping[str, Any], config: LayoutConfig) -> "DisplayFields":
        home, away = view["home"], view["away"]
        period, number = _period(view.get("period"), config)
        return cls(
            clock=_clock_text(view.get("clock"), "clock"),
            clock_running=bool(view.get("clock_running", False)),
            shot_clock=_shot_clock(view.get("shot_clock"), config),
            home_score=_count(home.get("score"), "home.score"),
            away_score=_count(away.get("score"), "away.score"),
            home_fouls=_count(home.get("fouls"), "home.fouls"),
            away_fouls=_count(away.get("fouls"), "away.fouls"),
            home_timeouts=_count(home.get("timeouts_left"), "home.timeouts_left"),
            away_timeouts=_count(away.get("timeouts_left"), "away.timeouts_left"),
            period=period,
            period_number=number,
            horn=bool(view.get("horn", False)),
            home_name=str(home.get("name", "")),
            away_name=str(away.get("name", "")),
            turn=view.get("possession") if view.get("possession") in SIDES else None,
            message=_team_message(view),
        )

    # -- turn-based games (Pig, dominoes, ...) -----------------------------
    @classmethod
    def _from_players(cls, view: Mapping[str, Any], config: LayoutConfig) -> "DisplayFields":
        raw = view.get("players") or []
        if not isinstance(raw, list):
            raise LayoutError(f"view key 'players': expected a list, got {type(raw).__name__}")
        players: list[tuple[int, str, int | None]] = []
        for i, p in enumerate(raw):
            if isinstance(p, Mapping):
                players.append((i, str(p.get("name", "")), _count(p.get("score"), f"players[{i}].score")))
            else:
                players.append((i, str(p), None))
        if len(players) > 2 or config.pairing == "leaders":
            # stable: ties keep seat order; then shown in seat order so sides stay put
            leaders = sorted(players, key=lambda p: -(p[2] or 0))[:2]
            shown = sorted(leaders)
        else:
            shown = players
        home = shown[0] if shown else None
        away = shown[1] if len(shown) > 1 else None
        turn_name = view.get("turn")
        turn = None
        if turn_name is not None:
            if home is not None and home[1] == turn_name:
                turn = "home"
            elif away is not None and away[1] == turn_name:
                turn = "away"
        total = view.get("turn_total")
        total_text = ""
        if total is not None and config.turn_total_on != "off":
            total_text = str(_count(total, "turn_total"))
        rnd = view.get("round")
        period, number = ("", None)
        if isinstance(rnd, int) and not isinstance(rnd, bool) and rnd > 0:
            period, number = (str(rnd) if rnd < 100 else "99"), rnd
        return cls(
            clock=total_text if config.turn_total_on == "clock" else _clock_text(view.get("clock"), "clock"),
            clock_running=bool(view.get("clock_running", False)),
            shot_clock=total_text if config.turn_total_on == "shot_clock" else "",
            home_score=home[2] if home else None,
            away_score=away[2] if away else None,
            period=period,
            period_number=number,
            horn=bool(view.get("horn", False)),
            home_name=home[1] if home else "",
            away_name=away[1] if away else "",
            turn=turn,
            message=_players_message(view),
        )

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def with_(self, **changes: Any) -> "DisplayFields":
        return replace(self, **changes)


_CLOCK = re.compile(r"^(\d{1,3}:\d{2}|\d{1,2}\.\d|\d{1,3})$")


#: The status words a message group can show (translated at the display's edge;
#: their uk/ru forms are in the catalogues under the "display" context).
MESSAGES = ("TIME OUT", "HALF TIME", "BREAK", "EXTRA TIME", "PENALTIES", "END", "WINNER", "FIX DIE", "FIX TILE", "NO CAMERA")

#: The status word of a turn-based game while the table's camera holds its reading (the view's ``camera_hold``).
HOLD_MESSAGES = {"die": "FIX DIE", "tile": "FIX TILE", "lost": "NO CAMERA", "paused": "NO CAMERA"}


def _players_message(view: Mapping[str, Any]) -> str:
    """The status word of a turn-based game's view: ``WINNER`` once won, else ``FIX DIE`` while a die in
    doubt holds the camera's throw (``FIX TILE``: a tile it cannot read; ``NO CAMERA``: the camera is lost or
    paused, throws are entered by hand), else none.

    >>> _players_message({"camera_hold": "die"}), _players_message({"winner": "Ann", "camera_hold": "die"}), _players_message({})
    ('FIX DIE', 'WINNER', '')
    >>> _players_message({"camera_hold": "lost"})
    'NO CAMERA'

    """
    if view.get("winner"):
        return "WINNER"
    hold = view.get("camera_hold")
    return HOLD_MESSAGES.get(hold, "") if isinstance(hold, str) else ""


def _team_message(view: Mapping[str, Any]) -> str:
    """The status word of a field-sport view.

    >>> _team_message({"timeout": {"team": "home", "seconds": 40}, "period": "1st half"})
    'TIME OUT'
    >>> _team_message({"period": "half-time", "stage": "regular"}), _team_message({"stage": "kicks"})
    ('HALF TIME', 'PENALTIES')
    """
    period = str(view.get("period") or "")
    if view.get("result") is not None or view.get("winner"):
        return "END"
    if view.get("timeout"):
        return "TIME OUT"
    if view.get("stage") == "kicks":
        return "PENALTIES"
    if period == "half-time":
        return "HALF TIME"
    if "break" in period:
        return "BREAK"
    if view.get("stage") == "extra":
        return "EXTRA TIME"
    return ""


def _clock_text(value: Any, key: str) -> str:
    if value is None or value == "":
        return ""
    if not isinstance(value, str) or not _CLOCK.match(value):
        raise LayoutError(f"view key {key!r}: expected 'MM:SS', 'SS.t' or digits, got {value!r}")
    return value


def _shot_clock(value: Any, config: LayoutConfig) -> str:
    if value is None or value == "" or value is False:
        return ""
    if isinstance(value, str):
        if not re.match(r"^(\d{1,3}|\d\.\d|\d{1,2}\.\d)$", value):
            raise LayoutError(f"view key 'shot_clock': expected seconds like '24' or '4.9', got {value!r}")
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
        if value < config.shot_clock_tenths_below:
            return f"{math.floor(value * 10 + 1e-6) / 10:.1f}"
        return str(min(999, math.ceil(value - 1e-6)))
    raise LayoutError(f"view key 'shot_clock': expected seconds, got {value!r}")


def _count(value: Any, key: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise LayoutError(f"view key {key!r}: expected a count (integer >= 0), got {value!r}")
    return value


def _period(value: Any, config: LayoutConfig) -> tuple[str, int | None]:
    if value is None or value == "":
        return "", None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)[-2:], value
    if isinstance(value, str):
        if value in config.period_labels:
            return config.period_labels[value]
        digits = re.match(r"^\s*(\d+)", value)
        if digits:
            n = int(digits.group(1))
            return str(n)[-2:], n
    raise LayoutError(
        f"view key 'period': {value!r} has no display label; add it to layout.period_labels "
        f"(known: {sorted(config.period_labels)})"
    )
