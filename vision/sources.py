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
  installed it raises :class:`CameraUnavailable` (it never falls back to a fake);
- :class:`FakeCapture`: a camera as ``cv2.VideoCapture`` sees it (films at its own
  rate into a few buffers), for tests and benches of :class:`UsbCamera`.
"""

from __future__ import annotations

import threading
import time
from collections import deque
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
    """A camera through ``cv2.VideoCapture`` (a device index, ``/dev/video*``, or a stream URL): each
    :meth:`read` gives the first frame the camera delivers after it was called.

    A camera films at its own rate (30 frames a second) into its driver's buffers
    (V4L2: four, as OpenCV asks for), and ``VideoCapture.read`` takes the oldest
    frame waiting there. The table reads a frame every ``camera.interval_ms`` (100),
    more slowly than the camera films, so the buffers stay full and every frame
    read would be four reads old: dice seen as they lay about 0.4 s before, and a
    roll settled that much later (``bench/camera_latency.py``). So a thread takes each frame from the driver as it comes
    (``grab``, which does not decode it) and decodes (``retrieve``) only the
    first one grabbed after a :meth:`read` asked for one.

    :meth:`read` waits for it up to ``timeout`` seconds (at most a frame's time
    from a working camera); a camera that gives none, or fails to grab or
    decode one, raises :class:`CameraLost` naming the camera and the reason.
    ``capture`` builds the capture object (injectable for tests: it needs
    ``isOpened``, ``set``, ``grab``, ``retrieve`` and ``release``). A video
    file is replayed frame by frame by :class:`FolderSource` instead: this
    thread would race through it.
    """

    def __init__(
        self,
        index_or_path: int | str,
        *,
        width: int | None = 1280,
        height: int | None = 720,
        capture: Callable[[int | str], Any] | None = None,
        timeout: float = 5.0,
    ) -> None:
        if not timeout > 0:
            raise ValueError(f"timeout {timeout!r}: expected seconds above 0")
        self.name = str(index_or_path)
        self.timeout = timeout
        cap = (capture or cv2.VideoCapture)(index_or_path)
        if not cap.isOpened():
            raise CameraLost(f"cannot open camera {self.name!r}")
        if width:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        if height:
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self._cap: Any = cap
        self._changed = threading.Condition()  # guards what follows; notified when a frame is handed over or the camera fails
        self._asked = 0  # frames read() has asked for
        self._given = 0  # ... and the grabbing thread has handed over (the last in _frame)
        self._frame: np.ndarray | None = None
        self._error: str | None = None  # why the camera gives no more frames
        self._closing = threading.Event()
        self._released = False
        self._grabber = threading.Thread(target=self._grab, name=f"camera {self.name}", daemon=True)
        self._grabber.start()

    def _grab(self) -> None:
        """Take every frame from the driver as it comes; decode the first one after read() asked (the thread)."""
        try:
            while not self._closing.is_set():
                if not self._cap.grab():
                    self._fail(f"camera {self.name!r} gave no frame (unplugged?)")
                    return
                with self._changed:
                    asked = self._asked
                if asked == self._given:
                    continue
                ok, frame = self._cap.retrieve()
                if not ok or frame is None:
                    self._fail(f"camera {self.name!r} gave a frame that could not be decoded")
                    return
                with self._changed:
                    self._frame, self._given = np.asarray(frame), asked
                    self._changed.notify_all()
        except Exception as e:  # (cv2.error: a device that vanishes mid-grab) the reason goes to read(), which raises it
            self._fail(f"camera {self.name!r} failed: {e}")
        finally:
            if self._closing.is_set():
                self._release()

    def _fail(self, reason: str) -> None:
        with self._changed:
            self._error = reason
            self._changed.notify_all()

    def _release(self) -> None:
        with self._changed:
            if not self._released:
                self._released = True
                self._cap.release()

    def read(self) -> np.ndarray:
        with self._changed:
            if self._closing.is_set():
                raise CameraLost(f"camera {self.name!r} closed")
            if self._error is not None:
                raise CameraLost(self._error)
            self._asked += 1
            asked = self._asked
            self._changed.wait_for(lambda: self._given >= asked or self._error is not None or self._closing.is_set(), self.timeout)
            if self._given >= asked and self._frame is not None:
                return self._frame
            if self._error is not None:
                raise CameraLost(self._error)
            if self._closing.is_set():
                raise CameraLost(f"camera {self.name!r} closed")
            raise CameraLost(f"camera {self.name!r} gave no frame in {self.timeout:g} s")

    def close(self) -> None:
        """Stop grabbing and release the camera (by the grabbing thread, once its last grab returns)."""
        with self._changed:
            self._closing.set()
            self._changed.notify_all()  # (a read waiting in another thread: closed)
        self._grabber.join(timeout=self.timeout)
        if not self._grabber.is_alive():
            self._release()


class FakeCapture:
    """``cv2.VideoCapture`` of a camera as OpenCV's V4L2 backend sees it, for tests and benches
    (:class:`UsbCamera`'s ``capture``).

    Frame k, ``scene(k)``, is filmed at ``start + k * period`` (``start``: when it
    was made) into one of the driver's ``buffers``; while all of them hold frames
    not yet taken, the frames filmed are dropped. ``grab`` takes the oldest frame
    filmed, waiting for the next one when there is none; ``retrieve`` decodes
    it; ``read`` does both, as ``VideoCapture.read``. Once ``frames`` frames
    have been decoded the camera is unplugged: ``grab`` fails.

    >>> cap = FakeCapture(lambda k: np.full((1, 1, 1), k), period=0.001)
    >>> ok, frame = cap.read()
    >>> ok, int(frame[0, 0, 0]) >= 0
    (True, True)
    """

    def __init__(self, scene: Callable[[int], np.ndarray], *, period: float = 1 / 30, buffers: int = 4, frames: int | None = None, opened: bool = True) -> None:
        if not period > 0 or buffers < 1:
            raise ValueError(f"period {period!r}, buffers {buffers!r}: expected seconds above 0 and 1 buffer or more")
        self.scene, self.period, self.buffers, self.frames, self.opened = scene, period, buffers, frames, opened
        self.props: dict[int, float] = {}
        self.released = False
        self.start = time.monotonic()
        self.filming = 0  # the next frame to be filmed
        self.queue: deque[int] = deque()  # frames filmed and not taken yet, oldest first
        self.current: int | None = None  # the frame grabbed last
        self.decoded = 0

    def filmed_at(self, k: int) -> float:
        """When frame ``k`` is filmed (``time.monotonic``)."""
        return self.start + k * self.period

    def _film(self) -> None:
        while self.filmed_at(self.filming) <= time.monotonic():
            if len(self.queue) < self.buffers:
                self.queue.append(self.filming)
            self.filming += 1

    def isOpened(self) -> bool:  # noqa: N802 (OpenCV's name)
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def grab(self) -> bool:
        if self.frames is not None and self.decoded >= self.frames:
            return False
        self._film()
        if not self.queue:
            time.sleep(max(0.0, self.filmed_at(self.filming) - time.monotonic()))
            self._film()
        self.current = self.queue.popleft()
        return True

    def retrieve(self) -> tuple[bool, np.ndarray | None]:
        if self.current is None:
            return False, None
        self.decoded += 1
        return True, self.scene(self.current)

    def read(self) -> tuple[bool, np.ndarray | None]:
        return self.retrieve() if self.grab() else (False, None)

    def release(self) -> None:
        self.released = True


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
