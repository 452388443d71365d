"""bench/dice_table.py: what a table does with a photo (scored right or wrong, refused, held), settled by a real settler."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from bench.dice_table import Outcomes, SharedReader, main, outcome, run_part
from vision.types import DieReading

LABELS = [{"value": 3, "box": [0, 0, 10, 10]}, {"value": 5, "box": [20, 0, 30, 10]}]
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dice"


def die(value: int, x: float, confidence: float = 0.9) -> DieReading:
    return DieReading(value, (x, 5.0), confidence, (int(x) - 4, 1, int(x) + 4, 9))


def test_each_answer_is_sorted_as_a_game_would_take_it() -> None:
    o = Outcomes()
    outcome(LABELS, (die(3, 5), die(5, 25)), "settled", o)  # every die right
    outcome(LABELS, (die(3, 5), die(6, 25)), "settled", o)  # as many dice, one wrong: taken, wrongly
    outcome(LABELS, (die(6, 5), die(4, 60)), "settled", o)  # a die missed and one read off every die: wrong twice
    outcome(LABELS, (die(3, 5),), "settled", o)  # a die fewer: a game refuses the count
    outcome(LABELS, None, "a die is unsure (cocked?)", o)
    outcome(LABELS, None, "waiting for agreement", o)
    assert (o.photos, o.right, o.wrong, o.dice_wrong, o.refused) == (6, 1, 2, 3, 1)
    assert o.held == {"a die is unsure (cocked?)": 1, "waiting for agreement": 1}
    assert o.line(0.7) == ("  confidence 0.70: scored right 1 (16.7 %), scored WRONG 2 (3 dice), refused 1, held 2 "
                           "(a die is unsure (cocked?): 1, waiting for agreement: 1)")


def test_settlers_fed_the_same_frame_share_one_reading_of_it() -> None:
    looks = []
    shared = SharedReader(lambda frame: looks.append(frame) or [die(3, 5)])
    a, b = object(), object()
    assert shared(a) == shared(a) == [die(3, 5)] and shared(b) == [die(3, 5)]
    assert looks == [a, b]


@pytest.fixture
def matteo_set(tmp_path: Path) -> Path:
    """Matteo's fixture photos as a labelled set (bench/dice_accuracy.py's layout)."""
    labels = {k: v for k, v in json.loads((FIXTURES / "labels.json").read_text()).items() if k.startswith("matteo")}
    (tmp_path / "images").mkdir()
    for name in labels:
        shutil.copy(FIXTURES / name, tmp_path / "images" / name)
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    return tmp_path


def test_a_settler_takes_matteos_photos_in_camera_frames_and_asking_more_never_takes_more(matteo_set: Path) -> None:
    """Real photos, real reader, real settler: the four photos are each taken or held at each confidence,
    and a settler that asks more of each die never takes a throw one asking less holds."""
    labels = json.loads((matteo_set / "labels.json").read_text())
    names = sorted(labels)
    anyhow, strict = run_part(matteo_set, names, labels, (0.0, 0.99), (1280, 720), count=6)
    assert anyhow.photos == strict.photos == 4
    assert anyhow.right >= 2  # (dice_36 and dice_49; in dice_42 a side face is read a two, and dice_23 holds an unsure die)
    assert strict.right + strict.wrong + strict.refused <= anyhow.right + anyhow.wrong + anyhow.refused
    assert sum(strict.held.values()) >= sum(anyhow.held.values())


def test_the_bench_prints_each_confidence_and_refuses_a_bad_one(matteo_set: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = matteo_set.parent / "data"
    shutil.move(str(matteo_set), str(data / "matteo"))
    assert main([str(data), "--part", "all", "--frames", "4", "--confidence", "0", "--confidence", "0.8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "matteo / all: 4 photos, 17 dice, 4 frames each"
    assert out[1].startswith("  confidence 0.00: scored right ") and out[2].startswith("  confidence 0.80: scored right ")
    assert main([str(data), "--part", "all", "--frames", "4", "--confidence", "0.7", "--search-each"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "matteo / all: 4 photos, 17 dice, 4 frames each" and out[1].startswith("  confidence 0.70: scored right ")
    for bad, why in ((["--confidence", "1"], "--confidence 1.0: at least 0 and under 1"), (["--frames", "2"], "--frames 2: 3 to 50")):
        with pytest.raises(SystemExit):
            main([str(data), *bad])
        assert why in capsys.readouterr().err
