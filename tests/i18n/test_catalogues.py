"""The catalogues are complete and sound: every message a person may read is in them,
translated in Ukrainian and Russian, and no translation breaks a placeholder."""

import gettext
import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from refbox import i18n, i18n_catalog
from rules import all_games

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def template():
    return i18n_catalog.extract()


@pytest.mark.parametrize("lang", ["uk", "ru"])
def test_every_message_is_translated(template, lang):
    assert i18n_catalog.problems(i18n_catalog.read(lang), template, complete=True) == []


def test_english_catalogue_has_every_message_and_sound_placeholders(template):
    assert i18n_catalog.problems(i18n_catalog.read("en"), template, complete=False) == []


def test_the_template_holds_every_kind_of_message(template):
    contexts = {m.context for m in template if m.id}
    assert {"family", "option", "period", "display", "action", "phase"} <= contexts
    assert {f"game:{g.name}" for g in all_games()} <= contexts
    ids = {m.id for m in template}
    assert "Control panel" in ids  # a template string
    assert "the game is over, {winner} won" in ids  # a refusal pattern
    assert "Send-off penalties" in ids  # the match report
    assert "events: {events}" in ids  # refbox games


def test_period_names_are_the_engines_phases():
    from rules.sports.match import Rules, build_phases

    phases = build_phases(Rules(half_seconds=1200, break_seconds=900))
    assert tuple(p.name for p in phases) == i18n_catalog.PERIOD_NAMES


def _po(text: str, lang: str = "uk") -> Catalog:
    head = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n\n'
    return read_po(io.BytesIO((head + text).encode()), locale=lang)


@pytest.mark.parametrize("entry, broken", [
    ('msgid "the game is over, {winner} won"\nmsgstr "гру закінчено, переміг {переможець}"\n', True),
    ('msgid "the game is over, {winner} won"\nmsgstr "гру закінчено"\n', True),
    ('msgid "%(n)s fouls"\nmsgstr "%(n)d фолів"\n', True),
    ('msgid "%(n)s fouls"\nmsgstr "%(count)s фолів"\n', True),
    ('msgid "{a} and {b}"\nmsgstr "{b} і {a}"\n', False),
    ('msgid "%(n)s fouls"\nmsgstr "фолів: %(n)s"\n', False),
    ('msgid "Roll"\nmsgstr ""\n', True),
    ('#, fuzzy\nmsgid "Roll"\nmsgstr "Кинути"\n', True),
])
def test_checker_finds_missing_and_broken_entries(entry, broken):
    found = i18n_catalog.problems(_po(entry), None, complete=True)
    assert bool(found) is broken, found


def test_checker_finds_a_message_missing_from_a_catalogue(template):
    cat = i18n_catalog.read("uk")
    cat.delete("Control panel")
    assert "uk: missing 'Control panel'" in i18n_catalog.problems(cat, template, complete=True)


def test_compile_writes_mo_that_gettext_reads(tmp_path):
    locale_dir = tmp_path / "locale"
    for lang in i18n.LANGUAGES:
        (locale_dir / lang / "LC_MESSAGES").mkdir(parents=True)
        shutil.copy(i18n.po_path(lang), i18n.po_path(lang, locale_dir))
    tr = i18n.translations("ru", locale_dir)  # no .mo yet: compiled on first use
    assert i18n.mo_path("ru", locale_dir).exists()
    assert tr.pgettext("game:pig", "Pig") == "Свинья"
    with i18n.mo_path("ru", locale_dir).open("rb") as fh:
        assert gettext.GNUTranslations(fh).pgettext("action", "roll") == "бросить"


def test_stale_mo_is_recompiled(tmp_path):
    import os

    locale_dir = tmp_path / "locale"
    (locale_dir / "uk" / "LC_MESSAGES").mkdir(parents=True)
    po = i18n.po_path("uk", locale_dir)
    shutil.copy(i18n.po_path("uk"), po)
    i18n.compile_catalogue("uk", locale_dir)
    text = po.read_text(encoding="utf-8").replace('msgid "History"\nmsgstr "Історія"', 'msgid "History"\nmsgstr "Минуле"')
    po.write_text(text, encoding="utf-8")
    mo = i18n.mo_path("uk", locale_dir)
    os.utime(mo, (mo.stat().st_atime - 60, mo.stat().st_mtime - 60))
    assert "Минуле" in text
    assert i18n.translations("uk", locale_dir).gettext("History") == "Минуле"


def test_mo_files_are_not_in_git():
    ignore = (ROOT / ".gitignore").read_text()
    assert re.search(r"^\*\.mo$", ignore, re.M)


# --- templates: no string reaches a page without going through the catalogue ---------

JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
READABLE_ATTRS = ("title", "placeholder", "alt", "aria-label", "value", "label")
# words that are the same in every language (the product's name, the format's name)
SAME_EVERYWHERE = {"Refbox", "—", "·", "JSON"}


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        kind = dict(attrs).get("type", "")
        for name, value in attrs:
            # a value is read only on a button-like input; an <option>'s value is a code
            if name == "value" and not (tag == "input" and kind in ("submit", "button", "reset")):
                continue
            if name in READABLE_ATTRS and value and re.search(r"[^\W\d_]", value):
                self.found.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            for word in data.split():
                if re.search(r"[^\W\d_]", word) and word not in SAME_EVERYWHERE:
                    self.found.append(word)


def raw_template_text(source: str) -> list[str]:
    """Readable text a template shows without a ``_()`` around it."""
    parser = _Text()
    # the body_class block names a CSS class, not a word anyone reads
    source = re.sub(r"\{% block body_class %\}.*?\{% endblock %\}", " ", source)
    parser.feed(JINJA.sub(" ", source))
    return parser.found


TEMPLATES = sorted((ROOT / "web" / "templates").glob("**/*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=[p.name for p in TEMPLATES])
def test_templates_wrap_every_readable_string(path):
    assert raw_template_text(path.read_text(encoding="utf-8")) == []


def test_the_template_check_sees_a_bare_string():
    assert raw_template_text('<p>{{ _("Score") }}</p><button title="Undo">{{ x }}</button><p>Score</p>') == [
        "Undo", "Score"]
    assert raw_template_text('<input type="submit" value="Go"><select><option value="elapsed">'
                             '{{ _("elapsed") }}</option></select><input placeholder="mm:ss">') == ["Go", "mm:ss"]
    assert raw_template_text('{% block body_class %}control{% endblock %}<i aria-label="Dice"></i>') == ["Dice"]


def test_every_page_template_has_the_language_and_its_switch():
    for name in ("base.html", "club.html"):
        source = (ROOT / "web" / "templates" / name).read_text(encoding="utf-8")
        assert '<html lang="{{ lang }}">' in source and '{% include "languages.html" %}' in source, name
