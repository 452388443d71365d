"""Small helpers shared by the billiards engines (two players or two sides).

>>> bump((3, 4), 1, -2)
(3, 2)
>>> put((0, 0), 0, 7)
(7, 0)
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence, TypeVar

T = TypeVar("T")


def put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with item ``index`` replaced."""
    out = list(values)
    out[index] = value
    return tuple(out)


def bump(values: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """``values`` with ``delta`` added to item ``index``."""
    return put(values, index, values[index] + delta)


def other(index: int) -> int:
    """The opponent of player ``index`` (0 or 1)."""
    return 1 - index


def index_of(players: Sequence[str], name: str) -> int | None:
    """The index of ``name`` among ``players``, or None."""
    try:
        return list(players).index(name)
    except ValueError:
        return None


def signed(n: int) -> str:
    """``+3``, ``-16``, ``0``: how a score change is announced."""
    return f"{n:+d}" if n else "0"


def controls(keypad: Mapping[str, Mapping[str, Any]], legal: Sequence[str]) -> list[str]:
    """The keypad buttons whose event type is acceptable now (the web page's enabled controls).

    >>> controls({"pot": {"type": "pot"}, "accept": {"type": "choice"}}, ("choice",))
    ['accept']
    """
    return [button for button, event in keypad.items() if event.get("type") in legal]
