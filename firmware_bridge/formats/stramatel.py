"""Stramatel scoreboard frame (the RS-485 stream of Stramatel consoles, 452 M family).

54 bytes, no checksum: start 0xF8, a sport byte (0x33: basketball main frame,
the one with team fouls and the 24" shot clock), then fixed positions of ASCII
digits (0x20 is a blank digit), flags 0x31 = on, ending with CR (0x0D). The
game clock is MMSS, or under a minute ``S S t`` and a space (``b"420 "`` is
42.0); a shot-clock digit with its decimal point lit is 0x40-0x49::

    0  0xF8          4-7  game clock (MMSS or SSt_)    15/16 home/guest team fouls
    1  '3'           8-10 home points                  17/18 home/guest timeouts
    2  ' '           11-13 guest points                19 horn   20 game clock running
    3  possession    14   period                       21,46,47 timeout clock
    22-33 / 34-45 home / guest player fouls            48-49 shot clock  50 shot horn
    51 shot clock running   52 show shot clock         53 CR

Positions follow independent open-source descriptions: muffix/stramatel-tv-display
(docs/stramatel_rs485_protocol.md, from Stramatel's "Interface TV RS485" sheet),
christianduerselen/BaSta-LedStripsControlStramatel (StramatelProtocolParser) and
BaSta.Protocol.Stramatel's sender test; see docs/displays.md.

>>> from firmware_bridge.layout import DisplayFields
>>> frame = encode(DisplayFields(clock="59.3", home_score=101, away_score=7, period="2"))
>>> len(frame), frame[4:8], frame[8:14], frame[-1]
(54, b'593 ', b'101  7', 13)
"""

from __future__ import annotations

from ..layout import DisplayFields

START, TYPE, END = 0xF8, 0x33, 0x0D
LENGTH = 54
ON, OFF = 0x31, 0x20


def digits(text: str, width: int) -> bytes:
    """Right-aligned digits; a '.' lights the point of the *next* digit (0x40 + n)."""
    cells: list[int] = []
    point = False
    for ch in text:
        if ch == ".":
            point = True
            continue
        if ch == ":":
            continue
        code = ord(ch) if ch.isdigit() else OFF
        if point and ch.isdigit():
            code = 0x40 + int(ch)
            point = False
        cells.append(code)
    cells = cells[-width:]
    return bytes([OFF] * (width - len(cells)) + cells)


def _digit(value: int | None) -> int:
    return OFF if value is None else 0x30 + min(value, 9)


def _clock(text: str) -> bytes:
    """MMSS (minutes zero-padded, as the console sends them), or SSt + space."""
    if ":" in text:
        mm, ss = text.split(":")
        return (mm.zfill(2)[-2:] + ss).encode("ascii")
    if "." in text:
        s, t = text.split(".")
        return (s.zfill(2)[-2:] + t[:1] + " ").encode("ascii")
    return digits(text, 4)


def encode(f: DisplayFields) -> bytes:
    frame = bytearray([OFF] * LENGTH)
    frame[0], frame[1], frame[53] = START, TYPE, END
    frame[3] = ord("1") if f.turn == "home" else ord("2") if f.turn == "away" else OFF
    frame[4:8] = _clock(f.clock)
    frame[8:11] = digits("" if f.home_score is None else str(min(f.home_score, 999)), 3)
    frame[11:14] = digits("" if f.away_score is None else str(min(f.away_score, 999)), 3)
    frame[14] = _digit(f.period_number) if f.period_number is not None else (
        ord(f.period[-1]) if f.period[-1:].isdigit() else OFF
    )
    frame[15], frame[16] = _digit(f.home_fouls), _digit(f.away_fouls)
    frame[17], frame[18] = _digit(f.home_timeouts), _digit(f.away_timeouts)
    frame[19] = ON if f.horn else OFF
    frame[20] = ON if f.clock_running else OFF
    frame[22:46] = bytes([0x30] * 24)  # player fouls: not tracked by Refbox, shown as 0
    shot = f.shot_clock if len(f.shot_clock.replace(".", "")) <= 2 else "99"
    frame[48:50] = digits(shot, 2)
    frame[50] = ON if f.horn and f.shot_clock and not f.shot_clock.strip("0. ") else OFF
    frame[52] = ON if f.shot_clock else OFF
    return bytes(frame)
