from pathlib import Path

import pytest

from refbox.config import ConfigError, from_dict, load


def test_defaults_are_valid():
    cfg = load(None)
    assert cfg.table.game == "pig" and cfg.journal.synchronous == "FULL"


@pytest.mark.parametrize(
    "data, message",
    [
        ({"colour": 1}, "unknown key 'colour'"),
        ({"web": {"port": 0}}, "web.port must be in 1..65535, got 0"),
        ({"web": {"port": "80"}}, "web.port must be a whole number"),
        ({"journal": {"synchronous": "OFF"}}, "journal.synchronous must be one of"),
        ({"keypad": {"pins": {"stop": 99}}}, "keypad.pins.stop must be a BCM pin number 0..27"),
        ({"table": {"game": "golf"}}, "table: unknown game 'golf'"),
        ({"table": {"options": {"target": -5}}}, "table: option 'target'"),
        ({"table": {"players": "Ann"}}, "table.players must be a list of strings"),
        ({"horn": {"enabled": "yes"}}, "horn.enabled must be true or false"),
        ({"camera": {"dice_confidence": 1}}, "camera.dice_confidence must be in 0.0..0.99, got 1"),
        ({"camera": {"dice_confidence": -0.2}}, "camera.dice_confidence must be in 0.0..0.99, got -0.2"),
        ({"camera": {"dice_confidence": "0.7"}}, "camera.dice_confidence must be a number, got '0.7'"),
        ({"camera": {"dice_confidence": True}}, "camera.dice_confidence must be a number, got True"),
    ],
)
def test_bad_values_name_the_key(data, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        from_dict(data)


def test_a_confidence_is_a_number_and_a_whole_one_is_taken_too():
    assert load(None).camera.dice_confidence == 0.7
    assert from_dict({"camera": {"dice_confidence": 0.85}}).camera.dice_confidence == 0.85
    zero = from_dict({"camera": {"dice_confidence": 0}}).camera.dice_confidence
    assert zero == 0.0 and isinstance(zero, float)


def test_load_toml(tmp_path):
    p = tmp_path / "refbox.toml"
    p.write_text('[table]\ngame = "futsal"\nplayers = ["Lviv", "Kyiv"]\n[table.options]\nhalf_minutes = 25\n[web]\npin = "4321"\n')
    cfg = load(p)
    assert cfg.table.options == {"half_minutes": 25} and cfg.web.pin == "4321"


def test_load_bad_toml(tmp_path):
    p = tmp_path / "refbox.toml"
    p.write_text("[table\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(p)
    with pytest.raises(ConfigError, match="does not exist"):
        load(tmp_path / "missing.toml")


@pytest.mark.parametrize(
    "data, message",
    [
        ({"horn": {"pin": 21}}, "horn.pin: BCM 21 is already used by the keypad (button undo)"),
        ({"keypad": {"layout": "dice"}, "horn": {"pin": 17}}, 'the keypad of the "dice" layout uses BCM 17, 21, 22, 27'),
        ({"keypad": {"layout": "custom", "pins": {"stop": 4}}, "horn": {"pin": 4}}, "horn.pin: BCM 4 is already used by the keypad (button stop)"),
        ({"led": {"backend": "gpio", "settings": {"digits": 1, "groups": [{"field": "period", "first": 0, "width": 1}],
                                                  "segment_pins": [2, 3, 4, 14, 15, 18, 23], "digit_pins": [23]}}},
         "led.settings: BCM 23 is used twice (also by led.settings)"),
    ],
)
def test_two_devices_on_one_pin_are_refused(data, message):
    with pytest.raises(ConfigError) as err:
        from_dict(data)
    assert message in str(err.value)


def test_horn_off_frees_its_pin_and_none_layout_frees_the_keypad():
    assert from_dict({"horn": {"pin": 17, "enabled": False}}).horn.pin == 17
    assert from_dict({"keypad": {"layout": "none"}, "horn": {"pin": 17}}).horn.pin == 17


@pytest.mark.parametrize("path", sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.toml")), ids=lambda p: p.name)
def test_shipped_examples_load(path):
    assert load(path).table.game
