"""Cyrillic on 7-segment digits and 8x8 dot matrices: every Ukrainian and Russian
letter gets a drawable form, through the firmware's real font and luma's real fonts."""

import pytest
from PIL import Image, ImageDraw

from firmware_bridge import glyphs
from firmware_bridge.firmware import segments
from refbox import i18n

UKRAINIAN = "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ"
RUSSIAN = "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ"
LETTERS = sorted(set(UKRAINIAN + RUSSIAN + UKRAINIAN.lower() + RUSSIAN.lower()))


@pytest.mark.parametrize("letter", LETTERS)
def test_every_cyrillic_letter_has_a_seven_segment_form(letter):
    text = glyphs.segment_text(letter)
    assert text and text.isascii()
    for ch in text:
        assert glyphs.segment_drawable(ch), (letter, ch)
        assert segments.glyph(ch) != segments.G or ch == "-", (letter, ch)  # not the unknown-dash


def test_time_out_in_every_language_on_eight_digits():
    cells = {lang: glyphs.segment_cells(i18n.display_text("TIME OUT", lang), 8) for lang in i18n.LANGUAGES}
    assert glyphs.segment_text(i18n.display_text("TIME OUT", "uk")) == "tAUn-AUt"
    assert cells["uk"] == cells["ru"]  # ТАЙМ-АУТ in both
    f = segments.FONT
    assert cells["uk"] == [f["t"], f["A"], f["U"], f["n"], f["-"], f["A"], f["U"], f["t"]]
    assert cells["en"] == [f["t"], f["1"], f["n"], f["E"], 0, f["o"], f["U"], f["t"]]
    assert "".join(segments.decode(c) for c in cells["en"]) == "t1nE oUt"


def test_latin_letters_the_font_lacks_are_substituted():
    assert glyphs.segment_text("GOAL") == "6OAL"
    assert glyphs.segment_text("SKY") == "5H4"
    assert "-" not in glyphs.segment_text("PENALTIES")


def test_apostrophe_takes_no_digit_and_unknown_is_a_dash():
    assert glyphs.segment_text("П'ять") == "nAtb"
    assert glyphs.segment_text("☃") == "-"


def test_every_display_text_fits_the_seven_segment_font_in_every_language():
    for text in glyphs.DISPLAY_TEXTS:
        for lang in i18n.LANGUAGES:
            word = i18n.display_text(text, lang)
            shown = glyphs.segment_text(word)
            assert shown.count("-") == word.count("-"), (lang, word, shown)  # no unknown-dash
            assert all(glyphs.segment_drawable(c) for c in shown)
            assert len(word) <= 10, (lang, text)


# --- dot matrices --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def font():
    return glyphs.CyrillicMatrixFont()


@pytest.mark.parametrize("letter", LETTERS)
def test_every_cyrillic_letter_has_its_own_matrix_glyph(font, letter):
    assert font.covers(letter)
    assert any(font[ord(letter)])


def test_matrix_glyphs_are_distinct_within_each_alphabet(font):
    for alphabet in (UKRAINIAN, RUSSIAN, UKRAINIAN.lower(), RUSSIAN.lower()):
        shapes = {tuple(font[ord(c)]) for c in alphabet}
        assert len(shapes) == len(alphabet), alphabet


def test_extra_glyphs_differ_from_their_base_letters(font):
    for extra, base in (("Ґ", "Г"), ("Ї", "І"), ("Є", "С"), ("Ё", "Е"), ("ї", "і"), ("ґ", "г"), ("є", "с")):
        assert list(font[ord(extra)]) != list(font[ord(base)])


def test_uncovered_character_is_a_question_mark_not_blank(font):
    assert list(font[ord("☃")]) == list(font[ord("?")])
    assert not font.covers("☃")


def test_luma_draws_ukrainian_text_with_the_font(font):
    from luma.core.legacy import text, textsize

    word = i18n.display_text("TIME OUT", "uk")
    assert textsize(word, font=font) == (8 * len(word), 8)
    img = Image.new("1", (8 * len(word), 8))
    text(ImageDraw.Draw(img), (0, 0), word, fill="white", font=font)
    lit = img.convert("L").histogram()[255]
    expected = sum(bin(col).count("1") for ch in word for col in font[ord(ch)])
    assert lit == expected > 0


def test_glyph_rows_must_be_eight_by_eight():
    with pytest.raises(ValueError):
        glyphs._columns(["#"] * 7)


def test_the_documented_table_is_the_code_table():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "i18n.md").read_text(encoding="utf-8")
    rows = [line for line in doc.splitlines() if line.startswith(("| letter", "| Latin", "| shows as"))]
    pairs = {}
    for head, shown in zip(rows[0::2], rows[1::2]):
        letters = [c.strip() for c in head.split("|")[2:-1]]
        forms = [c.strip().strip("`") for c in shown.split("|")[2:-1]]
        pairs.update(zip(letters, forms))
    table = {k: v for k, v in glyphs.SEGMENT_SUBSTITUTES.items() if v}  # apostrophes: no digit
    assert pairs == table
