"""The camera edge: frames from a source, settled readings into the table.

A lost camera is reported and retried with back-off; the table keeps running and
rolls can be entered by hand meanwhile (the view's ``camera_hold`` ``lost`` tells the
players). The operator may pause the camera: it reads, but sends nothing to the table.
"""

from __future__ import annotations

import errno
import logging
import os
import queue
import statistics
import threading
import time
from collections import deque
from typing import Any, Callable, Sequence

log = logging.getLogger(__name__)

CHOOSE_NETWORK = "auto"
"""``camera.dice_network`` for a camera that chooses the standard or the clear network from its own
frames (:class:`vision.dice.ChoosingReader`): ``vision.dice.CHOOSE``, written out here so that this
module loads without OpenCV (a test holds the two together)."""


def tell_when_taken(camera: Any, answer: Any, values: Sequence[int] | None) -> None:
    """Once the table takes a throw entered by hand (``answer``, the table's future for it), tell ``camera``
    (a :class:`CameraWorker`; None: no camera) with its ``values`` (:meth:`CameraWorker.entered_by_hand`);
    a throw the table refuses, or fails to record, is not told."""
    if camera is None:
        return

    def tell(done: Any) -> None:
        if not done.cancelled() and done.exception() is None and done.result().accepted:
            camera.entered_by_hand(values)

    answer.add_done_callback(tell)


def open_source(spec: str, *, hold_frames: int = 30) -> Any:
    """``usb:0`` / ``usb:/dev/video2``, ``picamera``, ``folder:PATH`` (images or a video file).

    A folder's still photos are each shown ``hold_frames`` times, as dice at rest
    would be seen by a camera, so the settler sees one roll per photo."""
    from vision import sources

    kind, _, arg = spec.partition(":")
    if kind == "usb":
        return sources.UsbCamera(int(arg) if arg.isdigit() else arg)
    if kind == "picamera":
        return sources.PiCamera()
    if kind == "folder":
        return sources.FolderSource(arg, loop=True, hold_frames=hold_frames)
    raise ValueError(f"camera.source {spec!r}: expected usb:N, usb:/dev/videoN, picamera, folder:PATH or none")


def frame_problem(frame: Any) -> str | None:
    """Why ``frame`` is no picture the readers can read (a colour picture: uint8, (height, width, 3),
    BGR), or None when it is one.

    >>> import numpy as np
    >>> frame_problem(np.zeros((48, 64), np.uint8))
    'expected a colour picture of 8-bit values, (height, width, 3), got shape (48, 64), uint8'
    >>> frame_problem(np.zeros((48, 64, 3), np.uint8)) is None
    True
    """
    shape, dtype = getattr(frame, "shape", None), getattr(frame, "dtype", None)
    if shape is not None and len(shape) == 3 and shape[2] == 3 and shape[0] > 0 and shape[1] > 0 and str(dtype) == "uint8":
        return None
    return f"expected a colour picture of 8-bit values, (height, width, 3), got shape {shape}, {dtype}"


def sync_folder(path: str) -> None:
    """Flush the folder holding ``path`` to the disk: a file made, replaced or removed there survives a power
    cut once this returns (a file system that cannot flush a folder, EINVAL, keeps it as it does)."""
    fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno != errno.EINVAL:
            raise
    finally:
        os.close(fd)


def write_whole(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: a temporary file beside it, flushed to the disk, put in its
    place and its folder flushed (a power cut meanwhile leaves the file as it was). Raises OSError, leaving no
    temporary file, when it cannot."""
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}-", dir=os.path.dirname(os.path.abspath(path)))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        sync_folder(path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


PAUSED = "paused"
"""The view's ``camera_hold`` while the operator has paused the camera (:meth:`CameraWorker.pause`)."""
PAUSED_REASON = "the camera is paused: not sent to the table"
"""Why a reading taken while paused did not reach the table (``status["last"]["reason"]``)."""

READ_TIMES = 50
"""How many of the last pictures read the camera's ``status["read_ms"]`` is the median of."""


def next_frame_wait(interval: float, asked: float, now: float) -> float:
    """Seconds to wait before asking for the next frame, so that frames are asked for every
    ``interval`` seconds (``camera.interval_ms``) when reading one takes less: ``asked`` is when the
    last frame was asked for, ``now`` is after it was read (a USB camera's read waits for a fresh
    frame, up to one frame time, and the readers take their share). A frame that took the whole
    interval or longer is followed by the next one at once.

    >>> next_frame_wait(0.25, 10.0, 10.125), next_frame_wait(0.25, 10.0, 10.25), next_frame_wait(0.25, 10.0, 10.5)
    (0.125, 0.0, 0.0)
    """
    return max(0.0, interval - (now - asked))


def takes_tiles(game: Any) -> bool:
    """Does the game read domino tiles (rather than dice) from the camera?"""
    from rules.game import Game

    return type(game).from_tiles is not Game.from_tiles


def takes_camera(game: Any) -> bool:
    """Does the game take the camera's readings at all: dice (it has ``roll`` events) or domino tiles? Billiards and
    the field sports take none, so what holds the camera is no news to their players (``Table``'s view).

    >>> from rules.registry import get_game
    >>> [takes_camera(get_game(name)) for name in ("pig", "all-fives", "futsal", "snooker")]
    [True, True, False, False]
    """
    return "roll" in game.events or takes_tiles(game)


def calibration_text(zones: Any) -> str:
    """The calibration file's text for ``zones`` (a ``vision.zones.Zones``): its calibration as JSON.

    >>> from vision.zones import Zones
    >>> print(calibration_text(Zones.from_calibration({"zones": {}})), end="")
    {
     "zones": {}
    }
    """
    import json

    return json.dumps(zones.to_calibration(), indent=1) + "\n"


def dice_entries(dice: Sequence[Any], moved: Sequence[bool], zones: Any = None) -> list[Any]:
    """What the table gets from settled dice (``Table.reading``): plain values, or, when
    the calibration has a ``kept`` zone, ``{"value", "zone", "moved"}`` for each die
    (``Game.read_dice`` tells kept dice from thrown ones by them).

    >>> from vision.types import DieReading
    >>> from vision.zones import Zones
    >>> d = [DieReading(6, (5.0, 5.0), 0.9, zone="kept"), DieReading(2, (50.0, 5.0), 0.9)]
    >>> dice_entries(d, [False, True])
    [6, 2]
    >>> kept = Zones.from_calibration({"zones": {"kept": [[0, 0], [10, 0], [10, 10]]}})
    >>> dice_entries(d, [False, True], kept)[0]
    {'value': 6, 'zone': 'kept', 'moved': False}
    """
    from rules.game import KEPT_ZONE

    if zones is None or KEPT_ZONE not in zones.names:
        return [d.value for d in dice]
    return [{"value": d.value, "zone": d.zone, "moved": bool(m)} for d, m in zip(dice, moved)]


class CameraWorker(threading.Thread):
    """Reads a frame every ``interval`` seconds (or as fast as they are read, when that is slower:
    :func:`next_frame_wait`), feeds the settler, submits each settled reading once: dice for
    the dice games, the set of tiles on the table for dominoes (the table's current
    game decides, frame by frame, so a new game from the control page just works).

    Tiles go to the table with their geometry (``vision.tile_contacts``): which tiles
    each one touches, and with ``zones`` (a calibration whose zones are named after the
    players or seats) where it lies, for the end-of-hand count. Dice go with their
    zone when the calibration has a ``kept`` zone (:func:`dice_entries`), read by the network
    ``dice_network`` (``camera.dice_network``: a name or an ONNX file,
    :func:`vision.dice_model.network_path`, which refuses one it does not know), or
    ``auto`` (:data:`CHOOSE_NETWORK`): by the network the camera's frames show suits
    its dice (:class:`vision.dice.ChoosingReader`), named in ``status["dice_network"]``
    as ``auto (standard)`` or ``auto (clear)``.

    ``status["dice_parts"]`` says how the dice reader looks at the frames
    (:class:`vision.dice.DiceReader`): True, only at the parts that differ from
    the table; False, at whole frames (slower), since a die lay outside those
    parts (dice the tray's own colour, or a mark on it read as a die), which is
    logged when it happens; None, not known yet.

    A picture that cannot be read (no colour picture of 8-bit values,
    :func:`frame_problem`, or one a reader fails on) stops nothing: it is counted
    in ``status["unreadable"]``, why is kept in ``status["reading_error"]`` until
    a picture is read again (the table's health and the control page say so
    meanwhile), the first of a run of failures alike is logged (a reader's fault
    with its traceback), and the camera goes on with the next picture.

    ``status["read_ms"]`` is how long the camera takes to read a picture here: the median of the last
    :data:`READ_TIMES` pictures read (settler and reader, milliseconds of the wall clock; None before one).
    Above ``interval`` the camera reads pictures one after another, as fast as it can (a Pi 4 reads about
    3 to 4 times slower than a desktop: docs/vision.md), and the control page says so.

    :meth:`pause` stops its readings from reaching the table (``status["paused"]``; the view's ``camera_hold``
    ``paused``) while it goes on reading: the control page shows what it reads (``status["last"]``, not
    accepted, its reason that the camera is paused), and the players enter their throws by hand.

    ``status["settling"]`` says what the settler saw in the last picture, so that a roll that does
    not come is no mystery at the table: ``a die is unsure (cocked?)`` (it holds the roll until
    someone settles the die or enters the throw by hand), ``hand in the picture``, ``moving``,
    ``settling``, ``waiting for agreement``, ``already reported``, ``entered by hand`` (the throw it held
    was entered by hand: :meth:`entered_by_hand`, :meth:`heard`), ``at rest since the camera started:
    waiting for a throw`` (its settler starts disarmed, and is kept through a reconnect:
    ``vision.settle.Settler``'s ``armed`` and ``reset``), ... (``vision.settle.SettleStatus``'s
    reasons; a domino table's, ``vision.tile_settle.TileSettler.reason``, ``a tile is unsure`` among them).
    While a die holds the roll so, ``status["in_view"]`` lists the dice of that picture, top to bottom:
    ``value`` (None: unsure), ``confidence`` and ``sure`` (read surely enough for a roll), so that the
    players see which die to settle; else it is empty.

    ``zones`` (a ``vision.zones.Zones``) is its calibration, and ``zones_file`` the file a calibration
    drawn on the control page is saved to (:meth:`save_zones`), which the camera uses from its next picture on.
    A camera nudged (a table bumped) has its zones moved with the picture (``vision.settle.Settler``'s
    point 6), kept in that file, and ``status["zones_moved"]`` says how far in all since they were drawn
    ([dx, dy] frame pixels; None: not moved).
    ``pause_file`` keeps a pause (:meth:`pause`) across a restart: a camera whose file is there starts paused.

    ``clock`` (seconds) times the frames for the settlers and paces them. ``dice_reader`` makes the
    dice reader of each connection (default :func:`vision.dice.camera_reader` of ``dice_network``).
    ``dice_confidence`` (``camera.dice_confidence``) is the least confidence of every die of a throw
    taken: a die read less surely holds it as an unsure one does (``vision.settle.Settler``'s
    ``min_confidence``; 0.0, the default here: any die the reader reads)."""

    def __init__(self, opener: Callable[[], Any], table: Any, *, interval: float = 0.1,
                 clock: Callable[[], float] = time.monotonic, zones: Any = None, dice_network: str = CHOOSE_NETWORK,
                 dice_reader: Callable[[], Any] | None = None, dice_confidence: float = 0.0, zones_file: str | None = None,
                 pause_file: str | None = None) -> None:
        from vision.dice import camera_reader, params_for

        super().__init__(name="camera", daemon=True)
        self.opener, self.table, self.interval, self.clock = opener, table, interval, clock
        self.zones = zones
        self.zones_file = zones_file  # where a calibration drawn on the control page is kept (save_zones); None: nowhere
        self._new_zones: queue.SimpleQueue[Any] = queue.SimpleQueue()  # calibrations saved, for the next picture (save_zones)
        self._zones_lock = threading.Lock()  # (a calibration saved on the control page, and zones moved with a nudged camera, one at a time)
        self._zones_motion = (0.0, 0.0, 0.0)  # (how the zones moved in all since they were drawn: motions_in_all's dx, dy, turn)
        self.calibration = zones  # the newest calibration: the last saved, which the next picture uses (GET /api/camera/zones)
        self.dice_network = dice_network
        self.dice_confidence = dice_confidence
        self.dice_params = params_for(dice_network)  # (refuses a network it does not know, naming it)
        self.network_file = self.dice_params.network  # (None: the standard network, read first when the camera chooses)
        self.dice_reader = dice_reader or (lambda: camera_reader(self.dice_params))
        self._halt = threading.Event()
        self._by_hand: queue.SimpleQueue[list[int] | None] = queue.SimpleQueue()  # throws entered by hand, for the settler (entered_by_hand)
        self._held: str | None = None  # what holds the reading, as the table was last told (Table.hold)
        # the last picture, the dice read in it and which are read surely enough (GET /api/camera/picture); None before one
        self.picture: tuple[Any, tuple[Any, ...], Callable[[Any], bool]] | None = None
        # ``last``: the newest reading and the table's answer (``GET /api/camera``, the control page)
        self.status: dict[str, Any] = {"connected": False, "last_error": None, "readings": 0, "last": None,
                                       "dice_network": dice_network, "dice_parts": None, "unreadable": 0, "reading_error": None,
                                       "settling": None, "in_view": [], "read_ms": None, "interval_ms": round(interval * 1000),
                                       "paused": False, "zones_moved": None, "zones_turned": None}
        self._read_times: deque[float] = deque(maxlen=READ_TIMES)  # (seconds each of the last pictures read took)
        self.pause_file = pause_file  # where a pause is kept across a restart (pause); None: nowhere
        if pause_file is not None and os.path.exists(pause_file):
            self.status["paused"] = True
            log.warning("camera: paused, as it was before the table started (%s): resume it on the control page", pause_file)

    def start(self) -> None:
        """Start reading, and hear the table (:meth:`heard`) while it runs."""
        self.table.listeners.append(self.heard)
        super().start()

    def stop(self) -> None:
        self._halt.set()
        self.join(timeout=5)
        if self.heard in self.table.listeners:
            self.table.listeners.remove(self.heard)
        self._hold(None)

    def pause(self, paused: bool) -> None:
        """Pause (True) or resume (False) the camera's readings: while paused it goes on reading and settling (the
        control page shows its picture and what it reads, ``status["last"]`` refused as paused), but sends nothing
        to the table, and the view's ``camera_hold`` is ``paused`` (the pages and scoreboards say to enter throws by
        hand) from its next picture on. A throw it settled while paused counts as answered: dice lying so when it
        resumes are no throw; the next throw is.

        With ``pause_file`` the pause is kept there (the file is there while paused), so that a table restarted
        (a power cut) starts paused as it was; an OSError writing or removing it is raised before anything
        changes. Without one, a pause lasts until the table restarts. Any thread may call it."""
        paused = bool(paused)
        if paused == self.status["paused"]:
            return
        if self.pause_file is not None:
            if paused:
                write_whole(self.pause_file, f"the camera was paused on the control page at {time.strftime('%Y-%m-%d %H:%M:%S %z')}\n")
            else:
                os.unlink(self.pause_file)
                sync_folder(self.pause_file)
        log.info("camera %s by the operator", "paused" if paused else "resumed")
        self.status["paused"] = paused

    def entered_by_hand(self, values: Sequence[int] | None) -> None:
        """A throw the table took that was entered by hand: the dice settler is told before its next
        picture (:meth:`vision.settle.Settler.answered`: the dice of its last picture at rest are that
        throw, with ``values`` as ``vision.settle.entered_on`` puts them; None, as read), so that a die in doubt then settled
        in place is no second roll. Any thread may call it: the control page's dice read (``POST
        /api/reading``, whose events are the camera's) does once the table takes it; a roll of anyone
        else's reaches it through :meth:`heard`."""
        self._by_hand.put(None if values is None else list(values))

    def save_zones(self, calibration: Any) -> Any:
        """A calibration drawn on the control page (``POST /api/camera/zones``): checked
        (``vision.zones.Zones.from_calibration``: a ``CalibrationError`` naming the key and the value),
        written to ``zones_file`` whole or not at all (a power cut meanwhile leaves the file as it was),
        and used from the next picture on (the zones of the dice and tiles read, the areas left out).
        A calibration that holds nothing (``{"zones": {}}``, the zones cleared) is kept so too and leaves
        the camera without zones. Returns the zones (None: none). Raises ValueError when no ``zones_file`` is set, OSError when it cannot be
        written; either way nothing changes. Any thread may call it."""
        from vision.zones import Zones

        if self.zones_file is None:
            raise ValueError("this table keeps no calibration file: set camera.zones to the file to keep it in")
        zones = Zones.from_calibration(calibration)
        with self._zones_lock:
            write_whole(self.zones_file, calibration_text(zones))
            log.info("camera: calibration saved to %s (zones %s, %d ignored areas)", self.zones_file,
                     ", ".join(zones.names) or "none", len(zones.ignore))
            used = None if zones.empty else zones
            self.calibration = used
            self.status["zones_moved"] = self.status["zones_turned"] = None
            self._zones_motion = (0.0, 0.0, 0.0)
            self._new_zones.put(used)
        return used

    def _zones_followed(self, fed: Any, other: Any) -> None:
        """When the settler the table's game reads with (``fed``: of dice or of tiles) moved its zones with the
        picture of a camera nudged (its ``zones`` are no longer the camera's; ``zones_moved`` of
        ``vision.settle.Settler`` and ``vision.tile_settle.TileSettler``): the ``other`` settler reads in them too,
        the control page draws them (``calibration``), ``status["zones_moved"]`` says how far they moved in all since
        they were drawn, the shifts of bumps after a turn turned with it (``vision.types.motions_in_all``), and
        ``status["zones_turned"]`` the turn, in degrees, once the camera was turned; ``zones_file``
        keeps them (whole or not at all), so that a table restarted reads in them. Unless a calibration saved on
        the control page meanwhile replaces them at the next picture."""
        from vision.types import Motion, motions_in_all

        zones, shift, turn = fed.zones, fed.zones_moved, fed.zones_turned
        if zones is self.zones or self.zones is None:
            return
        with self._zones_lock:
            if not self._new_zones.empty():
                return
            self.zones = self.calibration = other.zones = zones
            if self.zones_file is not None:  # (kept before the status says so: who sees zones_moved finds them in the file)
                try:
                    write_whole(self.zones_file, calibration_text(zones))
                except OSError as exc:  # (read in the zones moved all the same; a restart reads them as drawn)
                    log.error("camera: the zones moved could not be kept in %s: %s", self.zones_file, exc)
            self._zones_motion = motions_in_all(self._zones_motion, Motion(shift[0], shift[1], turn))
            dx, dy, turned = self._zones_motion
            moved, turned = [round(dx), round(dy)], round(turned, 2)
            log.warning("camera: nudged %+d, %+d px, turned %+.2f° (a bump?): the zones moved with the picture, %+d, %+d px, %+.2f° in all since they were drawn",
                        shift[0], shift[1], turn, *moved, turned)
            self.status["zones_moved"] = moved
            if turned or self.status["zones_turned"] is not None:
                self.status["zones_turned"] = turned

    def heard(self, result: Any) -> None:
        """The table's answer to one event (a ``refbox.table.Table`` listener, on the table's loop while
        the camera runs): a ``roll`` it takes from anyone but the camera (an event of the control page or
        the API, a key of the ``--sim`` terminal) is a throw entered by hand, with its dice
        (:meth:`entered_by_hand`)."""
        event = result.event
        if result.accepted and event.get("type") == "roll" and event.get("source") != "camera":
            self.entered_by_hand(event.get("dice"))

    def run(self) -> None:
        from vision.settle import Settler
        from vision.sources import CameraLost
        from vision.tile_settle import TileSettler

        backoff = 1.0
        settler: Settler | None = None
        while not self._halt.is_set():
            try:
                source = self.opener()
            except (CameraLost, OSError, RuntimeError, ValueError) as exc:
                self._lost(f"cannot open the camera: {exc}")
                self._halt.wait(backoff)
                backoff = min(backoff * 2, 30.0)
                continue
            self.status.update(connected=True, last_error=None)
            self._hold(None)  # (back: its pictures say what holds the reading)
            backoff = 1.0
            reader = self.dice_reader()  # (a new reader for each connection: the camera may come back another size)
            if settler is None:  # (dice lying in the tray when the table starts are no throw: after a restart, the last roll)
                settler = Settler(reader, zones=self.zones, armed=False, min_confidence=self.dice_confidence)
            else:  # (after a reconnect, dice lying as it last saw them at rest are no new roll; dice thrown meanwhile are)
                settler.reset(reader)
            tile_settler = TileSettler(zones=self.zones)
            try:
                while not self._halt.is_set():
                    asked = self.clock()
                    frame = source.read()
                    problem = frame_problem(frame)
                    if problem is not None:  # (no reader could read it: refused here, naming the reason)
                        self._unreadable(frame, problem)
                    else:
                        began = time.perf_counter()
                        try:
                            self._feed(frame, reader, settler, tile_settler)
                        except Exception as exc:  # a fault of a reader on this picture: reported, and the camera goes on
                            self._unreadable(frame, exc)
                        else:
                            self.status["reading_error"] = None
                            self._read_times.append(time.perf_counter() - began)
                            self.status["read_ms"] = round(1000 * statistics.median(self._read_times), 1)
                    self._halt.wait(next_frame_wait(self.interval, asked, self.clock()))
            except CameraLost as exc:
                self._lost(f"camera lost: {exc}")
            finally:
                source.close()

    def _feed(self, frame: Any, reader: Any, settler: Any, tile_settler: Any) -> None:
        """One picture to the settler the table's game reads with; a settled reading to the table."""
        from vision.dice import ChoosingReader
        from vision.settle import DIE_IN_DOUBT
        from vision.tile_contacts import tile_contacts
        from vision.tile_settle import TILE_IN_DOUBT

        entered = []  # (throws entered by hand since the last picture: the dice settler's to know)
        while not self._by_hand.empty():
            entered.append(self._by_hand.get())
        while not self._new_zones.empty():  # (a calibration saved since the last picture: the last one holds)
            self.zones = settler.zones = tile_settler.zones = self._new_zones.get()
        paused = PAUSED if self.status["paused"] else None  # (what holds the reading while the operator has paused it)
        if takes_tiles(self.table.session.game):
            tiles = tile_settler.feed(frame, self.clock())
            self._zones_followed(tile_settler, settler)
            self.picture = (frame, (), settler.sure)  # (tiles are not drawn: the frame alone)
            self.status["settling"] = tile_settler.reason
            self._hold(paused or ("tile" if tile_settler.reason == TILE_IN_DOUBT else None))
            self.status["in_view"] = []
            if tiles:
                size = (frame.shape[1], frame.shape[0])
                self._send("tiles", tile_contacts(tile_settler.readings, self.zones, size), self.table.tiles, paused)
        else:
            for values in entered:
                settler.answered(values)
            dice = settler.feed(frame, self.clock())
            self._zones_followed(settler, tile_settler)
            self.picture = (frame, settler.read, settler.sure)
            self.status["settling"] = settler.status.reason
            self._hold(paused or ("die" if settler.status.reason == DIE_IN_DOUBT else None))
            self.status["in_view"] = [{"value": d.value, "confidence": round(d.confidence, 2), "sure": settler.sure(d)} for d in settler.status.dice]
            self._parts(reader.reads_in_parts(frame.shape))
            if isinstance(reader, ChoosingReader):
                self.status["dice_network"] = f"{CHOOSE_NETWORK} ({reader.chosen})"
            if dice:
                self._send("dice", dice_entries(dice, settler.moved, self.zones), self.table.reading, paused)

    def _send(self, kind: str, entries: list[Any], send: Callable[[list[Any]], Any], paused: str | None) -> None:
        """A settled reading (``kind`` dice or tiles): counted, logged, and sent to the table (``send``: its
        ``reading`` or ``tiles``) unless the camera is ``paused``; the answer kept (:meth:`_answered`)."""
        self.status["readings"] += 1
        log.info("camera read %s%s%s", "tiles " if kind == "tiles" else "", entries, " (paused: not sent)" if paused else "")
        self._answered(kind, entries, None if paused else send(entries))

    def _answered(self, kind: str, seen: list[Any], answer: Any) -> None:
        """Keep the table's answer to reading number ``readings`` in ``status["last"]``
        (refusals are logged by the table; this is for the operator); ``answer`` None: not sent, paused."""
        n = self.status["readings"]
        if answer is None:
            self.status["last"] = {"n": n, "kind": kind, "seen": seen, "accepted": False, "reason": PAUSED_REASON}
            return

        def keep(done: Any) -> None:
            last: dict[str, Any] = {"n": n, "kind": kind, "seen": seen}
            try:
                r = done.result()
            except Exception as exc:  # the journal failed; the table says so in its health
                last.update(accepted=False, reason=f"the table could not record it: {exc}")
            else:
                last.update(accepted=r.accepted, reason=r.reason, event=r.event if r.accepted else None)
            self.status["last"] = last

        answer.add_done_callback(keep)

    def _hold(self, what: str | None) -> None:
        """Tell the table what holds the reading now (``Table.hold``: the view's ``camera_hold``), when it changed."""
        if what != self._held:
            self._held = what
            self.table.hold(what)

    def _parts(self, held: bool | None) -> None:
        """Keep whether the dice reader reads this camera's frames in parts; say once when it stops."""
        if held is False and self.status["dice_parts"] is not False:
            log.warning("camera: a die lies where the frame does not differ from the table (dice the tray's colour, "
                        "or a mark on it read as a die): every frame is read whole from now on, which is slower")
        self.status["dice_parts"] = held

    def _unreadable(self, frame: Any, why: str | Exception) -> None:
        """Count a picture that was not read, and keep why in ``status["reading_error"]`` (until a picture is read
        again). The first of a run of failures alike is logged: a reader's fault with its traceback."""
        if isinstance(why, Exception):
            lines = [line for line in str(why).splitlines() if line.strip()]  # (OpenCV's last line says what went wrong)
            reason = f"{type(why).__name__}: {lines[-1].strip(' >') if lines else '(no message)'} (on a picture of shape {getattr(frame, 'shape', None)})"
            fault = True
        else:
            reason, fault = why, False
        self.status["unreadable"] += 1
        if self.status["reading_error"] != reason:
            log.error("camera: a picture could not be read: %s; going on with the next picture", reason, exc_info=fault)
        self.status["reading_error"] = reason

    def _lost(self, reason: str) -> None:
        if self.status["last_error"] != reason:
            log.error("%s; retrying, rolls can be entered by hand meanwhile", reason)
        self.status.update(connected=False, last_error=reason)
        self._hold("lost")  # (the players are told to enter their throws by hand meanwhile)
