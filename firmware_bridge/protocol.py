"""Sans-io codec of the native display link: bytes <-> dataclasses, no port in sight.

One frame::

    0xA5 | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC-16/CCITT-FALSE (big endian)

The CRC covers LEN..PAYLOAD. The display acknowledges every frame it applied
(:class:`Ack` with the same SEQ) and refuses well-formed frames it cannot use
(:class:`Nak`). :class:`Decoder` skips garbage and resynchronises: a bad CRC or a
stray start byte costs one byte, never a frame that follows.

The display's firmware implements the same format in MicroPython
(``firmware_bridge/firmware/frames.py``); the tests check one against the other.

>>> show = Show.from_fields(DisplayFields(clock="12:34", home_score=3, away_score=1))
>>> wire = encode_frame(7, show)
>>> d = Decoder()
>>> [(f.seq, type(f.message).__name__) for f in d.feed(b"noise" + wire)]
[(7, 'Show')]
>>> d.feed(wire)[0].message == show
True
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from typing import Union

from .layout import DisplayFields

START = 0xA5
MAX_PAYLOAD = 48
OVERHEAD = 6
T_SHOW, T_PING, T_ACK, T_NAK = 0x01, 0x02, 0x81, 0x82
SHOW_LEN = 18
BLANK16, BLANK8 = 0xFFFF, 0xFF
F_HORN, F_RUNNING, F_TURN_HOME, F_TURN_AWAY = 1, 2, 4, 8
#: payload length of each frame type: a header that disagrees is garbage, skipped
#: at once instead of waiting for a bogus frame's worth of bytes
PAYLOAD_LEN = {T_SHOW: SHOW_LEN, T_PING: 0, T_ACK: 1, T_NAK: 1}


class ProtocolError(ValueError):
    """A frame or payload that does not follow the format."""


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (``binascii.crc_hqx`` with init 0xFFFF).

    >>> hex(crc16(b"123456789"))
    '0x29b1'
    """
    return binascii.crc_hqx(data, 0xFFFF)


def _text(value: str, width: int, what: str) -> bytes:
    raw = value.encode("ascii", "replace")
    if len(raw) > width:
        raw = raw[-width:]
    if any(b < 0x20 or b > 0x7E for b in raw):
        raise ProtocolError(f"{what}: {value!r} has characters a display cannot show")
    return raw.rjust(width)


@dataclass(frozen=True)
class Show:
    """The digits to show. Texts are right-aligned; None is blank digits."""

    clock: str = ""
    shot_clock: str = ""
    home_score: int | None = None
    away_score: int | None = None
    home_fouls: int | None = None
    away_fouls: int | None = None
    period: str = ""
    horn: bool = False
    clock_running: bool = False
    turn: str | None = None

    def __post_init__(self) -> None:
        # texts are right-aligned on the digits: surrounding spaces carry nothing
        for name in ("clock", "shot_clock", "period"):
            object.__setattr__(self, name, getattr(self, name).strip())

    @classmethod
    def from_fields(cls, f: DisplayFields) -> "Show":
        return cls(
            clock=f.clock[-5:],
            shot_clock=f.shot_clock[-4:],
            home_score=None if f.home_score is None else min(f.home_score, 0xFFFE),
            away_score=None if f.away_score is None else min(f.away_score, 0xFFFE),
            home_fouls=None if f.home_fouls is None else min(f.home_fouls, 0xFE),
            away_fouls=None if f.away_fouls is None else min(f.away_fouls, 0xFE),
            period=f.period[-2:],
            horn=f.horn,
            clock_running=f.clock_running,
            turn=f.turn,
        )

    def payload(self) -> bytes:
        flags = (
            (F_HORN if self.horn else 0)
            | (F_RUNNING if self.clock_running else 0)
            | (F_TURN_HOME if self.turn == "home" else 0)
            | (F_TURN_AWAY if self.turn == "away" else 0)
        )

        def u16(v: int | None) -> bytes:
            return (BLANK16 if v is None else v).to_bytes(2, "big")

        def u8(v: int | None) -> bytes:
            return bytes((BLANK8 if v is None else v,))

        return (
            _text(self.clock, 5, "clock")
            + _text(self.shot_clock, 4, "shot_clock")
            + u16(self.home_score)
            + u16(self.away_score)
            + u8(self.home_fouls)
            + u8(self.away_fouls)
            + _text(self.period, 2, "period")
            + bytes((flags,))
        )

    @classmethod
    def from_payload(cls, p: bytes) -> "Show":
        if len(p) != SHOW_LEN:
            raise ProtocolError(f"SHOW payload must be {SHOW_LEN} bytes, got {len(p)}")
        if any(b < 0x20 or b > 0x7E for b in p[0:9] + p[15:17]):
            raise ProtocolError("SHOW payload: non-printable byte in a text field")

        def u16(i: int) -> int | None:
            v = int.from_bytes(p[i : i + 2], "big")
            return None if v == BLANK16 else v

        def u8(i: int) -> int | None:
            return None if p[i] == BLANK8 else p[i]

        flags = p[17]
        turn = "home" if flags & F_TURN_HOME else "away" if flags & F_TURN_AWAY else None
        return cls(
            clock=p[0:5].decode().strip(),
            shot_clock=p[5:9].decode().strip(),
            home_score=u16(9),
            away_score=u16(11),
            home_fouls=u8(13),
            away_fouls=u8(14),
            period=p[15:17].decode().strip(),
            horn=bool(flags & F_HORN),
            clock_running=bool(flags & F_RUNNING),
            turn=turn,
        )


@dataclass(frozen=True)
class Ping:
    """Are you there? Answered by an :class:`Ack`."""


@dataclass(frozen=True)
class Ack:
    firmware_version: int = 0


@dataclass(frozen=True)
class Nak:
    reason: int = 0


Message = Union[Show, Ping, Ack, Nak]


@dataclass(frozen=True)
class Frame:
    seq: int
    message: Message


def encode_frame(seq: int, message: Message) -> bytes:
    """Bytes on the wire for one message."""
    if not 0 <= seq <= 255:
        raise ProtocolError(f"seq must be in 0..255, got {seq}")
    if isinstance(message, Show):
        kind, payload = T_SHOW, message.payload()
    elif isinstance(message, Ping):
        kind, payload = T_PING, b""
    elif isinstance(message, Ack):
        kind, payload = T_ACK, bytes((message.firmware_version,))
    elif isinstance(message, Nak):
        kind, payload = T_NAK, bytes((message.reason,))
    else:
        raise ProtocolError(f"cannot encode {message!r}")
    body = bytes((len(payload), seq, kind)) + payload
    return bytes((START,)) + body + crc16(body).to_bytes(2, "big")


def decode_message(kind: int, payload: bytes) -> Message:
    if kind == T_SHOW:
        return Show.from_payload(payload)
    if kind == T_PING:
        return Ping()
    if kind == T_ACK:
        return Ack(payload[0] if payload else 0)
    if kind == T_NAK:
        return Nak(payload[0] if payload else 0)
    raise ProtocolError(f"unknown frame type 0x{kind:02x}")


class Decoder:
    """Incremental frame decoder. ``feed(bytes)`` returns the whole frames found.

    Counters: ``skipped`` (bytes dropped while resynchronising), ``bad_crc``,
    ``bad_payload`` (well-framed but undecodable frames, dropped).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self.skipped = 0
        self.bad_crc = 0
        self.bad_payload = 0

    def feed(self, data: bytes) -> list[Frame]:
        buf = self._buf
        buf += data
        out: list[Frame] = []
        pos = 0
        while True:
            i = buf.find(START, pos)
            if i < 0:
                self.skipped += len(buf) - pos
                pos = len(buf)
                break
            self.skipped += i - pos
            pos = i
            if len(buf) - pos < 4:
                break
            n = buf[pos + 1]
            if PAYLOAD_LEN.get(buf[pos + 3]) != n:
                self.skipped += 1
                pos += 1
                continue
            end = pos + n + OVERHEAD
            if len(buf) < end:
                break
            body = bytes(buf[pos + 1 : end - 2])
            if crc16(body) != int.from_bytes(buf[end - 2 : end], "big"):
                self.bad_crc += 1
                self.skipped += 1
                pos += 1
                continue
            try:
                out.append(Frame(body[1], decode_message(body[2], body[3:])))
            except ProtocolError:
                self.bad_payload += 1
            pos = end
        del buf[:pos]
        return out

    @property
    def pending(self) -> int:
        """Bytes held while waiting for the rest of a frame."""
        return len(self._buf)
