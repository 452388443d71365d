"""The appliance's figures: journal throughput with fsync, journal growth and a year of
club use, replay and compaction of a year-sized journal, restart-to-ready of
``refbox run --sim``. Prints figures; asserts nothing.

    python bench/appliance.py [--quick]

``--quick`` shrinks the year to a month (for a smoke run).
"""

from __future__ import annotations

import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web_load import cpu_seconds, memory_kb  # noqa: E402  (the child process's CPU and memory, as the web bench reads them)
from refbox.journal import Journal  # noqa: E402
from refbox.table import Table, final_view_of  # noqa: E402

GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.jsonl"))
PIG = {"game": "pig", "players": ["Ann", "Bob", "Cy"], "options": {"target": 1000}}
# every other roll is a 1 (the turn is lost): the game never ends, however long the run

# the club: tables, opening hours, days, and a busy table's events per hour
# (a dice table: a roll every ~12 s plus stops; a futsal clock: ~100 per hour)
TABLES, HOURS, DAYS, EVENTS_PER_HOUR = 20, 12, 365, 360


def fsync_throughput(workdir: Path, synchronous: str, n: int = 1500) -> float:
    path = workdir / f"tp-{synchronous}.sqlite3"
    table = Table(Journal(path, synchronous=synchronous), PIG, clock=lambda: 1000.0)
    events = [{"type": "roll", "dice": [2 + i % 5 if i % 2 else 1]} for i in range(n)]
    t0 = time.perf_counter()
    for e in events:
        assert table.handle(e, "button").accepted
    dt = time.perf_counter() - t0
    table.journal.close()
    return n / dt


def golden_growth(workdir: Path) -> tuple[float, float, int, int]:
    """Bytes per event and per game, from the golden games journalled through a Table."""
    path = workdir / "golden.sqlite3"
    journal = Journal(path)
    events = games = 0
    table: Table | None = None
    for f in GOLDEN:
        lines = [x for x in f.read_text().splitlines() if x.strip() and not x.startswith("#")]
        header = json.loads(lines[0])
        if table is None:
            table = Table(journal, header, clock=lambda: 0.0, keep_games=10**6)
        else:
            assert table.handle_new_game(header).accepted
        games += 1
        for line in lines[1:]:
            if table.handle(json.loads(line), "replay").accepted:
                events += 1
    journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    journal._db.execute("VACUUM")
    size = journal.size_bytes()
    journal.close()
    return size / events, size / games, events, games


def year_journal(path: Path, events_total: int, per_game: int = 120) -> tuple[int, int]:
    """A never-compacted journal of ``events_total`` pig events in games of ``per_game``,
    written in bulk (the same rows Table.handle writes, CRC included)."""
    db = Journal(path, synchronous="NORMAL")
    con = db._db
    header = json.dumps(PIG, sort_keys=True)
    games = 0
    written = 0
    con.execute("BEGIN")
    t = 0.0
    while written < events_total:
        gid = con.execute("INSERT INTO games (header, created) VALUES (?, ?)", (header, t)).lastrowid
        games += 1
        rows = []
        for seq in range(1, per_game + 1):
            t += 10.0
            ev = {"type": "roll", "dice": [2 + (seq + games) % 5 if seq % 2 else 1], "t": round(t, 3), "source": "camera"}
            body = json.dumps(ev, ensure_ascii=False, sort_keys=True)
            rows.append((gid, seq, body, zlib.crc32(body.encode()), t))
        con.executemany("INSERT INTO events (game_id, seq, body, crc, written) VALUES (?, ?, ?, ?, ?)", rows)
        written += per_game
        if games % 500 == 0:
            con.execute("COMMIT")
            con.execute("BEGIN")
    con.execute("COMMIT")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return games, written


def start_sim(journal: Path) -> subprocess.Popen[str]:
    """``refbox run --sim`` on ``journal``, its log and output on the process's ``stdout``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "refbox", "run", "--sim", "--no-keyboard", "--port", "0", "--journal", str(journal)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, cwd=journal.parent,
    )


def restart_to_ready(journal: Path, runs: int = 3) -> list[float]:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = start_sim(journal)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("refbox: ready"):
                times.append(time.perf_counter() - t0)
                break
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    return times


def daemon_at_work(journal: Path, seconds: float) -> dict[str, float]:
    """``refbox run --sim`` for ``seconds`` after it is ready: its camera replays the sample photos
    and reads their dice (the camera pipeline running), its web page and emulated display up.
    Resident memory at the end and at its peak (VmRSS, VmHWM), threads, the share of one core it
    used meanwhile, and the camera's readings (its log lines)."""
    proc = start_sim(journal)
    assert proc.stdout is not None
    out = proc.stdout
    readings = 0
    ready = threading.Event()

    def follow() -> None:
        nonlocal readings
        for line in out:
            if line.startswith("refbox: ready"):
                ready.set()
            elif "camera read " in line and ready.is_set():
                readings += 1

    threading.Thread(target=follow, daemon=True).start()
    try:
        if not ready.wait(60):
            raise RuntimeError("refbox run --sim did not get ready in 60 s")
        cpu0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(seconds)
        cpu1, t1 = cpu_seconds(proc.pid), time.monotonic()
        memory = memory_kb(proc.pid)
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(20)
    return {
        "rss": memory["VmRSS"] * 1024, "peak": memory["VmHWM"] * 1024,
        "threads": memory["Threads"], "cpu": (cpu1 - cpu0) / (t1 - t0), "readings": readings, "seconds": t1 - t0,
    }


def mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def main() -> None:
    quick = "--quick" in sys.argv
    days = 30 if quick else DAYS
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as d:
        work = Path(d)
        print("== journal throughput through Table.handle (pig rolls, one table) ==")
        for sync in ("FULL", "NORMAL"):
            rate = fsync_throughput(work, sync)
            print(f"synchronous={sync:6s}: {rate:8.0f} events/s sustained ({1000 / rate:.2f} ms per event)")

        print("\n== journal growth (the 48 golden games through a Table) ==")
        per_event, per_game, events, games = golden_growth(work)
        print(f"{events} events in {games} games: {per_event:.0f} bytes per event, {per_game / 1000:.1f} kB per game (file size)")

        per_table_year = HOURS * days * EVENTS_PER_HOUR
        print(f"\n== a {'month' if quick else 'year'} of club use: {TABLES} tables x {HOURS} h x {days} days x "
              f"{EVENTS_PER_HOUR} events/h ==")
        print(f"per table: {per_table_year:,} events = {mb(per_table_year * per_event)} uncompacted")
        print(f"club ({TABLES} tables): {TABLES * per_table_year:,} events = {mb(TABLES * per_table_year * per_event)}")

        path = work / "year.sqlite3"
        t0 = time.perf_counter()
        n_games, n_events = year_journal(path, per_table_year)
        gen = time.perf_counter() - t0
        size = path.stat().st_size
        print(f"generated one table's journal: {n_events:,} events in {n_games:,} games, {mb(size)} "
              f"({size / n_events:.0f} bytes per event incl. index) in {gen:.1f} s")

        t0 = time.perf_counter()
        journal = Journal(path)
        table = Table(journal, None, clock=lambda: 10**9)
        start = time.perf_counter() - t0
        print(f"start-up on it (open + replay of the current game, {table.session.applied} events): {start * 1000:.0f} ms")

        t0 = time.perf_counter()
        every = [e for gid, _ in journal.games()[-50:] for e in journal.events(gid)]
        read = time.perf_counter() - t0
        print(f"reading the last 50 games ({len(every)} events) with CRC checks: {read * 1000:.0f} ms")

        from rules import Session

        sample = journal.games()[:1000]
        t0 = time.perf_counter()
        replayed = 0
        for gid, header in sample:
            session = Session.start(header)
            for e in journal.events(gid):
                session.submit(e)
                replayed += 1
        audit = time.perf_counter() - t0
        print(f"full audit replay (every game through the rules): {replayed / audit:,.0f} events/s, "
              f"the whole {'month' if quick else 'year'} in ~{n_events * audit / replayed:.0f} s")

        t0 = time.perf_counter()
        compacted = journal.compact(n_games - 1, final_view_of)  # steady state: one game per new game
        one = time.perf_counter() - t0
        print(f"compaction at a new game (steady state, {compacted} game): {one * 1000:.1f} ms")
        bulk = min(2000, n_games - 201)
        t0 = time.perf_counter()
        compacted = journal.compact(n_games - 1 - bulk, final_view_of, limit=None)
        many = time.perf_counter() - t0
        print(f"compaction of {compacted} games at once: {many:.1f} s ({many / compacted * 1000:.1f} ms per game; "
              f"a never-compacted year of {n_games:,} games would take ~{many / compacted * n_games:.0f} s; "
              f"the table does at most 25 per new game, ~{many / compacted * 25:.2f} s)")
        journal.close()

        keep = 200
        print(f"with keep_games={keep} (the default) a table's journal holds ~{keep * 120 * size / n_events / 1e6:.1f} MB "
              f"of events plus one final view per older game")

        print("\n== restart-to-ready of `refbox run --sim` (process start to 'refbox: ready') ==")
        fresh = work / "fresh.sqlite3"
        times = restart_to_ready(fresh)
        print(f"fresh journal: median {statistics.median(times):.2f} s (runs: {', '.join(f'{t:.2f}' for t in times)})")
        # the year-sized journal, resumed by the real program (a pig game of 120 events)
        times = restart_to_ready(path)
        print(f"year-sized journal ({mb(path.stat().st_size)}): median {statistics.median(times):.2f} s "
              f"(runs: {', '.join(f'{t:.2f}' for t in times)})")

        seconds = 15.0 if quick else 60.0
        print(f"\n== the daemon with its camera pipeline running: `refbox run --sim` for {seconds:.0f} s after ready ==")
        d = daemon_at_work(work / "daemon.sqlite3", seconds)
        print(f"resident memory {mb(d['rss'])} at the end, peak {mb(d['peak'])} (budget 150 MB); {d['threads']} threads; "
              f"{100 * d['cpu']:.0f} % of one core; {d['readings']} camera readings in {d['seconds']:.0f} s")


if __name__ == "__main__":
    main()
