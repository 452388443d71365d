"""A plain paho subscriber for the club tests: records every message it receives."""

from __future__ import annotations

import threading
import time

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion


class Recorder:
    def __init__(self, port: int, topics: list[str], *, username: str = "", password: str = "") -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self.lock = threading.Lock()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"rec-{id(self)}")
        if username:
            self.client.username_pw_set(username, password)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe([(t, 1) for t in topics])
        self.client.on_subscribe = lambda c, u, mid, rcs, p: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port, keepalive=10)
        self.client.loop_start()
        assert self.subscribed.wait(5), "the recorder could not subscribe"

    def _on_message(self, client, userdata, msg) -> None:
        with self.lock:
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))

    def on(self, topic: str) -> list[tuple[bytes, bool]]:
        with self.lock:
            return [(p, r) for t, p, r in self.messages if t == topic]

    def last(self, topic: str) -> bytes | None:
        got = self.on(topic)
        return got[-1][0] if got else None

    def wait_for(self, topic: str, predicate=lambda payload: True, timeout: float = 10.0) -> bytes:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            payload = self.last(topic)
            if payload is not None and predicate(payload):
                return payload
            time.sleep(0.01)
        raise AssertionError(f"no message on {topic} matching the condition within {timeout} s; got {self.on(topic)[-3:]}")

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
