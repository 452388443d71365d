"""A torn or corrupted journal: detected, reported, cut; the table starts with the
valid prefix and new events follow it. Real SQLite files, damaged byte by byte."""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from refbox.journal import Journal, JournalError
from refbox.runtime import Devices
from refbox.table import Table

ROOT = Path(__file__).resolve().parents[2]
PIG = {"game": "pig", "players": ["Ann", "Bob"], "options": {"target": 1000}}


class Clock:
    t = 10.0

    def __call__(self):
        return self.t


def _write_game(path, rolls):
    table = Table(Journal(path), PIG, clock=Clock())
    for d in rolls:
        assert table.handle({"type": "roll", "dice": [d]}).accepted
    table.journal.close()  # the last connection checkpoints the WAL into the file


def _flip_in_file(path: Path, needle: bytes, replacement: bytes) -> None:
    raw = path.read_bytes()
    assert raw.count(needle) == 1, raw.count(needle)
    path.write_bytes(raw.replace(needle, replacement))


def test_corrupted_row_bytes_in_the_file_are_reported_cut_and_the_prefix_kept(tmp_path, caplog):
    path = tmp_path / "journal.sqlite3"
    _write_game(path, [2, 3, 4, 5, 6])
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    _flip_in_file(path, b'"dice": [5]', b'"dice": [6]')  # a bit rot in row 4's payload

    table = Table(Journal(path), None, clock=Clock())
    assert table.view.data["turn_total"] == 2 + 3 + 4  # the valid prefix, nothing after the damage
    assert table.damage == [{"game": table.game_id, "seq": 4, "reason": "CRC mismatch", "rows": 2}]
    assert "event 4 of game 1 is damaged (CRC mismatch)" in caplog.text and "cut 2 damaged row(s)" in caplog.text
    assert table.journal.count(table.game_id) == 3
    kept = table.journal._db.execute("SELECT seq FROM damaged ORDER BY seq").fetchall()
    assert kept == [(4,), (5,)]  # kept aside for inspection, not applied

    health = Devices(table)
    report = health.health()["journal"]
    assert not report["ok"] and "from event 4 (CRC mismatch, 2 row(s) not applied)" in report["detail"]

    # new events follow the valid prefix and survive the next restart
    assert table.handle({"type": "roll", "dice": [3]}).seq == 4
    table.journal.close()
    again = Table(Journal(path), None, clock=Clock())
    assert again.view.data["turn_total"] == 2 + 3 + 4 + 3 and again.damage == []


def test_row_payload_that_is_not_utf8_is_damage_not_a_crash(tmp_path, caplog):
    path = tmp_path / "journal.sqlite3"
    _write_game(path, [2, 3, 4])
    _flip_in_file(path, b'"dice": [4]', b'"dice": [\xff]')
    table = Table(Journal(path), None, clock=Clock())
    assert table.view.data["turn_total"] == 5 and table.damage[0]["seq"] == 3


def test_missing_row_in_the_middle_ends_the_replay_there(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _write_game(path, [2, 3, 4, 5])
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM events WHERE seq = 2")
    table = Table(Journal(path), None, clock=Clock())
    assert table.view.data["turn_total"] == 2
    assert table.damage[0]["reason"] == "event 2 is missing (next is 3)"


def test_file_damaged_beyond_its_rows_is_a_journal_error_naming_it(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _write_game(path, [2, 3])
    with open(path, "r+b") as f:
        f.write(b"\x00" * 100)  # the database header
    with pytest.raises(JournalError, match=str(path)):
        Journal(path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "refbox", "run", "--sim", "--no-keyboard", "--port", "0", "--journal", str(path)],
                         capture_output=True, text=True, env=env, timeout=60, cwd=tmp_path)
    assert out.returncode == 3 and f"refbox run: cannot open journal {path}" in out.stderr, out.stderr[-2000:]


@pytest.mark.parametrize("keep", [0.0, 0.13, 0.5, 0.77, 0.99])
def test_wal_truncated_mid_way_gives_a_prefix_of_whole_events(tmp_path, keep):
    """The power cut during a write: the WAL (not yet checkpointed) is copied as it
    stands, then torn at a fraction of its length. SQLite's frame checksums drop the
    torn transaction; the table starts with a prefix of the acknowledged events."""
    path = tmp_path / "live.sqlite3"
    journal = Journal(path)
    table = Table(journal, PIG, clock=Clock())
    rolls = [2 + i % 5 for i in range(40)]
    for d in rolls:
        assert table.handle({"type": "roll", "dice": [d]}).accepted
    wal = Path(f"{path}-wal")
    assert wal.stat().st_size > 40 * 4096  # the events are in the WAL, not the main file
    cut = tmp_path / "cut"
    cut.mkdir()
    shutil.copy(path, cut / "j.sqlite3")
    data = wal.read_bytes()
    (cut / "j.sqlite3-wal").write_bytes(data[: int(len(data) * keep)])
    journal.close()

    again = Table(Journal(cut / "j.sqlite3"), PIG, clock=Clock())
    stored = [e["dice"][0] for e in again.journal.events(again.game_id)] if again.journal.latest_game() else []
    assert stored == rolls[: len(stored)]
    assert again.damage == []  # SQLite discarded the torn frames; no half-applied row
    expected_total = sum(stored)
    assert again.view.data["turn_total"] == expected_total
    if keep == 0.99:
        assert len(stored) >= 35
    assert again.handle({"type": "roll", "dice": [3]}).accepted  # and it goes on


def test_damage_is_logged_at_error_level(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    path = tmp_path / "journal.sqlite3"
    _write_game(path, [2, 3])
    _flip_in_file(path, b'"dice": [3]', b'"dice": [4]')
    Table(Journal(path), None, clock=Clock())
    errors = [r for r in caplog.records if r.levelno == logging.ERROR and r.name == "refbox.journal"]
    assert len(errors) == 2  # found, cut


def test_compaction_backlog_is_worked_off_a_few_games_at_a_time(tmp_path):
    journal = Journal(tmp_path / "j.sqlite3")
    gids = []
    for _ in range(12):
        gid = journal.new_game(PIG)
        journal.append(gid, {"type": "roll", "dice": [4]})
        gids.append(gid)
    from refbox.table import final_view_of

    assert journal.compact(2, final_view_of, limit=4) == 4
    assert [journal.count(g) for g in gids[:5]] == [0, 0, 0, 0, 1]
    assert journal.compact(2, final_view_of, limit=4) == 4
    assert journal.compact(2, final_view_of, limit=4) == 2
    assert journal.compact(2, final_view_of, limit=4) == 0
    assert [journal.count(g) for g in gids] == [0] * 10 + [1, 1]
    assert journal.result(gids[0])["turn_total"] == 4
