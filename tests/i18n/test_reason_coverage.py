"""Every refusal the game engines write comes out in Ukrainian and Russian.

Two nets: the refusals collected by driving every game (``refusal_walk``: random
playthroughs and the golden journals, with illegal and malformed events submitted
at the states on the way), and every refusal text written in the sources of
``rules/`` (read with ``ast``). A message passes when no part of its reason is left
in English: every nested reason is covered too, and the words translated by
catalogue (period names, refused actions, snooker's balls, domino ends) are known.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from refbox import i18n
from rules.registry import all_games

from .refusal_walk import Collector, collect

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile(r"[А-Яа-яІіЇїЄєҐґЁё]")


@pytest.fixture(scope="module")
def walked() -> Collector:
    return collect()


def test_every_game_is_driven(walked):
    for game in all_games():
        assert walked.refused[game.name] >= 100, (game.name, walked.refused[game.name])
        # the walk goes on through the game, not only refusals at the start
        assert walked.accepted[game.name] >= 20, (game.name, walked.accepted[game.name])
    assert len(walked.messages) > 10_000


def test_every_refusal_met_on_the_way_is_translated(walked):
    bad: list[tuple[str, str, list[str]]] = []
    reasons: dict[str, str] = {}
    for i, (message, game) in enumerate(walked.messages.items()):
        found = i18n._split_envelope(message)
        if found is None:
            bad.append((game, message, ["(no envelope)"]))
            continue
        reason = found[1]["reason"]
        if reason not in reasons:
            reasons[reason] = game
            left = i18n.untranslated(reason)
            if left:
                bad.append((game, message, left))
            for lang in ("uk", "ru"):
                out = i18n.translate_reason(reason, lang)
                if out == reason or not CYRILLIC.search(out):
                    bad.append((game, message, [lang, out]))
        if i % 25 == 0:  # the whole message too (the envelope), for a sample
            for lang in ("uk", "ru"):
                out = i18n.translate_reason(message, lang)
                if out.startswith(("illegal", "malformed")) or not CYRILLIC.search(out):
                    bad.append((game, message, [lang, out]))
    assert len(reasons) > 2000
    assert not bad, f"{len(bad)} refusals are not fully translated, e.g. " + "\n".join(
        f"{g}: {m!r} leaves {left}" for g, m, left in bad[:15])


# --- the sources ----------------------------------------------------------------------

_BUILDERS = {"illegal": 2, "_illegal_play": 3, "IllegalEvent": 1, "MalformedEvent": 1,
             "TileAnswer": 1}  # the reason of a camera reading of domino tiles (rules/game.py)
#: Functions whose ``ValueError`` is a refusal: field validators, the camera's tile entries.
_VALIDATORS = ("check", "seen_tile")
#: Names a refusal is built from (``why = "..."``; ``raise self.illegal(event, state, why)``).
_PIECES = re.compile(r"why|what|reason|stop|hint|wanted|where")


def _template(node: ast.expr) -> list[str] | None:
    """The texts a string expression may give, each formatted value as ``\\x00``;
    None when it is no string literal (a variable, a call)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(v.value if isinstance(v, ast.Constant) else "\x00" for v in node.values)]
    if isinstance(node, ast.IfExp):
        a, b = _template(node.body), _template(node.orelse)
        return None if a is None or b is None else a + b
    return None


def _source_refusals() -> list[tuple[str, str]]:
    """(where, text) of every refusal text in rules/**.py: the arguments of the
    refusal builders, the ``ValueError`` of field validators, and the strings assigned to
    the names a refusal is built from."""
    out: list[tuple[str, str]] = []
    for path in sorted((ROOT / "rules").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            used: set[str] = set()
            for node in ast.walk(func):
                if not isinstance(node, ast.Call):
                    continue
                f = node.func
                name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
                arg = None
                if name in _BUILDERS and len(node.args) > _BUILDERS[name]:
                    arg = node.args[_BUILDERS[name]]
                elif name == "ValueError" and node.args and func.name in _VALIDATORS:
                    arg = node.args[0]
                if arg is None:
                    continue
                used |= {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)}
                for text in _template(arg) or []:
                    out.append((f"{path.relative_to(ROOT)}:{node.lineno}", text))
            for node in ast.walk(func):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    var = node.targets[0].id
                    if var in used and _PIECES.fullmatch(var):
                        for text in _template(node.value) or []:
                            out.append((f"{path.relative_to(ROOT)}:{node.lineno}", text))
    return out


#: Pieces that are not refusals of their own: a suffix glued to the message before it.
_SUFFIXES = ("; call next_period", " (all five scored: throw them all again)",
             " (\x00)")  # all_fives count_proposals: the refused count, a whole refusal


def _fits(text: str) -> bool:
    """Some pattern covers ``text`` with its formatted values filled in as '7' or as a
    tile '[7, 7]' (one of them may be an optional suffix, left out); or ``text`` is such
    a suffix."""
    if not text or text in _SUFFIXES:
        return True
    parts = text.split("\x00")
    fillings = []
    for value in ("7", "[7, 7]"):  # a number, or a tile (placeholders with a shape: i18n._SHAPES)
        fillings.append([value] * (len(parts) - 1))
        fillings += [[value] * i + [""] + [value] * (len(parts) - 2 - i) for i in range(len(parts) - 1)]
    for filling in fillings:
        candidate = parts[0] + "".join(f + p for f, p in zip(filling, parts[1:]))
        if i18n.reason_pattern(candidate) is not None:
            return True
    return False


def test_every_refusal_in_the_sources_has_a_pattern():
    found = _source_refusals()
    assert len(found) > 150  # the scan sees the engines' refusals
    missing = [(where, text.replace("\x00", "{…}")) for where, text in found if not _fits(text)]
    assert not missing, missing


def test_the_scan_finds_refusals_built_from_pieces():
    texts = {t for _, t in _source_refusals()}
    assert "start a hand first (new_hand)" in texts  # all_fives: what = ... if ... else ...
    assert "already filled" in texts  # sea_dice: why = ...
    assert "the match is over" in texts
    # a camera reading of domino tiles: TileAnswer's reason and seen_tile's ValueError
    assert any(t.startswith("\x00 tile(s) off the line of play") for t in texts)
    assert any(t.startswith("camera tile \x00: 'zone' must be a name") for t in texts)


# --- what the translations look like ----------------------------------------------------


def test_snooker_balls_are_named_in_the_language():
    msg = "illegal pot \"yellow\" (snooker, Ann on red, frame 1 0-0): yellow is not on; the ball on is red"
    assert i18n.translate_reason(msg, "uk").endswith("жовта зараз не прицільна; прицільна куля — червона")
    assert i18n.translate_reason(msg, "ru").endswith("жёлтый сейчас не прицельный; прицельный шар — красный")


def test_thousand_conditions_are_joined_in_the_language():
    reason = "not opened (50 in one turn) and in the pit 200-300 at 250: needs 50 in one turn, has 15"
    assert i18n.untranslated(reason) == []
    assert i18n.translate_reason(reason, "uk") == (
        "не відкрився (50 за один хід) і у ямі 200-300 з 250: потрібно 50 за один хід, набрано 15")
    assert i18n.translate_reason(reason, "ru") == (
        "не открылся (50 за один ход) и в яме 200-300 с 250: нужно 50 за один ход, набрано 15")


def test_all_fives_ends_and_plays_are_translated():
    msg = ("illegal play [6, 4] on open ends (4, 2; up 0, down 6) (all-fives, hand 4, turn Ann): "
           "it fits several ends, name one: left (4), down (6)")
    uk = i18n.translate_reason(msg, "uk")
    assert uk.startswith("недопустимий хід [6, 4] на відкриті кінці (4, 2; up 0, down 6)")
    assert uk.endswith("назвіть один: лівий кінець (4), нижній кінець (6)")
    assert i18n.translate_reason("the up end shows 4", "ru") == "верхний конец показывает 4"


def test_words_without_a_catalogue_entry_are_reported():
    """A period, action or ball the catalogue does not know is an English leftover."""
    assert i18n.untranslated("no dance during half-time") == ["dance"]
    assert i18n.untranslated("purple is not on; the ball on is red") == ["purple"]
    assert i18n.untranslated("it fits several ends, name one: left (4), sideways (6)") == ["sideways (6)"]
    assert i18n.untranslated("Ann cannot claim: a reason nobody wrote") == ["a reason nobody wrote"]
    assert i18n.untranslated("pass is not possible now; expected next_set") == []
    assert i18n.untranslated("pass is not possible now; expected one of ['stroke', 'foul']") == []
