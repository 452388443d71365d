"""The journal is shared by the table's loop (writes) and the web page's threads (reads)."""

from __future__ import annotations

import sqlite3
import threading

from refbox.journal import Journal


def test_readers_in_other_threads_see_whole_events_while_the_loop_writes_and_then_closes(tmp_path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    gid = journal.new_game({"game": "pig", "players": ["Ann", "Bob"], "options": {}})
    stop = threading.Event()
    seen: list[int] = []
    errors: list[BaseException] = []

    def read() -> None:
        while not stop.is_set():
            try:
                rows = journal.rows(gid)
            except sqlite3.ProgrammingError as exc:  # closed under it: refused, never a crash
                assert "closed" in str(exc)
                return
            except BaseException as exc:  # noqa: BLE001 - reported to the test below
                errors.append(exc)
                return
            assert [seq for seq, _, _ in rows] == list(range(1, len(rows) + 1))
            seen.append(len(rows))

    readers = [threading.Thread(target=read) for _ in range(4)]
    for t in readers:
        t.start()
    for i in range(300):
        journal.append(gid, {"type": "roll", "dice": [i % 6 + 1]})
    journal.close()
    stop.set()
    for t in readers:
        t.join(timeout=10)
    assert not errors
    assert not any(t.is_alive() for t in readers)
    assert seen and max(seen) <= 300
