"""Latency from a table's view to the club dashboard's watcher, through a real Mosquitto.

Path measured, per view (a Pig view with a changing score):

  ClubPublisher.show -> sender thread -> paho publish (QoS 1, retained) -> mosquitto
  -> ClubWatcher's paho client -> summary -> the watcher's table entry updated

"one at a time": a view, then wait until the watcher holds it, N times (median, p99).
"burst": N views shown back to back (a clock ticking far faster than any real one);
the publisher skips the views that the broker has not yet had time for, so the
figure is how many reached the watcher and how long until the last one did.

    python bench/club_latency.py [N]      (needs /usr/sbin/mosquitto)
"""

from __future__ import annotations

import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from refbox.club import Broker, ClubPublisher, ClubWatcher  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def view(i: int) -> dict:
    return {"game": "pig", "players": [{"name": "Ann", "score": i}, {"name": "Bob", "score": 0}], "turn": "Ann",
            "turn_total": i % 7, "winner": None, "events": i}


def wait_for(predicate, timeout: float = 10.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > end:
            raise SystemExit("timed out")
        time.sleep(0.0005)


def main(n: int) -> None:
    mosquitto = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    if not Path(mosquitto).exists():
        raise SystemExit("bench/club_latency.py needs mosquitto (apt-get install mosquitto)")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        conf = Path(tmp) / "mosquitto.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
        broker_proc = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(lambda: _listening(port))
            run(port, n)
        finally:
            broker_proc.terminate()
            broker_proc.wait(5)


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def run(port: int, n: int) -> None:
    watcher = ClubWatcher(Broker("127.0.0.1", port), clock=time.perf_counter).start()
    pub = ClubPublisher(Broker("127.0.0.1", port), "bench-1").start()
    wait_for(lambda: watcher.connected and pub.status()["connected"])

    def seen(i: int) -> float | None:
        entry = watcher.tables().get("bench-1")
        if entry and entry["view"] and entry["view"]["events"] == i:
            return float(entry["updated"])
        return None

    pub.show(view(0))
    wait_for(lambda: seen(0) is not None)
    lat = []
    for i in range(1, n + 1):
        t0 = time.perf_counter()
        pub.show(view(i))
        version = watcher.version
        while seen(i) is None:
            version = watcher.wait(version, 5.0)
        arrived = seen(i)
        assert arrived is not None
        lat.append((arrived - t0) * 1000)
    lat.sort()
    print(f"one at a time, {n} views: median {statistics.median(lat):.2f} ms, "
          f"p99 {lat[int(0.99 * (n - 1))]:.2f} ms, max {lat[-1]:.2f} ms")

    base = n + 1
    received, published = watcher.received, pub.status()["published"]
    version = watcher.version
    t0 = time.perf_counter()
    for i in range(base, base + n):
        pub.show(view(i))
    shown = time.perf_counter() - t0
    last = base + n - 1
    while True:
        version = watcher.wait(version, 5.0)
        entry = watcher.tables()["bench-1"]
        if entry["view"]["events"] == last:
            break
    total = time.perf_counter() - t0
    wait_for(lambda: not pub.status()["pending"])
    print(f"burst of {n} views shown in {shown * 1000:.1f} ms: the last reached the watcher after {total * 1000:.1f} ms; "
          f"{pub.status()['published'] - published} were published and {watcher.received - received} reached the "
          "watcher (the rest skipped: latest value wins)")
    pub.close()
    watcher.close()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
