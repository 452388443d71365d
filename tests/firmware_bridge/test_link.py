"""DisplayLink against the real firmware code on a real pseudo-terminal pair."""

import time

import pytest
import serial

from firmware_bridge.link import DisplayLink, LinkSettingsError
from firmware_bridge.protocol import START

from .conftest import futsal_view

WAIT = 10.0  # generous: a loaded 2-core CI machine; the waits end as soon as the condition holds


def shows(clock):
    return lambda s: s["clock"] == clock


def test_view_reaches_the_display_and_is_acknowledged(sim):
    with DisplayLink(sim.url) as link:
        link.show(futsal_view("05:07", home=12, away=9))
        assert sim.wait_for(shows("05:07"), WAIT)
        snap = sim.snapshot()
        assert (snap["home"], snap["away"], snap["home_fouls"], snap["away_fouls"]) == ("12", "9", "2", "5")
        assert link.wait_for(lambda s: s["acks"] >= 1 and s["responding"], WAIT)
        status = link.status()
        assert status["connected"] and status["resends"] == 0 and status["firmware_version"] == 1


def test_latest_value_wins(sim):
    with DisplayLink(sim.url) as link:
        for second in range(60):
            link.show(futsal_view(f"00:{second:02d}"))
        assert sim.wait_for(shows("00:59"), WAIT)
        assert link.wait_for(lambda s: s["shown"] and s["shown"]["clock"] == "00:59", WAIT)
        assert link.status()["frames_sent"] <= 60


def test_garbage_on_the_line_both_ways_is_skipped(sim):
    noise = bytes([0x00, 0xFF, START, 0x30, START, 0x02, 0x99, 0x13, 0x37]) + b"line noise"
    sim.inbound_filter = lambda data: noise + data
    sim.outbound_filter = lambda data: noise + data[:3] + noise[:0] + data[3:]
    with DisplayLink(sim.url) as link:
        link.show(futsal_view("10:00"))
        assert sim.wait_for(shows("10:00"), WAIT)
        assert link.wait_for(lambda s: s["acks"] >= 1, WAIT)
        assert sim.snapshot()["skipped"] >= len(noise)
        assert link.status()["garbage_bytes"] >= len(noise)


def test_corrupted_frames_are_resent(sim):
    corrupt = {"left": 2}

    def flip_a_bit(data: bytes) -> bytes:
        if corrupt["left"] and len(data) > 8:
            corrupt["left"] -= 1
            return data[:8] + bytes([data[8] ^ 0x10]) + data[9:]
        return data

    sim.inbound_filter = flip_a_bit
    with DisplayLink(sim.url, ack_timeout=0.05) as link:
        link.show(futsal_view("19:59", home=4))
        assert sim.wait_for(shows("19:59"), WAIT)
        assert link.wait_for(lambda s: s["acks"] >= 1, WAIT)
        status = link.status()
        assert status["resends"] >= 2
        assert sim.snapshot()["bad_crc"] >= 2
        assert sim.snapshot()["home"] == "4"


def test_lost_acknowledgement_is_resent_and_applied_once_more(sim):
    lost = {"left": 1}

    def drop(data: bytes) -> bytes:
        if lost["left"]:
            lost["left"] -= 1
            return b""
        return data

    sim.outbound_filter = drop
    with DisplayLink(sim.url, ack_timeout=0.05) as link:
        link.show(futsal_view("01:00"))
        assert link.wait_for(lambda s: s["acks"] >= 1, WAIT)
        assert link.status()["resends"] >= 1
        assert sim.snapshot()["frames_ok"] >= 2 and sim.snapshot()["clock"] == "01:00"


def test_unplugged_display_is_reported_and_reconnected(sim):
    with DisplayLink(sim.url, retry_interval=0.02, keepalive=0.1) as link:
        link.show(futsal_view("03:00"))
        assert sim.wait_for(shows("03:00"), WAIT)
        sim.unplug()
        link.show(futsal_view("02:59"))
        assert link.wait_for(lambda s: not s["connected"] and s["disconnects"] == 1, WAIT)
        assert link.status()["last_error"]
        # the table goes on while the display is away; only the newest view matters
        link.show(futsal_view("02:58", home=5))
        sim.replug()
        assert link.wait_for(lambda s: s["connected"] and s["connects"] == 2, WAIT)
        # a display that comes back starts blank and is sent the newest view at once
        assert sim.wait_for(lambda s: s["clock"] == "02:58" and s["home"] == "5", WAIT)
        assert link.wait_for(lambda s: s["responding"], WAIT)


def test_the_caller_never_blocks_on_a_stuck_port():
    import threading

    release = threading.Event()
    opened = threading.Event()

    def stuck_opener(url, **kwargs):
        opened.set()
        release.wait(WAIT)  # a device that hangs in open()
        raise serial.SerialException("gave up")

    link = DisplayLink("/dev/does-not-matter", opener=stuck_opener)
    try:
        assert opened.wait(WAIT)
        worst = 0.0
        for i in range(500):
            t = time.perf_counter()
            link.show(futsal_view(f"{i // 60:02d}:{i % 60:02d}"))
            worst = max(worst, time.perf_counter() - t)
        assert worst < 0.05
        assert link.status()["connected"] is False
    finally:
        release.set()
        link.close()


def test_the_caller_never_blocks_while_the_display_is_unplugged(sim):
    with DisplayLink(sim.url, retry_interval=0.01) as link:
        sim.unplug()
        worst = 0.0
        for i in range(300):
            t = time.perf_counter()
            link.show(futsal_view(f"00:{i % 60:02d}"))
            worst = max(worst, time.perf_counter() - t)
        assert worst < 0.05
        assert link.wait_for(lambda s: not s["connected"] and s["last_error"], WAIT)


def test_missing_device_is_reported_not_raised(tmp_path):
    with DisplayLink(str(tmp_path / "nothing-here"), retry_interval=0.01) as link:
        link.show(futsal_view())
        assert link.wait_for(lambda s: s["last_error"] and "cannot open" in s["last_error"], WAIT)
        assert not link.status()["connected"]


def test_loop_url_has_no_display_to_answer():
    with DisplayLink("loop://", ack_timeout=0.01, tries_before_report=2, retry_interval=0.01) as link:
        link.show(futsal_view())
        assert link.wait_for(lambda s: s["connected"] and s["frames_sent"] >= 2 and not s["responding"]
                             and "no answer" in (s["last_error"] or ""), WAIT)


def test_spy_url_wraps_the_pty(sim, tmp_path):
    log = tmp_path / "spy.txt"
    with DisplayLink(f"spy://{sim.url}?file={log}") as link:
        link.show(futsal_view("00:42"))
        assert sim.wait_for(shows("00:42"), WAIT)
        assert link.wait_for(lambda s: s["acks"] >= 1, WAIT)
    assert "TX" in log.read_text() or "RX" in log.read_text()


def test_keepalive_resends_the_same_view(sim):
    with DisplayLink(sim.url, keepalive=0.05) as link:
        link.show(futsal_view("04:04"))
        assert link.wait_for(lambda s: s["acks"] >= 3, WAIT)
        assert link.status()["resends"] == 0


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"baudrate": 1234}, ["baudrate", "1234"]),
        ({"ack_timeout": 0}, ["ack_timeout", "0"]),
        ({"ack_timeout": "fast"}, ["ack_timeout", "'fast'"]),
        ({"retry_interval": -1}, ["retry_interval", "-1"]),
        ({"tries_before_report": 0}, ["tries_before_report", "0"]),
    ],
)
def test_settings_are_validated_with_messages_naming_the_value(kwargs, words):
    with pytest.raises(LinkSettingsError) as err:
        DisplayLink("loop://", **kwargs)
    for word in words:
        assert word in str(err.value)


def test_empty_url_is_refused():
    with pytest.raises(LinkSettingsError, match="url"):
        DisplayLink("")


def test_bad_view_is_refused_at_once_naming_the_key():
    with DisplayLink("loop://") as link:
        with pytest.raises(ValueError, match="home.score"):
            link.show(futsal_view(home=-1))


def test_latency_bench_runs_and_meets_the_budget(capsys):
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "display_latency.py"
    spec = importlib.util.spec_from_file_location("display_latency", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(20)
    out = capsys.readouterr().out
    assert "button -> serial frame at display" in out and "MAX7219" in out


def test_latency_bench_presses_the_buttons_while_a_camera_reads_flat_out(capsys):
    """--camera: the dice pipeline reads frames in a thread of the same process all through the presses."""
    import importlib.util
    import re
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "display_latency.py"
    spec = importlib.util.spec_from_file_location("display_latency", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(60, camera=True)
    out = capsys.readouterr().out
    assert "flat out in the same process" in out and "button -> serial frame at display" in out
    read = re.search(r"camera: (\d+) frames read during the presses", out)
    assert read is not None and int(read.group(1)) >= 1, out
