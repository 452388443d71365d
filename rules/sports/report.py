"""The match report: what the timekeeper and the third referee record (Law 7), as data
and as a printable HTML page. Both are pure functions of the game state.

>>> from rules import Session
>>> s = Session.start({"game": "futsal", "players": ["Home", "Away"]})
>>> for e in ({"type": "clock_start", "t": 0}, {"type": "goal", "team": "away", "player": 9, "t": 61},
...           {"type": "clock_stop", "reason": "goal", "t": 62}):
...     _ = s.submit(e)
>>> r = match_report(s.game, s.state)
>>> r["score"], r["goals"][0]["player"], r["goals"][0]["clock"]
('0-1', 9, '01:01')
>>> "<table" in report_html(r)
True
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any, Callable

from ..clock import fmt_clock

if TYPE_CHECKING:  # pragma: no cover
    from .match import FieldSport, MatchState

SECTIONS = (
    ("goals", ("goal",)),
    ("fouls", ("foul",)),
    ("cards", ("yellow", "red")),
    ("timeouts", ("timeout", "timeout_end")),
    ("stoppages", ("stoppage",)),
    ("substitutions", ("substitution",)),
    ("kicks", ("kick",)),
    ("clock_edits", ("clock_edit",)),
    ("periods", ("period_start", "period_end", "added_time", "abandoned")),
)


def match_report(game: "FieldSport", state: "MatchState") -> dict[str, Any]:
    """The report as JSON-able data: teams, result, and every record by section."""
    records = [r.to_dict() for r in state.records]
    result = game.result(state)
    out: dict[str, Any] = {
        "game": game.name,
        "title": game.title,
        "home": state.home.name,
        "away": state.away.name,
        "score": f"{state.home.score}-{state.away.score}",
        "period": state.current.name,
        "result": result,
        "winner": state.side(result).name if result in ("home", "away") else None,
    }
    for name, kinds in SECTIONS:
        out[name] = [r for r in records if r["kind"] in kinds]
    # Law 14: the first five accumulated fouls of each team and half go in the report;
    # we keep them all, numbered per half.
    out["fouls_by_half"] = _fouls_by_half(out["fouls"])
    secs = state.rules.sendoff_seconds
    out["send_offs"] = [
        {
            "team": p.team,
            "player": p.player,
            "from": fmt_clock(p.start),
            "until": fmt_clock(p.ended) if p.ended is not None else None,
            "ended_by": p.ended_by,
            "length_seconds": secs,
        }
        for p in state.penalties
    ]
    out["kicks_record"] = {
        "home": list(state.home.kicks),
        "away": list(state.away.kicks),
    }
    return out


def _fouls_by_half(fouls: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for f in fouls:
        half = out.setdefault(f["period"], {"home": 0, "away": 0})
        half[f["team"]] += 1
    return out


def _same(text: str) -> str:
    return text


def _same_ctx(context: str, text: str) -> str:
    return text


def _cell(value: Any, _: Callable[[str], str] = _same) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return escape(_("yes") if value else _("no"))
    return escape(str(value))


def report_html(
    report: dict[str, Any],
    gettext: Callable[[str], str] | None = None,
    pgettext: Callable[[str, str], str] | None = None,
    lang: str = "en",
    printed: str = "",
) -> str:
    """A self-contained printable page for :func:`match_report`'s data.

    ``gettext``/``pgettext`` translate the page's words (``refbox.i18n.report_translator``
    gives them for a language); names, clock times and scores are printed as recorded.
    """
    _ = gettext or _same
    pctx = pgettext or _same_ctx
    title = f"{report['home']} {report['score']} {report['away']}"
    game_title = pctx(f"game:{report['game']}", report["title"])
    outcomes = {"draw": _("draw"), "abandoned": _("abandoned")}
    winner = report["winner"] or outcomes.get(str(report["result"]), report["result"])
    parts = [
        "<!doctype html>",
        f'<html lang="{escape(lang)}"><head><meta charset="utf-8">',
        f"<title>{escape(game_title)}: {escape(title)}</title>",
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}"
        "td,th{border:1px solid #444;padding:2px 8px;text-align:left}@media print{h2{page-break-after:avoid}}"
        "</style></head><body>",
        f"<h1>{escape(game_title)}: {escape(title)}</h1>",
        "<p>" + escape(_("Period: {period}. Result: {result}.")).format(
            period=escape(pctx("period", report["period"])), result=_cell(winner, _)) + "</p>",
    ]
    if printed:
        parts.append("<p>" + escape(_("Printed: {date}")).format(date=escape(printed)) + "</p>")
    columns = (_("period"), _("clock"), _("team"), _("player"), _("detail"))
    headings = {
        "goals": _("Goals"), "fouls": _("Fouls"), "cards": _("Cards"), "timeouts": _("Time-outs"),
        "stoppages": _("Stoppages"), "substitutions": _("Substitutions"), "kicks": _("Kicks"),
        "clock_edits": _("Clock edits"), "periods": _("Periods"),
    }
    kinds = {
        "yellow": _("yellow card"), "red": _("red card"), "timeout": _("time-out"),
        "timeout_end": _("end of time-out"), "period_start": _("start of period"),
        "period_end": _("end of period"), "added_time": _("added time"), "abandoned": _("abandoned"),
    }
    labels = {
        "score": _("score"), "points": _("points"), "own_goal": _("own goal"),
        "frees_sendoff_of": _("ends the send-off of"), "after_the_horn": _("after the horn"),
        "number": _("number"), "ten_metre_kick": _("10 m kick"), "kick_from": _("kick from"),
        "reason": _("reason"), "substitute": _("substitute"), "timer": _("timer"), "early": _("early"),
        "minutes": _("minutes"), "off": _("off"), "on": _("on"), "scored": _("scored"),
        "before": _("before"), "after": _("after"),
    }
    for name, _kinds in SECTIONS:
        rows = report.get(name) or []
        if not rows:
            continue
        parts.append(f"<h2>{escape(headings.get(name, name))}</h2><table>")
        parts.append("<tr>" + "".join(f"<th>{escape(c)}</th>" for c in columns) + "</tr>")
        for r in rows:
            detail = ", ".join(
                f"{escape(labels.get(k, k))}: {_cell(v, _)}" for k, v in r.items()
                if k not in ("kind", "t", "period", "clock", "clock_seconds", "team", "player")
            )
            kind = kinds.get(r["kind"], r["kind"]) if name in ("cards", "timeouts", "periods") else ""
            detail = f"{escape(kind)} {detail}".strip()
            team = report.get(r["team"], r["team"]) if "team" in r else None
            cells = (_cell(pctx("period", r["period"]), _), _cell(r["clock"]), _cell(team), _cell(r.get("player")),
                     detail)
            parts.append("<tr>" + "".join(f"<td>{v}</td>" for v in cells) + "</tr>")
        parts.append("</table>")
    if report["send_offs"]:
        heads = (_("team"), _("player"), _("from"), _("until"), _("ended by"))
        heading = _("Send-off penalties")
        parts.append(f"<h2>{escape(heading)}</h2><table><tr>"
                     + "".join(f"<th>{escape(h)}</th>" for h in heads) + "</tr>")
        for p in report["send_offs"]:
            parts.append("<tr>" + "".join(f"<td>{_cell(v, _)}</td>" for v in (
                report[p["team"]], p["player"], p["from"], p["until"], p["ended_by"])) + "</tr>")
        parts.append("</table>")
    parts.append("<p>" + escape(_("Referee:")) + " ____________ &nbsp; " + escape(_("Second referee:"))
                 + " ____________</p></body></html>")
    return "\n".join(parts)
