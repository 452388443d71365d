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
from refbox.journal import Journal
from refbox.table import Table
from web import create_app

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(tmp_path):
    t = Table(Journal(tmp_path / "j.sqlite3"), {"game": "pig", "players": ["Ann", "Bob"]}, tick=0.01)
    t.start()
    yield t
    t.stop()


def make_client(table, language="en"):
    app = create_app(table, {"TESTING": True, "CONTROL_PIN": "2468", "LANGUAGE": language})
    return app.test_client()


@pytest.mark.parametrize("lang, words", [
    ("uk", ["Панель керування", "Кинути", "з'єднання…", 'lang="uk"']),
    ("ru", ["Панель управления", "Бросить", "соединение…", 'lang="ru"']),
    ("en", ["Control panel", "Roll", "connecting…", 'lang="en"']),
])
def test_page_in_the_asked_language(table, lang, words):
    page = make_client(table).get(f"/?lang={lang}").get_data(as_text=True)
    for w in words:
        assert w in page


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_no_english_template_string_reaches_a_translated_page(table, lang):
    from babel.messages.extract import extract_from_dir

    page = make_client(table).get(f"/?lang={lang}").get_data(as_text=True)
    msgids = [m[2] for m in extract_from_dir(str(ROOT / "web" / "templates"), [("**.html", "jinja2")],
                                             {"**.html": {"extensions": "jinja2.ext.i18n"}})]
    assert msgids
    for msgid in msgids:
        text = msgid if isinstance(msgid, str) else msgid[0]
        if i18n.gettext_for(lang, text) != text:  # words that are the same (PIN) are allowed
            assert f">{text}<" not in page and f'"{text}"' not in page, text


def test_choice_is_remembered_in_a_cookie(table):
    client = make_client(table)
    r = client.get("/?lang=ru")
    assert i18n.COOKIE in r.headers.get("Set-Cookie", "")
    assert "Панель управления" in client.get("/").get_data(as_text=True)  # the cookie, no ?lang
    assert "Control panel" in client.get("/?lang=en").get_data(as_text=True)


def test_table_language_is_the_default_and_bad_values_are_ignored(table):
    client = make_client(table, "uk")
    assert "Панель керування" in client.get("/").get_data(as_text=True)
    assert "Панель керування" in client.get("/?lang=xx").get_data(as_text=True)
    client.set_cookie(i18n.COOKIE, "de")
    assert "Панель керування" in client.get("/").get_data(as_text=True)


def test_accept_language_only_when_nothing_else_says(table):
    app = create_app(table, {"TESTING": True, "LANGUAGE": "none-configured"})
    page = app.test_client().get("/", headers={"Accept-Language": "ru-RU,ru;q=0.9"}).get_data(as_text=True)
    assert "Панель управления" in page


def test_refusal_comes_with_a_translated_reason_text(table):
    client = make_client(table, "uk")
    r = client.post("/api/events", json={"type": "stop"}, headers={"X-Refbox-Pin": "2468"})
    assert r.status_code == 422
    assert "throw at least once" in r.json["reason"]  # the documented key keeps its meaning
    assert r.json["reason_text"].endswith("киньте хоча б раз, перш ніж зупинитися")
    r = client.post("/api/events?lang=ru", json={"type": "roll", "dice": [3]}, headers={"X-Refbox-Pin": "1"})
    assert r.status_code == 403 and r.json["reason_text"].startswith("неверный или отсутствующий PIN-код")


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
        assert env.from_string('{{ _("Roll") }}').render() == "Кинути"
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


def test_page_script_gets_its_messages_and_names_in_the_language(table):
    from web.i18n import JS_MESSAGES, js_catalogue

    uk = js_catalogue("uk")
    assert set(uk["messages"]) == set(JS_MESSAGES)
    assert uk["messages"]["{winner} wins"] == "переміг {winner}"
    assert uk["games"]["pig"] == "Свиня" and js_catalogue("ru")["games"]["pig"] == "Свинья"
    assert uk["periods"]["half-time"] == "перерва"
    app = create_app(table, {"TESTING": True})
    with app.test_request_context("/?lang=ru"):
        app.preprocess_request()
        out = app.jinja_env.from_string("{{ i18n_js|tojson }}").render(**_context(app))
    assert json.loads(out)["messages"]["live"] == "в эфире"


def _context(app):
    ctx = {}
    app.update_template_context(ctx)
    return ctx
