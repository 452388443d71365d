"""The club link: every table publishes its view to the club's MQTT broker, and a
club dashboard watches them all (docs/club.md).

Topics, for a prefix ``refbox`` and a table ``table-1``:

- ``refbox/table-1/status``: ``online`` / ``offline``, retained. ``offline`` is the
  broker's last will, so a table that dies or loses its network turns ``offline``.
- ``refbox/table-1/view``: retained JSON ``{"table", "summary", "view"}``: the
  table's latest view and a small game-independent summary of it (:func:`summary`).

:class:`ClubPublisher` is a table output (``show(view)``); it never blocks and never
queues more than the latest view: while the broker is away it only remembers the
newest view, and publishes it when the connection comes back. :class:`ClubWatcher`
subscribes to every table's topics and keeps the latest of each.

>>> topics("refbox", "table-1")
Topics(view='refbox/table-1/view', status='refbox/table-1/status')
>>> summary({"game": "pig", "players": [{"name": "Ann", "score": 12}, {"name": "Bob", "score": 30}],
...          "turn": "Bob", "winner": None})["score"]
'Ann 12 · Bob 30'
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping, NamedTuple

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTErrorCode

from .config import TOPIC_LEVEL, check_topic_prefix

log = logging.getLogger(__name__)

ONLINE, OFFLINE = "online", "offline"
SCORE_KEYS = ("score", "balance", "needs", "stakes")  # what a player's "score" is, by game family


class ClubError(ValueError):
    """A club setting (topic prefix, table id) is refused."""


class Topics(NamedTuple):
    view: str
    status: str


def check_table_id(table_id: str) -> str:
    """A table id is one MQTT topic level: letters, digits, '-' and '_' (no '/', '+', '#').

    >>> check_table_id("court+2")
    Traceback (most recent call last):
    ...
    refbox.club.ClubError: table id 'court+2' may hold only letters, digits, '-' and '_' (at most 64)
    """
    if not isinstance(table_id, str) or not TOPIC_LEVEL.fullmatch(table_id):
        raise ClubError(f"table id {table_id!r} may hold only letters, digits, '-' and '_' (at most 64)")
    return table_id


def check_prefix(prefix: str, what: str = "topic prefix") -> str:
    try:
        return check_topic_prefix(what, prefix)
    except ValueError as exc:
        raise ClubError(str(exc)) from None


def topics(prefix: str, table_id: str) -> Topics:
    base = f"{check_prefix(prefix)}/{check_table_id(table_id)}"
    return Topics(f"{base}/view", f"{base}/status")


def summary(view: Mapping[str, Any]) -> dict[str, Any]:
    """What a club tile shows of any game's view: game, scores, clock, period, turn, winner, and what holds the
    table's camera (``hold``: the view's ``camera_hold``, a die or a tile in doubt, or the camera ``lost`` or ``paused``; None).

    >>> s = summary({"game": "futsal", "clock": "12:03", "period": "2nd half", "turn": None, "winner": None,
    ...              "home": {"name": "Home", "score": 2}, "away": {"name": "Away", "score": 1}})
    >>> s["scores"], s["score"], s["clock"], s["hold"]
    ([{'name': 'Home', 'score': 2}, {'name': 'Away', 'score': 1}], 'Home 2 · Away 1', '12:03', None)
    >>> summary({"game": "pig", "players": [{"name": "Ann", "score": 4}], "camera_hold": "die"})["hold"]
    'die'
    """
    scores: list[dict[str, Any]] = []
    home, away = view.get("home"), view.get("away")
    if isinstance(home, Mapping) and isinstance(away, Mapping):
        sides: list[Any] = [home, away]
    else:
        players = view.get("players")
        sides = list(players) if isinstance(players, list) else []
    for side in sides:
        if isinstance(side, Mapping):
            score = next((side[k] for k in SCORE_KEYS if k in side and isinstance(side[k], int | float | str)), None)
            scores.append({"name": str(side.get("name", "")), "score": score})
        else:
            scores.append({"name": str(side), "score": None})

    def text(key: str) -> str | None:
        value = view.get(key)
        return value if isinstance(value, str) else None

    score_text = " · ".join(s["name"] if s["score"] is None else f"{s['name']} {s['score']}" for s in scores)
    return {
        "game": text("game") or "",
        "scores": scores,
        "score": score_text[:250],
        "clock": text("clock"),
        "period": text("period"),
        "turn": text("turn"),
        "winner": text("winner"),
        "hold": text("camera_hold"),
    }


# Home Assistant MQTT discovery: one sensor per field, all reading the view topic.
HA_SENSORS = (
    ("game", "Game", "{{ value_json.summary.game }}", "mdi:dice-multiple"),
    ("score", "Score", "{{ value_json.summary.score }}", "mdi:scoreboard"),
    ("clock", "Clock", "{{ value_json.summary.clock or '' }}", "mdi:timer-outline"),
    ("turn", "Turn", "{{ value_json.summary.turn or '' }}", "mdi:account-arrow-right"),
)


def discovery_messages(discovery_prefix: str, prefix: str, table_id: str) -> list[tuple[str, str]]:
    """Home Assistant discovery: (config topic, JSON payload) per sensor, to publish retained."""
    t = topics(prefix, table_id)
    check_prefix(discovery_prefix, "discovery prefix")
    device = {"identifiers": [f"refbox_{table_id}"], "name": f"Refbox {table_id}",
              "manufacturer": "Refbox", "model": "referee box"}
    out = []
    for field, name, template, icon in HA_SENSORS:
        object_id = f"{table_id}_{field}"
        payload = {
            "name": name,
            "unique_id": f"refbox_{object_id}",
            "object_id": f"refbox_{object_id}",
            "state_topic": t.view,
            "value_template": template,
            "availability_topic": t.status,
            "payload_available": ONLINE,
            "payload_not_available": OFFLINE,
            "icon": icon,
            "device": device,
        }
        out.append((f"{discovery_prefix}/sensor/{object_id}/config", json.dumps(payload, sort_keys=True)))
    return out


@dataclass(frozen=True)
class Broker:
    """Where the broker is and how to log in; ``repr`` never shows the password."""

    host: str
    port: int = 1883
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""
    keepalive: int = 30

    def __repr__(self) -> str:
        user = f", username={self.username!r}, password={'***' if self.password else ''!r}" if self.username else ""
        return f"Broker({self.host!r}, {self.port}{user}, tls={self.tls})"

    def where(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def _client(broker: Broker, client_id: str, reconnect_max: float) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
    if broker.username:
        client.username_pw_set(broker.username, broker.password or None)
    if broker.tls:
        client.tls_set(ca_certs=broker.ca_file or None)
    client.reconnect_delay_set(min_delay=1, max_delay=max(1, int(reconnect_max)))
    return client


class ClubPublisher:
    """A table output that publishes the latest view, retained, to the club broker.

    ``show`` only records the view and wakes the sender thread; the sender publishes
    one view at a time (QoS 1) and, once the broker has acknowledged it, the newest
    view if another arrived meanwhile. Views in between are skipped, never queued.
    After every (re)connect the status turns ``online`` and the latest view is
    published again (a restarted broker may have lost its retained messages).
    """

    def __init__(
        self,
        broker: Broker,
        table_id: str,
        *,
        prefix: str = "refbox",
        homeassistant: bool = False,
        discovery_prefix: str = "homeassistant",
        reconnect_max: float = 30.0,
    ) -> None:
        self.broker = broker
        self.table_id = check_table_id(table_id)
        self.topics = topics(prefix, table_id)
        self.discovery = discovery_messages(discovery_prefix, prefix, table_id) if homeassistant else []
        self._cond = threading.Condition()
        self._latest: tuple[int, str] | None = None  # (show count, payload)
        self._shown = 0
        self._broker_has: int | None = None  # show count of the view the broker acknowledged last
        self._unacked: dict[int, int] = {}  # view message id -> show count
        self._early: set[int] = set()  # acknowledgements that came before we noted the message id
        self._other: set[int] = set()  # status / discovery message ids
        self._connected = False
        self._closed = False
        self.published = 0  # views acknowledged by the broker
        self.connects = 0
        self.last_error: str | None = None
        self.client = _client(broker, f"refbox-{table_id}", reconnect_max)
        self.client.will_set(self.topics.status, OFFLINE, qos=1, retain=True)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self._sender = threading.Thread(target=self._send_loop, name=f"club-{table_id}", daemon=True)

    # --- the table's side -------------------------------------------------------------

    def start(self) -> "ClubPublisher":
        """Connect in the background (retrying with back-off) and start sending."""
        log.info("club: table %s publishing to %s on %s", self.table_id, self.topics.view, self.broker.where())
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=self.broker.keepalive)
        self.client.loop_start()
        self._sender.start()
        return self

    def show(self, view: Mapping[str, Any]) -> None:
        payload = json.dumps({"table": self.table_id, "summary": summary(view), "view": view},
                             ensure_ascii=False, sort_keys=True)
        with self._cond:
            self._shown += 1
            self._latest = (self._shown, payload)
            self._cond.notify_all()

    def status(self) -> dict[str, Any]:
        with self._cond:
            connected, pending = self._connected, self._latest is not None and self._latest[0] != self._broker_has
        if connected:
            detail = f"connected to {self.broker.where()} as {self.table_id}"
        else:
            detail = f"not connected to {self.broker.where()}" + (f": {self.last_error}" if self.last_error else "") + "; retrying"
        return {"ok": connected, "detail": detail, "connected": connected, "published": self.published,
                "pending": pending, "last_error": self.last_error}

    def close(self, timeout: float = 2.0) -> None:
        """Say ``offline`` (retained) and disconnect; the will is not sent on a clean close."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        if self._sender.is_alive():
            self._sender.join(timeout)
        if self.client.is_connected():
            info = self.client.publish(self.topics.status, OFFLINE, qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        self.client.disconnect()
        self.client.loop_stop()

    # --- the sender -------------------------------------------------------------------

    def _due(self) -> bool:
        return (self._closed or self._connected and not self._unacked and self._latest is not None
                and self._latest[0] != self._broker_has)

    def _send_loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(self._due)
                if self._closed or self._latest is None:
                    return
                shown, payload = self._latest
            info = self.client.publish(self.topics.view, payload, qos=1, retain=True)
            with self._cond:
                if info.rc in (MQTTErrorCode.MQTT_ERR_SUCCESS, MQTTErrorCode.MQTT_ERR_NO_CONN):
                    # NO_CONN: paho keeps the message and sends it after the reconnect
                    if info.mid in self._early:
                        self._acked(shown)
                    else:
                        self._unacked[info.mid] = shown
                    self._early.clear()
                    continue
                self.last_error = f"publish refused: {mqtt.error_string(info.rc)}"
            log.warning("club: %s", self.last_error)
            time.sleep(1.0)

    def _acked(self, shown: int) -> None:
        self._broker_has = shown
        self.published += 1
        self._cond.notify_all()

    # --- paho callbacks (its network thread) -------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            error = f"broker refused the connection: {reason}"
            if error != self.last_error:  # paho retries every few seconds: say it once
                log.warning("club: %s refused table %s: %s", self.broker.where(), self.table_id, reason)
            self.last_error = error
            return
        mids = [client.publish(self.topics.status, ONLINE, qos=1, retain=True).mid]
        mids += [client.publish(topic, payload, qos=1, retain=True).mid for topic, payload in self.discovery]
        with self._cond:
            self._other.update(mids)
            self._connected = True
            self._broker_has = None  # a restarted broker may have lost the retained view
            self.connects += 1
            self.last_error = None
            self._cond.notify_all()
        log.info("club: connected to %s as %s", self.broker.where(), self.table_id)

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        if self.last_error is None or not self.last_error.startswith("cannot reach"):
            log.warning("club: cannot reach %s; the table goes on and retries", self.broker.where())
        self.last_error = f"cannot reach {self.broker.where()}"

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._cond:
            was, self._connected = self._connected, False
            closing = self._closed
            self._cond.notify_all()
        if was and not closing:
            self.last_error = f"connection lost: {reason}"
            log.warning("club: lost %s (%s); the table goes on and retries", self.broker.where(), reason)

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any, properties: Any) -> None:
        with self._cond:
            if mid in self._other:
                self._other.discard(mid)
            elif mid in self._unacked:
                self._acked(self._unacked.pop(mid))
            else:
                self._early.add(mid)


class ClubWatcher:
    """Subscribes to every table's view and status; keeps the latest of each.

    ``tables()`` is a snapshot; ``wait(after)`` blocks until some table changed after
    version ``after`` (each table entry carries the version of its last change).
    """

    def __init__(self, broker: Broker, *, prefix: str = "refbox", client_id: str = "",
                 reconnect_max: float = 30.0, clock: Callable[[], float] = time.time) -> None:
        self.broker = broker
        self.prefix = check_prefix(prefix)
        self.clock = clock
        self._cond = threading.Condition()
        self._tables: dict[str, dict[str, Any]] = {}
        self.version = 0
        self.connected = False
        self.last_error: str | None = None
        self.errors = 0  # malformed messages ignored
        self.received = 0  # view messages taken
        self._closing = False
        cid = client_id or f"refbox-club-{int(clock() * 1000) % 10**9}"
        self.client = _client(broker, cid, reconnect_max)
        self.client.on_connect = self._on_connect
        self.client.on_connect_fail = self._on_connect_fail
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self) -> "ClubWatcher":
        log.info("club watcher: %s/+/view and /status on %s", self.prefix, self.broker.where())
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=self.broker.keepalive)
        self.client.loop_start()
        return self

    def close(self) -> None:
        self._closing = True
        self.client.disconnect()
        self.client.loop_stop()
        with self._cond:
            self.version += 1
            self._cond.notify_all()

    def tables(self) -> dict[str, dict[str, Any]]:
        with self._cond:
            return {name: dict(entry) for name, entry in sorted(self._tables.items())}

    def wait(self, after: int, timeout: float | None = None) -> int:
        """The current version once it is past ``after`` (or after ``timeout``)."""
        with self._cond:
            self._cond.wait_for(lambda: self.version > after, timeout)
            return self.version

    def status(self) -> dict[str, Any]:
        with self._cond:
            n = len(self._tables)
        detail = (f"watching {n} tables on {self.broker.where()}" if self.connected
                  else f"not connected to {self.broker.where()}" + (f": {self.last_error}" if self.last_error else ""))
        return {"ok": self.connected, "detail": detail, "connected": self.connected, "tables": n,
                "received": self.received, "errors": self.errors, "last_error": self.last_error}

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            error = f"broker refused the connection: {reason}"
            if error != self.last_error:
                log.warning("club watcher: %s", error)
            self.last_error = error
            return
        client.subscribe([(f"{self.prefix}/+/view", 1), (f"{self.prefix}/+/status", 1)])
        self.connected, self.last_error = True, None
        self._bump()
        log.info("club watcher: connected to %s", self.broker.where())

    def _on_connect_fail(self, client: mqtt.Client, userdata: Any) -> None:
        self.last_error = f"cannot reach {self.broker.where()}"

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if self.connected and not self._closing:
            log.warning("club watcher: lost %s (%s)", self.broker.where(), reason)
        self.connected = False
        self._bump()

    def _bump(self) -> None:
        with self._cond:
            self.version += 1
            self._cond.notify_all()

    def _on_message(self, client: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        levels = msg.topic[len(self.prefix) + 1:].split("/")
        if len(levels) != 2 or not TOPIC_LEVEL.fullmatch(levels[0]):
            return
        table, kind = levels
        update: dict[str, Any] = {}
        if kind == "status":
            text = msg.payload.decode("utf-8", "replace")
            if text not in (ONLINE, OFFLINE, ""):
                self._refuse(msg.topic, f"status must be {ONLINE!r} or {OFFLINE!r}, got {text[:40]!r}")
                return
            update["status"] = text or None
        elif kind == "view":
            if not msg.payload:  # the retained view was cleared
                update.update(view=None, summary=None)
            else:
                try:
                    data = json.loads(msg.payload)
                    if not isinstance(data, dict) or not isinstance(data.get("view"), dict):
                        raise ValueError("not an object with a 'view' object")
                except ValueError as exc:
                    self._refuse(msg.topic, f"not a view message ({exc})")
                    return
                view = data["view"]
                update.update(view=view, summary=summary(view))
                self.received += 1
        else:
            return
        with self._cond:
            self.version += 1
            entry = self._tables.setdefault(table, {"table": table, "status": None, "view": None, "summary": None})
            entry.update(update, version=self.version, updated=self.clock())
            self._cond.notify_all()

    def _refuse(self, topic: str, reason: str) -> None:
        self.errors += 1
        log.warning("club watcher: ignored %s: %s", topic, reason)
