"""The language on the web page (per request), in ``refbox games`` and the match
report, in the configuration; numbers and dates by locale, the clock never."""

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

from refbox import i18n
from refbox.config import ConfigError, load as load_config
from web import create_app

ROOT = Path(__file__).resolve().parents[2]


def make_client(table, language="en"):
    app = create_app(table, {"TESTING": True, "CONTROL_PIN": "2468", "LANGUAGE": language})
    return app.test_client()


PAGES = ("/", "/login", "/control", "/club")


class _Watcher:
    """A club watcher with one table playing futsal (what refbox.club.ClubWatcher gives)."""

    version = 1

    def tables(self):
        summary = {"game": "futsal", "scores": [{"name": "Lviv", "score": 1}, {"name": "Kyiv", "score": 0}],
                   "clock": "12:03", "period": "2nd half", "turn": None, "winner": None}
        return {"table-2": {"table": "table-2", "status": "online", "summary": summary, "version": 1}}

    def status(self):
        return {"connected": True, "detail": ""}

    def wait(self, after, timeout):
        return self.version


def pages(table, lang, language="en"):
    """Every page of the web UI in ``lang``: mirror, login, control panel (logged in), club."""
    app = create_app(table, {"TESTING": True, "CONTROL_PIN": "2468", "LANGUAGE": language,
                             "CLUB_WATCHER": _Watcher()})
    client = app.test_client()
    out = {"/login": client.get(f"/login?lang={lang}").get_data(as_text=True)}
    assert client.post("/login", data={"pin": "2468"}).status_code == 302
    for path in ("/", "/control", "/club"):
        r = client.get(f"{path}?lang={lang}")
        assert r.status_code == 200, path
        out[path] = r.get_data(as_text=True)
    return out


def strings(page):
    """The words the page's scripts write (the ``#strings`` block), as data."""
    import re

    m = re.search(r'<script (?:type="application/json" id="strings"|id="strings" type="application/json")>(.*?)</script>',
                  page, re.S)
    return json.loads(m.group(1)) if m else {}


def leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from leaves(v)
    else:
        yield value


def visible(page):
    """The page without its scripts: what HTML shows (text and attributes)."""
    import re

    return re.sub(r"<script\b.*?</script>", "", page, flags=re.S)


@pytest.mark.parametrize("lang, words", [
    ("uk", {"/": ["Історія", "Керування", "з'єднання…"], "/login": ["Панель керування", "Увійти"],
            "/control": ["Кнопки", "Нова гра", "Почати нову гру"], "/club": ["Столи клубу", "Футзал (міні-футбол)", "2-й тайм"]}),
    ("ru", {"/": ["История", "Управление", "соединение…"], "/login": ["Панель управления", "Войти"],
            "/control": ["Кнопки", "Новая игра", "Начать новую игру"], "/club": ["Столы клуба", "Футзал (мини-футбол)", "2-й тайм"]}),
    ("en", {"/": ["History", "Control", "connecting…"], "/login": ["Control panel", "Log in"],
            "/control": ["Buttons", "New game", "Start new game"], "/club": ["Club tables", "Futsal", "2nd half"]}),
])
def test_every_page_in_the_asked_language(table, lang, words):
    got = pages(table, lang)
    for path in PAGES:
        assert f'<html lang="{lang}">' in got[path], path
        assert f'href="?lang={lang}"' in got[path] and 'aria-current="true"' in got[path]  # the switch
        for w in words.get(path, []):
            assert w in visible(got[path]), (path, w)


@pytest.mark.parametrize("lang, expect", [
    ("uk", {"to_play": "хід: {name}", "die": "кубик {v}", ("games", "pig"): "Свиня",
            ("periods", "half-time"): "перерва", ("actions", "roll"): "кинути", ("fields", "fouls"): None}),
    ("ru", {"to_play": "ход: {name}", "die": "кубик {v}", ("games", "pig"): "Свинья",
            ("periods", "half-time"): "перерыв", ("actions", "roll"): "бросить"}),
    ("en", {"to_play": "{name} to play", "die": "die {v}", ("games", "pig"): "Pig",
            ("periods", "half-time"): "half-time", ("actions", "roll"): "roll"}),
])
def test_the_scripts_words_are_in_the_language(table, lang, expect):
    s = strings(pages(table, lang)["/control"])
    for key, want in expect.items():
        got = s[key[0]].get(key[1]) if isinstance(key, tuple) else s[key]
        if want is not None:
            assert got == want, key
    assert s["live"] == i18n.gettext_for(lang, "live")


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_no_english_reaches_a_translated_page(table, lang):
    """No template string shows untranslated, and every word the scripts may write
    (their texts, game, period, family, button and event names) is in the language."""
    import re

    from babel.messages.extract import extract_from_dir

    got = pages(table, lang)
    msgids = [m[2] for m in extract_from_dir(str(ROOT / "web" / "templates"), [("**.html", "jinja2")],
                                             {"**.html": {"extensions": "jinja2.ext.i18n"}})]
    assert len(msgids) > 100
    for path, page in got.items():
        shown = visible(page)
        for msgid in msgids:
            text = msgid if isinstance(msgid, str) else msgid[-1]
            if i18n.gettext_for(lang, text) != text:  # words that are the same (PIN, Refbox) are allowed
                assert f">{text}<" not in shown, (path, text)
                for attr in ("title", "placeholder", "alt", "aria-label"):
                    assert f'{attr}="{text}"' not in shown, (path, attr, text)
        words = [w for w in leaves(strings(page)) if isinstance(w, str)]
        assert path == "/login" or len(words) > 10, path
        # what is left once placeholders, formats and identifiers are removed must be Cyrillic
        for w in words:
            rest = re.sub(r"\{\w+\}|\b[\w.-]*[=_/][\w.,/-]*|JSON|CSRF|PIN|X-Refbox-Pin|docs/games", " ", w)
            assert not re.search(r"[A-Za-z]{2,}", rest), (path, w)


def test_choice_is_remembered_in_a_cookie(table):
    client = make_client(table)
    r = client.get("/login?lang=ru")
    assert i18n.COOKIE in r.headers.get("Set-Cookie", "")
    assert "Панель управления" in client.get("/login").get_data(as_text=True)  # the cookie, no ?lang
    assert "Control panel" in client.get("/login?lang=en").get_data(as_text=True)


def test_table_language_is_the_default_and_bad_values_are_ignored(table):
    client = make_client(table, "uk")
    assert "Панель керування" in client.get("/login").get_data(as_text=True)
    assert "Панель керування" in client.get("/login?lang=xx").get_data(as_text=True)
    client.set_cookie(i18n.COOKIE, "de")
    assert "Панель керування" in client.get("/login").get_data(as_text=True)


def test_accept_language_only_when_nothing_else_says(table):
    app = create_app(table, {"TESTING": True, "LANGUAGE": "none-configured"})
    page = app.test_client().get("/login", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).get_data(as_text=True)
    assert "Панель управления" in page


def test_refusal_comes_with_a_translated_reason_text(table):
    client = make_client(table, "uk")
    r = client.post("/api/events", json={"type": "stop"}, headers={"X-Refbox-Pin": "2468"})
    assert r.status_code == 422
    assert "throw at least once" in r.json["reason"]  # the documented key keeps its meaning
    assert r.json["reason_text"].endswith("киньте хоча б раз, перш ніж зупинитися")
    r = client.post("/api/events?lang=ru", json={"type": "roll", "dice": [3]}, headers={"X-Refbox-Pin": "1"})
    assert r.status_code == 403 and r.json["reason"] == "wrong PIN" and r.json["reason_text"] == "неверный PIN-код"
    r = client.post("/api/events?lang=ru", json={"type": "roll", "dice": [3]})
    assert r.status_code == 403 and r.json["reason_text"].startswith("запрещено: войдите на /login")
    r = client.get("/api/proposals?tile=6-2&lang=uk")
    assert r.status_code == 422 and r.json["reason_text"] == "у грі pig немає кісточок для викладання"


def test_wrong_pin_on_the_login_page_is_in_the_language(table):
    client = make_client(table, "ru")
    page = client.post("/login", data={"pin": "0000"}).get_data(as_text=True)
    assert '<p id="login-error" class="error" role="alert">неверный PIN-код</p>' in page


def test_game_catalogue_of_the_api_is_in_the_language(table):
    client = make_client(table)
    games = {g["name"]: g for g in client.get("/api/games?lang=uk").json}
    assert games["pig"]["title"] == "Свиня" and games["pig"]["title_en"] == "Pig"
    assert next(o for o in games["pig"]["options"] if o["name"] == "target")["help"] == "очки, які треба набрати"
    assert client.get("/api/game?lang=ru").json["info"]["title"] == "Свинья"
    assert client.get("/api/games?lang=en").json[0]["title"] == client.get("/api/games?lang=en").json[0]["title_en"]


def test_accepted_events_are_untouched(table):
    r = make_client(table, "uk").post("/api/events", json={"type": "roll", "dice": [3]},
                                      headers={"X-Refbox-Pin": "2468"})
    assert r.status_code == 200 and "reason_text" not in r.json


def test_locale_filters_in_templates(table):
    app = create_app(table, {"TESTING": True, "LANGUAGE": "uk"})
    with app.test_request_context("/?lang=uk"):
        app.preprocess_request()
        env = app.jinja_env
        assert env.from_string("{{ 1234567.5|number }}").render() == "1\xa0234\xa0567,5"
        when = dt.datetime(2026, 3, 1, 18, 5)
        assert "бер" in env.from_string("{{ when|datetime }}").render(when=when)
        assert env.from_string('{{ _("History") }}').render() == "Історія"
        assert env.from_string('{{ pgettext("action", "roll") }}').render() == "кинути"
        assert env.from_string('{{ pgettext("game:pig", "Pig") }}').render() == "Свиня"


# --- numbers and dates, not the clock ------------------------------------------------------


def test_numbers_and_dates_follow_the_locale():
    assert i18n.format_decimal(1234.5, "en") == "1,234.5"
    assert i18n.format_decimal(1234.5, "uk") == "1\xa0234,5"
    assert i18n.format_decimal(1234.5, "ru") == "1\xa0234,5"
    assert i18n.format_percent(0.518, "uk") == "51,8%" and i18n.format_percent(0.518, "en") == "51.8%"
    assert i18n.format_percent(0.518, "ru") == "51,8\xa0%"
    day = dt.date(2026, 12, 3)
    assert i18n.format_date(day, "uk") == "3 грудня 2026\u202fр."
    assert i18n.format_date(day, "ru") == "3 декабря 2026\u202fг."
    assert i18n.format_date(day, "en") == "3 December 2026"


def test_the_match_clock_stays_mm_ss_in_every_language():
    from rules import Session
    from rules.sports.report import report_html

    s = Session.start({"game": "futsal", "players": ["Lviv", "Kyiv"]})
    for e in ({"type": "clock_start", "t": 0}, {"type": "goal", "team": "away", "player": 9, "t": 261.5}):
        s.submit(e)
    assert s.game.view(s.state, 700.0)["clock"] == "11:40"
    for lang in i18n.LANGUAGES:
        html = report_html(s.game.report(s.state), **i18n.report_translator(lang))
        assert "<td>04:21</td>" in html


def test_match_report_in_ukrainian_and_russian():
    from rules import Session
    from rules.sports.report import report_html

    s = Session.start({"game": "futsal", "players": ["Lviv", "Kyiv"]})
    for e in ({"type": "clock_start", "t": 0}, {"type": "goal", "team": "away", "player": 9, "t": 61},
              {"type": "card", "team": "home", "player": 4, "color": "yellow", "t": 70}):
        s.submit(e)
    uk = report_html(s.game.report(s.state), **i18n.report_translator("uk", printed=dt.date(2026, 12, 3)))
    assert '<html lang="uk">' in uk and "Футзал (міні-футбол): Lviv 0-1 Kyiv" in uk
    assert "<h2>Голи</h2>" in uk and "<td>1-й тайм</td>" in uk and "Надруковано: 3 грудня 2026" in uk
    ru = report_html(s.game.report(s.state), **i18n.report_translator("ru"))
    assert "<h2>Голы</h2>" in ru and "Судья:" in ru
    en = report_html(s.game.report(s.state))
    assert "<h2>Goals</h2>" in en and "<td>1st half</td>" in en


# --- configuration and CLI -----------------------------------------------------------------


def test_table_language_in_the_configuration(tmp_path):
    path = tmp_path / "refbox.toml"
    path.write_text('[table]\nlanguage = "uk"\n')
    assert load_config(path).table.language == "uk"
    path.write_text('[table]\nlanguage = "de"\n')
    with pytest.raises(ConfigError, match=r"table.language must be one of \['uk', 'ru', 'en'\], got 'de'"):
        load_config(path)


def refbox(*args):
    return subprocess.run([sys.executable, "-m", "refbox", *args], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=60)


def test_games_in_ukrainian_show_native_and_english_names():
    r = refbox("games", "--lang", "uk")
    assert r.returncode == 0, r.stderr
    assert "Свиня / Pig  (кості, 2-12 гравців, джерело 000:40-46)" in r.stdout
    assert "Тисяча (1000), класичні правила / Thousand (1000), classic rules" in r.stdout
    assert "Морські кістки (Яхта) / Sea dice (Yacht)" in r.stdout
    assert "П'ятірка / All Fives (Muggins)" in r.stdout
    assert "параметр target = 100: очки, які треба набрати" in r.stdout


def test_games_in_russian_as_json():
    r = refbox("games", "--lang", "ru", "--json")
    games = {g["name"]: g for g in json.loads(r.stdout)}
    assert games["pig"]["title"] == "Свинья" and games["pig"]["title_en"] == "Pig"
    assert games["poker"]["title"] == "Покер на костях (5 зариков)"
    target = next(o for o in games["pig"]["options"] if o["name"] == "target")
    assert target["help"] == "очки, которые нужно набрать"


def test_games_in_english_unchanged():
    r = refbox("games")
    assert "pig              Pig / Свиня  (dice, 2-12 players, source 000:40-46)" in r.stdout


def test_games_refuses_an_unknown_language():
    r = refbox("games", "--lang", "de")
    assert r.returncode == 2 and "invalid choice: 'de'" in r.stderr


def test_names_the_scripts_show_are_in_the_language(table):
    from rules import all_games
    from web.i18n import js_catalogue

    uk = js_catalogue("uk")
    assert set(uk["games"]) == {g.name for g in all_games()}
    assert uk["games"]["pig"] == "Свиня" and js_catalogue("ru")["games"]["pig"] == "Свинья"
    assert uk["periods"]["half-time"] == "перерва" and uk["families"]["dice"] == "кості"
    words = {w for g in all_games() for w in (*g.keypad, *g.events)} | {"undo"}
    assert set(uk["actions"]) == words
    assert uk["actions"]["goal_home"] == "гол господарів" and js_catalogue("ru")["actions"]["undo"] == "отменить"
    for lang in ("uk", "ru"):  # every button and event type has a word of its own in the language
        assert all(js_catalogue(lang)["actions"][w] != i18n.action_text(w) for w in words), lang
    app = create_app(table, {"TESTING": True})
    with app.test_request_context("/?lang=ru"):
        app.preprocess_request()
        out = app.jinja_env.from_string("{{ names|tojson }}").render(**_context(app))
    assert json.loads(out)["games"]["futsal"] == "Футзал (мини-футбол)"


def _context(app):
    ctx = {}
    app.update_template_context(ctx)
    return ctx


@pytest.mark.parametrize("lang, words", [("uk", ("клавіші", "відхилено")), ("ru", ("клавиши", "отклонено"))])
def test_simulation_terminal_speaks_the_tables_language(tmp_path, lang, words):
    """The --sim terminal: its key line and the table's refusals in ``table.language``."""
    from refbox.journal import Journal
    from refbox.table import Table
    from refbox.terminal import TerminalUI, key_map

    table = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["A", "B"]})
    ui = TerminalUI(table, None, keyboard=False, lang=lang)
    line = ui.help_line(key_map(ui._buttons()))
    refused = ui.answer(table.handle({"type": "stop"}))  # before any throw
    english = TerminalUI(table, None, keyboard=False).answer(table.handle({"type": "stop"}))
    assert line.startswith(words[0]) and refused.startswith(words[1]), (line, refused)
    assert "throw at least once" in english and "throw" not in refused, refused
    assert ui.answer(table.handle({"type": "roll", "dice": [4]})).startswith(i18n.gettext_for(lang, "accepted {event}")[:5])
