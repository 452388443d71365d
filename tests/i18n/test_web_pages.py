"""The pages' scripts in Ukrainian and Russian: every view field the mirror shows has a
translated label, and in a real browser (Debian's Chromium through Playwright, a real
table and HTTP server) the mirror and the control panel show no English of their own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from refbox import i18n
from rules import Session, all_games
from tests.web.browser import Served
from web import create_app

ROOT = Path(__file__).resolve().parents[2]
LIVE_JS = (ROOT / "web" / "static" / "live.js").read_text(encoding="utf-8")
TIMEOUT = 10_000  # ms


def _js_list(name: str) -> set[str]:
    m = re.search(rf"const {name} = (?:new Set\()?\[(.*?)\]", LIVE_JS, re.S)
    assert m, name
    return set(re.findall(r'"(\w+)"', m.group(1)))


def shown_keys(view: dict) -> set[str]:
    """The view's keys live.js shows with a label (a generic fact of the board or a player)."""
    keys = {k for k in view if k not in _js_list("SKIP")}
    for p in view.get("players") or []:
        if isinstance(p, dict):
            keys |= set(p) - {"name"}
    return keys  # the field sports' home/away are drawn by team() with their own words


def page_strings(lang: str, table) -> dict:
    app = create_app(table, {"TESTING": True})
    page = app.test_client().get(f"/?lang={lang}").get_data(as_text=True)
    m = re.search(r'<script type="application/json" id="strings">(.*?)</script>', page, re.S)
    assert m
    return json.loads(m.group(1))


def test_every_field_the_mirror_shows_has_a_label_in_every_language(table):
    labels = {lang: page_strings(lang, table)["fields"] for lang in i18n.LANGUAGES}
    seen: set[str] = set()
    for game in all_games():
        s = Session.start({"game": game.name, "players": ["Ann", "Bob"]})
        try:
            view = s.game.view(s.state, 0.0)
        except TypeError:
            view = s.game.view(s.state)
        missing = shown_keys(view) - set(labels["en"])
        assert not missing, (game.name, sorted(missing))
        seen |= shown_keys(view)
    assert len(seen) > 80
    # the fields of events, shown in the history
    seen |= {f for game in all_games() for spec in game.events.values() for f in spec}
    assert not seen - set(labels["en"]), sorted(seen - set(labels["en"]))
    for key in seen:
        for lang in ("uk", "ru"):
            assert re.search(r"[а-яіїєґё]", labels[lang][key], re.I), (lang, key, labels[lang][key])


# --- in a real browser ---------------------------------------------------------------------



def expect():
    from playwright.sync_api import expect as e

    e.set_options(timeout=TIMEOUT)
    return e


@pytest.mark.parametrize("lang, words", [
    ("uk", {"title": "Футзал (міні-футбол)", "period": "1-й тайм", "fouls": "фоли", "status": "наживо",
            "types": ["тайм-аут", "фол", "пуск годинника"], "history": "Історія", "timeout": "тайм-аут господарі"}),
    ("ru", {"title": "Футзал (мини-футбол)", "period": "1-й тайм", "fouls": "фолы", "status": "в эфире",
            "types": ["тайм-аут", "фол", "пуск часов"], "history": "История", "timeout": "тайм-аут хозяева"}),
    ("en", {"title": "Futsal", "period": "1st half", "fouls": "fouls", "status": "live",
            "types": ["timeout", "foul", "clock start"], "history": "History", "timeout": "time-out home"}),
])
def test_futsal_mirror_in_the_language(page, tmp_path, lang, words):
    s = Served(tmp_path / "j.sqlite3", {"game": "futsal", "players": ["Lviv", "Kyiv"]})
    try:
        s.submit({"type": "clock_start"})
        s.submit({"type": "foul", "team": "home"})
        s.submit({"type": "timeout", "team": "home"})
        page.goto(f"{s.url}/?lang={lang}")
        e = expect()
        e(page.locator("html")).to_have_attribute("lang", lang)
        e(page.locator("#status")).to_have_text(words["status"])
        e(page.locator("#game-title")).to_have_text(words["title"])
        e(page.locator("#period")).to_have_text(words["period"])
        e(page.locator("#home .fouls .label")).to_have_text(words["fouls"])
        e(page.locator("#timeout")).to_contain_text(words["timeout"])
        e(page.locator("#history-title")).to_have_text(words["history"])
        e(page.locator("#history-list li .type")).to_have_text(words["types"])  # newest first
        e(page.locator(".languages a.current")).to_have_attribute("hreflang", lang)
    finally:
        s.stop()


def test_control_panel_in_russian_shows_translated_buttons_and_refusals(page, tmp_path):
    s = Served(tmp_path / "j.sqlite3", {"game": "pig", "players": ["Ann", "Bob"]}, LANGUAGE="ru")
    try:
        s.log_in(page)
        e = expect()
        e(page.locator("#buttons button")).to_have_text(["остановиться", "отменить"])
        e(page.locator("#game-title")).to_have_text("Свинья")
        e(page.locator("#event-type option[value=roll]")).to_have_text("бросить (roll)")
        page.click("#buttons button[data-button=stop]")
        e(page.locator("#answer")).to_contain_text("отклонено: ")
        e(page.locator("#answer")).to_contain_text("бросьте хотя бы раз, прежде чем остановиться")
        e(page.locator("#new-game-info")).to_contain_text("Свинья — Pig / Свиня · кости · 2..12 игроков")
        page.select_option("#event-type", "roll")
        page.fill("#event-fields", "dice=4")
        page.click("#event-form button[type=submit]")
        e(page.locator("#answer")).to_contain_text("принято: бросить")
        e(page.locator("#turn .who")).to_have_text("ход: Ann")
    finally:
        s.stop()
