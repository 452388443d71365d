"""bench/dice_accuracy.py's tally of one photo: what counts as found, right, exact, and scored right at a table."""

from __future__ import annotations

from bench.dice_accuracy import Tally, score
from vision.types import DieReading

LABELS = [{"value": 3, "box": [0, 0, 10, 10]}, {"value": 5, "box": [20, 0, 30, 10]}]


def reading(value: int | None, x: float, y: float = 5.0) -> DieReading:
    return DieReading(value, (x, y), 0.9 if value else 0.3, (int(x) - 4, int(y) - 4, int(x) + 4, int(y) + 4))


def tally(readings: list[DieReading]) -> Tally:
    t = Tally()
    score(t, "photo.jpg", LABELS, readings)
    return t


def test_every_die_right_is_exact_and_a_table_scores_it() -> None:
    t = tally([reading(3, 5), reading(5, 25)])
    assert (t.labelled, t.found, t.right, t.exact, t.settles, t.extra, t.unsure, t.unsure_off) == (2, 2, 2, 1, 1, 0, 0, 0)


def test_an_unsure_reading_off_every_die_leaves_the_photo_exact_but_holds_the_roll_at_a_table() -> None:
    t = tally([reading(3, 5), reading(5, 25), reading(None, 60)])
    assert (t.right, t.exact, t.settles, t.unsure, t.unsure_off, t.extra) == (2, 1, 0, 1, 1, 0)


def test_an_unsure_die_is_found_not_right_and_neither_exact_nor_scored() -> None:
    t = tally([reading(3, 5), reading(None, 25)])
    assert (t.found, t.right, t.exact, t.settles, t.unsure, t.unsure_off) == (2, 1, 0, 0, 1, 0)
    assert t.confusion[4, 6] == 1  # label 5, read unsure


def test_an_extra_confident_reading_spoils_the_photo() -> None:
    t = tally([reading(3, 5), reading(5, 25), reading(2, 60)])
    assert (t.right, t.exact, t.settles, t.extra) == (2, 0, 0, 1)
    assert t.wrong_photos == ["photo.jpg"]
