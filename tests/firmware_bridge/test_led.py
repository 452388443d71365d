"""LED back ends: gpiozero with MockFactory, MAX7219 bytes through luma, emulator golden image."""

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from PIL import Image, ImageChops

from firmware_bridge.firmware import segments as seg
from firmware_bridge.layout import DisplayFields
from firmware_bridge.led import (
    EmulatedSegments,
    GpioSegments,
    LedConfig,
    LedConfigError,
    LedGroup,
    LedScoreboard,
    Max7219Segments,
    frame,
)

from .conftest import futsal_view

FIXTURES = Path(__file__).parent.parent / "fixtures"
GOLDEN = FIXTURES / "led_futsal_golden.png"

GPIO_CONFIG = LedConfig(
    backend="gpio",
    digits=4,
    groups=(LedGroup("clock", 0, 4),),
    segment_pins=(2, 3, 4, 5, 6, 7, 8),
    dp_pin=9,
    digit_pins=(10, 11, 12, 13),
)


def test_frame_is_the_configured_groups():
    cells = frame(DisplayFields(clock="12:34", home_score=7, period="2"), LedConfig())
    assert cells[0:4] == [seg.FONT["1"], seg.FONT["2"] | seg.DP, seg.FONT["3"], seg.FONT["4"]]
    assert cells[7:10] == [0, 0, seg.FONT["7"]] and cells[15] == seg.FONT["2"]


def test_gpio_back_end_lights_the_segments_of_each_digit():
    factory = MockFactory()
    board = LedScoreboard(GPIO_CONFIG, GpioSegments(GPIO_CONFIG, pin_factory=factory))
    try:
        board.show(futsal_view("12:34"))
        assert board.backend.display.value == ("1", "2.", "3", "4")
        board.show(futsal_view("8.8", clock_running=False))
        # all four digits the same is shown without multiplexing: check the pins themselves
        board.backend.write([seg.FONT["8"] | seg.DP] * 4)
        assert all(factory.pin(p).state for p in (2, 3, 4, 5, 6, 7, 8, 9))
        assert all(factory.pin(p).state for p in (10, 11, 12, 13))  # every digit selected (NPN bases high)
        board.backend.write([seg.FONT["1"]] * 4)
        assert [factory.pin(p).state for p in (2, 3, 4, 5, 6, 7, 8, 9)] == [0, 1, 1, 0, 0, 0, 0, 0]
    finally:
        board.close()


class RecordingSpi:
    """A luma serial interface that keeps what would go down the SPI wire."""

    def __init__(self):
        self.writes = []

    def command(self, *cmd):
        self.writes.append(list(cmd))

    def data(self, data):
        self.writes.append(list(data))

    def cleanup(self):
        pass


def registers(writes, chips):
    """Per MAX7219 datasheet: a chain shifts 16-bit words along; after LOAD the first
    word sent sits in the chip farthest from the Pi. Returns {(chip from Pi, reg): value}."""
    regs = {}
    for w in writes:
        assert len(w) == 2 * chips
        for k in range(chips):
            regs[(chips - 1 - k, w[2 * k])] = w[2 * k + 1]
    return regs


@pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")  # inside luma.led_matrix
def test_max7219_chain_gets_digit_i_on_chip_i_div_8_register_i_mod_8():
    spi = RecordingSpi()
    config = LedConfig(backend="max7219")
    board = LedScoreboard(config, Max7219Segments(config, spi))
    init = registers(spi.writes, 2)
    assert init[(0, 0x0B)] == 7 and init[(0, 0x09)] == 0 and init[(1, 0x0C)] == 1  # scan 8, no decode, on
    spi.writes.clear()
    board.show(futsal_view("12:34", home=105, away=7))
    regs = registers(spi.writes, 2)
    cells = board.cells
    for i in range(16):
        assert regs[(i // 8, 1 + i % 8)] == cells[i], i
    assert regs[(0, 1)] == seg.FONT["1"] and regs[(0, 2)] == seg.FONT["2"] | seg.DP
    assert (regs[(0, 8)], regs[(1, 1)], regs[(1, 2)]) == (seg.FONT["1"], seg.FONT["0"], seg.FONT["5"])  # home 105 on digits 7-9


def test_unchanged_frames_are_not_rewritten():
    board = LedScoreboard(LedConfig())
    board.show(futsal_view())
    board.show(futsal_view())
    assert board.backend.frames == 1


def test_emulator_matches_the_golden_image(tmp_path):
    board = LedScoreboard(LedConfig())
    board.show(futsal_view("19:07", home=12, away=3, shot_clock=4.5))
    image = board.backend.image()
    if not GOLDEN.exists():
        image.save(tmp_path / GOLDEN.name)
        pytest.fail(f"no golden image; check {tmp_path / GOLDEN.name} by eye and copy it to {GOLDEN}")
    golden = Image.open(GOLDEN).convert("RGB")
    assert golden.size == image.size
    assert ImageChops.difference(golden, image).getbbox() is None


def test_emulator_terminal_text_shows_the_digits():
    board = LedScoreboard(LedConfig())
    board.show(futsal_view("19:07", home=12, away=3))
    assert board.backend.text() == "19:07 |  / 12 | 2 | 1 | 5 | 3"
    art = board.backend.render_text()
    assert "CLOCK" in art and "HOME SCORE" in art and "|_|" in art


def test_turn_based_game_on_the_led_board():
    board = LedScoreboard(LedConfig())
    board.show({"players": [{"name": "Ann", "score": 45}, {"name": "Bob", "score": 60}], "turn": "Ann", "turn_total": 17})
    assert board.backend.text() == " | 17 / 45 |  |  |  | 60"


@pytest.mark.parametrize(
    "data, words",
    [
        ({"backend": "hdmi"}, ["led.backend", "'hdmi'", "'gpio', 'max7219', 'emulator'"]),
        ({"digits": 0}, ["led.digits", "0"]),
        ({"groups": [{"field": "score", "first": 0, "width": 2}]}, ["led.groups[0].field", "'score'", "home_score"]),
        ({"groups": [{"field": "clock", "first": 14, "width": 4}]}, ["led.groups[0]", "14..17"]),
        ({"groups": [{"field": "clock", "first": 0, "width": 4}, {"field": "period", "first": 3, "width": 1}]},
         ["led.groups[1]", "digit 3", "'clock'"]),
        ({"backend": "max7219", "digits": 12}, ["led.digits", "multiple of 8"]),
        ({"backend": "gpio", "digits": 4, "groups": [], "segment_pins": [1, 2]}, ["led.segment_pins", "7 pins"]),
        ({"colour": "red"}, ["unknown key(s) ['colour']", "allowed"]),
        ({"groups": [{"field": "clock"}]}, ["led.groups[0]", "expected keys"]),
    ],
)
def test_config_errors_name_the_key_and_the_allowed_values(data, words):
    with pytest.raises(LedConfigError) as err:
        LedConfig.from_mapping(data)
    for word in words:
        assert word in str(err.value)


def test_config_from_mapping_round_trip():
    cfg = LedConfig.from_mapping(
        {"backend": "gpio", "digits": 4, "groups": [{"field": "clock", "first": 0, "width": 4}],
         "segment_pins": [2, 3, 4, 5, 6, 7, 8], "dp_pin": 9, "digit_pins": [10, 11, 12, 13]}
    )
    assert cfg == GPIO_CONFIG


def test_real_back_ends_are_never_silently_faked():
    with pytest.raises(LedConfigError, match="needs its device"):
        LedScoreboard(LedConfig(backend="max7219"))


def test_every_status_word_is_a_translated_display_text():
    from firmware_bridge.glyphs import DISPLAY_TEXTS
    from firmware_bridge.layout import MESSAGES

    assert set(MESSAGES) <= set(DISPLAY_TEXTS)
