"""Daktronics All Sport 5000 "Real Time Data" (RTD), as its serial port sends it.

The console keeps a character buffer per sport; each field sits at a fixed
1-based *item* position with a fixed length, left (L) or right (R) justified.
A packet on the wire updates a run of that buffer::

    SYN(0x16) SOH(0x01) "004210" OOOO STX(0x02) DATA EOT(0x04) CC ETB(0x17)

``OOOO`` is the 0-based buffer offset of DATA (item - 1) as 4 ASCII digits;
``CC`` is the sum of every byte from SOH through EOT, mod 256, as 2 uppercase
hex digits. Consumers wait for a SYN, read up to ETB and overlay DATA at OOOO.

Field positions follow the public descriptions used by two independent
open-source decoders (zabackary/daktronics-allsport-5000-rs ``src/sports``,
FlantasticDan/scorebox-consoles ``consoles/sports.py``); see docs/displays.md.
We send one packet per field we fill, so a consumer that chokes on a blank
numeric field never sees one.

>>> from firmware_bridge.layout import DisplayFields
>>> wire = encode_soccer(DisplayFields(clock="12:34", home_score=2, away_score=1))
>>> wire[:19]
b'\\x16\\x010042100000\\x0212:34\\x04'
>>> checksum(b'\\x010042100000\\x0212:34\\x04') == wire[19:21].decode()
True
"""

from __future__ import annotations

from typing import Iterable

from ..layout import DisplayFields

SYN, SOH, STX, EOT, ETB = 0x16, 0x01, 0x02, 0x04, 0x17
HEADER = "004210"

# item (1-based), length, justification -- shared by the soccer and basketball layouts
MAIN_CLOCK = (1, 5, "L")  # mm:ss or ss.t
MAIN_CLOCK_ZERO = (27, 1, "L")  # 'z'
MAIN_CLOCK_STOPPED = (28, 1, "L")  # 's'
MAIN_CLOCK_TO_HORN = (29, 1, "L")  # 'h'
MAIN_CLOCK_HORN = (30, 1, "L")  # 'h'
HOME_NAME = (48, 20, "L")
GUEST_NAME = (68, 20, "L")
HOME_SCORE = (108, 4, "R")
GUEST_SCORE = (112, 4, "R")
HOME_TOL_TOTAL = (122, 2, "R")
GUEST_TOL_TOTAL = (130, 2, "R")
PERIOD = (142, 2, "R")  # "Half" in soccer
# soccer only
SOCCER_HOME_FOULS_TOTAL = (369, 3, "R")
SOCCER_GUEST_FOULS_TOTAL = (380, 3, "R")
# basketball only
SHOT_CLOCK = (201, 8, "L")
SHOT_CLOCK_HORN = (209, 1, "L")
HOME_POSSESSION = (210, 1, "L")  # '<'
GUEST_POSSESSION = (216, 1, "L")  # '>'
BASKETBALL_HOME_FOULS = (236, 2, "R")
BASKETBALL_GUEST_FOULS = (238, 2, "R")

_CYRILLIC = dict(
    zip(
        "абвгґдеєжзиіїйклмнопрстуфхцчшщьюяёъыэ",
        "a b v h g d e ie zh z y i i i k l m n o p r s t u f kh ts ch sh shch  iu ia io  y e".split(" "),
    )
)


def ascii_text(text: str) -> str:
    """Team names on an ASCII scoreboard: Ukrainian/Russian letters transliterated.

    >>> ascii_text("Шахтар Київ")
    'Shakhtar Kyiv'
    """
    out = []
    for ch in text:
        low = ch.lower()
        if low in _CYRILLIC:
            t = _CYRILLIC[low]
            out.append(t.capitalize() if ch != low else t)
        elif 0x20 <= ord(ch) < 0x7F:
            out.append(ch)
        else:
            out.append("?")
    return "".join(out)


def checksum(body: bytes) -> str:
    """Sum of the bytes SOH..EOT mod 256, as two uppercase hex digits."""
    return f"{sum(body) & 0xFF:02X}"


def packet(item: int, data: str) -> bytes:
    """One RTD packet putting ``data`` at 1-based ``item``."""
    body = bytes((SOH,)) + f"{HEADER}{item - 1:04d}".encode() + bytes((STX,)) + data.encode("ascii") + bytes((EOT,))
    return bytes((SYN,)) + body + checksum(body).encode() + bytes((ETB,))


def field(spec: tuple[int, int, str], value: str) -> bytes:
    item, length, justify = spec
    value = value[-length:] if justify == "R" else value[:length]
    text = value.rjust(length) if justify == "R" else value.ljust(length)
    return packet(item, text)


def _count(spec: tuple[int, int, str], value: int | None) -> Iterable[bytes]:
    if value is not None:
        yield field(spec, str(min(value, 10 ** spec[1] - 1)))


def _common(f: DisplayFields) -> list[bytes]:
    clock = f.clock if len(f.clock) <= 5 else f.clock[-5:]
    zero = bool(clock) and not clock.strip("0:. ")
    out = [
        field(MAIN_CLOCK, clock),
        field(MAIN_CLOCK_ZERO, "z" if zero else " "),
        field(MAIN_CLOCK_STOPPED, " " if f.clock_running else "s"),
        field(MAIN_CLOCK_TO_HORN, "h" if f.horn else " "),
        field(MAIN_CLOCK_HORN, "h" if f.horn else " "),
        field(HOME_NAME, ascii_text(f.home_name)),
        field(GUEST_NAME, ascii_text(f.away_name)),
    ]
    out += _count(HOME_SCORE, f.home_score)
    out += _count(GUEST_SCORE, f.away_score)
    out += _count(HOME_TOL_TOTAL, f.home_timeouts)
    out += _count(GUEST_TOL_TOTAL, f.away_timeouts)
    out += _count(PERIOD, f.period_number)
    return out


def encode_soccer(f: DisplayFields) -> bytes:
    out = _common(f)
    out += _count(SOCCER_HOME_FOULS_TOTAL, f.home_fouls)
    out += _count(SOCCER_GUEST_FOULS_TOTAL, f.away_fouls)
    return b"".join(out)


def encode_basketball(f: DisplayFields) -> bytes:
    out = _common(f)
    out.append(field(SHOT_CLOCK, f.shot_clock))
    out.append(field(SHOT_CLOCK_HORN, "h" if f.horn and f.shot_clock.strip("0. ") == "" and f.shot_clock else " "))
    out.append(field(HOME_POSSESSION, "<" if f.turn == "home" else " "))
    out.append(field(GUEST_POSSESSION, ">" if f.turn == "away" else " "))
    out += _count(BASKETBALL_HOME_FOULS, f.home_fouls)
    out += _count(BASKETBALL_GUEST_FOULS, f.away_fouls)
    return b"".join(out)
