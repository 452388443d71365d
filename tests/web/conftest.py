import pytest

from web import create_app

PIN = "2468"


class Clock:
    """A hand-driven monotonic clock for the rate limiter."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(table, clock):
    return create_app(table, {"TESTING": True, "CONTROL_PIN": PIN, "TABLE_NAME": "table-7", "RATE_CLOCK": clock})


@pytest.fixture
def client(app):
    return app.test_client()


def pin(value=PIN):
    return {"X-Refbox-Pin": value}
