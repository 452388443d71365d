from typing import Any, Protocol

from . import frames as frames
from . import segments as segments

DIGITS: tuple[tuple[str, int, int], ...]
N_DIGITS: int
BLANK16: int
BLANK8: int
HORN_HOLD_MS: int
F_HORN: int
F_RUNNING: int
F_TURN_HOME: int
F_TURN_AWAY: int

class Hardware(Protocol):
    def write_digits(self, cells: list[int]) -> None: ...
    def set_horn(self, on: bool) -> None: ...

def parse_show(payload: bytes) -> dict[str, Any]: ...
def render(state: dict[str, Any]) -> list[int]: ...

class Firmware:
    hw: Hardware
    reader: frames.FrameReader
    state: dict[str, Any]
    cells: list[int]
    horn: bool
    horn_since: int
    frames_ok: int
    last_seq: int
    def __init__(self, hw: Hardware, now_ms: int = ...) -> None: ...
    def feed(self, data: bytes, now_ms: int = ...) -> bytes: ...
    def apply(self, state: dict[str, Any], now_ms: int) -> None: ...
    def tick(self, now_ms: int) -> None: ...
