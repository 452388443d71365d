"""Draw the LED scoreboard emulator and the serial display's terminal rendering for
the docs, from a futsal match replayed through the real code (no hand-made pictures),
and the board of `refbox run --sim` at a Pig table while a die in doubt holds the camera's
throw (a real table's view).

    .venv/bin/python docs/img/make_display_images.py     # writes docs/img/led-futsal.png, display-futsal.txt, led-pig-hold.png
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from firmware_bridge.emulator import SimDisplay  # noqa: E402
from firmware_bridge.led import LedConfig, LedScoreboard  # noqa: E402
from firmware_bridge.link import DisplayLink  # noqa: E402
from rules.replay import replay_lines  # noqa: E402

MATCH = [
    '{"game": "futsal", "players": ["Lviv", "Kyiv"]}',
    '{"type": "clock_start", "t": 0}',
    '{"type": "goal", "team": "home", "player": 10, "t": 130}',
    '{"type": "foul", "team": "away", "t": 300}',
    '{"type": "foul", "team": "away", "t": 420}',
    '{"type": "goal", "team": "away", "player": 7, "t": 610}',
    '{"type": "foul", "team": "home", "t": 700}',
    '{"type": "goal", "team": "home", "player": 4, "t": 845}',
    '{"type": "four_seconds", "t": 860}',
]


def main() -> None:
    session = replay_lines(MATCH)
    view = session.view(861.5)
    board = LedScoreboard(LedConfig(backend="emulator"))
    board.show(view)
    board.backend.save_png(HERE / "led-futsal.png", scale=2)
    with SimDisplay() as sim, DisplayLink(sim.url) as link:
        link.show(view)
        sim.wait_for(lambda s: s["clock"] == view["clock"], timeout=5)
        (HERE / "display-futsal.txt").write_text(sim.render_text() + "\n", encoding="utf-8")
    print(f"clock {view['clock']}, shot clock {view.get('shot_clock')}, {view['home']['score']}-{view['away']['score']}")
    pig_hold()


def pig_hold() -> None:
    """The emulated board of ``refbox run --sim`` (a third row: the message group) at a Pig table whose camera holds
    a throw for a die in doubt: the view's ``camera_hold``, shown as ``FIX DIE``."""
    from refbox.config import LedSection, led_config
    from refbox.journal import Journal
    from refbox.table import Table

    table = Table(Journal(":memory:"), {"game": "pig", "players": ["Ann", "Bob"]}, clock=lambda: 0.0)
    for event in ({"type": "roll", "dice": [5]}, {"type": "stop"}, {"type": "roll", "dice": [4]}):
        assert table.handle(event).accepted
    table.handle_hold("die")
    board = LedScoreboard(led_config(LedSection(), sim=True))
    board.show(table.view.data)
    board.backend.save_png(HERE / "led-pig-hold.png", scale=2)
    print("pig, the board as text:", board.backend.text())


if __name__ == "__main__":
    main()
