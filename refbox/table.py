"""The table runtime: one event loop owns the game.

Every input — buttons, camera, web, timers — goes through one queue. The loop
asks the game's pure ``apply`` to accept or refuse each event; an accepted event is
appended to the journal (committed) *before* any output hears of it; outputs get
immutable views through latest-value mailboxes, each drained by its own thread, so
a slow output never blocks the loop.

>>> from refbox.journal import Journal
>>> table = Table(Journal(":memory:"), {"game": "pig", "players": ["Ann", "Bob"]}, clock=lambda: 5.0)
>>> table.handle({"type": "roll", "dice": [3]}).accepted
True
>>> table.view.data["turn_total"]
3
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

from rules import Event, IllegalEvent, MalformedEvent, Session
from rules.session import BadHeader, Header

from .camera import takes_camera
from .journal import Journal

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class View:
    """What outputs render: ``seq`` grows with every publication; ``data`` is never mutated."""

    seq: int
    data: Mapping[str, Any]
    text: str  # the same as JSON

    @classmethod
    def of(cls, seq: int, data: Mapping[str, Any]) -> "View":
        return cls(seq, data, json.dumps(data, ensure_ascii=False, sort_keys=True))


@dataclass(frozen=True)
class Result:
    """The loop's answer to one submitted event."""

    accepted: bool
    event: Mapping[str, Any]
    reason: str = ""
    seq: int | None = None  # journal sequence number when accepted

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"accepted": self.accepted, "event": dict(self.event)}
        if self.accepted:
            out["seq"] = self.seq
        else:
            out["reason"] = self.reason
        return out


class Output(Protocol):
    """Anything that shows views: serial display, LED scoreboard, horn, MQTT."""

    def show(self, view: Mapping[str, Any]) -> None: ...


class Mailbox:
    """Keeps only the latest view; ``get`` waits for one newer than the last taken."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._view: View | None = None
        self._taken = -1
        self.closed = False

    def put(self, view: View) -> None:
        with self._cond:
            self._view = view
            self._cond.notify_all()

    def peek(self) -> View | None:
        return self._view

    def get(self, timeout: float | None = None) -> View | None:
        with self._cond:
            fresh = lambda: self._view is not None and self._view.seq > self._taken  # noqa: E731
            self._cond.wait_for(lambda: self.closed or fresh(), timeout)
            if not fresh() or self._view is None:
                return None  # timed out, or closed with nothing new left
            self._taken = self._view.seq
            return self._view

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()


class _Feeder(threading.Thread):
    """Drains one mailbox into one output; its failures are logged, never raised into the loop."""

    def __init__(self, name: str, output: Output, mailbox: Mailbox) -> None:
        super().__init__(name=f"output-{name}", daemon=True)
        self.output, self.mailbox, self.errors = output, mailbox, 0
        self.out_name = name
        self.shown = 0
        self.last_error: str | None = None  # None once a view was shown after a failure

    def run(self) -> None:
        while True:
            view = self.mailbox.get(timeout=0.5)
            if view is None:
                if self.mailbox.closed:
                    return
                continue
            try:
                self.output.show(view.data)
            except Exception as exc:  # an output must not take the table down
                self.errors += 1
                self.last_error = f"{type(exc).__name__}: {exc}"
                log.exception("output %s failed to show view %d", self.out_name, view.seq)
            else:
                self.shown += 1
                self.last_error = None

    def status(self) -> dict[str, Any]:
        return {"shown": self.shown, "errors": self.errors, "last_error": self.last_error}


_STOP = object()


def _describe_proposal(event: Mapping[str, Any]) -> str:
    if event.get("type") == "play":
        return f"{list(event['tile'])} on {event.get('end', 'the first place')}"
    fields = {k: v for k, v in event.items() if k not in ("type", "source", "t")}
    return f"{event.get('type')} {json.dumps(fields)}"


def final_view_of(header: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Replay a stored game and return its final view (for compaction)."""
    session = Session.start(header)
    for e in events:
        try:
            session.submit(e)
        except (MalformedEvent, IllegalEvent) as exc:
            log.error("stored event no longer applies and is skipped: %s", exc)
    return session.view(session.last_t or 0.0)


HOLDS = ("die", "tile", "lost", "paused")
"""What may hold the camera's reading (:meth:`Table.hold`; the view's ``camera_hold``): a die in doubt, a tile,
or the camera itself, lost (throws are entered by hand while it is retried) or paused by the operator."""


class Table:
    """The game, its journal and its outputs, driven by one loop thread (``start``)
    or synchronously (``handle``, ``tick``) in tests."""

    def __init__(
        self,
        journal: Journal,
        header: Mapping[str, Any] | None = None,
        *,
        clock: Callable[[], float] = time.time,
        tick: float = 0.1,
        resume: bool = True,
        keep_games: int = 200,
    ) -> None:
        self.journal = journal
        self.clock = clock
        self.keep_games = keep_games
        self.tick_seconds = tick
        self._queue: queue.Queue[Any] = queue.Queue()
        self._mailboxes: list[Mailbox] = []
        self._feeders: list[_Feeder] = []
        self._lock = threading.Lock()  # guards _mailboxes and view
        self._seq = 0
        self._thread: threading.Thread | None = None
        self.rejected = 0
        self.damage: list[dict[str, Any]] = []  # journal damage found and cut at start-up
        self.ticks = 0  # loop iterations (the watchdog checks they advance)
        self.listeners: list[Callable[[Result], None]] = []  # told each result, on the loop (a running camera: CameraWorker.heard)
        self.proposals: list[dict[str, Any]] = []  # camera readings awaiting the operator
        self.selected = 0  # the proposal the keypad's CONFIRM button plays (CHOOSE moves it)
        self.camera_hold: str | None = None  # what holds the camera's reading now (HOLDS), None: nothing (hold)
        self.tick_hooks: list[Callable[[], None]] = []  # called from the loop each tick (keypad long presses)
        self.view = View.of(0, {})
        latest = journal.latest_game() if resume else None
        if latest is not None and (header is None or resume):
            self.game_id, stored = latest
            self.session = Session.start(stored)
            self._replay()
        else:
            if header is None:
                raise ValueError("no game in the journal and no header given")
            self.session = Session.start(header)
            self.game_id = journal.new_game(self.session.header.to_dict())
        self.view = self._make_view()

    # --- start-up -------------------------------------------------------------------

    def _replay(self) -> None:
        n = 0
        known = len(self.journal.damage)
        for data in self.journal.events(self.game_id):
            try:
                self.session.submit(data)
                n += 1
            except (MalformedEvent, IllegalEvent) as exc:
                # a journalled event was accepted once; refusing it now means the code changed
                log.error("journal event %d no longer applies and is skipped: %s", n + 1, exc)
        for damage in self.journal.damage[known:]:
            # a torn or damaged tail: cut it, so new events follow the valid prefix
            self.journal.cut(damage["game"], damage["seq"])
            self.damage.append(damage)
        last = self.session.last_t
        log.info("replayed %d journalled events of game %d (%s)", n, self.game_id, self.session.game.name)
        if last is not None:
            for ev in self.session.game.on_restart(self.session.state, last):
                self._accept(ev.with_source("restore") if ev.source is None else ev)

    # --- inputs (thread-safe) ---------------------------------------------------------

    def submit(self, event: Mapping[str, Any], source: str | None = None) -> "Future[Result]":
        """Queue an event for the loop; the future gives accepted/refused and why."""
        fut: Future[Result] = Future()
        self._queue.put(("event", dict(event), source, fut))
        return fut

    def press(self, button: str, source: str = "button") -> "Future[Result]":
        """A logical button (from the keypad or the web page)."""
        fut: Future[Result] = Future()
        self._queue.put(("press", button, source, fut))
        return fut

    def reading(self, dice: Sequence[Any]) -> "Future[Result]":
        """A settled camera reading of the dice: values, or objects ``{"value": 6,
        "zone": "kept", "moved": false}`` from a camera with a kept zone; the game
        decides which events it makes (``Game.read_dice``)."""
        fut: Future[Result] = Future()
        self._queue.put(("reading", [dict(d) if isinstance(d, Mapping) else d for d in dice], "camera", fut))
        return fut

    def tiles(self, tiles: Sequence[Any]) -> "Future[Result]":
        """A settled camera reading of the domino tiles on the table: ``[a, b]`` each, or
        objects ``{"tile": [a, b], "touches": [...], "zone": ...}`` with the geometry."""
        fut: Future[Result] = Future()
        self._queue.put(("tiles", [dict(t) if isinstance(t, Mapping) else list(t) for t in tiles], "camera", fut))
        return fut

    def hold(self, what: str | None) -> "Future[Result]":
        """The camera says what holds its reading now: ``"die"`` (a die in doubt holds the throw until it is
        settled or entered by hand), ``"tile"`` (a domino tile it cannot read), ``"lost"`` (the camera cannot be
        opened or stopped giving pictures: throws are entered by hand while it is retried), ``"paused"`` (the operator
        paused it: its readings are not sent, throws are entered by hand), None (nothing). The view carries
        it as ``camera_hold`` while it holds, so that the pages and the scoreboards tell the players (of a game that
        takes the camera's readings: ``refbox.camera.takes_camera``; a futsal page says nothing of a dice camera)."""
        fut: Future[Result] = Future()
        self._queue.put(("hold", what, "camera", fut))
        return fut

    def new_game(self, header: Mapping[str, Any]) -> "Future[Result]":
        fut: Future[Result] = Future()
        self._queue.put(("new_game", dict(header), "web", fut))
        return fut

    # --- outputs ----------------------------------------------------------------------

    def subscribe(self) -> Mailbox:
        """A mailbox that receives every new view (the web stream takes one per viewer)."""
        box = Mailbox()
        with self._lock:
            box.put(self.view)
            self._mailboxes.append(box)
        return box

    def unsubscribe(self, box: Mailbox) -> None:
        box.close()
        with self._lock:
            if box in self._mailboxes:
                self._mailboxes.remove(box)

    def attach(self, name: str, output: Output) -> None:
        """Feed an output from its own thread (started now)."""
        feeder = _Feeder(name, output, self.subscribe())
        self._feeders.append(feeder)
        feeder.start()

    def output_status(self, name: str) -> dict[str, Any] | None:
        """How the attached output ``name`` is doing: views shown, failures, the last error
        (None when its last view was shown); None when no such output is attached."""
        for feeder in self._feeders:
            if feeder.out_name == name:
                return feeder.status()
        return None

    def _publish(self) -> None:
        view = self._make_view()
        if view.text == self.view.text:
            return
        with self._lock:
            self.view = view
            boxes = list(self._mailboxes)
        for box in boxes:
            box.put(view)

    def _make_view(self) -> View:
        data = self.session.view(self.clock())
        data["table_events"] = self.session.applied
        if self.proposals:
            data["proposals"] = list(self.proposals)
            data["proposal_selected"] = self.selected
        if self.camera_hold is not None and takes_camera(self.session.game):  # (a futsal page says nothing of a dice camera)
            data["camera_hold"] = self.camera_hold
        self._seq += 1
        return View.of(self._seq, data)

    # --- the loop ---------------------------------------------------------------------

    def handle(self, event: Mapping[str, Any], source: str | None = None) -> Result:
        """Check, journal, apply and publish one event (loop thread or tests only)."""
        try:
            ev = Event.from_dict(event)
            if source is not None and ev.source is None:
                ev = ev.with_source(source)
            if ev.t is None:
                ev = ev.with_time(round(self.clock(), 3))
            seq = self._accept(ev)
        except (MalformedEvent, IllegalEvent) as exc:
            self.rejected += 1
            log.warning("refused %s", exc)
            result = Result(False, dict(event) if isinstance(event, Mapping) else {"not_an_object": event}, str(exc))
        else:
            result = Result(True, ev.to_dict(), seq=seq)
        for listener in tuple(self.listeners):  # (a camera starting or stopping meanwhile adds or removes itself)
            listener(result)
        return result

    def _accept(self, ev: Event) -> int:
        clean, new_state = self.session.check(ev)
        seq = self.journal.append(self.game_id, clean.to_dict())  # durable before anyone hears
        self.session.commit(clean, new_state)
        self.proposals = []  # whatever happened, the camera's old choices are stale
        self.selected = 0
        self._publish()
        return seq

    def handle_press(self, button: str, source: str = "button") -> Result:
        if button == "undo":
            return self.handle({"type": "undo"}, source)
        if button in ("confirm", "choose") and button not in self.session.game.keypad:
            return self._press_proposal(button, source)
        template = self.session.game.keypad.get(button)
        if template is None:
            reason = f"button {button!r} does nothing in {self.session.game.name}; buttons: " + ", ".join(
                sorted([*self.session.game.keypad, "undo"])
            )
            log.warning("refused %s", reason)
            return Result(False, {"button": button}, reason)
        return self.handle(dict(template), source)

    def _press_proposal(self, button: str, source: str) -> Result:
        """CONFIRM plays the selected proposal; CHOOSE selects the next one (round)."""
        if not self.proposals:
            reason = f"button {button!r}: there is no camera proposal to {button} now"
            log.warning("refused %s", reason)
            return Result(False, {"button": button}, reason)
        if button == "choose":
            self.selected = (self.selected + 1) % len(self.proposals)
            self._publish()
            chosen = self.proposals[self.selected]
            log.info("proposal %d of %d selected: %s", self.selected + 1, len(self.proposals), chosen)
            return Result(False, {"button": button}, f"selected proposal {self.selected + 1} of {len(self.proposals)}")
        chosen = {k: v for k, v in self.proposals[self.selected].items() if k not in ("source", "t")}
        return self.handle(chosen, source)

    def handle_reading(self, dice: Sequence[Any]) -> Result:
        """A settled reading becomes the game's events (``Game.read_dice``): usually one
        roll; with the kept zone, a ``keep`` and then the roll. Several events are
        checked together first, so a reading is taken whole or refused whole."""
        seen = {"dice": [dict(d) if isinstance(d, Mapping) else d for d in dice]}
        game = self.session.game
        try:
            events = game.read_dice(self.session.state, dice)
        except (ValueError, TypeError, KeyError) as exc:
            log.warning("refused camera dice %s: %s", seen["dice"], exc)
            return Result(False, seen, f"bad camera dice: {exc}")
        if not events:
            return Result(False, seen, f"{game.name} expects no throw now; the camera's dice {seen['dice']} are not used")
        if len(events) > 1:
            state = self.session.state
            for ev in events:
                try:
                    state = game.apply(state, ev)
                except (MalformedEvent, IllegalEvent) as exc:
                    self.rejected += 1
                    log.warning("refused camera dice %s: %s", seen["dice"], exc)
                    return Result(False, seen, str(exc))
        result = self.handle(events[0].to_dict(), "camera")
        for ev in events[1:]:
            result = self.handle(ev.to_dict(), "camera")
        return result

    def handle_tiles(self, tiles: Sequence[Any]) -> Result:
        """One proposal is played at once; several (or one the game wants confirmed, such
        as an end-of-hand count) wait in the view's ``proposals`` for the operator, who
        sends the chosen one as an ordinary event or presses CONFIRM on the keypad."""
        seen = {"tiles": [dict(t) if isinstance(t, Mapping) else list(t) for t in tiles]}
        try:
            answer = self.session.game.read_tiles(self.session.state, tiles)
        except (ValueError, TypeError, KeyError) as exc:
            log.warning("refused camera tiles %s: %s", seen["tiles"], exc)
            return Result(False, seen, f"bad camera tiles: {exc}")
        options = answer.events
        if not options:
            log.info("camera tiles %s: %s", seen["tiles"], answer.reason)
            return Result(False, seen, answer.reason or f"no new tile that can be played now among {seen['tiles']}")
        if len(options) == 1 and not answer.confirm:
            return self.handle(options[0].to_dict(), "camera")
        self.proposals = [e.to_dict() for e in options]
        self.selected = 0
        self._publish()
        what = ", ".join(_describe_proposal(e) for e in self.proposals)
        log.info("camera tiles %s: %d proposal(s) (%s), waiting for the operator", seen["tiles"], len(options), what)
        if len(options) == 1:
            return Result(False, seen, f"confirm {what} on the control page or with CONFIRM")
        if any(e.type != "play" for e in options):
            return Result(False, seen, f"{len(options)} possible readings ({what}); confirm one on the control page"
                          " or with CHOOSE and CONFIRM")
        return Result(False, seen, f"ambiguous: {len(options)} placements ({what}); confirm one on the control page")

    def handle_hold(self, what: Any) -> Result:
        """:meth:`hold` (loop thread or tests only)."""
        if what is not None and what not in HOLDS:
            return Result(False, {"camera_hold": what}, f"camera_hold {what!r}: expected one of {', '.join(HOLDS)} or None")
        self.camera_hold = what
        self._publish()
        return Result(True, {"camera_hold": what})

    def handle_new_game(self, header: Mapping[str, Any]) -> Result:
        try:
            session = Session.start(Header.from_dict(header))
        except BadHeader as exc:
            return Result(False, dict(header) if isinstance(header, Mapping) else {"not_an_object": header}, str(exc))
        self.session = session
        self.proposals = []
        self.game_id = self.journal.new_game(session.header.to_dict())
        log.info("new game %d: %s", self.game_id, session.header.to_dict())
        self.journal.compact(self.keep_games, final_view_of)
        self._publish()
        return Result(True, session.header.to_dict(), seq=0)

    def tick(self) -> None:
        """Inject due timer events (period end, ...) and republish running clocks."""
        for hook in self.tick_hooks:
            try:
                hook()
            except Exception:  # a device poll must not stop the clock
                log.exception("tick hook %r failed", hook)
        now = self.clock()
        for _ in range(10):  # a few chained expiries at most
            due = self.session.due_events(now)
            if not due:
                break
            for ev in due:
                self.handle(ev.to_dict())
        self._publish()

    def _run(self) -> None:
        next_tick = self.clock()
        while True:
            timeout = max(0.0, next_tick - self.clock())
            try:
                item = self._queue.get(timeout=timeout)
            except queue.Empty:
                item = None
            if item is _STOP:
                break
            if item is not None:
                kind, payload, source, fut = item
                try:
                    if kind == "event":
                        result = self.handle(payload, source)
                    elif kind == "press":
                        result = self.handle_press(payload, source)
                    elif kind == "reading":
                        result = self.handle_reading(payload)
                    elif kind == "tiles":
                        result = self.handle_tiles(payload)
                    elif kind == "hold":
                        result = self.handle_hold(payload)
                    else:
                        result = self.handle_new_game(payload)
                except Exception as exc:  # the journal failed: tell the caller, keep the loop
                    log.exception("could not handle %s %r", kind, payload)
                    fut.set_exception(exc)
                else:
                    fut.set_result(result)
            if self.clock() >= next_tick:
                self.tick()
                self.ticks += 1
                next_tick = self.clock() + self.tick_seconds

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._queue.put(_STOP)
            self._thread.join(timeout=5)
        with self._lock:
            boxes = list(self._mailboxes)
        for box in boxes:
            box.close()
        for f in self._feeders:
            f.join(timeout=2)
