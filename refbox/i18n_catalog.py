"""Keeping the catalogues: extract, update, compile, check (``scripts/i18n.sh``).

``python -m refbox.i18n_catalog update`` extracts every message into
``refbox/locale/refbox.pot`` and merges it into the three ``refbox.po`` files:

- Python sources (``_()``, ``gettext``, ``ngettext``, ``pgettext``, ``N_()``) of
  ``refbox/``, ``web/``, ``firmware_bridge/`` and ``rules/sports/report.py``;
- the Jinja templates ``web/templates/**.html`` (``{{ _("...") }}``, ``{% trans %}``);
- the names of the games (msgctxt ``game:NAME``), their families (``family``),
  option descriptions (``option``), the words of their buttons and event types
  (``action``: ``goal_home`` is ``goal home``) and the period names of the field sports
  (``period``), read from the ``rules`` registry, so a new game needs no marking;
  what the field sports refuse outside play (``what``);
- the short scoreboard texts of :data:`firmware_bridge.glyphs.DISPLAY_TEXTS`
  (msgctxt ``display``).

``check`` lists untranslated, fuzzy and placeholder-broken entries and exits 1 if any.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from pathlib import Path
from typing import Any, Iterable, Sequence

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from . import i18n

ROOT = Path(__file__).resolve().parent.parent
POT = i18n.LOCALE_DIR / "refbox.pot"
KEYWORDS: dict[str, Any] = {**DEFAULT_KEYWORDS, "N_": None}
# (folder, babel method map)
SOURCES: tuple[tuple[str, list[tuple[str, str]]], ...] = (
    ("refbox", [("**.py", "python")]),
    ("firmware_bridge", [("firmware/**.py", "ignore"), ("**.py", "python")]),
    ("web", [("**.py", "python"), ("templates/**.html", "jinja2")]),
    ("rules", [("sports/report.py", "python"), ("**.py", "ignore")]),
)
OPTIONS_MAP = {"templates/**.html": {"extensions": "jinja2.ext.i18n", "encoding": "utf-8"}}
TRANSLATED = ("uk", "ru")  # must be complete; English falls back to the msgid

BRACE = re.compile(r"(?<!\{)\{(\w*)(?:[!:][^{}]*)?\}(?!\})")
PERCENT = re.compile(r"%(?:\((\w+)\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]")


def _dynamic_messages() -> Iterable[tuple[str, str | None, str]]:
    """(msgid, context, where) of messages that live as data, not as marked strings."""
    from firmware_bridge.glyphs import DISPLAY_TEXTS
    from rules import all_games

    actions: set[str] = {"undo"}
    for game in all_games():
        actions |= {*game.keypad, *game.events}
        yield game.title, f"game:{game.name}", f"rules registry: {game.name}"
        yield game.family, "family", "rules registry: families"
        for opt in game.options:
            yield opt.help, "option", f"rules registry: {game.name}.{opt.name}"
    for name in sorted(actions):
        yield i18n.action_text(name), "action", "rules registry: buttons and event types"
    for name in PERIOD_NAMES:
        yield name, "period", "rules/sports/match.py build_phases"
    for name in i18n.END_NAMES:
        yield name, "end", "refbox/table.py: ambiguous placements (rules/dominoes/layout.py ENDS)"
    for name in i18n.WHAT_NAMES:
        yield name, "what", "rules/sports/match.py: no {what} during {period}"
    for name in i18n.BALL_NAMES:
        yield name, "ball", "rules/billiards/snooker.py: the ball on"
    for text in DISPLAY_TEXTS:
        yield text, "display", "firmware_bridge/glyphs.py"


PERIOD_NAMES = i18n.PERIOD_NAMES


def extract() -> Catalog:
    """Everything a person may read, as a template catalogue."""
    cat = Catalog(project="refbox", version="0.1.0", charset="utf-8", fuzzy=False)
    for folder, method_map in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT / folder), method_map, OPTIONS_MAP, keywords=KEYWORDS, comment_tags=("NOTE:",),
            strip_comment_tags=True,
        ):
            location = (f"{folder}/{filename}", lineno)
            found = cat.get(message, context)
            if found is not None:
                found.locations.append(location)
            else:
                cat.add(message, locations=[location], auto_comments=comments, context=context)
    for msgid, ctx, where in _dynamic_messages():
        if not msgid:
            continue
        existing = cat.get(msgid, ctx)
        if existing is None:
            cat.add(msgid, context=ctx, auto_comments=[where])
        elif where not in existing.auto_comments:
            existing.auto_comments.append(where)
    return cat


_DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"$', re.M)


def _write(cat: Catalog, path: Path) -> None:
    """Write a catalogue; leave the file alone when only its dates would change."""
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=True, include_previous=False)
    data = buf.getvalue()
    if path.exists() and _DATES.sub(b"", path.read_bytes()) == _DATES.sub(b"", data):
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def read(lang: str) -> Catalog:
    with i18n.po_path(lang).open("rb") as fh:
        return read_po(fh, locale=lang, domain=i18n.DOMAIN)


def update() -> None:
    """Extract into the .pot and merge it into every .po (new entries untranslated)."""
    template = extract()
    _write(template, POT)
    for lang in i18n.LANGUAGES:
        path = i18n.po_path(lang)
        if path.exists():
            cat = read(lang)
            cat.update(template, update_header_comment=False, no_fuzzy_matching=True)
            cat.obsolete.clear()
        else:
            cat = Catalog(locale=lang, domain=i18n.DOMAIN, project="refbox", version="0.1.0", fuzzy=False)
            cat.update(template, no_fuzzy_matching=True)
        _write(cat, path)
        print(f"{path.relative_to(ROOT)}: {sum(1 for m in cat if m.id)} messages")


def compile_all() -> None:
    for lang in i18n.LANGUAGES:
        i18n.compile_catalogue(lang)
        print(f"{i18n.mo_path(lang).relative_to(ROOT)} written")


def placeholders(text: str) -> tuple[list[str], list[str]]:
    """Brace names (``{winner}``) and percent names (``%(n)s``/``%s``) in ``text``."""
    braces = sorted(m.group(1) for m in BRACE.finditer(text))
    # a named placeholder counts with its conversion: %(n)s and %(n)d are different
    percents = sorted(f"{m.group(1)}:{m.group(0)[-1]}" if m.group(1) else m.group(0)
                      for m in PERCENT.finditer(text) if m.group(0) != "%%")
    return braces, percents


def problems(cat: Catalog, template: Catalog | None, *, complete: bool) -> list[str]:
    """What is wrong with one catalogue: entries of ``template`` missing from it, and
    (when ``complete``) empty or fuzzy translations; in every catalogue, a translation
    whose placeholders differ from its msgid's."""
    out: list[str] = []
    lang = str(cat.locale) if cat.locale else "?"
    if template is not None:
        for msg in template:
            if msg.id and cat.get(msg.id, msg.context) is None:
                out.append(f"{lang}: missing {_label(msg.id, msg.context)}")
    for msg in cat:
        if not msg.id:
            continue
        ids = msg.id if isinstance(msg.id, tuple | list) else (msg.id,)
        strs = msg.string if isinstance(msg.string, tuple | list) else (msg.string,)
        label = _label(ids[0], msg.context)
        if complete and (not all(strs) or msg.fuzzy):
            out.append(f"{lang}: untranslated {label}" + (" (fuzzy)" if msg.fuzzy else ""))
            continue
        want = placeholders(ids[-1])
        for s in strs:
            if s and placeholders(s) != want:
                out.append(f"{lang}: placeholders of {label} are {placeholders(s)}, the msgid has {want}")
    return out


def _label(msgid: Any, context: str | None) -> str:
    return f"{msgid!r}" + (f" [{context}]" if context else "")


def check() -> list[str]:
    template = extract()
    out: list[str] = []
    for lang in i18n.LANGUAGES:
        out += problems(read(lang), template, complete=lang in TRANSLATED)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="refbox.i18n_catalog", description=__doc__.splitlines()[0])
    p.add_argument("command", choices=("extract", "update", "compile", "check"))
    args = p.parse_args(argv)
    if args.command == "extract":
        _write(extract(), POT)
        print(f"{POT.relative_to(ROOT)} written")
    elif args.command == "update":
        update()
    elif args.command == "compile":
        compile_all()
    else:
        found = check()
        for line in found:
            print(line)
        print(f"{len(found)} problem(s)")
        return 1 if found else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
