"""Renders the web pages for the docs: docs/img/web-*.png (and the control page's Camera panel
holding a throw for an unsure die: web-camera-cocked.png, and the players' page then: web-pig-hold.png;
showing its picture then: web-camera-picture.png, and zones being drawn on it: web-camera-zones.png;
its Dice read panel filled in from the dice in view: web-reading-from-view.png).

A real table and journal (in a temporary folder), the real web app on a free local
port, Debian's Chromium through Playwright. Run from the repository root:

    PYTHONPATH=. python docs/img/make_screenshots.py [--out docs/img]

The futsal match runs on a hand-set table clock so the picture is the same each time.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, Served, chromium_missing

OUT = Path(__file__).resolve().parent


class HandClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def pig(tmp: Path) -> Served:
    s = Served(tmp / "pig.sqlite3", {"game": "pig", "players": ["Ann", "Bob", "Cid"], "options": {"target": 100}})
    for d in ([6], [4], [5], "stop", [3], [1], [6], [6], [2], "stop", [4], [5], [3], "stop", [5], [6]):
        s.submit({"type": "stop"} if d == "stop" else {"type": "roll", "dice": d})
    return s


def futsal(tmp: Path) -> Served:
    clock = HandClock()
    s = Served(tmp / "futsal.sqlite3", {"game": "futsal", "players": ["Lviv", "Kyiv"]}, clock=clock)
    steps: list[tuple[int, dict[str, Any]]] = [
        (0, {"type": "clock_start"}),
        (95, {"type": "foul", "team": "home", "player": 4}),
        (130, {"type": "goal", "team": "home", "player": 10}),
        (131, {"type": "clock_stop", "reason": "goal"}),
        (150, {"type": "clock_start"}),
        (200, {"type": "foul", "team": "away", "player": 7}),
        (260, {"type": "foul", "team": "home", "player": 6}),
        (300, {"type": "goal", "team": "away", "player": 9}),
        (301, {"type": "clock_stop", "reason": "goal"}),
        (320, {"type": "clock_start"}),
        (380, {"type": "foul", "team": "home", "player": 8}),
        (400, {"type": "card", "team": "home", "color": "red", "player": 8, "reason": "serious foul play"}),
        (402, {"type": "clock_stop", "reason": "foul"}),
        (420, {"type": "clock_start"}),
        (470, {"type": "goal", "team": "home", "player": 11}),
    ]
    for t, ev in steps:
        clock.now = float(t)
        s.submit({**ev, "t": t})
    clock.now = 500.0
    return s


def camera(served: Served, tmp: Path) -> Any:
    """A camera worker replaying one sample photo into the table; returns once the
    table has answered its reading."""
    import shutil
    import time

    from refbox.camera import CameraWorker, open_source

    folder = tmp / "camera"
    folder.mkdir()
    shutil.copy(OUT.parent.parent / "samples" / "dice" / "face-5.jpg", folder)
    worker = CameraWorker(lambda: open_source(f"folder:{folder}", hold_frames=10), served.table, interval=0.05)
    served.app.extensions["refbox.camera"] = worker
    worker.start()
    end = time.monotonic() + 30
    while worker.status["last"] is None and time.monotonic() < end:
        time.sleep(0.05)
    return worker


def cocked_camera(served: Served) -> Any:
    """A camera worker whose reader reads three dice, one of them unsure (cocked) and one less surely than
    ``camera.dice_confidence`` (0.7), as the control page then shows them; returns once the settler holds
    the throw for them."""
    import time

    from refbox.camera import CameraWorker
    from tests.support import SetDiceReader, StillCamera
    from vision.types import DieReading

    import numpy as np

    from vision.synth import draw_die

    reader = SetDiceReader([DieReading(5, (420.0, 300.0), 0.95, (385, 265, 455, 335)), DieReading(None, (640.0, 400.0), 0.3, (595, 355, 685, 445)),
                            DieReading(3, (860.0, 300.0), 0.6, (825, 265, 895, 335))])
    table = np.full((720, 1280, 3), (40, 110, 40), np.uint8)  # (the dice it reads so, drawn: the picture the Camera panel shows)
    for value, centre, angle in ((5, (420, 300), 0.0), (2, (640, 400), 40.0), (3, (860, 300), 10.0)):
        draw_die(table, value, centre, 64, angle)
    worker = CameraWorker(lambda: StillCamera(table, thrown=3), served.table, interval=0.05, dice_reader=lambda: reader, dice_confidence=0.7)  # (thrown: a settler starts disarmed)
    served.app.extensions["refbox.camera"] = worker
    worker.start()
    end = time.monotonic() + 30
    while worker.status["settling"] != "a die is unsure (cocked?)" and time.monotonic() < end:
        time.sleep(0.05)
    return worker


def shoot(page: Any, url: str, path: Path, full: bool = False) -> None:
    page.goto(url)
    page.wait_for_selector("#status.live")
    page.wait_for_timeout(300)
    page.screenshot(path=str(path), full_page=full)
    print(f"{path}: {path.stat().st_size // 1024} KB")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    why = chromium_missing()
    if why:
        print(f"make_screenshots: {why}", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d, sync_playwright() as p:
        tmp = Path(d)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tv = browser.new_page(viewport={"width": 1280, "height": 720})
        served = pig(tmp)
        worker = None
        try:
            shoot(tv, served.url + "/", args.out / "web-pig.png")
            worker = camera(served, tmp)  # the control page's Camera panel: a real worker, one sample photo
            ctl = browser.new_page(viewport={"width": 1024, "height": 768})
            ctl.goto(served.url + "/login")
            ctl.fill("#pin", served.pin)
            ctl.click("#login-button")
            ctl.wait_for_url("**/control")
            ctl.wait_for_selector("#buttons button")
            shoot(ctl, served.url + "/control", args.out / "web-control.png", full=True)
            worker.stop()
            worker = cocked_camera(served)  # the Camera panel when an unsure die holds the throw
            ctl.goto(served.url + "/control")
            ctl.wait_for_selector("#status.live")
            ctl.locator("#camera-state").filter(has_text="in view").wait_for()
            path = args.out / "web-camera-cocked.png"
            ctl.locator("#camera-panel").screenshot(path=str(path))
            print(f"{path}: {path.stat().st_size // 1024} KB")
            tv.goto(served.url + "/")  # the players' page meanwhile: what to do (the view's camera_hold)
            tv.locator("#camera-hold").wait_for()
            shoot(tv, served.url + "/", args.out / "web-pig-hold.png")
            ctl.click("#reading-from-view")  # the Dice read panel, filled in from the dice in view
            path = args.out / "web-reading-from-view.png"
            ctl.locator("#reading-panel").screenshot(path=str(path))
            print(f"{path}: {path.stat().st_size // 1024} KB")
            ctl.click("#camera-show")  # the Camera panel showing the picture, the dice read in it boxed
            ctl.wait_for_function("document.getElementById('camera-picture').complete && document.getElementById('camera-picture').naturalWidth > 0")
            path = args.out / "web-camera-picture.png"
            ctl.locator("#camera-panel").screenshot(path=str(path))
            print(f"{path}: {path.stat().st_size // 1024} KB")
            ctl.click("#zones-draw")  # zones drawn on the picture: a kept zone closed, an ignored area begun
            k = ctl.locator("#camera-picture").bounding_box()["width"] / 960
            for x, y in ((740, 40), (940, 40), (940, 500), (740, 500)):
                ctl.click("#camera-picture", position={"x": x * k, "y": y * k})
            ctl.click("#zone-close")
            ctl.fill("#zone-name", "ignore")
            for x, y in ((20, 400), (240, 400)):
                ctl.click("#camera-picture", position={"x": x * k, "y": y * k})
            path = args.out / "web-camera-zones.png"
            ctl.locator("#camera-panel").screenshot(path=str(path))
            print(f"{path}: {path.stat().st_size // 1024} KB")
        finally:
            if worker is not None:
                worker.stop()
            served.stop()
        served = futsal(tmp)
        try:
            shoot(tv, served.url + "/", args.out / "web-futsal.png")
        finally:
            served.stop()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
