"""Frame sources and the reconnect policy, without hardware."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision.sources import CameraLost, CameraUnavailable, FolderSource, PiCamera, Reconnecting, UsbCamera

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


class FakeCapture:
    def __init__(self, frames: int, opened: bool = True) -> None:
        self.left = frames
        self.opened = opened
        self.props: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.zeros((720, 1280, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_usb_camera_reads_and_reports_loss() -> None:
    cap = FakeCapture(2)
    cam = UsbCamera(0, capture=lambda _: cap)
    assert cap.props[cv2.CAP_PROP_FRAME_WIDTH] == 1280
    assert cam.read().shape == (720, 1280, 3)
    cam.read()
    with pytest.raises(CameraLost, match="unplugged"):
        cam.read()
    cam.close()
    assert cap.released


def test_usb_camera_that_does_not_open() -> None:
    with pytest.raises(CameraLost, match="cannot open camera '/dev/video7'"):
        UsbCamera("/dev/video7", capture=lambda _: FakeCapture(0, opened=False))


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
    plan = iter([FakeCapture(2), FakeCapture(0, opened=False), FakeCapture(3)])

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
