"""Frame format of the Refbox display link, written for MicroPython *and* CPython.

One frame on the wire::

    0xA5 | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC16 hi | CRC16 lo

``CRC16`` is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over LEN..PAYLOAD.
The bridge (``firmware_bridge.protocol``) has its own implementation of the same
format; the tests check the two against each other.

This module uses only what MicroPython on an RP2040 has: no typing, no
dataclasses, no struct, no binascii.crc_hqx.
"""

START = 0xA5
MAX_PAYLOAD = 48
OVERHEAD = 6  # start, len, seq, type, crc x2

T_SHOW = 0x01  # bridge -> display: the digits to show (payload: SHOW_LEN bytes)
T_PING = 0x02  # bridge -> display: are you there? (empty payload)
T_ACK = 0x81  # display -> bridge: frame SEQ applied (payload: firmware version)
T_NAK = 0x82  # display -> bridge: frame SEQ well formed but refused (payload: reason)

SHOW_LEN = 18
FIRMWARE_VERSION = 1

NAK_BAD_PAYLOAD = 1

# payload length of each frame type the display accepts; a header that
# disagrees (or an unknown type) is garbage and skipped at once
PAYLOAD_LEN = {T_SHOW: SHOW_LEN, T_PING: 0}


def _crc_table():
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _crc_table()  # one lookup per byte: a frame's CRC in well under a millisecond on an RP2040


def crc16(data, crc=0xFFFF):
    table = _TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def build_frame(seq, kind, payload=b""):
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = bytes((len(payload), seq & 0xFF, kind)) + bytes(payload)
    crc = crc16(body)
    return bytes((START,)) + body + bytes((crc >> 8, crc & 0xFF))


class FrameReader:
    """Feed bytes, get whole frames ``(seq, kind, payload)``; garbage is skipped.

    A start byte inside garbage, or a frame whose CRC fails, costs one byte: the
    reader drops the start byte and looks for the next one in what it already
    has, so it resynchronises on the very next good frame.
    """

    def __init__(self):
        self.buf = bytearray()
        self.skipped = 0  # bytes thrown away while looking for a start byte
        self.bad_crc = 0  # frames whose CRC did not match

    def feed(self, data):
        buf = self.buf + bytes(data)
        out = []
        while True:
            i = _find_start(buf)
            if i < 0:
                self.skipped += len(buf)
                buf = bytearray()
                break
            if i:
                self.skipped += i
                buf = buf[i:]
            if len(buf) < 4:
                break
            n = buf[1]
            if PAYLOAD_LEN.get(buf[3]) != n:
                self.skipped += 1
                buf = buf[1:]
                continue
            total = n + OVERHEAD
            if len(buf) < total:
                break
            crc = (buf[total - 2] << 8) | buf[total - 1]
            if crc16(buf[1 : total - 2]) != crc:
                self.bad_crc += 1
                self.skipped += 1
                buf = buf[1:]
                continue
            out.append((buf[2], buf[3], bytes(buf[4 : total - 2])))
            buf = buf[total:]
        self.buf = bytearray(buf)
        return out


def _find_start(buf):
    for i in range(len(buf)):
        if buf[i] == START:
            return i
    return -1
