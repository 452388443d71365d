"""``refbox`` command line: run a table, replay event files, read images, list games, odds."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

EXIT_BAD_INPUT = 2
EXIT_JOURNAL = 3  # the journal file cannot be used (damaged beyond its rows, unreadable)

EPILOG = """\
examples:
  refbox run --sim                      the table in simulation (web page on http://127.0.0.1:8080)
  refbox replay game.jsonl              the final view of an event file, as JSON
  refbox replay match.jsonl --emit daktronics-rtd-soccer > frame.bin
  refbox report match.jsonl --html > r.html   the match report of a futsal/football match
  refbox read dice photo.jpg --json     what the camera pipeline reads in a still image
  refbox games                          the games and their house-rule options
  refbox odds craps                     exact chances (fractions) for a game situation
"""


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2, sort_keys=False)
    sys.stdout.write("\n")


def cmd_replay(args: argparse.Namespace) -> int:
    from rules.replay import ReplayError, final_view, replay_lines

    path = Path(args.file)
    try:
        text = sys.stdin.read() if args.file == "-" else path.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"refbox replay: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        session = replay_lines(text.splitlines())
    except ReplayError as exc:
        print(f"refbox replay: {args.file}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    view = final_view(session)
    if args.emit:
        from firmware_bridge import formats

        try:
            data = formats.encode(args.emit, view)
        except (KeyError, ValueError) as exc:
            print(f"refbox replay: --emit {args.emit}: {exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    _print_json(view)
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from rules.replay import ReplayError, replay_lines

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        session = replay_lines(text.splitlines())
    except OSError as exc:
        print(f"refbox report: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ReplayError as exc:
        print(f"refbox report: {args.file}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    game = session.game
    if not hasattr(game, "report"):
        print(f"refbox report: {game.name} has no match report (the field sports have one; "
              f"`refbox replay` gives the final view of any game)", file=sys.stderr)
        return EXIT_BAD_INPUT
    report = game.report(session.state)
    if args.html:
        from rules.sports.report import report_html

        sys.stdout.write(report_html(report))
    else:
        _print_json(report)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from rules import all_games

    games = [g.info() for g in all_games()]
    if args.json:
        _print_json(games)
        return 0
    for g in games:
        native = f" / {g['native']}" if g["native"] else ""
        lo, hi = g["players"]
        print(f"{g['name']:<16} {g['title']}{native}  ({g['family']}, {lo}-{hi} players, source {g['source']})")
        print(f"{'':<16} events: {', '.join(g['events'])}")
        for o in g["options"]:
            allowed = f" {o['choices']}" if "choices" in o else ""
            print(f"{'':<16} option {o['name']} = {json.dumps(o['default'])}{allowed}: {o['help']}")
    return 0


def cmd_odds(args: argparse.Namespace, extra: Sequence[str]) -> int:
    from rules import UnknownGame, get_game

    params: dict[str, str] = {}
    rest = list(extra)
    while rest:
        key = rest.pop(0)
        if not key.startswith("--") or not rest:
            print(f"refbox odds: expected --name value pairs, got {key!r}", file=sys.stderr)
            return EXIT_BAD_INPUT
        params[key[2:].replace("-", "_")] = rest.pop(0)
    try:
        game = get_game(args.game)
        odds = game.odds(params)
    except UnknownGame as exc:
        print(f"refbox odds: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except NotImplementedError as exc:
        print(f"refbox odds: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ValueError as exc:
        print(f"refbox odds {args.game}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    out = {}
    for name, value in odds.items():
        if isinstance(value, Fraction):
            out[name] = {"fraction": f"{value.numerator}/{value.denominator}", "value": float(value)}
        else:
            out[name] = {"value": float(value)}
    if args.json:
        _print_json(out)
    else:
        for name, v in out.items():
            frac = v.get("fraction", "")
            print(f"{name}: {frac} ≈ {v['value']:.6f}" if frac else f"{name}: {v['value']:.6f}")
    return 0


def cmd_read(args: argparse.Namespace) -> int:
    import cv2

    from vision import dice as dice_reader
    from vision import dominoes as domino_reader

    results = []
    annotate_dir = Path(args.annotate) if args.annotate else None
    if annotate_dir:
        annotate_dir.mkdir(parents=True, exist_ok=True)
    status = 0
    for path in args.images:
        image = cv2.imread(path, cv2.IMREAD_COLOR)
        if image is None:
            print(f"refbox read: cannot read image {path} (missing or not an image)", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        if args.what == "dice":
            readings = dice_reader.read_dice(image)
            entry: dict[str, Any] = {"image": path, "dice": [r.to_dict() for r in readings]}
            if annotate_dir:
                from vision.annotate import draw_dice

                cv2.imwrite(str(annotate_dir / Path(path).name), draw_dice(image, readings))
        else:
            layout = domino_reader.read_layout(image) if hasattr(domino_reader, "read_layout") else None
            if layout is not None:
                entry = {"image": path, **layout.to_dict()}
            else:
                entry = {"image": path, "tiles": [t.to_dict() for t in domino_reader.read_dominoes(image)]}
        results.append(entry)
    if args.json:
        _print_json(results)
    else:
        for entry in results:
            if args.what == "dice":
                values = [d["value"] if d["value"] is not None else "?" for d in entry["dice"]]
                print(f"{entry['image']}: {len(values)} dice {values}")
            else:
                tiles = ["-".join("?" if p is None else str(p) for p in t["pips"]) for t in entry["tiles"]]
                ends = f" open ends {entry['open_ends']} sum {entry['open_sum']}" if entry.get("open_ends") else ""
                print(f"{entry['image']}: {len(tiles)} tiles {tiles}{ends}")
    return status


def cmd_run(args: argparse.Namespace) -> int:
    from .config import ConfigError, load
    from .runtime import run

    try:
        cfg = load(args.config)
    except ConfigError as exc:
        print(f"refbox run: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    from .journal import JournalError

    try:
        return run(cfg, sim=args.sim, journal_path=args.journal, port=args.port, keyboard=not args.no_keyboard)
    except JournalError as exc:
        print(f"refbox run: {exc}", file=sys.stderr)
        return EXIT_JOURNAL


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="refbox",
        description="Referee box for game tables and small sports courts.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("run", help="run the table (real devices, or simulated ones with --sim)")
    p.add_argument("--sim", action="store_true", help="simulated devices: mock buttons, emulated display, replayed camera")
    p.add_argument("--config", metavar="FILE", help="TOML configuration (default: embedded defaults)")
    p.add_argument("--journal", metavar="FILE", help="SQLite journal path (overrides journal.path)")
    p.add_argument("--port", type=int, help="web port (overrides web.port)")
    p.add_argument("--no-keyboard", action="store_true", help="do not read key presses from the terminal")

    p = sub.add_parser("replay", help="replay an event file and print the final view as JSON")
    p.add_argument("file", help="JSONL: a header line, then one event per line ('-' for stdin)")
    p.add_argument("--emit", metavar="FORMAT", help="write the display wire bytes for the final view instead")

    p = sub.add_parser("report", help="the match report of a field-sport event file (JSON, or a printable page)")
    p.add_argument("file", help="JSONL event file as for replay ('-' for stdin)")
    p.add_argument("--html", action="store_true", help="a printable HTML page instead of JSON")

    p = sub.add_parser("read", help="read dice or domino tiles in still images")
    p.add_argument("what", choices=["dice", "dominoes"])
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--annotate", metavar="DIR", help="write the images with the readings drawn on them")

    p = sub.add_parser("games", help="list the games and their house-rule options")
    p.add_argument("--json", action="store_true", help="print JSON")

    p = sub.add_parser("odds", help="exact chances for a game situation: refbox odds GAME [--key value ...]")
    p.add_argument("game")
    p.add_argument("--json", action="store_true", help="print JSON")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "odds":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "games":
        return cmd_games(args)
    if args.command == "odds":
        return cmd_odds(args, extra)
    if args.command == "read":
        return cmd_read(args)
    if args.command == "report":
        return cmd_report(args)
    return cmd_run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
