import pytest


@pytest.fixture
def pig():
    from rules import Session

    return Session.start({"game": "pig", "players": ["Ann", "Bob"]})
