"""Test-side decoders of the standard wire formats, written from independent
third-party descriptions (not from our encoders):

- Daktronics All Sport 5000 RTD: framing, header and checksum as described and
  tested in zabackary/daktronics-allsport-5000-rs (``src/codecs.rs``,
  ``src/packet.rs``: wait for SYN 0x16, read to ETB 0x17; checksum = sum of the
  bytes before EOT plus EOT itself, mod 256, two uppercase hex digits; header
  ``004210`` + 4-digit 0-based offset) and field tables from its
  ``src/sports/soccer.rs`` / ``basketball.rs`` (1-based item, length).
- Stramatel: the 54-byte frame as parsed by the Arduino StramatelProtocolParser
  of christianduerselen/BaSta-LedStripsControlStramatel (start 0xF8 resets the
  buffer, second byte 0x33/0x37/0x38, game clock bytes 4-7, shot clock 48-49,
  team fouls 15/16, clock running 20; 0x30-0x39 digits, 0x40-0x49 digits with a
  decimal point, 0x20/0x00 blank), the byte map of BaSta.Protocol.Stramatel's
  sender test (points 8-10 / 11-13, period 14, timeouts 17/18, horn 19, CR at
  53), and muffix/stramatel-tv-display docs/stramatel_rs485_protocol.md (frame
  ends with 0x0D at 53; flags 0x31 = on; possession 0x31 home / 0x32 away;
  clock MMSS unless the 4th byte is a space, then SS.t).
"""

from __future__ import annotations

SYN, SOH, STX, EOT, ETB = 0x16, 0x01, 0x02, 0x04, 0x17

SOCCER = {
    "clock": (1, 5),
    "clock_zero": (27, 1),
    "clock_stopped": (28, 1),
    "horn": (30, 1),
    "home_name": (48, 20),
    "guest_name": (68, 20),
    "home_score": (108, 4),
    "guest_score": (112, 4),
    "home_tol": (122, 2),
    "guest_tol": (130, 2),
    "period": (142, 2),
    "home_fouls": (369, 3),
    "guest_fouls": (380, 3),
}
BASKETBALL = {
    **{k: v for k, v in SOCCER.items() if k not in ("home_fouls", "guest_fouls")},
    "shot_clock": (201, 8),
    "shot_horn": (209, 1),
    "home_poss": (210, 1),
    "guest_poss": (216, 1),
    "home_fouls": (236, 2),
    "guest_fouls": (238, 2),
}


class ChecksumError(ValueError):
    pass


def rtd_bodies(stream: bytes) -> list[bytes]:
    """Two states: idle until a SYN, then data until an ETB (the ETB is cut off)."""
    bodies, i, n = [], 0, len(stream)
    while i < n:
        start = stream.find(bytes([SYN]), i)
        if start < 0:
            break
        end = stream.find(bytes([ETB]), start + 1)
        if end < 0:
            break
        bodies.append(stream[start + 1 : end])
        i = end + 1
    return bodies


def rtd_packet(body: bytes) -> tuple[int, str]:
    before_eot = body[: body.index(EOT)]
    expected = f"{(sum(before_eot) + EOT) % 256:02X}"
    header = body[body.index(SOH) + 1 : body.index(STX)]
    if not header.startswith(b"004210"):
        raise ValueError(f"unsupported packet header {header!r}")
    offset = int(header[len(b"004210") :].decode())
    data = body[body.index(STX) + 1 : body.index(EOT)].decode("ascii")
    got = body[body.index(EOT) + 1 :].decode()
    if got != expected:
        raise ChecksumError(f"checksum {got} != {expected}")
    return offset, data


class RtdBuffer:
    """The console's character buffer: starts blank, packets overlay their data."""

    def __init__(self) -> None:
        self.data = [" "] * 1000

    def feed(self, stream: bytes) -> "RtdBuffer":
        for body in rtd_bodies(stream):
            offset, text = rtd_packet(body)
            self.data[offset : offset + len(text)] = list(text)
        return self

    def field(self, item: int, length: int) -> str:
        return "".join(self.data[item - 1 : item - 1 + length])

    def read(self, table: dict[str, tuple[int, int]]) -> dict[str, str]:
        return {name: self.field(*spec).strip() for name, spec in table.items()}


class StramatelParser:
    SIZE = 54

    def __init__(self) -> None:
        self.message = bytearray(self.SIZE)
        self.pointer = 0
        self.messages: list[bytes] = []

    def push(self, value: int) -> None:
        if self.pointer >= self.SIZE:
            self.pointer = 0
        if value == 0xF8:
            self.pointer = 0
        self.message[self.pointer] = value
        self.pointer += 1
        if self.valid():
            self.messages.append(bytes(self.message))

    def valid(self) -> bool:
        return (self.pointer == self.SIZE and self.message[0] == 0xF8 and self.message[1] in (0x33, 0x37, 0x38)
                and self.message[53] == 0x0D)

    @staticmethod
    def clock(raw: bytes) -> str:
        if raw[3] == 0x20:  # sub-minute: seconds, tenths, space
            return f"{int(raw[0:2])}.{chr(raw[2])}"
        return f"{raw[0:2].decode()}:{raw[2:4].decode()}"

    @staticmethod
    def digits(raw: bytes) -> str:
        out = ""
        for b in raw:
            if b in (0x20, 0x00):
                out += " "
            elif 0x30 <= b <= 0x39:
                out += chr(b)
            elif 0x40 <= b <= 0x49:
                out += "." + chr(b - 0x10)
            else:
                raise ValueError(f"not a digit byte: 0x{b:02x}")
        return out

    @classmethod
    def fields(cls, m: bytes) -> dict[str, object]:
        d = cls.digits
        assert m[53] == 0x0D
        return {
            "clock": cls.clock(m[4:8]),
            "possession": {0x31: "home", 0x32: "away"}.get(m[3]),
            "home_points": d(m[8:11]).strip(),
            "guest_points": d(m[11:14]).strip(),
            "period": d(m[14:15]).strip(),
            "home_fouls": d(m[15:16]).strip(),
            "guest_fouls": d(m[16:17]).strip(),
            "home_timeouts": d(m[17:18]).strip(),
            "guest_timeouts": d(m[18:19]).strip(),
            "horn": m[19] == 0x31,
            "clock_running": m[20] == 0x31,
            "shot_clock": d(m[48:50]).strip(),
            "shot_horn": m[50] == 0x31,
            "show_shot_clock": m[52] == 0x31,
        }
