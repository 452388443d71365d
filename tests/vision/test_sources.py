"""Frame sources and the reconnect policy, without hardware."""

from __future__ import annotations

import sys
import threading
import time
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from tests.support import wait_until
from vision.sources import CameraLost, CameraUnavailable, FakeCapture, FolderSource, PiCamera, Reconnecting, UsbCamera

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "dice"


def write_images(d: Path, n: int) -> None:
    for i in range(n):
        cv2.imwrite(str(d / f"{i:02d}.png"), np.full((8, 8, 3), i * 10, np.uint8))


def test_folder_replays_in_order_with_hold_and_loop(tmp_path: Path) -> None:
    write_images(tmp_path, 3)
    src = FolderSource(tmp_path, loop=True, hold_frames=2)
    seen = [int(src.read()[0, 0, 0]) for _ in range(8)]
    assert seen == [0, 0, 10, 10, 20, 20, 0, 0]
    src.close()
    with pytest.raises(CameraLost, match="closed"):
        src.read()


def test_folder_without_loop_ends_with_reason(tmp_path: Path) -> None:
    write_images(tmp_path, 2)
    src = FolderSource(tmp_path, loop=False)
    src.read(), src.read()
    with pytest.raises(CameraLost) as e:
        src.read()
    assert e.value.reason == "replay finished"


def test_folder_plays_video_files(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    vw = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (32, 24))
    if not vw.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for i in range(5):
        vw.write(np.full((24, 32, 3), 40 * i, np.uint8))
    vw.release()
    src = FolderSource(path, loop=False)
    frames = [src.read() for _ in range(5)]
    assert [f.shape for f in frames] == [(24, 32, 3)] * 5
    assert frames[4].mean() > frames[0].mean()
    with pytest.raises(CameraLost):
        src.read()


def test_folder_errors_name_the_path(tmp_path: Path) -> None:
    with pytest.raises(CameraLost, match="no images"):
        FolderSource(tmp_path)
    with pytest.raises(CameraLost, match="no such"):
        FolderSource(tmp_path / "missing")


def test_samples_folder_is_a_camera() -> None:
    src = FolderSource(SAMPLES, hold_frames=1, loop=False)
    assert sum(1 for _ in iter_frames(src)) == 6


def iter_frames(src: FolderSource) -> Any:
    while True:
        try:
            yield src.read()
        except CameraLost:
            return


def numbered(k: int) -> np.ndarray:
    return np.full((1, 1, 1), k, np.int64)


def frame_number(frame: np.ndarray) -> int:
    return int(frame[0, 0, 0])


def test_a_capture_read_slower_than_it_films_gives_old_frames() -> None:
    """What UsbCamera is for: the driver's four buffers hold frames filmed just after the last read."""
    cap = FakeCapture(numbered, period=0.01)
    cap.read()
    time.sleep(0.3)
    asked = time.monotonic()
    ok, frame = cap.read()
    assert ok and frame is not None
    assert cap.filmed_at(frame_number(frame)) < asked - 0.2


def test_usb_camera_gives_a_frame_filmed_after_it_was_asked_for() -> None:
    cap = FakeCapture(numbered, period=0.01)
    cam = UsbCamera(0, capture=lambda _: cap)
    try:
        assert cap.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280 and cap.props[cv2.CAP_PROP_FRAME_HEIGHT] == 720
        first = frame_number(cam.read())
        time.sleep(0.3)
        asked = time.monotonic()
        later = frame_number(cam.read())
        # the frame being grabbed when it was asked for, or the next: not one of 0.3 s before
        assert cap.filmed_at(later) >= asked - 2 * cap.period
        assert later > first + 20
        assert frame_number(cam.read()) > later  # never the same frame twice
        assert cap.decoded == 3  # only the frames asked for are decoded
    finally:
        cam.close()
    assert cap.released


def test_usb_camera_reports_an_unplugged_camera() -> None:
    cap = FakeCapture(numbered, frames=2, period=0.01)
    cam = UsbCamera(0, capture=lambda _: cap)
    cam.read()
    cam.read()
    with pytest.raises(CameraLost, match="camera '0' gave no frame \\(unplugged\\?\\)"):
        cam.read()
    with pytest.raises(CameraLost, match="unplugged"):  # (and from then on)
        cam.read()
    cam.close()
    assert cap.released
    with pytest.raises(CameraLost, match="camera '0' closed"):
        cam.read()


def test_usb_camera_that_gives_no_frame_in_time() -> None:
    stuck = threading.Event()

    class Stuck(FakeCapture):
        def grab(self) -> bool:
            stuck.wait()
            return super().grab()

    cap = Stuck(numbered, period=0.01)
    cam = UsbCamera("/dev/video3", capture=lambda _: cap, timeout=0.2)
    with pytest.raises(CameraLost, match="camera '/dev/video3' gave no frame in 0.2 s"):
        cam.read()
    cam.close()  # the grab is still waiting: the capture is released when it returns
    assert not cap.released
    stuck.set()
    assert wait_until(lambda: cap.released, timeout=5.0)


def test_usb_camera_that_cannot_decode_its_frame() -> None:
    class Garbled(FakeCapture):
        def retrieve(self) -> tuple[bool, np.ndarray | None]:
            return False, None

    cam = UsbCamera(1, capture=lambda _: Garbled(numbered, period=0.01))
    with pytest.raises(CameraLost, match="camera '1' gave a frame that could not be decoded"):
        cam.read()
    cam.close()


def test_usb_camera_whose_device_fails_mid_grab() -> None:
    class Vanishing(FakeCapture):
        def grab(self) -> bool:
            raise cv2.error("VIDIOC_DQBUF: No such device")

    cam = UsbCamera(2, capture=lambda _: Vanishing(numbered))
    with pytest.raises(CameraLost, match="camera '2' failed: VIDIOC_DQBUF: No such device"):
        cam.read()
    cam.close()


def test_usb_camera_closed_while_a_read_waits() -> None:
    never = threading.Event()

    class Stuck(FakeCapture):
        def grab(self) -> bool:
            never.wait(0.5)
            return False

    cam = UsbCamera(0, capture=lambda _: Stuck(numbered), timeout=30.0)
    raised: list[str] = []

    def reader() -> None:
        try:
            cam.read()
        except CameraLost as e:
            raised.append(e.reason)

    t = threading.Thread(target=reader)
    t.start()
    time.sleep(0.05)
    cam.close()
    t.join(timeout=5.0)
    assert raised == ["camera '0' closed"]


def test_usb_camera_that_does_not_open() -> None:
    with pytest.raises(CameraLost, match="cannot open camera '/dev/video7'"):
        UsbCamera("/dev/video7", capture=lambda _: FakeCapture(numbered, opened=False))


def test_usb_camera_timeout_must_be_positive() -> None:
    with pytest.raises(ValueError, match="timeout 0: expected seconds above 0"):
        UsbCamera(0, capture=lambda _: FakeCapture(numbered), timeout=0)


def test_pi_camera_without_picamera2_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    with pytest.raises(CameraUnavailable, match="picamera2"):
        PiCamera()


def test_pi_camera_through_picamera2_api() -> None:
    class Cam:
        def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
            return {"main": main}

        def configure(self, cfg: dict[str, Any]) -> None:
            self.cfg = cfg

        def start(self) -> None:
            pass

        def capture_array(self, name: str) -> np.ndarray:
            return np.zeros((720, 1280, 3), np.uint8)

        def stop(self) -> None:
            pass

        def close(self) -> None:
            pass

    mod = types.SimpleNamespace(Picamera2=Cam)
    cam = PiCamera(module=mod)
    assert cam.read().shape == (720, 1280, 3)
    cam.close()
    with pytest.raises(CameraLost):
        cam.read()


def test_reconnecting_reports_retries_and_recovers() -> None:
    opened: list[FakeCapture] = []
    plan = iter([FakeCapture(numbered, frames=2), FakeCapture(numbered, opened=False), FakeCapture(numbered, frames=3)])

    def opener() -> UsbCamera:
        cap = next(plan)
        opened.append(cap)
        return UsbCamera(0, capture=lambda _: cap)

    changes: list[tuple[bool, str]] = []
    r = Reconnecting(opener, backoff=(1.0, 2.0))
    r.on_change = lambda st: changes.append((st.connected, st.reason))
    assert r.read(0.0) is not None and r.state.connected
    assert r.read(0.1) is not None
    assert r.read(0.2) is None  # unplugged
    assert not r.state.connected and r.state.retry_at == pytest.approx(1.2)
    assert r.read(0.5) is None and len(opened) == 1  # waits for the back-off
    assert r.read(1.3) is None and len(opened) == 2  # reopen fails: longer wait
    assert r.state.retry_at == pytest.approx(3.3)
    assert r.read(3.4) is not None and r.state.connected
    assert changes[0] == (True, "") and changes[1][0] is False and changes[-1] == (True, "")
    r.close()
    assert opened[-1].released
