"""bench/dice_relight.py: the changes of light and the nudges it makes, and a real settler over real photos that changes none into a roll."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from bench.dice_accuracy import in_frame
from bench.dice_relight import CHANGES, FRAME, LIGHTS, NUDGES, changed, in_light, main, next_throws, phantoms, turned, zones_followed

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


def test_each_light_changes_the_picture_as_its_name_says() -> None:
    grey = np.full((90, 160, 3), 100, np.uint8)
    assert in_light(grey, "darker").max() == 80 and in_light(grey, "lighter").min() == 125
    assert in_light(np.full((4, 4, 3), 250, np.uint8), "lighter").max() == 255  # (clipped as a camera clips)
    side = in_light(grey, "lamp to the right")
    assert side[:, 0].max() == 70 and side[:, -1].min() == 110 and (np.diff(side[0, :, 0].astype(int)) >= 0).all()
    spot = LIGHTS["spot"](grey.shape)[:, :, 0]
    brightest = np.unravel_index(np.argmax(spot), spot.shape)
    assert spot.max() == pytest.approx(1.15, abs=0.01) and abs(brightest[1] - 0.4 * 159) <= 1 and abs(brightest[0] - 0.5 * 89) <= 1
    assert spot[0, -1] == pytest.approx(1.15 - 0.4 * np.hypot(0.6, 0.5))
    b, g, r = in_light(grey, "cooler white balance")[0, 0]
    assert (b, g, r) == (112, 100, 88)
    assert set(LIGHTS) == {"darker", "lighter", "lamp to the right", "spot", "cooler white balance"}


def test_each_nudge_moves_the_picture_as_its_name_says() -> None:
    picture = np.random.default_rng(0).integers(0, 256, (90, 160, 3), np.uint8)
    nudges = ("camera nudged 2 px", "camera nudged 4 px", "camera nudged 8 px", "camera nudged 16 px", "camera nudged 32 px")
    assert CHANGES == (*LIGHTS, *nudges, "camera turned 0.4°", "camera turned 1°", "camera turned 2.5°, 10 px")
    for name in nudges:
        moved, (dx, dy, turn) = changed(picture, name), NUDGES[name]
        assert dx == int(name.split()[2]) and dy == dx // 2 and turn == 0.0
        assert (moved[dy:, dx:] == picture[: 90 - dy, : 160 - dx]).all(), name
        assert (moved[dy:, dx - 1] == picture[: 90 - dy, 0]).all(), name  # (the mirror comes in at the edge)
    assert NUDGES["camera turned 0.4°"] == (0, 0, 0.4) and NUDGES["camera turned 1°"] == (0, 0, 1.0) and NUDGES["camera turned 2.5°, 10 px"] == (10, -5, -2.5)
    for name in ("camera turned 0.4°", "camera turned 1°", "camera turned 2.5°, 10 px"):  # (turned about the frame's centre, the mirror at the edges)
        m = NUDGES[name].matrix((160, 90))
        assert np.array_equal(changed(picture, name), cv2.warpAffine(picture, m, (160, 90), borderMode=cv2.BORDER_REFLECT)), name
    corner = NUDGES["camera turned 1°"].matrix((1280, 720)) @ np.array([0.0, 0.0, 1.0])
    assert 12.0 < float(np.hypot(*corner)) < 13.5  # (a degree moves a 1280 x 720 frame's corner 13 px)


@pytest.fixture(scope="module")
def matteo_frames() -> list[np.ndarray]:
    """Three of matteo's fixture photos a table answers (the fourth holds a die in doubt), each in a camera frame."""
    frames = [cv2.imread(str(FIXTURES / f"matteo-dice_{n}.jpg")) for n in (36, 42, 49)]
    assert all(f is not None for f in frames)
    return [in_frame(f, FRAME)[0] for f in frames]


def test_a_lamp_to_one_side_or_a_nudged_camera_makes_no_phantom_roll_of_matteos_photos_and_the_next_throw_is_answered(
    matteo_frames: list[np.ndarray],
) -> None:
    """Real photos, the real reader, a real settler: the tables answered (a die read less surely than 0.7 in one
    noisy frame may hold one), then no roll after a lamp to their right came on, nor after the camera was nudged
    8 px, nor after it was moved 10 px and turned 2.5 degrees; and each next photo, a throw, answered."""
    rng = np.random.default_rng(0)
    answered, phantom = phantoms(matteo_frames, "lamp to the right", rng)
    assert answered >= 2 and phantom == 0
    assert next_throws(matteo_frames, rng) == (2, 2)  # (the second photo holds a die read about 0.77 surely: in these frames, answered)
    answered, phantom = phantoms(matteo_frames, "camera nudged 8 px", np.random.default_rng(0))
    assert answered >= 2 and phantom == 0
    answered, phantom = phantoms(matteo_frames, "camera turned 2.5°, 10 px", np.random.default_rng(0))
    assert answered >= 2 and phantom == 0


def test_zones_lie_as_the_picture_does_after_a_nudge_and_after_a_lamp(matteo_frames: list[np.ndarray]) -> None:
    """Real photos, the real reader, a real settler with zones: after the camera was nudged 8 px the zones moved by
    the nudge on every table answered, after a lamp to the right they did not move, and after the camera was moved
    10 px and turned 2.5 degrees they moved and turned with the picture."""
    answered, right, wrong = zones_followed(matteo_frames, "camera nudged 8 px", np.random.default_rng(0))
    assert answered >= 2 and (right, wrong) == (answered, 0)
    answered, right, wrong = zones_followed(matteo_frames, "lamp to the right", np.random.default_rng(1))
    assert answered >= 2 and (right, wrong) == (answered, 0)
    answered, right, wrong = zones_followed(matteo_frames, "camera turned 2.5°, 10 px", np.random.default_rng(2))
    assert answered >= 2 and (right, wrong) == (answered, 0)


def test_a_die_turned_where_it_lay_is_answered() -> None:
    """A drawn five turned to a six and to a two where it lay, in the same light and a darker one: four rolls."""
    assert turned(np.random.default_rng(0), [5]) == (4, 4)


def test_the_bench_names_each_change_and_what_the_tables_did(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bench over a set of one photo (the layout of bench/dice_accuracy.py), one light and one nudge, the drawn
    die turned from a one."""
    name = "matteo-dice_42.jpg"
    (tmp_path / "one" / "images").mkdir(parents=True)
    (tmp_path / "one" / "images" / name).write_bytes((FIXTURES / name).read_bytes())
    labels = json.loads((FIXTURES / "labels.json").read_text())
    (tmp_path / "one" / "labels.json").write_text(json.dumps({name: labels[name]}))
    assert main([str(tmp_path), "--part", "all", "--change", "darker", "--change", "camera nudged 4 px", "--turned", "1", "--zones"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "one / all: 1 photos as tables; tables answered, then a roll taken after a change:"
    assert out[1].split() == ["darker", "1", "answered,", "0", "phantom", "rolls"]
    nudge = out[2].split()  # (whether the table answers again depends on the noise drawn: a die read at 0.77)
    assert nudge[:4] == ["camera", "nudged", "4", "px"] and nudge[4] in ("0", "1") and nudge[5:] == ["answered,", "0", "phantom", "rolls"]
    for line, change in zip(out[3:5], (["darker"], ["camera", "nudged", "4", "px"])):  # (answered or not: the noise drawn)
        words, n = line.split(), len(change)
        assert words[: 2 + n] == ["with", "zones,", *change] and words[2 + n] in ("0", "1"), line
        assert words[3 + n :] == ["answered,", "zones", "as", "the", "picture", "on", f"{words[2 + n]},", "otherwise", "on", "0"], line
    assert out[5] == "  the next throw answered after 0 of 0 answers"
    assert out[6] == "drawn dice: a die turned where it lay answered as a roll 4 of 4 times"


def test_the_bench_refuses_a_turn_count_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--turned", "7"])
    assert "--turned 7: 0 to 6" in capsys.readouterr().err
