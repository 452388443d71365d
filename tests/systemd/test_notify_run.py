"""`refbox run` as systemd runs it (Type=notify, WatchdogSec=): the real program
under a real notify socket. READY=1 comes after the journal replay and the devices,
WATCHDOG=1 pings follow the table's loop, STOPPING=1 on SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ready_after_replay_and_devices_then_watchdog_pings(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(60)
    log = tmp_path / "run.log"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000"}
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "refbox", "run", "--sim", "--no-keyboard", "--port", "0", "--journal", str(tmp_path / "j.sqlite3")],
            stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp_path, start_new_session=True,
        )
    try:
        ready = sock.recv(200).decode()
        text = log.read_text()
        assert ready.startswith("READY=1\nSTATUS=pig: "), ready
        for before in ("journal ", "serial display on", "LED scoreboard", "camera: folder:", "web page on http://127.0.0.1:"):
            assert before in text, f"READY=1 came before {before!r} was logged:\n{text}"
        pings = []
        end = time.monotonic() + 5
        while len(pings) < 3 and time.monotonic() < end:
            msg = sock.recv(200).decode()
            if msg == "WATCHDOG=1":
                pings.append(time.monotonic())
        assert len(pings) == 3, pings
        assert pings[-1] - pings[0] < 1.0  # every ~0.2 s (half of WatchdogSec)
        proc.send_signal(signal.SIGTERM)
        msgs = []
        while "STOPPING=1" not in msgs:
            msgs.append(sock.recv(200).decode())
        assert proc.wait(15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
