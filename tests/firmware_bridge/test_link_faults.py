"""DisplayLink under random line faults, with an in-memory port in front of the real
firmware code: whatever is dropped, corrupted or garbled (finitely often), the display
ends up showing the newest view and the link says so."""

import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.emulator import RecordingHardware
from firmware_bridge.firmware.display import Firmware
from firmware_bridge.link import DisplayLink

from .conftest import futsal_view

FAULTS = st.sampled_from(["ok", "drop", "corrupt", "garbage", "split"])


class FaultyPort:
    """A pyserial-like port whose other end is the firmware; each write and each reply
    meets the next fault of a finite plan, then the line is clean."""

    def __init__(self, out_plan, back_plan):
        self.fw = Firmware(RecordingHardware())
        self.out_plan, self.back_plan = list(out_plan), list(back_plan)
        self.inbox = bytearray()
        self.cond = threading.Condition()

    @staticmethod
    def _fault(plan, data):
        kind = plan.pop(0) if plan else "ok"
        if kind == "drop":
            return b""
        if kind == "corrupt":
            i = len(data) // 2
            return data[:i] + bytes([data[i] ^ 0x5A]) + data[i + 1 :]
        if kind == "garbage":
            return b"\xa5\x12\x00\x01zz" + data
        if kind == "split":  # the line dies mid-frame: only the first half arrives
            return data[: len(data) // 2]
        return data

    def write(self, data):
        reply = self.fw.feed(self._fault(self.out_plan, bytes(data)))
        if reply:
            with self.cond:
                self.inbox += self._fault(self.back_plan, reply)
                self.cond.notify_all()
        return len(data)

    def read(self, n=1):
        with self.cond:
            if not self.inbox:
                self.cond.wait(0.002)
            out = bytes(self.inbox[:n])
            del self.inbox[:n]
            return out

    @property
    def in_waiting(self):
        with self.cond:
            return len(self.inbox)

    def reset_input_buffer(self):
        pass

    def close(self):
        pass


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(out_plan=st.lists(FAULTS, max_size=6), back_plan=st.lists(FAULTS, max_size=6),
       clocks=st.lists(st.integers(0, 1199), min_size=1, max_size=4))
def test_the_newest_view_always_gets_through(out_plan, back_plan, clocks):
    port = FaultyPort(out_plan, back_plan)
    link = DisplayLink("fake://", opener=lambda url, **kw: port, ack_timeout=0.01, retry_interval=0.01,
                       tries_before_report=50)
    try:
        views = [futsal_view(f"{c // 60:02d}:{c % 60:02d}", home=i) for i, c in enumerate(clocks)]
        for view in views:
            link.show(view)
        want = views[-1]["clock"]
        assert link.wait_for(lambda s: s["shown"] is not None and s["shown"]["clock"] == want
                             and s["shown"]["home_score"] == len(views) - 1, 10)
        assert port.fw.state["clock"] == want and port.fw.state["home"] == str(len(views) - 1)
        status = link.status()
        assert status["connected"] and status["responding"]
    finally:
        link.close()
