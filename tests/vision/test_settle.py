"""Settling on synthetic frame sequences: one roll per throw, only at rest."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.settle

from tests.support import labelled_dice, labelled_tiles, printed_tray
from vision.dice import DiceReader
from vision.settle import (
    CAMERA_NUDGED, FOLLOW_SECONDS, LIGHT_CHANGED, NUDGE_REACH, NUDGE_TURN, TURN_LIKENESS, ZONES_MOVED, Motion, MotionSearch, Settler, camera_motion,
    camera_shift, dice_relit, relit, skin_fraction, small_copy,
)
from vision.synth import draw_die, noisy, nudged, render_dice
from vision.types import DieReading, box_moved
from vision.zones import Zones

FPS = 10.0
DOMINOES = Path(__file__).resolve().parents[1] / "fixtures" / "dominoes"


def feed_all(s: Settler, frames: Sequence[np.ndarray], t0: float = 0.0) -> list[tuple[float, tuple[DieReading, ...]]]:
    out = []
    for i, f in enumerate(frames):
        t = t0 + i / FPS
        got = s.feed(f, t)
        if got is not None:
            out.append((t, got))
    return out


def rolling(values: list[int], n: int, seed: int, table: tuple[int, int, int] = (40, 110, 40)) -> list[np.ndarray]:
    """Dice tumbling: every frame the dice are somewhere else, at another angle."""
    return [render_dice(values, seed=seed * 1000 + i, noise=2, table=table)[0] for i in range(n)]


CAMERA_NOISE = 2.0
"""A camera's sensor noise (grey levels) in each frame of these tests (:func:`vision.synth.noisy`)."""


def still(values: list[int], n: int, seed: int, table: tuple[int, int, int] = (40, 110, 40)) -> list[np.ndarray]:
    """Dice at rest: the same scene with fresh sensor noise each frame."""
    base, _ = render_dice(values, seed=seed, noise=0, table=table)
    rng = np.random.default_rng(seed)
    return [noisy(base, CAMERA_NOISE, rng) for _ in range(n)]


def test_one_roll_per_throw_only_after_rest() -> None:
    s = Settler()
    frames = rolling([1, 2, 3], 8, 1) + still([3, 4, 5], 15, 2)
    got = feed_all(s, frames)
    assert len(got) == 1
    t, dice = got[0]
    assert sorted(d.value or 0 for d in dice) == [3, 4, 5]
    assert t >= 8 / FPS + 0.2  # not before the dice have rested a while


def test_the_roll_is_answered_as_soon_as_the_dice_have_rested_long_enough() -> None:
    """The dice are read on every still frame, so the three readings that must agree are
    there when the third still frame ends the 0.2 s of rest, not two frames later."""
    calls = []

    def reader(frame: np.ndarray) -> list[DieReading]:
        calls.append(frame)
        return [DieReading(4, (100.0, 100.0), 0.9, (80, 80, 120, 120))]

    s = Settler(reader)
    frames = rolling([1, 2, 3], 8, 1) + still([3, 4, 5], 15, 2)
    got = feed_all(s, frames)
    # frame 8 is the first at rest (it differs from the last rolling one), 9 to 11 are still
    assert [round(t, 3) for t, _ in got] == [1.1]
    assert len(calls) == 14  # (every still frame is read, 9 to 22; the roll is answered once)


def test_rolling_dice_never_give_a_roll() -> None:
    assert feed_all(Settler(), rolling([2, 6], 30, 3)) == []


def test_second_throw_gives_second_roll() -> None:
    s = Settler()
    frames = still([6, 6], 10, 4) + rolling([1, 1], 5, 5) + still([2, 5], 10, 6)
    got = feed_all(s, frames)
    assert [sorted(d.value or 0 for d in dice) for _, dice in got] == [[6, 6], [2, 5]]


def test_same_result_twice_needs_a_throw_between() -> None:
    s = Settler()
    frames = still([4], 10, 7) + rolling([4], 4, 8) + still([4], 10, 9)
    assert len(feed_all(s, frames)) == 2
    s2 = Settler()
    assert len(feed_all(s2, still([4], 30, 7))) == 1


def hand_over(frame: np.ndarray) -> np.ndarray:
    out = frame.copy()
    cv2.ellipse(out, (300, 360), (160, 110), 20, 0, 360, (120, 160, 215), -1)  # skin tone, BGR
    return out


def test_hand_in_the_picture_blocks_the_roll() -> None:
    frames = still([3, 3], 12, 10)
    assert skin_fraction(hand_over(frames[0])) > 0.04
    s = Settler()
    assert feed_all(s, [hand_over(f) for f in frames]) == []
    # the hand goes away: the dice are read
    assert len(feed_all(s, frames, t0=5.0)) == 1


def test_cocked_die_blocks_the_roll() -> None:
    def reader(frame: np.ndarray) -> list[DieReading]:
        return [DieReading(5, (100.0, 100.0), 0.9, (80, 80, 120, 120)), DieReading(None, (300.0, 100.0), 0.2, (280, 80, 320, 120))]

    s = Settler(reader)
    assert feed_all(s, still([1], 20, 11)) == []
    assert s.status.reason.startswith("a die is unsure")
    assert s.status.dice == tuple(reader(still([1], 1, 11)[0]))  # (which die holds it: the players are shown)
    assert [s.sure(d) for d in s.status.dice] == [True, False]
    assert s.read == s.status.dice  # (the dice of the last picture, for a person to see)
    s.feed(rolling([1], 1, 12)[0], 5.0)
    assert s.read == ()  # (moving: not read)


def test_a_die_read_less_surely_than_the_settler_asks_holds_the_roll() -> None:
    """``min_confidence``: a die read at 0.62 holds the roll as an unsure one does, while a settler
    asking 0.6 or nothing more of a die takes it; once it is read surely, the roll is taken."""
    sure = DieReading(5, (100.0, 100.0), 0.95, (80, 80, 120, 120))
    doubtful = [sure, DieReading(3, (300.0, 100.0), 0.62, (280, 80, 320, 120))]
    frames = still([1], 20, 11)
    for asked, rolls in ((0.0, 1), (0.6, 1), (0.7, 0)):
        s = Settler(lambda frame: doubtful, min_confidence=asked)
        assert len(feed_all(s, frames)) == rolls, asked
    held = Settler(lambda frame: doubtful, min_confidence=0.7)
    assert feed_all(held, frames) == [] and held.status.reason.startswith("a die is unsure")
    assert held.status.dice == tuple(doubtful) and [held.sure(d) for d in held.status.dice] == [True, False]
    read = [sure, DieReading(3, (300.0, 100.0), 0.93, (280, 80, 320, 120))]
    held.reader = lambda frame: read  # (the die settled: read surely)
    assert [dice for _, dice in feed_all(held, frames, t0=5.0)] == [tuple(read)]
    assert held.status.dice == ()


def test_a_settler_refuses_a_confidence_it_could_never_meet() -> None:
    for bad in (-0.1, 1.0, 1.5):
        try:
            Settler(lambda frame: [], min_confidence=bad)
        except ValueError as e:
            assert f"min_confidence must be at least 0 and under 1, got {bad!r}" in str(e)
        else:
            raise AssertionError(f"min_confidence {bad} was taken")


def test_readings_must_agree() -> None:
    flip = iter(range(1000))

    def flaky(frame: np.ndarray) -> list[DieReading]:
        v = 2 if next(flip) % 2 else 3
        return [DieReading(v, (100.0, 100.0), 0.9, (80, 80, 120, 120))]

    assert feed_all(Settler(flaky), still([1], 20, 12)) == []


def test_zones_say_where_each_die_lies() -> None:
    img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    draw_die(img, 2, (300, 360), 60)
    draw_die(img, 6, (1100, 360), 60)
    zones = Zones.from_calibration(
        {"size": [1280, 720], "zones": {"tray": [[0, 0], [900, 0], [900, 720], [0, 720]], "kept": [[900, 0], [1280, 0], [1280, 720], [900, 720]]}}
    )
    s = Settler(zones=zones)
    got = feed_all(s, [img] * 10)
    assert len(got) == 1
    by_zone = {d.value: d.zone for d in got[0][1]}
    assert by_zone == {2: "tray", 6: "kept"}
    assert got[0][1][0].to_dict()["zone"] in ("tray", "kept")


WOOD = (70, 110, 160)  # (BGR: a light wooden table, skin-coloured all over)


def test_a_skin_coloured_table_is_no_hand_but_a_hand_that_comes_onto_it_is() -> None:
    """The hand veto counts the skin-coloured pixels that differ from the picture at rest before the
    last motion: a wooden table holds no roll once the settler has seen it still and then a throw;
    a hand that comes onto it after the roll does. (Counting every skin-coloured pixel, as until the
    twenty-first session, held every roll on such a table: "hand in the picture" for ever.)"""
    frames = still([2, 5], 6, 30, WOOD)
    assert skin_fraction(frames[0]) > 0.9
    s = Settler()
    assert feed_all(s, frames) == [] and s.status.reason == "hand in the picture"  # (just started: nothing seen before a motion)
    got = feed_all(s, rolling([1, 1], 5, 31, WOOD) + still([3, 4], 12, 32, WOOD), t0=1.0)
    assert [sorted(d.value or 0 for d in dice) for _, dice in got] == [[3, 4]]
    reasons = []
    for i, f in enumerate([hand_over(f) for f in still([3, 4], 8, 32, WOOD)]):
        assert s.feed(f, 5.0 + i / FPS) is None
        reasons.append(s.status.reason)
    assert reasons[0] == "moving" and set(reasons[1:]) == {"hand in the picture"}


def test_a_real_wooden_shelf_is_no_hand_but_a_hand_on_it_is() -> None:
    """A photo of dice on a light wooden shelf (70 % of it skin-coloured), filmed still, then
    something thrown, then still again: the roll is answered; a hand that comes onto the shelf
    holds the next one. (The dice come from a reader that always reads one sure three: the veto
    alone is checked.)"""
    from pathlib import Path

    shelf = cv2.imread(str(Path(__file__).resolve().parents[1] / "fixtures" / "dice-wood" / "epanemu-dice_434.jpg"))
    assert skin_fraction(shelf) > 0.6
    s = Settler(lambda frame: [DieReading(3, (100.0, 100.0), 0.9, (90, 90, 110, 110))])
    thrown = shelf.copy()
    cv2.rectangle(thrown, (200, 200), (260, 260), (20, 20, 20), -1)  # (a die in flight)
    hand = shelf.copy()
    cv2.ellipse(hand, (330, 330), (150, 100), 20, 0, 360, (120, 160, 215), -1)
    reasons = []
    for i, frame in enumerate([shelf] * 4 + [thrown] * 2 + [shelf] * 6 + [hand] * 5):
        answer = s.feed(frame, i / FPS)
        reasons.append("answered" if answer is not None else s.status.reason)
    assert reasons[1:4] == ["hand in the picture"] * 3  # (just started: every skin-coloured pixel counts)
    assert reasons.count("answered") == 1 and "hand in the picture" not in reasons[4:12]
    assert reasons[12] == "moving" and reasons[13:] == ["hand in the picture"] * 4


def test_dice_the_colour_of_skin_are_no_hand() -> None:
    """Eight ivory-brown dice 80 px wide thrown onto the table are 5 % of the picture, all of it new and
    skin-coloured: the skin-coloured pixels inside the dice read do not count towards a hand."""
    ivory = (150, 190, 230)  # (BGR)
    scene, _ = render_dice([1, 2, 3, 4, 5, 6, 1, 2], die=80, seed=3, body=ivory, pip=(30, 30, 30), noise=0)
    assert skin_fraction(scene) > 0.05
    s = Settler()
    got = feed_all(s, still([], 5, 40) + rolling([1, 2, 3, 4, 5, 6, 1, 2], 4, 41) + [scene] * 8)
    assert [sorted(d.value or 0 for d in dice) for _, dice in got] == [[1, 1, 2, 2, 3, 4, 5, 6]]
    assert feed_all(Settler(), [hand_over(scene)] * 8) == []  # (a hand beside them still is one)


def test_a_held_throw_entered_by_hand_is_answered_and_the_die_settled_in_place_is_no_second_roll() -> None:
    """A die in doubt holds the throw; the operator enters it by hand (5 and 2). The settler takes that as
    its answer: the cocked die pushed flat where it lay, read as the 2 entered, is no new roll (a hand
    passes: motion); read as another value than entered, it is; and the next throw is a roll."""
    five = DieReading(5, (100.0, 100.0), 0.95, (80, 80, 120, 120))
    cocked = DieReading(None, (300.0, 100.0), 0.3, (280, 80, 320, 120))
    flat = DieReading(2, (302.0, 101.0), 0.93, (282, 81, 322, 121))
    read = [five, cocked]
    s = Settler(lambda frame: read)
    frames = still([1], 12, 11)
    assert feed_all(s, frames) == [] and s.status.reason.startswith("a die is unsure")
    s.answered([5, 2])
    assert s.status.reason == "entered by hand" and s.status.dice == () and not s.status.armed
    assert feed_all(s, frames, t0=5.0) == [] and s.status.reason == "entered by hand"  # (the die still in doubt)
    read = [five, flat]  # (pushed flat: a hand passes, the picture moves)
    reasons = []
    for i, f in enumerate([hand_over(f) for f in frames[:3]] + frames):
        assert s.feed(f, 10.0 + i / FPS) is None
        reasons.append(s.status.reason)
    assert "unchanged since the last answer" in reasons
    read = [five, replace(flat, value=4)]  # (it fell on another face than entered: a new roll of that die, a new picture)
    fell = still([1], 12, 12)
    assert [dice for _, dice in feed_all(s, [hand_over(f) for f in fell[:3]] + fell, t0=15.0)] == [tuple(read)]
    assert s.moved == (False, True)


def test_values_entered_for_other_dice_than_in_view_answer_the_dice_as_read() -> None:
    """The values entered, in any order, go to the dice in view (``entered_on``): a die read surely keeps its
    value, the die in doubt takes the value left; then read as entered, after a hand passed, it is no roll.
    With dice set aside in view too (three 1s beside the throw), the values of the throw alone do the same.
    With values that are not the dice in view, or none known, the dice stay as read, and it is one."""
    five, unsure = DieReading(5, (100.0, 100.0), 0.95, (80, 80, 120, 120)), DieReading(None, (300.0, 100.0), 0.3, (280, 80, 320, 120))
    ones = [DieReading(1, (500.0 + 60 * i, 400.0), 0.95, (480 + 60 * i, 380, 520 + 60 * i, 420)) for i in range(3)]
    frames = still([1], 12, 11)
    for aside, values, rolls in (([], [5, 6], 0), ([], [6, 5], 0), (ones, [6, 5], 0), (ones, [1, 1, 1, 5, 6], 0),
                                 ([], [5, 6, 1], 1), ([], [4, 3], 1), ([], None, 1)):
        read = [five, unsure, *aside]
        s = Settler(lambda frame: read)
        feed_all(s, frames)
        s.answered(values)
        read = [five, replace(unsure, value=6, confidence=0.9), *aside]  # (the die in doubt settled: a new picture)
        settled = still([1], 12, 12)
        assert len(feed_all(s, [hand_over(f) for f in settled[:3]] + settled, t0=5.0)) == rolls, (aside, values)


def test_a_die_read_surely_but_corrected_by_hand_is_no_roll_when_read_so_again() -> None:
    """The camera reads a 2 as a 3, surely, and answers; the operator undoes the roll and enters the 2 by hand.
    A hand then passes over the dice: the 3 it reads again where the die lay is no roll (it is the die as read
    when the throw was entered), nor a die read as the 2 entered; the next throw is a roll."""
    three = DieReading(3, (300.0, 100.0), 0.95, (280, 80, 320, 120))
    read = [three]
    s = Settler(lambda frame: read)
    frames = still([1], 12, 11)
    assert len(feed_all(s, rolling([3], 3, 12) + frames)) == 1  # (the camera's answer: 3)
    s.answered([2])
    for t0 in (5.0, 10.0):
        reasons = []
        for i, f in enumerate([hand_over(f) for f in frames[:3]] + frames):
            assert s.feed(f, t0 + i / FPS) is None
            reasons.append(s.status.reason)
        assert "unchanged since the last answer" in reasons and reasons[-1] == "entered by hand"
    read = [replace(three, value=2)]
    assert feed_all(s, [hand_over(f) for f in frames[:3]] + frames, t0=15.0) == []
    read = [DieReading(5, (600.0, 300.0), 0.9, (580, 280, 620, 320))]
    assert [dice for _, dice in feed_all(s, rolling([5], 4, 13) + still([5], 12, 14), t0=20.0)] == [tuple(read)]


def test_a_held_throw_entered_while_the_dice_are_thrown_again_leaves_the_new_throw_a_roll() -> None:
    """The operator enters the held throw while the players already throw again (the picture moving):
    the entry is the throw held, and the new one, once at rest, is the camera's roll."""
    read = [DieReading(5, (100.0, 100.0), 0.95, (80, 80, 120, 120)), DieReading(None, (300.0, 100.0), 0.3, (280, 80, 320, 120))]
    s = Settler(lambda frame: read)
    assert feed_all(s, still([1], 12, 11)) == [] and s.status.reason.startswith("a die is unsure")
    moving = rolling([4, 2], 4, 22)
    feed_all(s, moving[:2], t0=5.0)
    s.answered([5, 2])
    read = [DieReading(4, (600.0, 300.0), 0.9, (580, 280, 620, 320)), DieReading(2, (700.0, 500.0), 0.9, (680, 480, 720, 520))]
    assert [dice for _, dice in feed_all(s, moving[2:] + still([4, 2], 12, 23), t0=5.2)] == [tuple(read)]


def test_an_entry_before_any_picture_at_rest_changes_nothing() -> None:
    s = Settler(armed=False)
    s.answered([3])
    assert len(feed_all(s, rolling([3], 2, 31) + still([3], 12, 32))) == 1  # (a throw: the camera's roll, as ever)


def test_dice_left_where_they_lay_are_no_new_roll() -> None:
    """A hand passes over the dice (or touches one without turning it): motion, but
    every die lies where it was answered, so no second roll."""
    frames = still([3, 5], 12, 13)
    s = Settler()
    assert len(feed_all(s, frames)) == 1
    reasons = []
    for i, f in enumerate([hand_over(f) for f in frames[:4]] + frames):
        assert s.feed(f, 5.0 + i / FPS) is None
        reasons.append(s.status.reason)
    assert "unchanged since the last answer" in reasons
    # a die turned over is a new answer
    assert len(feed_all(s, rolling([3, 5], 3, 14) + still([3, 6], 12, 15), t0=10.0)) == 1


def test_moved_says_which_dice_were_carried() -> None:
    def scene(six_at: tuple[int, int]) -> np.ndarray:
        img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
        draw_die(img, 2, (300, 360), 60)
        draw_die(img, 4, (520, 200), 60)
        draw_die(img, 6, six_at, 60)
        return img

    s = Settler()
    first = feed_all(s, [scene((500, 520))] * 10)
    assert len(first) == 1 and s.moved == (True, True, True)
    second = feed_all(s, [scene((1100, 360))] * 10, t0=5.0)
    assert len(second) == 1
    moved = {d.value: m for d, m in zip(second[0][1], s.moved)}
    assert moved == {2: False, 4: False, 6: True}


def test_ignored_areas_are_neither_read_nor_watched_for_motion() -> None:
    """A printed board beside the tray (drawn die faces) where a player moves a piece
    every frame: with the board in the calibration's ignore list the two dice in the
    tray settle into one roll of their own; without it the piece is motion and no
    roll ever settles, and a still board is read as six more dice."""
    rng = np.random.default_rng(21)
    frames = []
    for _ in range(15):
        img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
        draw_die(img, 3, (300, 300), 60)
        draw_die(img, 5, (450, 420), 60)
        for k in range(6):
            draw_die(img, k + 1, (870 + 150 * (k % 3), 250 + 220 * (k // 3)), 60)
        # a dark piece (motion is measured in grey, where a red one is as light as the green table)
        cv2.circle(img, (int(rng.integers(800, 1240)), int(rng.integers(40, 680))), 35, (20, 20, 20), -1)
        frames.append(img)
    tray = {"tray": [[0, 0], [760, 0], [760, 720], [0, 720]]}
    zones = Zones.from_calibration({"size": [1280, 720], "zones": tray, "ignore": [[[770, 0], [1280, 0], [1280, 720], [770, 720]]]})
    got = feed_all(Settler(zones=zones), frames)
    assert len(got) == 1
    assert sorted(d.value or 0 for d in got[0][1]) == [3, 5] and {d.zone for d in got[0][1]} == {"tray"}
    plain = Zones.from_calibration({"size": [1280, 720], "zones": tray})
    assert feed_all(Settler(zones=plain), frames) == []
    got = feed_all(Settler(zones=plain), [frames[0]] * 10)
    assert len(got) == 1 and sorted(d.value or 0 for d in got[0][1]) == [1, 2, 3, 3, 4, 5, 5, 6]


def test_the_tile_settler_leaves_out_the_ignore_areas_too() -> None:
    from vision.tile_settle import TileSettler

    seen: list[np.ndarray] = []

    def spy(frame: np.ndarray) -> list:
        seen.append(frame)
        return []

    img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    draw_die(img, 6, (1100, 360), 60)
    zones = Zones.from_calibration({"ignore": [[[900, 0], [1280, 0], [1280, 720], [900, 720]]]})
    s = TileSettler(spy, zones=zones)
    for i in range(10):
        s.feed(img, i / FPS)
    assert seen and all((f == (40, 110, 40)).all() for f in seen)
    assert not (img == (40, 110, 40)).all()


def _layout_tiles(shift: tuple[int, int] = (0, 0)) -> list:
    """The tiles of the real line of play (tests/fixtures/dominoes/layout.jpg) as a reader reads them, moved by
    ``shift`` (a camera nudged)."""
    return labelled_tiles(json.loads((DOMINOES / "labels.json").read_text())["layout.jpg"], shift)


def test_the_tile_settlers_zones_follow_a_nudged_camera() -> None:
    """A real line of play on a domino table whose seats are zones (Ann's edge 2 px right of a tile's centre) and
    with an area left out (a strip at the right), reported. The table is bumped and the camera with it (8 px right,
    4 down): at the next rest the tile settler moves the zones and the area left out with the picture
    (``ZONES_MOVED``, ``zones_moved``), so that tile still lies in Ann's seat, where the zones as drawn would have
    it in Bob's, and the same tiles are not reported again. With the camera still the zones never move."""
    from vision.tile_settle import TileSettler

    photo = cv2.imread(str(DOMINOES / "layout.jpg"))
    drawn = {"size": [640, 640], "zones": {"Ann": [[0, 0], [256, 0], [256, 640], [0, 640]], "Bob": [[256, 0], [640, 0], [640, 640], [256, 640]]},
             "ignore": [[[610, 0], [640, 0], [640, 640], [610, 640]]]}
    zones = Zones.from_calibration(drawn)
    rng = np.random.default_rng(11)
    read = _layout_tiles()
    s = TileSettler(lambda frame: read, zones=zones)
    assert sum(s.feed(noisy(photo, CAMERA_NOISE, rng), i / FPS) is not None for i in range(12)) == 1
    read = _layout_tiles((8, 4))
    bumped = nudged(photo, (8, 4))
    reasons = []
    for k, f in enumerate([hand_over(noisy(bumped, CAMERA_NOISE, rng)) for _ in range(2)] + [noisy(bumped, CAMERA_NOISE, rng) for _ in range(12)]):
        assert s.feed(f, 5.0 + k / FPS) is None
        reasons.append(s.reason)
    assert reasons.count(ZONES_MOVED) == 1 and reasons[-1] == "already reported", reasons
    assert s.zones_moved == (8, 4) and s.zones is not zones
    middle = read[4].center  # (the upright tile, 2 px left of Ann's edge as drawn, 8 px on now)
    assert s.zones.zone_of(middle, (640, 640)) == "Ann" and zones.zone_of(middle, (640, 640)) == "Bob"
    assert s.zones.to_calibration()["ignore"] == [[[618.0, 4.0], [648.0, 4.0], [648.0, 644.0], [618.0, 644.0]]]
    still_camera = TileSettler(lambda frame: _layout_tiles(), zones=zones)
    for hand in range(3):
        for k, f in enumerate([hand_over(photo)] * 2 + [noisy(photo, CAMERA_NOISE, rng) for _ in range(30)]):
            still_camera.feed(f, 10.0 * hand + k / FPS)
        assert still_camera.zones is zones and still_camera.zones_moved == (0, 0)


def test_the_tile_settler_reports_once_the_table_has_rested_long_enough() -> None:
    """As the dice settler: the tiles are read on every still frame, and reported when
    three still frames span 0.3 s (still_seconds) and the last three readings agree."""
    from vision.tile_settle import TileSettler
    from vision.types import TileReading

    s = TileSettler(lambda frame: [TileReading((6, 2), (100.0, 100.0))])
    frames = rolling([1, 2], 4, 3) + still([5], 10, 4)
    got = [(round(i / FPS, 3), tiles) for i, f in enumerate(frames) if (tiles := s.feed(f, i / FPS)) is not None]
    # frame 4 is the first at rest, 5 to 7 are still but span 0.2 s, frame 8 ends the 0.3 s
    assert got == [(0.8, ((2, 6),))]
    assert s.reason == "already reported"


def test_a_settler_reads_with_a_camera_reader_that_remembers_its_scale() -> None:
    from vision.dice import DiceReader

    s = Settler()
    assert isinstance(s.reader, DiceReader)
    small, _ = render_dice([3, 4, 6], die=24, seed=0)  # (dice 12 pixels wide at the first working scale)
    rolls = feed_all(s, [small] * 8)
    assert [sorted(r.value or 0 for r in dice) for _, dice in rolls] == [[3, 4, 6]]
    assert isinstance(s.reader, DiceReader) and (s.reader.scale(small.shape) or 0) > 0.5


def test_each_roll_is_taken_right_on_a_tray_whose_rim_the_reader_learns() -> None:
    """A tray's printed rim differs from the table's median: the camera's reader learns it as table
    over the still frames (DiceReader.rest_frames), and searches only round the dice. Throw after
    throw, on that learnt table, the settler still takes each roll as it lies."""
    reader = DiceReader()
    s = Settler(reader)
    throws = [[3, 4, 5], [1, 6], [2, 2, 6, 6], [5]]
    frames: list[np.ndarray] = []
    for k, values in enumerate(throws):
        frames += [printed_tray(f) for f in rolling(values, 4, 40 + k) + still(values, 20, 50 + k)]
    got = feed_all(s, frames)
    assert [sorted(d.value or 0 for d in dice) for _, dice in got] == [sorted(v) for v in throws]
    look = reader.look(frames[-1])
    assert look.parts is not None and sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in look.parts) < 0.2 * look.work[:, :, 0].size


def test_a_settler_started_disarmed_reads_no_dice_lying_still_until_something_moves() -> None:
    s = Settler(armed=False)
    assert feed_all(s, still([2, 6], 12, 50)) == []
    assert s.status.reason == "at rest since the camera started: waiting for a throw"
    on_wood = Settler(armed=False)  # (skin-coloured all over: before a throw, that is what it says, not a hand)
    assert feed_all(on_wood, still([2, 6], 12, 50, WOOD)) == []
    assert on_wood.status.reason == "at rest since the camera started: waiting for a throw" and on_wood.status.hand
    got = feed_all(s, rolling([1, 3], 4, 51) + still([4, 5], 12, 52), t0=2.0)
    assert [sorted(d.value or 0 for d in dice) for _, dice in got] == [[4, 5]]


def test_after_a_reset_a_wooden_table_is_still_no_hand() -> None:
    """A camera back over a wooden table (reset) tells a hand from the table as it did before: dice
    thrown while it was away are read, not held as a hand."""
    s = Settler(armed=False)
    assert feed_all(s, still([2, 6], 6, 55, WOOD) + rolling([1, 1], 4, 56, WOOD) + still([3, 5], 12, 57, WOOD)) != []
    s.reset()
    got = feed_all(s, still([1, 4], 12, 58, WOOD), t0=4.0)
    assert [sorted(d.value or 0 for d in dice) for _, dice in got] == [[1, 4]]


def test_after_a_reset_dice_lying_as_they_did_are_no_new_roll_and_others_are() -> None:
    """reset (a camera back after a reconnect): it knows nothing of what happened meanwhile, so it is
    armed; but dice that lie as the dice it last saw at rest (answered or not) are no new roll."""
    s = Settler(armed=False)
    assert feed_all(s, still([2, 6], 12, 53)) == []  # (lying there since it started)
    s.reset()
    assert feed_all(s, still([2, 6], 12, 53), t0=2.0) == [] and s.status.reason == "already reported"
    s.reset()
    got = feed_all(s, still([1, 4], 12, 54), t0=4.0)  # (thrown while the camera was away)
    assert [sorted(d.value or 0 for d in dice) for _, dice in got] == [[1, 4]]
    s.reset()
    assert feed_all(s, still([1, 4], 12, 54), t0=6.0) == []  # (and as answered: not again)


def test_the_small_copy_is_the_mean_of_the_pixels_each_of_its_own_covers() -> None:
    """small_copy: by a power of two each way the frame is halved (vision.pixels.halved), within a grey
    level of one area resize; by any other share it is the area resize."""
    from vision.settle import small_copy

    rng = np.random.default_rng(60)
    frame = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    area = cv2.resize(frame, (160, 90), interpolation=cv2.INTER_AREA).astype(int)
    assert np.abs(small_copy(frame, 160).astype(int) - area).max() <= 1
    wide = rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)  # (by 12)
    assert np.array_equal(small_copy(wide, 160), cv2.resize(wide, (160, 90), interpolation=cv2.INTER_AREA))
    assert small_copy(frame[:100, :120], 160).shape == (100, 120, 3)  # (never enlarged)


def test_dice_misread_after_the_light_changed_are_no_roll() -> None:
    """After an answer, the light changes over the dice at rest (a lamp, a camera's exposure: motion to the settler),
    and a die lying where it was answered now reads another value: the picture is the answer's but for its light
    (``relit``, ``dice_relit``), so it is no roll; nor is a die read where nothing changed (a speck of the table read
    as a die). A die of the table's own colour thrown there is a roll (its box changed, which the small copy may
    not show), and so is a throw that changes the picture."""
    three = DieReading(3, (300.0, 100.0), 0.95, (280, 80, 320, 120))
    read = [three]
    s = Settler(lambda frame: read)
    frames = still([3], 12, 20)
    assert [dice for _, dice in feed_all(s, frames)] == [(three,)]
    dim = [(f * 0.75).astype(np.uint8) for f in frames]
    read = [replace(three, value=5)]  # (misread in the dimmer light)
    assert feed_all(s, [hand_over(f) for f in dim[:2]] + dim, t0=5.0) == []
    assert s.status.reason == LIGHT_CHANGED
    elsewhere = replace(three, value=5, center=(700.0, 300.0), box=(680, 280, 720, 320))
    read = [three, elsewhere]  # (read where nothing is)
    assert feed_all(s, [hand_over(f) for f in dim[:2]] + dim, t0=10.0) == []
    assert s.status.reason == LIGHT_CHANGED
    thrown = [f.copy() for f in dim]
    for f in thrown:  # (a die of the table's own colour: green, its pips darker still)
        draw_die(f, 5, (700, 300), 40, body=(30, 82, 30), pip=(10, 30, 10))
    assert [dice for _, dice in feed_all(s, [hand_over(f) for f in thrown[:2]] + thrown, t0=15.0)] == [tuple(read)]
    read = [replace(three, value=6)]
    assert [dice for _, dice in feed_all(s, rolling([6], 4, 22) + still([6], 12, 21), t0=20.0)] == [tuple(read)]


def test_dice_lost_or_read_aside_after_the_light_changed_are_no_roll() -> None:
    """Two dice answered; the light changes and one of them is no longer found, or read from a side face half a die
    aside: nothing on the table moved (the picture is the answer's but for its light), so it is no roll."""
    three, five = DieReading(3, (300.0, 100.0), 0.95, (280, 80, 320, 120)), DieReading(5, (600.0, 300.0), 0.95, (580, 280, 620, 320))
    read = [three, five]
    s = Settler(lambda frame: read)
    frames = still([3, 5], 12, 24)
    assert len(feed_all(s, frames)) == 1
    dim = [(f * 0.8).astype(np.uint8) for f in frames]
    for t0, now in ((5.0, [five]), (10.0, [replace(three, center=(320.0, 100.0), value=2), five])):
        read = now
        assert feed_all(s, [hand_over(f) for f in dim[:2]] + dim, t0=t0) == [] and s.status.reason == LIGHT_CHANGED, now


def test_a_camera_back_with_other_light_takes_the_dice_lying_as_before_as_no_roll() -> None:
    """A camera reconnected (``reset``) whose exposure differs: the dice lying where they lay, misread, are no roll."""
    four = DieReading(4, (300.0, 100.0), 0.95, (280, 80, 320, 120))
    read = [four]
    s = Settler(lambda frame: read)
    frames = still([4], 12, 23)
    assert len(feed_all(s, frames)) == 1
    s.reset()
    read = [replace(four, value=1)]
    assert feed_all(s, [np.clip(f * 1.2 + 10, 0, 255).astype(np.uint8) for f in frames], t0=5.0) == []
    assert s.status.reason == LIGHT_CHANGED


def test_relit_tells_a_change_of_light_from_a_die_moved_on_real_frames() -> None:
    """``relit`` on a real photo of a die (samples/dice): the photo 20 % darker or lighter is relit; the photo with
    the die's square swapped with the table beside it (the die moved by its own width and a half) is not."""
    photo = cv2.imread(str(Path(__file__).resolve().parents[2] / "samples" / "dice" / "face-5.jpg"))
    small = small_copy(photo, 160)
    for f in (0.8, 1.2):
        assert relit(small, small_copy(np.clip(photo * f, 0, 255).astype(np.uint8), 160))
    x0, y0, x1, y1 = 305, 187, 377, 259  # (round the die: read_dice reads its 5 in 309, 191, 372, 254)
    moved, away = photo.copy(), x1 - x0 + 36
    moved[y0:y1, x0:x1], moved[y0:y1, x0 + away : x1 + away] = photo[y0:y1, x0 + away : x1 + away], photo[y0:y1, x0:x1]
    assert not relit(small, small_copy(moved, 160))
    assert relit(small, small_copy(np.clip(moved * 0.8, 0, 255).astype(np.uint8), 160)) is False


def _lights(shape: tuple[int, ...]) -> dict[str, np.ndarray]:
    """Changes of light over a picture of ``shape``, as a factor for each pixel and channel."""
    h, w = shape[:2]
    x, y = np.linspace(0, 1, w)[None, :, None], np.linspace(0, 1, h)[:, None, None]
    return {"darker": np.full((1, 1, 1), 0.8), "lighter": np.full((1, 1, 1), 1.2),
            "a lamp to the right": 0.7 + 0.4 * x, "a lamp above, off centre": 1.15 - 0.4 * np.hypot(x - 0.4, y - 0.5),
            "warmer white balance": np.array([0.88, 1.0, 1.12])[None, None, :]}


@pytest.mark.parametrize("name", ["face-2.jpg", "face-3.jpg", "face-5.jpg", "face-6.jpg"])
def test_uneven_light_is_relit_and_a_die_turned_where_it_lay_is_not_on_real_photos(name: str) -> None:
    """A lamp to one side, a spot, a camera's white balance over a real photo of a die (samples/dice): the small
    copy is relit (a light that varies over the table, fitted channel by channel), and so are the die's own
    pixels, also with the camera nudged a pixel. The die turned a quarter where it lay (its pips elsewhere, its
    place the same) is neither, in the same light or a dimmer one."""
    folder = Path(__file__).resolve().parents[2] / "samples" / "dice"
    photo = cv2.imread(str(folder / name))
    box = json.loads((folder / "labels.json").read_text())[name][0]["box"]
    for light, factor in _lights(photo.shape).items():
        lit = np.clip(photo * factor, 0, 255).astype(np.uint8)
        assert relit(small_copy(photo, 160), small_copy(lit, 160)) and dice_relit(photo, lit, [box]), light
        for axis in (0, 1):
            assert dice_relit(photo, np.roll(lit, 1, axis=axis), [box]), (light, "nudged", axis)
    x0, y0, x1, y1 = box
    half, cx, cy = max(x1 - x0, y1 - y0) // 2, (x0 + x1) // 2, (y0 + y1) // 2
    turned = photo.copy()
    turned[cy - half : cy + half, cx - half : cx + half] = np.rot90(photo[cy - half : cy + half, cx - half : cx + half])
    assert not dice_relit(photo, turned, [box]) and not dice_relit(photo, (turned * 0.8).astype(np.uint8), [box])


def test_a_die_turned_where_it_lay_is_a_new_roll_in_any_light() -> None:
    """After an answer, a hand sets a die to another face where it lay (a five turned to a four): a new roll, as
    a die nudged to a new value after motion always was. The small copy of the picture barely changes (the
    die's pips are a pixel or two there), so only the die's own pixels (``dice_relit``) tell it from a
    misreading after a change of light; dimmed at the same time, it is a roll too."""
    def scene(value: int, light: float, seed: int) -> list[np.ndarray]:
        img = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
        draw_die(img, 3, (900, 150), 45, 10)
        draw_die(img, value, (700, 500), 45, 30)
        rng = np.random.default_rng(seed)
        return [np.clip(img * light + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8) for _ in range(12)]

    three = DieReading(3, (900.0, 150.0), 0.95, (877, 127, 923, 173))
    die = DieReading(5, (700.0, 500.0), 0.95, (677, 477, 723, 523))
    read = [three, die]
    s = Settler(lambda frame: read)
    first = scene(5, 1.0, 1)
    assert len(feed_all(s, first)) == 1
    for t0, light, value in ((5.0, 1.0, 4), (10.0, 0.8, 6)):
        read = [three, replace(die, value=value)]
        frames = scene(value, light, int(t0))
        got = feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=t0)
        assert [[d.value for d in dice] for _, dice in got] == [[3, value]], (light, s.status.reason)
        assert s.moved == (False, True)
    # (and the same dice only dimmed, misread: no roll)
    read = [three, replace(die, value=2)]
    frames = [(f * 0.9).astype(np.uint8) for f in scene(6, 0.8, 20)]
    assert feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=15.0) == []
    assert s.status.reason == LIGHT_CHANGED


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


def _fixture(name: str) -> tuple[np.ndarray, list[dict]]:
    """A labelled photo of tests/fixtures/dice, and its labels (box, value)."""
    return cv2.imread(str(FIXTURES / name)), json.loads((FIXTURES / "labels.json").read_text())[name]


@pytest.mark.parametrize("name", ["byler-IMG_20191208_111833.jpg", "matteo-dice_42.jpg"])
def test_camera_shift_finds_how_far_a_nudged_camera_moved_the_picture_on_real_photos(name: str) -> None:
    """A real photo (its dice left out by their labelled boxes) moved as a nudged camera moves it, with a camera's
    noise, also in another light: ``camera_shift`` tells the shift to a pixel; unmoved, in a spot, (0, 0), and so
    with two dice moved by a hand (the dice left out where they lay and where they lie)."""
    photo, labels = _fixture(name)
    boxes = [tuple(d["box"]) for d in labels]
    rng = np.random.default_rng(5)
    lights = _lights(photo.shape)
    for (dx, dy), light in (((3, -2), None), ((1, 0), None), ((8, 4), "a lamp to the right"), ((-12, 5), "darker"),
                            ((0, 0), "a lamp above, off centre")):
        now = nudged(photo, (dx, dy))
        if light is not None:
            now = np.clip(now * lights[light], 0, 255).astype(np.uint8)
        got = camera_shift(noisy(photo, CAMERA_NOISE, rng), noisy(now, CAMERA_NOISE, rng), boxes)
        assert got == (dx, dy), (dx, dy, light, got)
    # two dice moved by a hand, the camera still: each die's square swapped with the table beside it
    moved, places = photo.copy(), list(boxes)
    for x0, y0, x1, y1 in boxes[:2]:
        away = x1 - x0 + 12 if x1 + (x1 - x0) + 12 < photo.shape[1] else -(x1 - x0 + 12)
        moved[y0:y1, x0 + away : x1 + away], moved[y0:y1, x0:x1] = photo[y0:y1, x0:x1], photo[y0:y1, x0 + away : x1 + away]
        places.append((x0 + away, y0, x1 + away, y1))
    assert camera_shift(noisy(photo, CAMERA_NOISE, rng), noisy(moved, CAMERA_NOISE, rng), places) == (0, 0)


@pytest.mark.parametrize("name", ["byler-IMG_20191208_111833.jpg", "matteo-dice_42.jpg"])
def test_camera_shift_finds_a_hard_bump_with_the_dice_left_out_where_they_lay_and_lie(name: str) -> None:
    """A bump of up to ``NUDGE_REACH`` (32 px) each way, the dice left out of both pictures at both places (as the
    settler leaves out the answer's dice and those read now): told to a pixel, also in another light; further
    than that, (0, 0) (no shift told, and none held at 32)."""
    photo, labels = _fixture(name)
    boxes = [tuple(d["box"]) for d in labels]
    rng = np.random.default_rng(9)
    lights = _lights(photo.shape)
    assert NUDGE_REACH == 32
    for (dx, dy), light in (((16, 8), None), ((24, -12), "darker"), ((-32, 16), None), ((30, 30), "a lamp to the right")):
        now = nudged(photo, (dx, dy))
        if light is not None:
            now = np.clip(now * lights[light], 0, 255).astype(np.uint8)
        hide = boxes + [(x0 + dx, y0 + dy, x1 + dx, y1 + dy) for x0, y0, x1, y1 in boxes]
        got = camera_shift(noisy(photo, CAMERA_NOISE, rng), noisy(now, CAMERA_NOISE, rng), hide)
        assert got == (dx, dy), (dx, dy, light, got)
    for dx, dy in ((36, 0), (40, 20), (48, 0)):  # (further: no shift told, none held at the reach)
        far = nudged(photo, (dx, dy))
        hide = boxes + [(x0 + dx, y0 + dy, x1 + dx, y1 + dy) for x0, y0, x1, y1 in boxes]
        assert camera_shift(noisy(photo, CAMERA_NOISE, rng), noisy(far, CAMERA_NOISE, rng), hide) == (0, 0), (dx, dy)


@pytest.mark.parametrize(("name", "bump"), [("byler-IMG_20191208_111833.jpg", (-12, 6)), ("matteo-dice_42.jpg", (16, 8)), ("matteo-dice_42.jpg", (24, 12))])
def test_a_wide_area_left_out_does_not_hold_the_picture_where_it_lay(name: str, bump: tuple[int, int]) -> None:
    """A third of the picture's width and height left out in its middle (an ``ignore`` area over a score pad), and
    the dice where they lay and lie: what is left out weighs nothing in the estimate, so the picture is not held
    where it lay, nor pulled aside (a phase correlation of the pictures with those places filled in told (0, 0),
    or (-6, -12) for a bump of (-12, 6))."""
    photo, labels = _fixture(name)
    h, w = photo.shape[:2]
    boxes = [tuple(d["box"]) for d in labels]
    dx, dy = bump
    hide = [*boxes, *((x0 + dx, y0 + dy, x1 + dx, y1 + dy) for x0, y0, x1, y1 in boxes), (w // 3, h // 3, 2 * w // 3, 2 * h // 3)]
    rng = np.random.default_rng(10)
    assert camera_shift(noisy(photo, CAMERA_NOISE, rng), noisy(nudged(photo, bump), CAMERA_NOISE, rng), hide) == bump


def _moved_boxes(boxes: Sequence[tuple[float, float, float, float]], motion: Motion, size: tuple[int, int]) -> list[tuple[float, float, float, float]]:
    """Boxes (x0, y0, x1, y1) of a frame of ``size`` moved with the picture by ``motion``: their centres moved, their sizes kept."""
    m = motion.matrix(size)
    return [box_moved(box, m) for box in boxes]


def _off(got: Motion, want: Motion, size: tuple[int, int]) -> float:
    """How far (pixels) ``got`` puts a corner of a frame of ``size`` from where ``want`` puts it, at most."""
    w, h = size
    corners = np.array([[0, 0, 1], [w - 1, 0, 1], [0, h - 1, 1], [w - 1, h - 1, 1]], np.float64)
    return float(np.abs(corners @ got.matrix(size).T - corners @ want.matrix(size).T).max())


@pytest.mark.parametrize("name", ["byler-IMG_20191208_111833.jpg", "matteo-dice_42.jpg"])
def test_camera_motion_finds_a_camera_turned_as_well_as_nudged_on_real_photos(name: str) -> None:
    """A camera turned when its table is bumped (its picture turned about the frame's centre by up to ``NUDGE_TURN``
    degrees, and moved), the dice left out where they lay and lie, with a camera's noise, also in another light:
    ``camera_motion`` puts every corner of the frame back within 1.5 pixels; a nudge alone is told as a shift
    alone, to the pixel; unmoved, ``Motion()``; turned further than ``NUDGE_TURN``, no motion told."""
    photo, labels = _fixture(name)
    h, w = photo.shape[:2]
    boxes = [tuple(d["box"]) for d in labels]
    rng = np.random.default_rng(12)
    lights = _lights(photo.shape)
    assert NUDGE_TURN == 3.0
    cases = ((Motion(0, 0, 1.0), None), (Motion(6, -3, -2.0), None), (Motion(-10, 4, 2.6), "darker"), (Motion(0, 0, 0.6), "a lamp to the right"))
    for motion, light in cases:
        now = nudged(photo, motion)
        if light is not None:
            now = np.clip(now * lights[light], 0, 255).astype(np.uint8)
        got = camera_motion(noisy(photo, CAMERA_NOISE, rng), noisy(now, CAMERA_NOISE, rng), boxes + _moved_boxes(boxes, motion, (w, h)))
        assert got.turn != 0.0 and _off(got, motion, (w, h)) <= 1.5, (motion, light, got)
    for motion in (Motion(8, 4), Motion()):
        hide = boxes + _moved_boxes(boxes, motion, (w, h))
        assert camera_motion(noisy(photo, CAMERA_NOISE, rng), noisy(nudged(photo, motion), CAMERA_NOISE, rng), hide) == motion
    far = Motion(0, 0, 5.0)
    hide = boxes + _moved_boxes(boxes, far, (w, h))
    assert camera_motion(noisy(photo, CAMERA_NOISE, rng), noisy(nudged(photo, far), CAMERA_NOISE, rng), hide) == Motion()




@pytest.mark.parametrize("name", ["byler-IMG_20191208_111833.jpg", "matteo-dice_42.jpg"])
def test_camera_motion_finds_a_turn_of_under_half_a_degree(name: str) -> None:
    """A quarter to half a degree (2 to 4 px at the corners of these photos), which the copies an eighth as large
    hardly tell from none: the turn is made finer on the quarter-size copies all the same, and every corner is put
    back within a pixel (with the finer walks skipped when a degree either way was far less likely than none, the
    photos were told unturned, a shift of a pixel or two at most: 1.4 to 4.2 px off)."""
    photo, labels = _fixture(name)
    h, w = photo.shape[:2]
    boxes = [tuple(d["box"]) for d in labels]
    rng = np.random.default_rng(12)
    for motion in (Motion(0, 0, 0.3), Motion(0, 0, -0.4), Motion(0, 0, -0.25), Motion(3, 0, 0.5)):
        got = camera_motion(noisy(photo, CAMERA_NOISE, rng), noisy(nudged(photo, motion), CAMERA_NOISE, rng), boxes)
        assert got.turn != 0.0 and _off(got, motion, (w, h)) <= 1.0, (motion, got)

@pytest.mark.parametrize("motion", [Motion(), Motion(0, 0, 1.5), Motion(-6, 3, -2.0)])
def test_a_motion_search_asked_for_a_shift_then_a_turn_looks_at_nothing_twice(motion: Motion, monkeypatch: pytest.MonkeyPatch) -> None:
    """The settler's way (a shift first, then a turn when the shift does not put the picture back): one
    ``MotionSearch`` gives what ``camera_shift`` and then ``camera_motion`` give, and its second answer does not
    correlate the unturned copies again nor walk a walk it walked. Unmoved, the copies are as likely as 0.98 or
    more, so no turn is tried (none could be likelier by ``TURN_LIKENESS``); turned, all nine are, and the answer
    is the likeliest of them all, as before the search stopped early."""
    photo, labels = _fixture("byler-IMG_20191208_111833.jpg")
    h, w = photo.shape[:2]
    boxes = [tuple(d["box"]) for d in labels]
    hide = boxes + _moved_boxes(boxes, motion, (w, h))
    rng = np.random.default_rng(14)
    before, after = noisy(photo, CAMERA_NOISE, rng), noisy(nudged(photo, motion), CAMERA_NOISE, rng)
    correlated: list[float] = []  # (the likeness of each turn correlated)
    walked: list[tuple[int, int]] = []  # (the start of each walk)
    likest_shift, least_difference = vision.settle._likest_shift, vision.settle._least_difference

    def counted_likest(a: np.ndarray, b: np.ndarray, shown: np.ndarray, reach: int) -> tuple[tuple[int, int], float]:
        got = likest_shift(a, b, shown, reach)
        correlated.append(got[1])
        return got

    def counted_walk(a: np.ndarray, b: np.ndarray, shown: np.ndarray, start: tuple[int, int], reach: int) -> tuple[tuple[int, int], float]:
        walked.append(start)
        return least_difference(a, b, shown, start, reach)

    want_shift, want_motion = camera_shift(before, after, hide), camera_motion(before, after, hide)
    monkeypatch.setattr(vision.settle, "_likest_shift", counted_likest)
    monkeypatch.setattr(vision.settle, "_least_difference", counted_walk)
    search = MotionSearch(before, after, hide)
    shift = search(turn=0.0)
    assert (shift.dx, shift.dy, shift.turn) == (*want_shift, 0.0)
    assert (len(correlated), len(walked)) == (1, 3)  # (the unturned copies an eighth as large; a walk on each larger copy)
    assert search(turn=NUDGE_TURN) == want_motion
    if motion == Motion():
        # (none alone: no turn could be likelier by TURN_LIKENESS; the turn made finer on the quarter-size copies
        # alone, by a half, a quarter and an eighth of a degree either way, and the other walks not walked again)
        assert correlated[0] >= 1.0 - TURN_LIKENESS and len(correlated) == 1 and len(walked) == 3 + 6
    else:
        assert want_motion.turn != 0.0 and _off(want_motion, motion, (w, h)) <= 1.5
        assert len(correlated) == 9  # (every whole degree up to 4: none again not among them)
        turned = correlated[1:]
        assert max(turned) - TURN_LIKENESS > correlated[0]  # (a turn likelier than none: chosen from all of them)

def test_dice_misread_after_the_camera_was_turned_are_no_roll_and_a_die_turned_then_is_one() -> None:
    """A real table answered; the table is bumped and the camera turned with it (1.5 degrees, and moved 4 px right):
    the dice lie where they lay on the table, some corners' dice moved in the picture by up to 12 pixels, which no
    shift alone puts back, and one die now reads another value. The picture put back where it lay, turn and all,
    is the answer's, so it is no roll (``Settler.turned``, ``Settler.nudged``). A die then turned a quarter where
    it lay in the turned picture is a roll."""
    photo, labels = _fixture("byler-IMG_20191208_111833.jpg")
    h, w = photo.shape[:2]
    rng = np.random.default_rng(8)
    read = labelled_dice(labels)
    s = Settler(lambda frame: read)
    assert len(feed_all(s, [noisy(photo, CAMERA_NOISE, rng) for _ in range(12)])) == 1
    motion = Motion(4, 0, 1.5)
    turned = nudged(photo, motion)
    boxes = _moved_boxes([tuple(d["box"]) for d in labels], motion, (w, h))
    read = [DieReading(4 if i == 2 else d["value"], ((x0 + x1) / 2, (y0 + y1) / 2), 0.95, (x0, y0, x1, y1)) for i, (d, (x0, y0, x1, y1)) in enumerate(zip(labels, boxes))]
    frames = [noisy(turned, CAMERA_NOISE, rng) for _ in range(12)]
    assert feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=5.0) == []
    assert s.status.reason == CAMERA_NUDGED and abs(s.turned - 1.5) <= 0.1 and abs(s.nudged[0] - 4) <= 1 and abs(s.nudged[1]) <= 1
    x0, y0, x1, y1 = (int(round(v)) for v in boxes[2])  # (the five, turned a quarter where it lies)
    half, cx, cy = max(x1 - x0, y1 - y0) // 2 + 2, (x0 + x1) // 2, (y0 + y1) // 2
    again = turned.copy()
    again[cy - half : cy + half, cx - half : cx + half] = np.rot90(turned[cy - half : cy + half, cx - half : cx + half])
    frames = [noisy(again, CAMERA_NOISE, rng) for _ in range(12)]
    got = feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=10.0)
    assert [[d.value for d in dice] for _, dice in got] == [[d.value for d in read]], s.status.reason


def test_dice_moved_on_a_plain_table_are_no_nudge_of_the_camera() -> None:
    """On a table of one colour the dice are all there is to see: with them left out, nothing tells a shift, so dice
    moved by a hand (whatever their paths) are never taken for the camera moving."""
    rng = np.random.default_rng(6)
    for seed in range(4):
        before, dice = render_dice([3, 4, 6], seed=seed, noise=0)
        after, moved = render_dice([3, 4, 6], seed=seed + 50, noise=0)
        boxes = [(x - 45, y - 45, x + 45, y + 45) for _, (x, y) in dice + moved]  # (60 px dice, turned: their boxes)
        assert camera_shift(noisy(before, CAMERA_NOISE, rng), noisy(after, CAMERA_NOISE, rng), boxes) == (0, 0)


@pytest.mark.parametrize("bump", [(6, 3), (28, -14)])
def test_dice_misread_after_the_camera_was_nudged_are_no_roll_and_a_die_turned_then_is_one(bump: tuple[int, int]) -> None:
    """A real table answered; the table is bumped and the camera with it (the picture moves 6 px right and 3 down,
    or, a hard bump, 28 px right and 14 up, when every die also lies more than a third of its size from where it
    lay in the picture): the dice lie where they lay on the table, and one of them now reads another value. The
    picture put back where it lay is the answer's, so it is no roll (``Settler.nudged`` says by how much). A die
    then turned a quarter where it lay in the nudged picture is a roll."""
    photo, labels = _fixture("byler-IMG_20191208_111833.jpg")
    rng = np.random.default_rng(7)
    read = labelled_dice(labels)
    s = Settler(lambda frame: read)
    assert len(feed_all(s, [noisy(photo, CAMERA_NOISE, rng) for _ in range(12)])) == 1
    bumped = nudged(photo, bump)
    read = labelled_dice(labels, bump, misread=(2, 4))  # (the five read as a four)
    frames = [noisy(bumped, CAMERA_NOISE, rng) for _ in range(12)]
    assert feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=5.0) == []
    assert s.status.reason == CAMERA_NUDGED and s.nudged == bump
    x0, y0, x1, y1 = labels[2]["box"]  # (the five, turned a quarter where it lies)
    half, cx, cy = max(x1 - x0, y1 - y0) // 2 + 2, (x0 + x1) // 2 + bump[0], (y0 + y1) // 2 + bump[1]
    turned = bumped.copy()
    turned[cy - half : cy + half, cx - half : cx + half] = np.rot90(bumped[cy - half : cy + half, cx - half : cx + half])
    frames = [noisy(turned, CAMERA_NOISE, rng) for _ in range(12)]
    got = feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=10.0)
    assert [[d.value for d in dice] for _, dice in got] == [[d.value for d in read]], s.status.reason


def test_zones_follow_a_nudged_camera_and_a_die_misread_then_is_no_roll() -> None:
    """A real table with zones (the tray, and ``kept`` to its right, its edge 3.5 px right of a six's centre) and an
    area left out (a strip of the table on the left), answered. The table is bumped and the camera with it (the
    picture 8 px right, 4 down), and a five now reads as a four: at the next rest the settler finds the nudge and
    moves the zones and the area left out with the picture (``ZONES_MOVED``, ``zones_moved``), so the six still lies
    in the tray, where the zones as drawn would have it in ``kept``; the misread is no roll (the area left out moved
    with the table, so the pictures put back match: ``CAMERA_NUDGED``). A die then turned where it lay is a roll,
    its dice in the zones moved."""
    photo, labels = _fixture("byler-IMG_20191208_111833.jpg")
    size = (photo.shape[1], photo.shape[0])
    zones = Zones.from_calibration({"size": list(size), "zones": {"tray": [[0, 0], [548, 0], [548, 640], [0, 640]], "kept": [[548, 0], [640, 0], [640, 640], [548, 640]]},
                                    "ignore": [[[0, 0], [120, 0], [120, 640], [0, 640]]]})
    rng = np.random.default_rng(8)
    read = labelled_dice(labels)
    s = Settler(lambda frame: read, zones=zones)
    got = feed_all(s, [noisy(photo, CAMERA_NOISE, rng) for _ in range(12)])
    assert len(got) == 1 and got[0][1][0].zone == "tray" and s.zones is zones
    bumped = nudged(photo, (8, 4))
    read = labelled_dice(labels, (8, 4), misread=(2, 4))  # (the five read as a four)
    reasons = []
    for k, f in enumerate([hand_over(noisy(bumped, CAMERA_NOISE, rng)) for _ in range(2)] + [noisy(bumped, CAMERA_NOISE, rng) for _ in range(12)]):
        assert s.feed(f, 5.0 + 0.1 * k) is None
        reasons.append(s.status.reason)
    assert reasons.count(ZONES_MOVED) == 1 and reasons[-1] == CAMERA_NUDGED, reasons
    assert s.zones_moved == (8, 4) and s.nudged == (8, 4) and s.zones is not zones
    assert s.zones.zone_of(read[0].center, size) == "tray" and zones.zone_of(read[0].center, size) == "kept"
    assert s.zones.to_calibration()["ignore"] == [[[8.0, 4.0], [128.0, 4.0], [128.0, 644.0], [8.0, 644.0]]]
    x0, y0, x1, y1 = labels[2]["box"]  # (the five, turned a quarter where it lies, now read as a three)
    half, cx, cy = max(x1 - x0, y1 - y0) // 2 + 2, (x0 + x1) // 2 + 8, (y0 + y1) // 2 + 4
    turned = bumped.copy()
    turned[cy - half : cy + half, cx - half : cx + half] = np.rot90(bumped[cy - half : cy + half, cx - half : cx + half])
    read = labelled_dice(labels, (8, 4), misread=(2, 3))
    frames = [noisy(turned, CAMERA_NOISE, rng) for _ in range(12)]
    got = feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=10.0)
    assert [[(d.value, d.zone) for d in dice][:3] for _, dice in got] == [[(6, "tray"), (6, "tray"), (3, "tray")]], s.status.reason
    assert s.zones_moved == (8, 4)


def test_zones_turn_with_a_turned_camera() -> None:
    """A real table with zones (the tray, and ``kept`` to its right, its edge 2.5 px right of a five's centre),
    answered. The table is bumped and the camera turned with it (1.5 degrees clockwise, and moved 6 px right and 3
    down): at the next rest the settler finds the turn and turns the zones with the picture (``ZONES_MOVED``,
    ``zones_turned``), so the five, now 11 px right of where it lay in the picture, still lies in the tray, where
    the zones as drawn would have it in ``kept``; the same dice are no roll."""
    photo, labels = _fixture("byler-IMG_20191208_111833.jpg")
    size = (photo.shape[1], photo.shape[0])
    five = labels[3]
    assert five["value"] == 5
    edge = (five["box"][0] + five["box"][2]) / 2 + 2.5
    zones = Zones.from_calibration({"size": list(size), "zones": {"tray": [[0, 0], [edge, 0], [edge, 640], [0, 640]], "kept": [[edge, 0], [640, 0], [640, 640], [edge, 640]]}})
    rng = np.random.default_rng(13)
    read = labelled_dice(labels)
    s = Settler(lambda frame: read, zones=zones)
    got = feed_all(s, [noisy(photo, CAMERA_NOISE, rng) for _ in range(12)])
    assert len(got) == 1 and got[0][1][3].zone == "tray" and s.zones is zones
    motion = Motion(6, 3, -1.5)
    boxes = _moved_boxes([tuple(d["box"]) for d in labels], motion, size)
    read = [DieReading(d["value"], ((x0 + x1) / 2, (y0 + y1) / 2), 0.95, (x0, y0, x1, y1)) for d, (x0, y0, x1, y1) in zip(labels, boxes)]
    turned = nudged(photo, motion)
    reasons = []
    for k, f in enumerate([hand_over(noisy(turned, CAMERA_NOISE, rng)) for _ in range(2)] + [noisy(turned, CAMERA_NOISE, rng) for _ in range(12)]):
        assert s.feed(f, 5.0 + 0.1 * k) is None
        reasons.append(s.status.reason)
    assert reasons.count(ZONES_MOVED) == 1, reasons
    assert abs(s.zones_turned + 1.5) <= 0.1 and abs(s.zones_moved[0] - 6) <= 1 and abs(s.zones_moved[1] - 3) <= 1 and s.zones is not zones
    centre = read[3].center
    assert centre[0] - (five["box"][0] + five["box"][2]) / 2 > 10
    assert s.zones.zone_of(centre, size) == "tray" and zones.zone_of(centre, size) == "kept"


def test_zones_follow_a_nudge_too_slight_to_be_motion_after_a_while() -> None:
    """A real table at rest, answered; the camera nudged a pixel right with no motion the settler sees (no
    hand, the picture moved less than its motion test tells): the zones move with the picture once it has looked
    again, ``FOLLOW_SECONDS`` later, and the dice lying as they lay are no roll."""
    photo, labels = _fixture("byler-IMG_20191208_111833.jpg")
    zones = Zones.from_calibration({"zones": {"tray": [[0, 0], [640, 0], [640, 640], [0, 640]]}})
    rng = np.random.default_rng(10)
    read = labelled_dice(labels)
    s = Settler(lambda frame: read, zones=zones)
    assert len(feed_all(s, [noisy(photo, CAMERA_NOISE, rng) for _ in range(12)])) == 1
    bumped = nudged(photo, (1, 0))
    read = labelled_dice(labels, (1, 0))
    seen = []
    for k in range(round(FOLLOW_SECONDS / 0.1) + 5):
        assert s.feed(noisy(bumped, CAMERA_NOISE, rng), 1.2 + 0.1 * k) is None
        seen.append((s.status.moving, s.zones_moved))
    assert not any(moving for moving, _ in seen)
    first = next(k for k, (_, moved) in enumerate(seen) if moved == (1, 0))  # (looked at first when it came to rest, 0.3 s in)
    assert 1.2 + 0.1 * first >= 0.3 + FOLLOW_SECONDS - 1e-9 and s.zones is not zones
    assert all(moved == (0, 0) for _, moved in seen[:first])


def test_zones_stay_where_they_are_while_the_camera_does() -> None:
    """Throws on a real table whose camera stays put: the zones never move (no nudge found between periods at rest)."""
    photo, labels = _fixture("matteo-dice_42.jpg")
    zones = Zones.from_calibration({"zones": {"tray": [[0, 0], [2000, 0], [2000, 2000], [0, 2000]]}, "ignore": [[[0, 0], [40, 0], [40, 40]]]})
    rng = np.random.default_rng(9)
    read = labelled_dice(labels)
    s = Settler(lambda frame: read, zones=zones)
    for throw in range(4):
        read = labelled_dice(labels, misread=(0, 1 + throw))
        frames = [noisy(photo, CAMERA_NOISE, rng) for _ in range(10)]
        feed_all(s, [hand_over(f) for f in frames[:2]] + frames, t0=5.0 * throw)
        assert s.zones is zones and s.zones_moved == (0, 0)
