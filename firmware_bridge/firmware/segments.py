"""7-segment font in MAX7219 "no decode" bit order (MicroPython and CPython).

Bit 7 is the decimal point, then segments A B C D E F G (bit 6 .. bit 0)::

     A
    F B
     G
    E C
     D  .DP
"""

DP = 0x80
A, B, C, D, E, F, G = 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01

FONT = {
    " ": 0,
    "0": A | B | C | D | E | F,
    "1": B | C,
    "2": A | B | D | E | G,
    "3": A | B | C | D | G,
    "4": B | C | F | G,
    "5": A | C | D | F | G,
    "6": A | C | D | E | F | G,
    "7": A | B | C,
    "8": A | B | C | D | E | F | G,
    "9": A | B | C | D | F | G,
    "-": G,
    "_": D,
    "A": A | B | C | E | F | G,
    "b": C | D | E | F | G,
    "C": A | D | E | F,
    "d": B | C | D | E | G,
    "E": A | D | E | F | G,
    "F": A | E | F | G,
    "H": B | C | E | F | G,
    "L": D | E | F,
    "n": C | E | G,
    "o": C | D | E | G,
    "P": A | B | E | F | G,
    "r": E | G,
    "t": D | E | F | G,
    "U": B | C | D | E | F,
}


def glyph(ch):
    """Segments of one character; unknown characters light segment G (a dash)."""
    if ch in FONT:
        return FONT[ch]
    up = ch.upper()
    if up in FONT:
        return FONT[up]
    low = ch.lower()
    if low in FONT:
        return FONT[low]
    return G


def encode(text, width):
    """Right-aligned segments of ``text`` on ``width`` digits; '.' and ':' become
    the decimal point of the digit before them. Too long text keeps its right end.
    """
    cells = []
    for ch in text:
        if ch in ".:" and cells:
            cells[-1] |= DP
        else:
            cells.append(glyph(ch))
    cells = cells[-width:] if width else []
    return [0] * (width - len(cells)) + cells


def decode(cell):
    """Best-effort character for a segment pattern (for the terminal emulator)."""
    pattern = cell & 0x7F
    if pattern == 0:
        return " "
    for ch in "0123456789-_AbCdEFHLnoPrtU":
        if FONT[ch] == pattern:
            return ch
    return "?"
