"""Cyrillic on displays that cannot draw it: 7-segment digits and 8x8 dot matrices.

A 7-segment digit has no Ж, Щ or Я (nor a K, M or W). :func:`segment_text` turns a
text into ASCII characters the firmware's font (``firmware/segments.py``) draws, by
the documented table :data:`SEGMENT_SUBSTITUTES` (the closest shape, else the
sound). The serial link carries ASCII only, so a text goes through it already
substituted:

>>> segment_text("ТАЙМ-АУТ")
'tAUn-AUt'
>>> segment_text("TIME OUT")
'T1nE OUT'

A dot matrix (luma's MAX7219 matrices) draws every Cyrillic letter with
:class:`CyrillicMatrixFont`: luma's ``UKR_FONT`` holds А..я at their cp1251
codes; the letters it lacks (Ґ Є І Ї and their small forms, Ё ё) are drawn by
:data:`EXTRA_GLYPHS`. Use it as ``luma.core.legacy.text(draw, xy, text, font=...)``.

The short texts a scoreboard may show are :data:`DISPLAY_TEXTS`; their
translations are in the catalogues (msgctxt ``display``), see
:func:`refbox.i18n.display_text`.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from .firmware import segments

#: Short scoreboard texts (catalogue context ``display``): at most 10 characters.
DISPLAY_TEXTS: tuple[str, ...] = (
    "TIME OUT",
    "HALF TIME",
    "GOAL",
    "FOUL",
    "END",
    "EXTRA TIME",
    "PENALTIES",
    "WINNER",
    "BREAK",
    "READY",
    "FIX DIE",
    "FIX TILE",
    "NO CAMERA",
)

#: Letter -> ASCII the 7-segment font draws. Where a Cyrillic letter has a 7-segment
#: look-alike the shape wins (Ч -> 4, З -> 3, Г -> r, П -> n); otherwise the sound
#: (Ф -> F, Ю -> U). Latin letters the font lacks get their usual scoreboard forms.
#: Collisions are unavoidable on seven segments: Б/Ь/Ъ -> b; Ж/К/Н/Х -> H;
#: И/Й/У/Ц/Ш/Щ/Ю -> U; Л/М/П -> n; А/Я -> A; Е/Є/Ё -> E; І/Ї -> 1.
SEGMENT_SUBSTITUTES: Mapping[str, str] = {
    # Cyrillic (upper case; small letters are looked up by their capital)
    "А": "A", "Б": "b", "В": "8", "Г": "r", "Ґ": "r", "Д": "d", "Е": "E", "Є": "E",
    "Ё": "E", "Ж": "H", "З": "3", "И": "U", "І": "1", "Ї": "1", "Й": "U", "К": "H",
    "Л": "n", "М": "n", "Н": "H", "О": "O", "П": "n", "Р": "P", "С": "C", "Т": "t",
    "У": "U", "Ф": "F", "Х": "H", "Ц": "U", "Ч": "4", "Ш": "U", "Щ": "U", "Ь": "b",
    "Ъ": "b", "Ы": "b1", "Э": "3", "Ю": "U", "Я": "A",
    # apostrophes (П'ятірка) take no digit
    "'": "", "ʼ": "", "’": "",
    # Latin letters the font has no pattern for
    "G": "6", "I": "1", "J": "U", "K": "H", "M": "n", "Q": "o", "S": "5", "V": "U",
    "W": "U", "X": "H", "Y": "4", "Z": "2",
}


def segment_drawable(ch: str) -> bool:
    """True when the firmware font has a pattern for ``ch`` (not the unknown-dash)."""
    if ch == "-":
        return True
    return ch in ".: " or any(c in segments.FONT for c in (ch, ch.upper(), ch.lower()))


def segment_text(text: str) -> str:
    """``text`` in ASCII characters the 7-segment font draws (see the table above).

    Characters with no entry and no pattern become ``-`` (what the font shows for
    an unknown character anyway).
    """
    out: list[str] = []
    for ch in text:
        if segment_drawable(ch) and ch.isascii():
            out.append(ch)
            continue
        sub = SEGMENT_SUBSTITUTES.get(ch.upper(), SEGMENT_SUBSTITUTES.get(ch))
        out.append(sub if sub is not None else "-")
    return "".join(out)


def segment_cells(text: str, width: int) -> list[int]:
    """The segment bytes of ``text`` on ``width`` digits (after :func:`segment_text`)."""
    return segments.encode(segment_text(text), width)


# --- dot matrices ------------------------------------------------------------------


def _columns(rows: Sequence[str]) -> list[int]:
    """8 rows of '#'/'.' -> luma legacy column bytes (bit 0 = top row)."""
    if len(rows) != 8 or any(len(r) != 8 for r in rows):
        raise ValueError("a glyph is 8 rows of 8 characters")
    return [sum(1 << r for r in range(8) if rows[r][c] == "#") for c in range(8)]


#: Letters UKR_FONT lacks, drawn in its style (8x8, bit 0 of each column byte on top).
EXTRA_GLYPHS: Mapping[str, list[int]] = {
    "Ґ": _columns([
        "......#.", ".######.", ".##.....", ".##.....", ".##.....", ".##.....", ".##.....", "........"]),
    "ґ": _columns([
        "........", "......#.", ".#####..", ".##.....", ".##.....", ".##.....", ".##.....", "........"]),
    "Є": _columns([
        "..####..", ".##..##.", "##......", "#####...", "##......", ".##..##.", "..####..", "........"]),
    "є": _columns([
        "........", "........", "..####..", ".##.....", ".####...", ".##.....", "..####..", "........"]),
    "І": _columns([
        ".####...", "..##....", "..##....", "..##....", "..##....", "..##....", ".####...", "........"]),
    "і": _columns([
        "..##....", "........", ".###....", "..##....", "..##....", "..##....", ".####...", "........"]),
    "Ї": _columns([
        ".#..#...", "........", ".####...", "..##....", "..##....", "..##....", ".####...", "........"]),
    "ї": _columns([
        "##..##..", "........", ".###....", "..##....", "..##....", "..##....", ".####...", "........"]),
    "Ё": _columns([
        ".#..#...", "........", ".######.", ".##.....", ".#####..", ".##.....", ".######.", "........"]),
    "ё": _columns([
        ".#..#...", "........", "..####..", ".##..##.", ".######.", ".##.....", "..####..", "........"]),
}


class CyrillicMatrixFont:
    """A luma legacy font (indexed by ``ord``) that draws Ukrainian and Russian text.

    ASCII comes from ``base`` (default luma's ``UKR_FONT``); А..я from its cp1251
    half; the letters it lacks from :data:`EXTRA_GLYPHS`; anything else is drawn as
    ``?`` rather than silently left blank.
    """

    def __init__(self, base: Sequence[Sequence[int]] | None = None) -> None:
        if base is None:
            from luma.core.legacy.font import UKR_FONT

            base = UKR_FONT
        self.base = base

    def __getitem__(self, code: int) -> Sequence[int]:
        ch = chr(code)
        if ch in EXTRA_GLYPHS:
            return EXTRA_GLYPHS[ch]
        if code < 0x80:
            return self.base[code]
        if "А" <= ch <= "я":
            return self.base[ch.encode("cp1251")[0]]
        return self.base[ord("?")]

    def covers(self, ch: str) -> bool:
        """True when ``ch`` has its own glyph (not the ``?`` stand-in, not blank)."""
        code = ord(ch)
        if ch in EXTRA_GLYPHS or ("А" <= ch <= "я"):
            return any(self[code])
        return code < 0x80 and (ch == " " or any(self[code]))
