# Types for CPython users of frames.py (the MicroPython source carries no annotations).
START: int
MAX_PAYLOAD: int
OVERHEAD: int
T_SHOW: int
T_PING: int
T_ACK: int
T_NAK: int
SHOW_LEN: int
FIRMWARE_VERSION: int
NAK_BAD_PAYLOAD: int
PAYLOAD_LEN: dict[int, int]

def crc16(data: bytes | bytearray, crc: int = ...) -> int: ...
def build_frame(seq: int, kind: int, payload: bytes = ...) -> bytes: ...

class FrameReader:
    buf: bytearray
    skipped: int
    bad_crc: int
    def __init__(self) -> None: ...
    def feed(self, data: bytes | bytearray) -> list[tuple[int, int, bytes]]: ...
