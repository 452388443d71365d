"""Frame sources at the edge of the camera pipeline.

Every source has ``read() -> np.ndarray`` (a BGR frame) and ``close()``; a source
whose camera is gone raises :class:`CameraLost` with the reason. The runtime
wraps a source in :class:`Reconnecting`, which turns losses into a status and
retries on a back-off schedule, so the table keeps running (manual entry) while
the camera is away.

- :class:`FolderSource`: replay of image files and video files of a folder (or a
  single file), for ``--sim`` and tests;
- :class:`UsbCamera`: a USB (UVC) camera or a video device/URL through
  ``cv2.VideoCapture``;
- :class:`PiCamera`: the Raspberry Pi camera through picamera2. Without picamera2
  installed it raises :class:`CameraUnavailable` (it never falls back to a fake).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpg", ".mjpeg"})


class CameraLost(RuntimeError):
    """The camera stopped giving frames; ``reason`` says why (unplugged, replay over, ...)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class CameraUnavailable(RuntimeError):
    """A camera kind that cannot be used on this machine (e.g. picamera2 not installed)."""


class FrameSource(Protocol):
    def read(self) -> np.ndarray: ...

    def close(self) -> None: ...


class FolderSource:
    """Replay the images and videos of a folder (sorted by name) as camera frames.

    Each still image is given ``hold_frames`` times in a row (a camera looking at
    dice at rest gives many equal frames); a video gives its frames. With
    ``loop`` the replay starts over at the end, else :class:`CameraLost` is raised.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> _ = cv2.imwrite(os.path.join(d, "a.png"), np.zeros((4, 4, 3), np.uint8))
    >>> src = FolderSource(d, loop=False, hold_frames=2)
    >>> [src.read().shape for _ in range(2)]
    [(4, 4, 3), (4, 4, 3)]
    >>> src.read()
    Traceback (most recent call last):
    ...
    vision.sources.CameraLost: replay finished
    """

    def __init__(self, path: str | Path, *, loop: bool = True, hold_frames: int = 1) -> None:
        if hold_frames < 1:
            raise ValueError(f"hold_frames must be at least 1, got {hold_frames}")
        p = Path(path)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.suffix.lower() in IMAGE_SUFFIXES | VIDEO_SUFFIXES)
        elif p.is_file():
            files = [p]
        else:
            raise CameraLost(f"no such folder or file: {str(p)!r}")
        if not files:
            raise CameraLost(f"no images or videos in {str(p)!r}")
        self.files: list[Path] = files
        self.loop = loop
        self.hold_frames = hold_frames
        self._index = 0
        self._held = 0
        self._frame: np.ndarray | None = None
        self._video: Any = None
        self._closed = False

    def _next_file(self) -> None:
        if self._index >= len(self.files):
            if not self.loop:
                raise CameraLost("replay finished")
            self._index = 0
        f = self.files[self._index]
        self._index += 1
        if f.suffix.lower() in VIDEO_SUFFIXES:
            cap = cv2.VideoCapture(str(f))
            if not cap.isOpened():
                raise CameraLost(f"cannot open video {str(f)!r}")
            self._video = cap
            self._frame = None
        else:
            img = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if img is None:
                raise CameraLost(f"cannot read image {str(f)!r}")
            self._frame = img
            self._held = 0

    def read(self) -> np.ndarray:
        if self._closed:
            raise CameraLost("source closed")
        for _ in range(len(self.files) + 2):
            if self._video is not None:
                ok, frame = self._video.read()
                if ok:
                    return np.asarray(frame)
                self._video.release()
                self._video = None
            elif self._frame is not None and self._held < self.hold_frames:
                self._held += 1
                return self._frame
            self._next_file()
        raise CameraLost("no readable frames in the replay")

    def close(self) -> None:
        if self._video is not None:
            self._video.release()
            self._video = None
        self._closed = True


class UsbCamera:
    """A camera through ``cv2.VideoCapture`` (a device index, ``/dev/video*``, a file or a stream URL).

    ``capture`` builds the capture object (injectable for tests).
    """

    def __init__(
        self,
        index_or_path: int | str,
        *,
        width: int | None = 1280,
        height: int | None = 720,
        capture: Callable[[int | str], Any] | None = None,
    ) -> None:
        self.name = str(index_or_path)
        self._cap = (capture or cv2.VideoCapture)(index_or_path)
        if not self._cap.isOpened():
            raise CameraLost(f"cannot open camera {self.name!r}")
        if width:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)

    def read(self) -> np.ndarray:
        if self._cap is None:
            raise CameraLost(f"camera {self.name!r} closed")
        ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraLost(f"camera {self.name!r} gave no frame (unplugged?)")
        return np.asarray(frame)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCamera:
    """The Raspberry Pi camera through picamera2 (BGR frames of ``size``).

    Raises :class:`CameraUnavailable` when picamera2 is not installed (on the Pi:
    ``sudo apt install python3-picamera2``, and a venv made with
    ``--system-site-packages``).
    """

    def __init__(self, *, size: tuple[int, int] = (1280, 720), module: Any = None) -> None:
        if module is None:
            try:
                import picamera2 as module  # type: ignore[no-redef]
            except ImportError as e:
                raise CameraUnavailable(
                    "the Pi camera needs picamera2, which is not installed here "
                    "(on Raspberry Pi OS: sudo apt install python3-picamera2); use a USB camera or --sim"
                ) from e
        try:
            cam = module.Picamera2()
            cam.configure(cam.create_video_configuration(main={"size": size, "format": "RGB888"}))
            cam.start()
        except Exception as e:  # the library raises many kinds; all mean "no camera"
            raise CameraLost(f"Pi camera did not start: {e}") from e
        self._cam: Any = cam

    def read(self) -> np.ndarray:
        if self._cam is None:
            raise CameraLost("Pi camera closed")
        try:
            frame = self._cam.capture_array("main")
        except Exception as e:
            raise CameraLost(f"Pi camera gave no frame: {e}") from e
        # picamera2's "RGB888" is laid out B, G, R in memory: already OpenCV's order
        return np.ascontiguousarray(frame[:, :, :3])

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


@dataclass(frozen=True)
class CameraState:
    """What :class:`Reconnecting` reports: connected or not, why, and when it retries."""

    connected: bool
    reason: str = ""
    retry_at: float | None = None
    failures: int = 0


class Reconnecting:
    """Keep a camera going: on loss, report it and reopen on a back-off schedule.

    ``read(now)`` returns a frame, or None while the camera is away (the table
    goes on with manual entry). ``opener`` makes a fresh source (e.g.
    ``lambda: UsbCamera(0)``); time is the caller's clock.

    >>> class Dead:
    ...     def read(self): raise CameraLost("unplugged")
    ...     def close(self): pass
    >>> r = Reconnecting(Dead, backoff=(1.0, 2.0))
    >>> r.read(0.0) is None, r.state.reason, r.state.retry_at
    (True, 'unplugged', 1.0)
    """

    def __init__(self, opener: Callable[[], FrameSource], *, backoff: Sequence[float] = (0.5, 1.0, 2.0, 5.0)) -> None:
        if not backoff or any(b <= 0 for b in backoff):
            raise ValueError(f"backoff must be positive seconds, got {list(backoff)!r}")
        self.opener = opener
        self.backoff = tuple(backoff)
        self._source: FrameSource | None = None
        self._retry_at = 0.0
        self.state = CameraState(False, "not opened yet", 0.0, 0)
        self.on_change: Callable[[CameraState], None] | None = None

    def _set(self, state: CameraState) -> None:
        changed = state.connected != self.state.connected or state.reason != self.state.reason
        self.state = state
        if changed and self.on_change is not None:
            self.on_change(state)

    def _lost(self, reason: str, now: float) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # closing a dead device may fail too; it is gone either way
                pass
        self._source = None
        failures = self.state.failures + 1
        self._retry_at = now + self.backoff[min(failures - 1, len(self.backoff) - 1)]
        self._set(CameraState(False, reason, self._retry_at, failures))

    def read(self, now: float) -> np.ndarray | None:
        if self._source is None:
            if now < self._retry_at:
                return None
            try:
                self._source = self.opener()
            except (CameraLost, CameraUnavailable, OSError) as e:
                self._lost(getattr(e, "reason", str(e)), now)
                return None
        try:
            frame = self._source.read()
        except CameraLost as e:
            self._lost(e.reason, now)
            return None
        if not self.state.connected:
            self._set(CameraState(True, "", None, 0))
        return frame

    def close(self) -> None:
        if self._source is not None:
            self._source.close()
            self._source = None
