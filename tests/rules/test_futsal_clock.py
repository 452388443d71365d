from rules import Session
from rules.clock import Clock, fmt_clock


def test_two_hundred_stops_and_starts_end_at_exactly_twenty_minutes():
    s = Session.start({"game": "futsal", "players": ["Home", "Away"]})
    t = 0.0
    for i in range(200):
        s.submit({"type": "clock_start", "t": t})
        t += 6.0 + (i % 7) * 0.013
        if s.due_events(t):
            break
        s.submit({"type": "clock_stop", "t": t})
        t += 3.3
    for e in s.due_events(t + 100):
        s.submit(e)
    v = s.view(t + 500)
    assert v["period"] == "half-time" and v["clock_seconds"] == 1200.0 and not v["clock_running"]


def test_clock_is_computed_from_timestamps():
    c = Clock().start(100.0)
    assert c.elapsed(100.0 + 65.4) == 65.4
    assert fmt_clock(c.elapsed(165.4)) == "01:05"


def test_period_end_is_injected_at_the_exact_instant():
    s = Session.start({"game": "futsal", "players": ["H", "A"], "options": {"half_minutes": 1}})
    s.submit({"type": "clock_start", "t": 10})
    (end,) = s.due_events(75.0)
    assert end.type == "period_end" and end.t == 70.0 and end.source == "timer"
    s.submit(end)
    assert s.view(71.0)["horn"] is True and s.view(73.0)["horn"] is False
