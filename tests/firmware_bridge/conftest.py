import pytest

from firmware_bridge.emulator import SimDisplay


def futsal_view(clock="12:34", home=3, away=1, horn=False, **extra):
    view = {
        "game": "futsal",
        "players": ["Lviv", "Kyiv"],
        "turn": None,
        "winner": None,
        "events": 4,
        "clock": clock,
        "clock_running": True,
        "period": "1st half",
        "horn": horn,
        "home": {"name": "Lviv", "score": home, "fouls": 2},
        "away": {"name": "Kyiv", "score": away, "fouls": 5},
    }
    view.update(extra)
    return view


@pytest.fixture
def sim(tmp_path):
    display = SimDisplay(link_path=tmp_path / "display")
    yield display
    display.close()
