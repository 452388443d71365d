"""Keypad on gpiozero's MockFactory: debounce, long press, bounce, the timekeeper map."""

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.keypad import HORN_RELAY_PIN, TIMEKEEPER_PINS, Keypad
from rules import get_game


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


@pytest.fixture
def rig():
    clock = FakeClock()
    pressed = []
    factory = MockFactory()
    pad = Keypad(
        {17: "start_stop", 5: ("foul_home", "send_off_home"), 21: (None, "undo")},
        pressed.append,
        pin_factory=factory,
        bounce_time=0.02,
        hold_time=1.0,
        clock=clock,
    )
    yield pad, clock, pressed
    pad.close()


def bounce(pin, clock, final, edges=6, step=0.001):
    """A contact that chatters for a few ms and settles at ``final`` ('L' pressed / 'H' released)."""
    levels = ["L", "H"] * edges
    if final == "H":
        levels = levels[1:] + ["H"]
    else:
        levels = levels + ["L"]
    for level in levels:
        pin.drive_low() if level == "L" else pin.drive_high()
        clock.advance(step)


def test_clean_press_reports_once_at_the_press(rig):
    pad, clock, pressed = rig
    pin = pad.pin_of("start_stop")
    pin.drive_low()
    assert pressed == ["start_stop"]
    clock.advance(0.15)
    pin.drive_high()
    assert pressed == ["start_stop"]


def test_bouncing_contact_is_not_counted_twice(rig):
    pad, clock, pressed = rig
    pin = pad.pin_of("start_stop")
    for _ in range(10):  # ten real presses, each bouncing on press and on release
        bounce(pin, clock, "L")
        clock.advance(0.2)
        bounce(pin, clock, "H")
        clock.advance(0.2)
    assert pressed == ["start_stop"] * 10


def test_edges_slower_than_the_bounce_time_are_presses(rig):
    pad, clock, pressed = rig
    pin = pad.pin_of("start_stop")
    for _ in range(3):
        pin.drive_low()
        clock.advance(0.03)
        pin.drive_high()
        clock.advance(0.03)
    assert pressed == ["start_stop"] * 3


def test_short_and_long_press(rig):
    pad, clock, pressed = rig
    pin = pad.pin_of("foul_home")
    assert pad.pin_of("send_off_home") is pin
    bounce(pin, clock, "L")
    assert pressed == []  # a button with a long action reports at the release
    clock.advance(0.3)
    bounce(pin, clock, "H")
    assert pressed == ["foul_home"]
    bounce(pin, clock, "L")
    clock.advance(1.2)
    bounce(pin, clock, "H")
    assert pressed == ["foul_home", "send_off_home"]


def test_poll_reports_a_long_press_while_held_and_only_once(rig):
    pad, clock, pressed = rig
    pin = pad.pin_of("foul_home")
    pin.drive_low()
    clock.advance(0.5)
    pad.poll()
    assert pressed == []
    clock.advance(0.6)
    pad.poll()
    pad.poll()
    assert pressed == ["send_off_home"]
    clock.advance(2.0)
    pin.drive_high()
    assert pressed == ["send_off_home"]


def test_long_only_button_ignores_short_presses(rig):
    pad, clock, pressed = rig
    pin = pad.pin_of("undo")
    pin.drive_low()
    clock.advance(0.2)
    pin.drive_high()
    assert pressed == []
    clock.advance(0.5)
    pin.drive_low()
    clock.advance(1.5)
    pin.drive_high()
    assert pressed == ["undo"]


def test_press_by_name_for_simulation_and_web(rig):
    pad, _, pressed = rig
    pad.press("send_off_home")
    pad.press("start_stop")
    assert pressed == ["send_off_home", "start_stop"]
    with pytest.raises(KeyError, match="no button 'nope'"):
        pad.press("nope")


def test_bad_maps_are_refused():
    f = MockFactory()
    with pytest.raises(ValueError, match="logical name 'a' is on pins"):
        Keypad({17: "a", 27: ("b", "a")}, print, pin_factory=f)
    with pytest.raises(ValueError, match="hold_time"):
        Keypad({17: "a"}, print, pin_factory=f, bounce_time=0.5, hold_time=0.1)
    with pytest.raises(ValueError, match="short-press name"):
        Keypad({17: (None, None)}, print, pin_factory=f)
    # the pins of a refused keypad are released again
    Keypad({17: "a"}, print, pin_factory=f).close()


def test_timekeeper_map_sends_futsal_events():
    futsal = get_game("futsal")
    names = [n for pair in TIMEKEEPER_PINS.values() for n in pair if n]
    assert len(set(names)) == len(names)
    assert HORN_RELAY_PIN not in TIMEKEEPER_PINS
    for name in names:
        assert name in futsal.keypad, name
    for required in ("start_stop", "goal_home", "goal_away", "foul_home", "foul_away", "timeout_home",
                     "timeout_away", "send_off_home", "send_off_away", "four_seconds", "horn", "undo"):
        assert required in names
    clock = FakeClock()
    got = []
    with Keypad(TIMEKEEPER_PINS, got.append, pin_factory=MockFactory(), clock=clock) as pad:
        pin = pad.pin_of("goal_away")
        bounce(pin, clock, "L")
        clock.advance(0.1)
        bounce(pin, clock, "H")
    assert got == ["goal_away"]


def test_relabel_gives_wired_pins_another_games_names(rig):
    pad, clock, pressed = rig
    foul = pad.pin_of("foul_home")
    foul.drive_low()  # held while the game changes
    clock.advance(0.1)
    pad.relabel({5: ("draw", "pass"), 17: "stop"})
    assert sorted(pad.names) == ["draw", "pass", "stop"]
    clock.advance(2.0)
    pad.poll()
    foul.drive_high()  # the press began under the old names: nothing is reported
    assert pressed == []
    clock.advance(0.1)
    foul.drive_low()
    clock.advance(0.1)
    foul.drive_high()
    assert pressed == ["draw"]
    stop = pad.pin_of("stop")  # BCM 17; BCM 21 (undo) is silent now
    with pytest.raises(KeyError, match="no button 'undo'"):
        pad.pin_of("undo")
    stop.drive_low()
    assert pressed == ["draw", "stop"]


def test_relabel_refuses_a_bad_map_and_keeps_the_old_names(rig):
    pad, _clock, _pressed = rig
    before = pad.names
    with pytest.raises(ValueError, match="logical name 'stop' is on pins 17 and 5"):
        pad.relabel({17: "stop", 5: "stop"})
    with pytest.raises(ValueError, match="pin 4 is not wired to this keypad; wired: 17, 5, 21"):
        pad.relabel({4: "stop"})
    assert pad.names == before
