"""Web mirror under load: N concurrent live viewers (server-sent events), event-to-viewer
latency, and what the server process spends (CPU, memory).

Set-up: the web app with a real Table and SQLite journal, served by werkzeug's threaded
server in a child process (so its CPU and memory are its own). This process opens N
raw-socket SSE viewers (one selector thread) and posts events (pig rolls and stops)
to ``/api/events`` with the control PIN, one at a time; for each event it waits until
every viewer has received the view that event produced (matched by the view's
``table_events``).

Latency per (event, viewer) = POST sent -> that viewer has read the view. Figures:
median, p99, max; server CPU (user+system from /proc/PID/stat) while idle with N
viewers and per event under load; resident memory (VmRSS, VmHWM).

Budget (docs/DESIGN): >= 100 concurrent viewers on one Pi-sized core; a button
event reaches the web stream in <= 5 ms median, <= 20 ms p99 (a Pi 4 is ~3-4x
slower per core than the dev machines).

    PYTHONPATH=. python bench/web_load.py [--viewers 100] [--events 200] [--idle 3]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PIN = "2468"
TICKS = os.sysconf("SC_CLK_TCK")
MARK = re.compile(rb'"table_events": (\d+)')


# --- the server (child process) -------------------------------------------------------


def serve(journal_dir: str) -> None:
    sys.path.insert(0, str(ROOT))
    import logging

    from werkzeug.serving import make_server

    from refbox.journal import Journal
    from refbox.table import Table
    from web import create_app

    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    table = Table(Journal(Path(journal_dir) / "bench.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"],
                                                                  "options": {"target": 1000}})
    table.start()
    app = create_app(table, {"CONTROL_PIN": PIN, "TABLE_NAME": "bench"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    server.daemon_threads = True  # type: ignore[attr-defined]
    print(server.server_port, flush=True)
    server.serve_forever()


# --- measuring the child -----------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def memory_kb(pid: int) -> dict[str, int]:
    out = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "Threads"):
            out[key] = int(value.split()[0])
    return out


# --- viewers ------------------------------------------------------------------------------


class Viewers:
    """N raw SSE connections read by one selector thread; records when each saw each view."""

    def __init__(self, port: int, n: int) -> None:
        self.sel = selectors.DefaultSelector()
        self.seen: list[dict[int, float]] = [{} for _ in range(n)]
        self.tails = [b""] * n
        self.lock = threading.Condition()
        self.closed = 0
        for i in range(n):
            s = socket.create_connection(("127.0.0.1", port))
            s.sendall(b"GET /stream HTTP/1.0\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ, i)
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while self.running:
            for key, _ in self.sel.select(timeout=0.2):
                i = key.data
                try:
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                now = time.perf_counter()
                if not data:
                    self.sel.unregister(key.fileobj)
                    self.closed += 1
                    continue
                buf = self.tails[i] + data
                marks = [int(m.group(1)) for m in MARK.finditer(buf)]
                self.tails[i] = buf[-64:]
                if marks:
                    with self.lock:
                        for m in marks:
                            self.seen[i].setdefault(m, now)
                        self.lock.notify_all()

    def wait_all(self, mark: int, timeout: float) -> bool:
        with self.lock:
            return self.lock.wait_for(lambda: all(mark in s for s in self.seen), timeout)

    def close(self) -> None:
        self.running = False
        self.thread.join(2)
        for key in list(self.sel.get_map().values()):
            key.fileobj.close()  # type: ignore[union-attr]


def post(conn: http.client.HTTPConnection, event: dict) -> dict:
    conn.request("POST", "/api/events", body=json.dumps(event),
                 headers={"Content-Type": "application/json", "X-Refbox-Pin": PIN})
    r = conn.getresponse()
    answer: dict = json.loads(r.read())
    return answer


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="web mirror load: N SSE viewers, event-to-viewer latency, server CPU/RSS")
    ap.add_argument("--viewers", type=int, default=100)
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--idle", type=float, default=3.0, help="seconds to measure the idle cost of the viewers")
    ap.add_argument("--serve", metavar="DIR", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        serve(args.serve)
        return 0
    if args.viewers < 1 or args.events < 1:
        ap.error("--viewers and --events must be at least 1")

    with tempfile.TemporaryDirectory() as tmp:
        child = subprocess.Popen([sys.executable, __file__, "--serve", tmp], stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            assert child.stdout is not None
            port = int(child.stdout.readline())
            mem0 = memory_kb(child.pid)
            t0 = time.perf_counter()
            viewers = Viewers(port, args.viewers)
            if not viewers.wait_all(0, 20):
                print(f"only {sum(0 in s for s in viewers.seen)} of {args.viewers} viewers connected", file=sys.stderr)
                return 1
            connect_s = time.perf_counter() - t0

            cpu0, w0 = cpu_seconds(child.pid), time.perf_counter()
            time.sleep(args.idle)
            idle_cpu = (cpu_seconds(child.pid) - cpu0) / (time.perf_counter() - w0)

            conn = http.client.HTTPConnection("127.0.0.1", port)
            latencies: list[float] = []
            answered: list[float] = []
            missed = 0
            cpu0, w0 = cpu_seconds(child.pid), time.perf_counter()
            for i in range(args.events):
                event = {"type": "stop"} if i % 5 == 4 else {"type": "roll", "dice": [2 + i % 5]}
                sent = time.perf_counter()
                answer = post(conn, event)
                answered.append((time.perf_counter() - sent) * 1000)
                if not answer.get("accepted"):
                    print(f"event {i} refused: {answer}", file=sys.stderr)
                    return 1
                mark = i + 1  # table_events after this event
                if not viewers.wait_all(mark, 5):
                    missed += sum(mark not in s for s in viewers.seen)
                for s in viewers.seen:
                    if mark in s:
                        latencies.append((s[mark] - sent) * 1000)
            wall = time.perf_counter() - w0
            load_cpu = cpu_seconds(child.pid) - cpu0
            mem1 = memory_kb(child.pid)
            conn.close()
            viewers.close()
        finally:
            child.terminate()
            child.wait(5)

    print(f"web load: {args.viewers} SSE viewers, {args.events} events posted one at a time (pig, /api/events)")
    print(f"  viewers connected in        {connect_s * 1000:8.1f} ms")
    print(f"  event -> viewer latency     median {statistics.median(latencies):6.2f} ms   "
          f"p99 {pct(latencies, 99):6.2f} ms   max {max(latencies):6.2f} ms   ({len(latencies)} samples, {missed} missed)")
    print(f"  POST answered (journalled)  median {statistics.median(answered):6.2f} ms   p99 {pct(answered, 99):6.2f} ms")
    print(f"  server CPU, idle viewers    {idle_cpu * 100:6.2f} % of one core")
    print(f"  server CPU under load       {load_cpu / wall * 100:6.1f} % of one core over {wall:.2f} s "
          f"= {load_cpu / args.events * 1000:.2f} ms CPU per event ({load_cpu / args.events / args.viewers * 1e6:.0f} us per event per viewer)")
    print(f"  server memory               RSS {mem0['VmRSS'] / 1024:.1f} MB before viewers -> {mem1['VmRSS'] / 1024:.1f} MB "
          f"with them (peak {mem1['VmHWM'] / 1024:.1f} MB), {mem1['Threads']} threads")
    return 0 if not missed else 1


if __name__ == "__main__":
    sys.exit(main())
