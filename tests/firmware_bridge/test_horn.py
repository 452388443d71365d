"""Horn relay on gpiozero's MockFactory: named patterns, non-blocking, interruptible."""

import threading

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.horn import PATTERNS, Horn, pattern_seconds
from rules.sports.match import HORN_PATTERNS


def instant(cancel: threading.Event, seconds: float) -> bool:
    return cancel.is_set()


def relay_states(horn):
    return [s.state for s in horn.pin.states]


@pytest.mark.parametrize("pattern", sorted(PATTERNS))
def test_each_pattern_switches_the_relay_as_written(pattern):
    with Horn(16, pin_factory=MockFactory(), wait=instant) as horn:
        horn.pin.clear_states()
        horn.sound(pattern)
        assert horn.wait_done(5.0)
        blasts = sum(1 for on, _ in PATTERNS[pattern] if on)
        # off, then on/off per blast, ending off
        assert relay_states(horn) == [False] + [True, False] * blasts
        assert not horn.is_on


def test_patterns_match_the_rules_view_durations():
    assert set(PATTERNS) == set(HORN_PATTERNS)
    for name in PATTERNS:
        assert pattern_seconds(name) == pytest.approx(HORN_PATTERNS[name])


def test_patterns_differ_from_each_other_and_from_a_whistle():
    shapes = {tuple(PATTERNS[p]) for p in PATTERNS}
    assert len(shapes) == len(PATTERNS)
    # the horn's blasts are long and steady (>= 0.25 s), unlike a referee's trill
    assert all(d >= 0.25 for steps in PATTERNS.values() for _, d in steps)


def test_sound_returns_at_once_with_the_relay_on_and_silence_stops_it():
    gate = threading.Event()

    def blocking(cancel, seconds):  # waits until told, like a long real blast
        while not gate.is_set():
            if cancel.wait(0.01):
                return True
        return cancel.is_set()

    with Horn(16, pin_factory=MockFactory(), wait=blocking) as horn:
        horn.sound("period_end")
        assert horn.is_on  # sound() did not block
        horn.silence()
        assert not horn.is_on
        horn.sound("timeout_end")
        horn.sound("manual")  # a new pattern interrupts the old one
        assert horn.played == ["period_end", "timeout_end", "manual"]
        gate.set()
        assert horn.wait_done(5.0)
        assert not horn.is_on


def test_active_low_relay_and_bad_pattern():
    with Horn(16, pin_factory=MockFactory(), active_high=False, wait=instant) as horn:
        assert horn.pin.state  # off means high on an active-low board
        with pytest.raises(ValueError, match="unknown horn pattern 'whistle'"):
            horn.sound("whistle")
    with pytest.raises(ValueError, match="positive length"):
        Horn(16, pin_factory=MockFactory(), patterns={"x": ((True, 0.0),)})
