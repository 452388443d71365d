"""Latency from a button press to the displays: median and p99 in milliseconds.

Path measured, per press (a futsal goal or foul, alternating sides):

  keypad pin pulled low (gpiozero MockFactory) -> Keypad callback -> Session.submit
  -> view -> DisplayLink.show -> link thread encodes and writes the frame to a pty
  -> the display firmware (SimDisplay, the Pico's code on the pty's other end) has
     read and applied it                                    ["serial frame" figure]

  ... -> view -> LedScoreboard.show -> MAX7219 registers written through luma
     (a recording SPI interface)                            ["LED frame" figure]
  ... -> view -> LedScoreboard.show -> emulator frame       ["LED emulator" figure]

Target (docs/DESIGN budgets): <= 5 ms median, <= 20 ms p99.

    python bench/display_latency.py [N] [--camera]

``--camera`` has a camera's dice pipeline run flat out in the same process while
the buttons are pressed, as the appliance runs it (``refbox.camera.CameraWorker``
is a thread of the daemon): a settler (``vision.settle.Settler``) with a
camera's reader (``vision.dice.camera_reader``) fed drawn 1280x720 frames of ten
dice, the next as soon as the last is read (a camera whose frames take longer to
read than ``camera.interval_ms``, as on a slow Pi, does not wait). The reader's
Python holds the interpreter lock between OpenCV's calls, so the press's threads
wait for it; the frames it read during the presses are printed.
"""

from __future__ import annotations

import statistics
import sys
import threading
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from firmware_bridge.emulator import SimDisplay  # noqa: E402
from firmware_bridge.keypad import Keypad  # noqa: E402
from firmware_bridge.led import LedConfig, LedScoreboard, Max7219Segments  # noqa: E402
from firmware_bridge.link import DisplayLink  # noqa: E402
from rules import Session  # noqa: E402

warnings.filterwarnings("ignore", category=DeprecationWarning)
clock = time.perf_counter


class TimedSpi:
    def __init__(self) -> None:
        self.last_write = 0.0

    def command(self, *cmd: int) -> None:
        self.last_write = clock()

    def data(self, data: list[int]) -> None:
        self.last_write = clock()

    def cleanup(self) -> None:
        pass


def percentile(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def report(name: str, samples: list[float]) -> None:
    ms = [x * 1000 for x in samples]
    print(f"{name:<34} median {statistics.median(ms):7.3f} ms   p99 {percentile(ms, 99):7.3f} ms   (n={len(ms)})")


class BusyCamera:
    """A camera's dice pipeline reading drawn 10-dice frames flat out in a thread, until stopped."""

    def __init__(self) -> None:
        import cv2

        from vision.dice import camera_reader
        from vision.settle import Settler
        from vision.synth import render_dice

        cv2.setNumThreads(1)
        self.frames = [render_dice([1 + (i + k) % 6 for i in range(10)], seed=k, noise=2)[0] for k in range(3)]
        self.settler = Settler(camera_reader())
        self.read = 0
        self._halt = threading.Event()
        self._thread = threading.Thread(target=self._run, name="busy camera", daemon=True)

    def _run(self) -> None:
        while not self._halt.is_set():
            self.settler.feed(self.frames[(self.read // 20) % len(self.frames)], self.read / 10)  # (each picture still for 20 frames)
            self.read += 1

    def __enter__(self) -> "BusyCamera":
        self._thread.start()
        while self.read < 25:  # (past the reader's first looks and its first roll)
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self._halt.set()
        self._thread.join(10)


def main(n: int = 300, camera: bool = False) -> None:
    if camera:
        with BusyCamera() as busy:
            start = busy.read
            presses(n, ", a camera's dice pipeline reading 1280x720 frames of ten drawn dice flat out in the same process")
            print(f"camera: {busy.read - start} frames read during the presses")
    else:
        presses(n)


def presses(n: int, during: str = "") -> None:
    session = Session.start({"game": "futsal", "players": ["Home", "Away"]})
    session.submit({"type": "clock_start", "t": 0.0})
    spi = TimedSpi()
    max7219 = LedScoreboard(LedConfig(backend="max7219"), Max7219Segments(LedConfig(backend="max7219"), spi))
    emulated = LedScoreboard(LedConfig())
    serial_lat: list[float] = []
    led_lat: list[float] = []
    emu_lat: list[float] = []
    handled = threading.Event()

    with SimDisplay(clock=clock) as sim, DisplayLink(sim.url, clock=clock) as link:
        table_t = [0.0]

        def on_press(button: str) -> None:
            side = "home" if button.endswith("home") else "away"
            kind = "goal" if button.startswith("goal") else "foul"
            table_t[0] += 0.5
            session.submit({"type": kind, "team": side, "t": table_t[0]})
            view = session.view(table_t[0])
            link.show(view)
            max7219.show(view)
            led_done[0] = clock()
            emulated.show(view)
            emu_done[0] = clock()
            handled.set()

        led_done, emu_done = [0.0], [0.0]
        pad = Keypad({5: "goal_home", 6: "goal_away", 13: "foul_home", 19: "foul_away"}, on_press, pin_factory=MockFactory(), bounce_time=0.0)
        names = ["goal_home", "foul_away", "goal_away", "foul_home"]
        # warm up: first frame, imports, caches
        pad.press("goal_home")
        sim.wait_for(lambda s: s["frames_ok"] >= 1, 5)
        for i in range(n):
            before = sim.snapshot()["frames_ok"]
            handled.clear()
            pin = pad.pin_of(names[i % 4])
            t0 = clock()
            pin.drive_low()
            pin.drive_high()
            handled.wait(5)
            if not sim.wait_for(lambda s: s["frames_ok"] > before, 5):
                raise SystemExit("the display did not receive a frame within 5 s")
            assert sim.last_frame_at is not None
            serial_lat.append(sim.last_frame_at - t0)
            led_lat.append(spi.last_write - t0)
            emu_lat.append(emu_done[0] - t0)
        pad.close()
        status = link.status()
    print(f"display latency, {n} button presses (futsal goals/fouls), this machine{during}:")
    report("button -> serial frame at display", serial_lat)
    report("button -> MAX7219 registers (SPI)", led_lat)
    report("button -> LED emulator frame", emu_lat)
    print(f"link: frames_sent={status['frames_sent']} resends={status['resends']} acks={status['acks']}")
    med = statistics.median(serial_lat) * 1000
    print(f"target <= 5 ms median: {'met' if med <= 5 else 'MISSED'} ({med:.3f} ms)")


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=300, help="button presses (default 300)")
    ap.add_argument("--camera", action="store_true", help="with a camera's dice pipeline reading flat out in the same process")
    args = ap.parse_args()
    if args.n < 1:
        ap.error(f"N {args.n}: at least one press")
    main(args.n, camera=args.camera)
