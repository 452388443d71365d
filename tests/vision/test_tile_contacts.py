"""Tile contacts and zones as the table gets them: a real line of play, zones, no corners."""

from __future__ import annotations

from pathlib import Path

import cv2

from vision.dominoes import read_dominoes
from vision.tile_contacts import tile_contacts
from vision.types import TileReading
from vision.zones import Zones

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dominoes"


def _tile(a: int, b: int, x: float, y: float = 0.0) -> TileReading:
    return TileReading((a, b), (x, y), 0.0, 1.0, ((x - 20, y - 10), (x + 20, y - 10), (x + 20, y + 10), (x - 20, y + 10)))


def test_real_line_of_play_contacts_follow_the_line():
    entries = tile_contacts(read_dominoes(cv2.imread(str(FIXTURES / "layout.jpg"))))
    touches = {tuple(sorted(e["tile"])): {tuple(sorted(t)) for t in e["touches"]} for e in entries}
    # the labelled photo: 2-5 above the spinner 5-5, 5-3 below it, 5-4 to its right ...
    assert touches[(5, 5)] == {(2, 5), (4, 5), (3, 5)}
    assert touches[(0, 6)] == {(0, 0), (1, 6)}  # ... and the line ends 0-0, 0-6, 6-1
    assert touches[(1, 6)] == {(0, 6)} and touches[(3, 6)] == {(3, 3)}
    for e in entries:  # contact is mutual
        for t in e["touches"]:
            other = next(o for o in entries if sorted(o["tile"]) == sorted(t))
            assert sorted(e["tile"]) in [sorted(x) for x in other["touches"]]


def test_zones_and_missing_geometry():
    zones = Zones.from_calibration({"size": [200, 100], "zones": {
        "Ann": [[0, 0], [100, 0], [100, 100], [0, 100]], "Bob": [[100, 0], [200, 0], [200, 100], [100, 100]]}})
    # a 400x200 frame: the calibration is scaled, so x=300 is Bob's half
    entries = tile_contacts([_tile(1, 2, 50, 50), _tile(3, 4, 300, 50)], zones, (400, 200))
    assert [e["zone"] for e in entries] == ["Ann", "Bob"]
    bare = [TileReading((1, 2), (5.0, 5.0)), TileReading((None, 3), (50.0, 5.0))]
    assert tile_contacts(bare) == [{"tile": [1, 2]}]  # no corners: no 'touches'; unsure tiles left out
