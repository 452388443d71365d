"""Every user-facing string of the templates goes through ``_()``, and the JavaScript
takes its words from the page's ``#strings`` block."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
TEMPLATES = sorted((WEB / "templates").glob("*.html"))
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
SHOWN_ATTRS = {"placeholder", "aria-label", "title", "alt", "value"}


class Bare(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in SHOWN_ATTRS and value and re.search(r"[A-Za-z]", value) and tag != "option":
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and re.search(r"[A-Za-z]", data):
            self.found.append(data.strip())


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.name for t in TEMPLATES])
def test_no_bare_user_facing_text(template):
    source = template.read_text(encoding="utf-8")
    # a {{ ... }} without _( is data (names, views); a {% ... %} is logic: drop both
    source_text = re.sub(r"\{% block body_class %\}.*?\{% endblock %\}", "", source)  # a CSS class
    stripped = JINJA.sub("", source_text)
    parser = Bare()
    parser.feed(stripped)
    assert parser.found == []
    wrapped = re.findall(r"\{\{ ?_\((['\"])(.+?)\1\) ?\}\}", source)
    if template.name == "strings.html":  # one JSON object of _() and pgettext() calls
        wrapped = re.findall(r"(?:\b_|pgettext)\(", source)
    if template.name not in ("board.html",):
        assert wrapped, "a page without any translatable string?"


def test_javascript_has_no_words_of_its_own(client):
    page = client.get("/").get_data(as_text=True)
    strings = json.loads(re.search(r'<script type="application/json" id="strings">(.*?)</script>', page, re.S).group(1))
    used, tables = set(), set()
    for js in ("live.js", "control.js"):
        text = (WEB / "static" / js).read_text(encoding="utf-8")
        used |= set(re.findall(r"\bS\.(\w+)", text))
        tables |= set(re.findall(r'\bname\("(\w+)"', text))  # names that live as data: games, periods, ...
        m = re.search(r"const VALUE_TABLES = \{(.*?)\};", text, re.S)  # field -> the table naming its values
        if m:
            tables |= set(re.findall(r':\s*"(\w+)"', m.group(1)))
    assert used <= set(strings), used - set(strings)
    assert {"games", "periods", "families", "actions", "values", "sources", "ends"} <= tables <= set(strings)
    assert all(isinstance(strings[t], dict) and strings[t] for t in tables)


def test_club_script_has_no_words_of_its_own(table):
    from web import create_app

    class Watcher:
        version = 0

        def tables(self):
            return {}

        def status(self):
            return {"connected": False, "detail": "test"}

        def wait(self, after, timeout):
            return 0

    page = create_app(None, {"TESTING": True, "CLUB_WATCHER": Watcher()}).test_client().get("/club").get_data(as_text=True)
    strings = json.loads(re.search(r'<script id="strings" type="application/json">(.*?)</script>', page, re.S).group(1))
    text = (WEB / "static" / "club.js").read_text(encoding="utf-8")
    assert set(re.findall(r"\bL\.(\w+)", text)) <= set(strings)
    assert set(re.findall(r'\bnamed\("(\w+)"', text)) == {"games", "periods"} <= set(strings)


def test_translations_reach_the_page(app, client):
    """Installing a catalogue changes the page and the JavaScript's words."""

    class Shout:
        def gettext(self, s):
            return s.upper()

        def ngettext(self, s, p, n):
            return (s if n == 1 else p).upper()

        def pgettext(self, c, s):
            return s.upper()

        def npgettext(self, c, s, p, n):
            return (s if n == 1 else p).upper()

    app.jinja_env.install_gettext_translations(Shout(), newstyle=True)
    page = client.get("/").get_data(as_text=True)
    assert "HISTORY" in page and '"to_play": "{NAME} TO PLAY"' in page


def test_the_settler_reasons_the_control_page_words_are_the_settlers_own():
    """control.js words the reasons a settler holds a reading for (``/api/camera``'s ``settling``)
    by their English text: each must be a reason ``vision.settle`` or ``vision.tile_settle`` gives."""
    text = (WEB / "static" / "control.js").read_text(encoding="utf-8")
    held = re.search(r"const held = \{(.*?)\}\[c\.settling\]", text, re.S)
    assert held, "control.js no longer words the settler's reasons as expected"
    words = re.findall(r'"([^"]+)":\s*S\.\w+', held.group(1))
    assert len(words) == 4
    root = WEB.parent / "vision"
    given = (root / "settle.py").read_text(encoding="utf-8") + (root / "tile_settle.py").read_text(encoding="utf-8")
    assert all(f'"{w}"' in given for w in words), [w for w in words if f'"{w}"' not in given]
