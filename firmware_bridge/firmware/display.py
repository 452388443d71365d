"""The shot-clock / match-clock display: protocol handling and digit state.

Plain Python that runs unchanged under MicroPython on the Pico (``main.py``) and
under CPython on the host (tests, ``refbox run --sim``). The hardware is behind
a two-method object::

    hw.write_digits(cells)   # 16 segment bytes, digit 0 first (see DIGITS)
    hw.set_horn(on)          # the horn relay

Digit map (two cascaded MAX7219, 8 digits each)::

    0-3   match clock  MM:SS (DP of digit 1 is the colon) or SS.t
    4-6   shot clock   (or a turn-based game's turn total)
    7-9   home score   10-12 away score
    13    home fouls (DP: home's turn)   14 away fouls (DP: away's turn)
    15    period (DP: clock running)
"""

try:
    from . import frames, segments
except ImportError:  # MicroPython: flat file system, no package
    import frames
    import segments

DIGITS = (
    ("clock", 0, 4),
    ("shot", 4, 3),
    ("home", 7, 3),
    ("away", 10, 3),
    ("home_fouls", 13, 1),
    ("away_fouls", 14, 1),
    ("period", 15, 1),
)
N_DIGITS = 16
BLANK16 = 0xFFFF
BLANK8 = 0xFF
HORN_HOLD_MS = 3000  # a horn that is not refreshed stops by itself (link lost)

F_HORN = 1
F_RUNNING = 2
F_TURN_HOME = 4
F_TURN_AWAY = 8


def parse_show(payload):
    """SHOW payload -> dict of texts and flags; raises ValueError if malformed."""
    if len(payload) != frames.SHOW_LEN:
        raise ValueError("SHOW payload must be %d bytes" % frames.SHOW_LEN)
    for b in payload[0:9] + payload[15:17]:
        if b < 0x20 or b > 0x7E:
            raise ValueError("non-printable text byte")
    hs = (payload[9] << 8) | payload[10]
    aw = (payload[11] << 8) | payload[12]
    flags = payload[17]
    return {
        "clock": bytes(payload[0:5]).decode().strip(),
        "shot": bytes(payload[5:9]).decode().strip(),
        "home": "" if hs == BLANK16 else str(hs),
        "away": "" if aw == BLANK16 else str(aw),
        "home_fouls": "" if payload[13] == BLANK8 else str(min(payload[13], 9)),
        "away_fouls": "" if payload[14] == BLANK8 else str(min(payload[14], 9)),
        "period": bytes(payload[15:17]).decode().strip(),
        "horn": bool(flags & F_HORN),
        "running": bool(flags & F_RUNNING),
        "turn_home": bool(flags & F_TURN_HOME),
        "turn_away": bool(flags & F_TURN_AWAY),
    }


def render(state):
    """16 segment bytes for a parsed SHOW state."""
    cells = [0] * N_DIGITS
    for name, first, width in DIGITS:
        text = state.get(name, "")
        if name == "clock" and ":" not in text and "." not in text and len(text) > 4:
            text = text[-4:]
        part = segments.encode(text, width)
        for i in range(width):
            cells[first + i] = part[i]
    if state.get("turn_home"):
        cells[13] |= segments.DP
    if state.get("turn_away"):
        cells[14] |= segments.DP
    if state.get("running"):
        cells[15] |= segments.DP
    return cells


class Firmware:
    """Feed it the bytes from the UART; it drives ``hw`` and returns the reply bytes."""

    def __init__(self, hw, now_ms=0):
        self.hw = hw
        self.reader = frames.FrameReader()
        self.state = {}
        self.cells = [0] * N_DIGITS
        self.horn = False
        self.horn_since = now_ms
        self.frames_ok = 0
        self.last_seq = -1
        hw.write_digits(self.cells)
        hw.set_horn(False)

    def feed(self, data, now_ms=0):
        reply = b""
        for seq, kind, payload in self.reader.feed(data):
            if kind == frames.T_SHOW:
                try:
                    state = parse_show(payload)
                except ValueError:
                    reply += frames.build_frame(seq, frames.T_NAK, bytes((frames.NAK_BAD_PAYLOAD,)))
                    continue
                self.apply(state, now_ms)
            self.frames_ok += 1
            self.last_seq = seq
            reply += frames.build_frame(seq, frames.T_ACK, bytes((frames.FIRMWARE_VERSION,)))
        return reply

    def apply(self, state, now_ms):
        self.state = state
        cells = render(state)
        if cells != self.cells:
            self.cells = cells
            self.hw.write_digits(cells)
        horn = state["horn"]
        if horn:
            self.horn_since = now_ms
        if horn != self.horn:
            self.horn = horn
            self.hw.set_horn(horn)

    def tick(self, now_ms):
        """Call often: stops a horn whose refresh stopped coming (link lost)."""
        if self.horn and now_ms - self.horn_since > HORN_HOLD_MS:
            self.horn = False
            self.hw.set_horn(False)
