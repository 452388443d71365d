"""Small helpers shared by the test packages."""

from __future__ import annotations

import time
from typing import Callable


def wait_until(predicate: Callable[[], object], timeout: float = 10.0, step: float = 0.01) -> bool:
    """Poll ``predicate`` until it is true or ``timeout`` seconds pass (for threads and
    processes that answer asynchronously; the answer, not the waiting, is the test)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())
