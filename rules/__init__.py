"""Pure game engines: events in, views out. Standard library only.

>>> from rules import Session
>>> s = Session.start({"game": "pig", "players": ["Ann", "Bob"]})
>>> s.submit({"type": "roll", "dice": [6]}).view()["turn_total"]
6
"""

from .events import Event, IllegalEvent, MalformedEvent
from .game import BadOptions, BadPlayers, Game, Option
from .registry import UnknownGame, all_games, game_names, get_game
from .session import BadHeader, Header, Session

__all__ = [
    "BadHeader",
    "BadOptions",
    "BadPlayers",
    "Event",
    "Game",
    "Header",
    "IllegalEvent",
    "MalformedEvent",
    "Option",
    "Session",
    "UnknownGame",
    "all_games",
    "game_names",
    "get_game",
]
