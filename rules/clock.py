"""Computed clocks: a value derived from timestamps, never counted in ticks.

A clock stores ``elapsed_before`` (running time banked by earlier runs) and
``running_since`` (the start of the current run, or None when stopped). Its value
at ``now`` is derived, so 200 stops and starts add no drift.

>>> c = Clock().start(10.0).stop(25.5).start(30.0)
>>> c.elapsed(31.0)
16.5
>>> fmt_clock(65.0), fmt_clock(9.95, tenths=True)
('01:05', '9.9')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Clock:
    elapsed_before: float = 0.0
    running_since: float | None = None
    limit: float | None = None  # running time at which the clock stops by itself

    @property
    def running(self) -> bool:
        return self.running_since is not None

    def elapsed(self, now: float) -> float:
        run = 0.0 if self.running_since is None else max(0.0, now - self.running_since)
        total = self.elapsed_before + run
        return total if self.limit is None else min(total, self.limit)

    def remaining(self, now: float) -> float | None:
        return None if self.limit is None else max(0.0, self.limit - self.elapsed(now))

    def start(self, now: float) -> "Clock":
        if self.running:
            return self
        return replace(self, running_since=now)

    def stop(self, now: float) -> "Clock":
        if not self.running:
            return self
        return replace(self, elapsed_before=self.elapsed(now), running_since=None)

    def set_elapsed(self, value: float, now: float) -> "Clock":
        """Operator edit: the clock reads ``value`` at ``now`` and keeps its run state."""
        return replace(self, elapsed_before=value, running_since=now if self.running else None)

    def expires_at(self) -> float | None:
        """Wall time at which a running clock reaches its limit."""
        if self.limit is None or self.running_since is None:
            return None
        return self.running_since + (self.limit - self.elapsed_before)

    def expired(self, now: float) -> bool:
        return self.limit is not None and self.elapsed(now) >= self.limit


def fmt_clock(seconds: float, tenths: bool = False) -> str:
    """``MM:SS`` (seconds truncated, as match clocks do), or ``SS.t`` with tenths."""
    seconds = max(0.0, seconds)
    if tenths:
        # truncate to tenths; the tiny epsilon keeps 12.3 from showing 12.2
        t = math.floor(seconds * 10 + 1e-6) / 10
        return f"{t:.1f}"
    whole = math.floor(seconds + 1e-6)
    return f"{whole // 60:02d}:{whole % 60:02d}"


def fmt_countdown(seconds: float, tenths: bool = False) -> str:
    """Like :func:`fmt_clock` but rounding up, as a countdown shows 00:01 until it hits zero."""
    seconds = max(0.0, seconds)
    if tenths:
        t = math.ceil(seconds * 10 - 1e-6) / 10
        return f"{t:.1f}"
    whole = math.ceil(seconds - 1e-6)
    return f"{whole // 60:02d}:{whole % 60:02d}"
