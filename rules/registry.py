"""Finds every game engine under the ``rules`` package.

Each game module defines ``GAMES = (SomeGame(), ...)``; nothing else needs editing
to add a game.

>>> "pig" in game_names()
True
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache

from .game import Game


class UnknownGame(ValueError):
    """No game of that name."""


@lru_cache(maxsize=1)
def _catalogue() -> dict[str, Game]:
    import rules

    found: dict[str, Game] = {}
    for mod in pkgutil.walk_packages(rules.__path__, "rules."):
        module = importlib.import_module(mod.name)
        for game in getattr(module, "GAMES", ()):
            if game.name in found:
                raise RuntimeError(f"two games are named {game.name!r}: {mod.name}")
            found[game.name] = game
    return dict(sorted(found.items()))


def all_games() -> tuple[Game, ...]:
    return tuple(_catalogue().values())


def game_names() -> tuple[str, ...]:
    return tuple(_catalogue())


def get_game(name: str) -> Game:
    try:
        return _catalogue()[name]
    except (KeyError, TypeError):
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(_catalogue())}") from None
