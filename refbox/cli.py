"""``refbox`` command line: run a table, replay event files, read images, list games, odds."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from .i18n import LANGUAGES as LANGS

EXIT_BAD_INPUT = 2
EXIT_JOURNAL = 3  # the journal file cannot be used (damaged beyond its rows, unreadable)

EPILOG = """\
examples:
  refbox run --sim                      the table in simulation (web page on http://127.0.0.1:8080)
  refbox replay game.jsonl              the final view of an event file, as JSON
  refbox replay match.jsonl --emit daktronics-rtd-soccer > frame.bin
  refbox report match.jsonl --html > r.html   the match report of a futsal/football match
  refbox read dice photo.jpg --json     what the camera pipeline reads in a still image
  refbox games [--lang uk|ru|en]        the games and their house-rule options
  refbox odds craps                     exact chances (fractions) for a game situation
  refbox club --broker mqtt.local       the club dashboard (every table) on http://127.0.0.1:8090/club
"""


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2, sort_keys=False)
    sys.stdout.write("\n")


def _replay_file(args: argparse.Namespace, command: str) -> Any:
    """The session an event file replays to, or None after printing why not."""
    from rules.replay import ReplayError, replay_lines

    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
        return replay_lines(text.splitlines())
    except OSError as exc:
        print(f"refbox {command}: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
    except ReplayError as exc:
        print(f"refbox {command}: {args.file}: {exc}", file=sys.stderr)
    return None


def cmd_replay(args: argparse.Namespace) -> int:
    from rules.replay import final_view

    session = _replay_file(args, "replay")
    if session is None:
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
    session = _replay_file(args, "report")
    if session is None:
        return EXIT_BAD_INPUT
    game = session.game
    if not hasattr(game, "report"):
        print(f"refbox report: {game.name} has no match report (the field sports have one; "
              f"`refbox replay` gives the final view of any game)", file=sys.stderr)
        return EXIT_BAD_INPUT
    report = game.report(session.state)
    if args.html:
        from rules.sports.report import report_html

        import datetime

        from .i18n import report_translator

        sys.stdout.write(report_html(report, **report_translator(args.lang, printed=datetime.date.today())))
    else:
        _print_json(report)
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from rules import all_games

    from .i18n import localized_info, pgettext_for, translator

    lang = args.lang
    _ = translator(lang)
    games = [g.info() for g in all_games()]
    if lang != "en":
        games = [localized_info(g, lang) for g in games]
    if args.json:
        _print_json(games)
        return 0
    for g in games:
        english = g.get("title_en", g["title"])
        if lang == "en":
            names = f"{g['title']} / {g['native']}" if g["native"] else g["title"]
        else:  # the name in the chosen language first, the English one beside it
            names = f"{g['title']} / {english}" if g["title"] != english else english
        lo, hi = g["players"]
        family = pgettext_for(lang, "family", g["family"])
        print(f"{g['name']:<16} {names}  "
              + _("({family}, {lo}-{hi} players, source {source})").format(
                  family=family, lo=lo, hi=hi, source=g["source"]))
        print(f"{'':<16} " + _("events: {events}").format(events=", ".join(g["events"])))
        for o in g["options"]:
            allowed = f" {o['choices']}" if "choices" in o else ""
            print(f"{'':<16} " + _("option {name} = {default}{allowed}: {help}").format(
                name=o["name"], default=json.dumps(o["default"]), allowed=allowed, help=o["help"]))
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


def _camera_frame(spec: str, warm_up: int = 10) -> Any:
    """One frame from a camera (``usb:0``, ``picamera``), after ``warm_up`` frames for
    its exposure to settle; raises CameraLost / CameraUnavailable / ValueError."""
    from .camera import open_source

    source = open_source(spec)
    try:
        for _ in range(warm_up):
            source.read()
        return source.read()
    finally:
        source.close()


def _read_image(path: str) -> tuple[Any, str]:
    """The picture at ``path`` (BGR), or None and why it cannot be read."""
    import cv2

    where = Path(path)
    if where.is_dir():
        return None, "a folder, not an image"
    if not where.exists():
        return None, "no such file"
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        return None, "not an image OpenCV can read (another format, or a damaged or unreadable file)"
    return image, ""


def _annotated_name(path: str, written: set[str]) -> str:
    """The name an annotated copy of the picture at ``path`` is written under: its own, as PNG when OpenCV cannot
    write its kind (no extension, or one it does not know), and with ``-2``, ``-3``, ... when an earlier picture of
    the same run took that name (``written``, to which it is added): two folders' ``1.jpg`` are two files."""
    import cv2

    name = Path(path).name
    if not Path(name).suffix or not cv2.haveImageWriter(name):
        name += ".png"
    stem, suffix, n = Path(name).stem, Path(name).suffix, 1
    while name in written:
        n += 1
        name = f"{stem}-{n}{suffix}"
    written.add(name)
    return name


def cmd_read(args: argparse.Namespace) -> int:
    from vision import dice as dice_reader
    from vision import dominoes as domino_reader
    from vision.annotate import draw_dice, draw_tiles, draw_zones
    from vision.dice_model import network_name

    from .config import ConfigError
    from .runtime import load_dice_network, load_zones

    if args.network is not None and args.what != "dice":
        print(f"refbox read: --network {args.network}: the network reads dice, not {args.what}", file=sys.stderr)
        return EXIT_BAD_INPUT
    zones = None
    params = dice_reader.AUTO  # (the reader chooses its network; they are loaded when the first die is read, not for dominoes)
    try:
        if args.zones:
            zones = load_zones(args.zones, key="--zones")
        if args.network is not None:
            params = load_dice_network(args.network, key="--network")
    except ConfigError as exc:
        print(f"refbox read: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not args.images and not args.camera:
        print("refbox read: give IMAGE files, or --camera SOURCE for one frame from a camera", file=sys.stderr)
        return EXIT_BAD_INPUT
    results = []
    annotate_dir = Path(args.annotate) if args.annotate else None
    if annotate_dir:
        try:
            annotate_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"refbox read: --annotate {args.annotate}: cannot make that folder ({exc.strerror or exc})", file=sys.stderr)
            return EXIT_BAD_INPUT
    status = 0
    written: set[str] = set()
    pictures: list[tuple[str, Any]] = []
    for path in args.images:
        image, why = _read_image(path)
        if image is None:
            print(f"refbox read: cannot read image {path}: {why}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        pictures.append((path, image))
    if args.camera:
        from vision.sources import CameraLost, CameraUnavailable

        try:
            pictures.append((f"camera-{args.camera.replace(':', '-').replace('/', '_')}.png", _camera_frame(args.camera)))
        except (CameraLost, CameraUnavailable, ValueError) as exc:
            print(f"refbox read: --camera {args.camera}: {exc}", file=sys.stderr)
            status = EXIT_BAD_INPUT
    for path, image in pictures:
        size = (image.shape[1], image.shape[0])
        drawn = draw_zones(image, zones) if annotate_dir and zones is not None else image
        if zones is not None:
            image = zones.leave_out(image)  # the calibration's ignore areas are not read, as at the table
        if args.what == "dice":
            look = dice_reader.look_at(image, params)
            readings = look.readings
            if zones is not None:
                readings = list(zones.assign(readings, size))
            die_px = look.die_px
            entry: dict[str, Any] = {
                "image": path,
                "dice": [r.to_dict() for r in readings],
                # how the reader saw the picture: its dice's size in pixels (None: no clear face to
                # measure them by) and the scale it read them at (below 1: reduced, for speed)
                "die_px": round(die_px, 1) if die_px else None,
                "read_scale": round(look.scale, 3),
                "network": network_name(look.network),  # the network whose readings these are (auto: the one it chose)
            }
            if annotate_dir:
                status = _write_annotated(annotate_dir / _annotated_name(path, written), draw_dice(drawn, readings)) or status
        else:
            layout = domino_reader.read_layout(image)
            entry = {"image": path, **layout.to_dict()}
            if zones is not None:
                for tile, reading in zip(entry["tiles"], layout.tiles):
                    tile["zone"] = zones.zone_of(reading.center, size)
            if annotate_dir:
                status = _write_annotated(annotate_dir / _annotated_name(path, written), draw_tiles(drawn, layout.tiles)) or status
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


def _write_annotated(where: Path, picture: Any) -> int:
    """Write an annotated picture; 0, or EXIT_BAD_INPUT after saying why it could not be written."""
    import cv2

    try:
        if cv2.imwrite(str(where), picture):
            return 0
        why = "OpenCV wrote nothing"
    except cv2.error as exc:
        why = str(exc).strip().splitlines()[-1]
    print(f"refbox read: --annotate: cannot write {where}: {why}", file=sys.stderr)
    return EXIT_BAD_INPUT


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
    except ConfigError as exc:  # a setting only found unusable at start: a calibration or network file
        print(f"refbox run: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def cmd_club(args: argparse.Namespace) -> int:
    import os

    from .club import Broker, ClubError, check_prefix
    from .config import ConfigError, load
    from .runtime import run_club

    try:
        club = load(args.config).club if args.config else None
    except ConfigError as exc:
        print(f"refbox club: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    host = args.broker or (club.host if club else "")
    if not host:
        print("refbox club: name the broker: --broker HOST (or club.host in --config FILE)", file=sys.stderr)
        return EXIT_BAD_INPUT
    prefix = args.prefix or (club.prefix if club else "refbox")
    try:
        check_prefix(prefix, "--prefix")
    except ClubError as exc:
        print(f"refbox club: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    username = args.username if args.username is not None else (club.username if club else "")
    password = os.environ.get("REFBOX_CLUB_PASSWORD", club.password if club else "")
    broker = Broker(host, args.port or (club.port if club else 1883), username, password,
                    tls=args.tls or bool(club and club.tls), ca_file=club.ca_file if club else "",
                    keepalive=club.keepalive if club else 30)
    return run_club(broker, prefix=prefix, host=args.web_host, port=args.web_port)


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

    p = sub.add_parser("club", help="the club dashboard alone: every table of the club's MQTT broker on one page")
    p.add_argument("--broker", metavar="HOST", help="MQTT broker host (default: club.host of --config)")
    p.add_argument("--port", type=int, choices=range(1, 65536), metavar="N", help="broker port (default 1883)")
    p.add_argument("--prefix", help="topic prefix of the tables (default: refbox)")
    p.add_argument("--username", help="broker user; the password comes from $REFBOX_CLUB_PASSWORD or --config")
    p.add_argument("--tls", action="store_true", help="connect with TLS (port 8883 as a rule)")
    p.add_argument("--config", metavar="FILE", help="take the broker settings from the [club] section of a table's TOML")
    p.add_argument("--web-host", default="127.0.0.1", help="address the page binds to (0.0.0.0 for the club network)")
    p.add_argument("--web-port", type=int, default=8090, choices=range(0, 65536), metavar="N", help="page port (default 8090; 0: any free port)")

    p = sub.add_parser("replay", help="replay an event file and print the final view as JSON")
    p.add_argument("file", help="JSONL: a header line, then one event per line ('-' for stdin)")
    p.add_argument("--emit", metavar="FORMAT", help="write the display wire bytes for the final view instead")

    p = sub.add_parser("report", help="the match report of a field-sport event file (JSON, or a printable page)")
    p.add_argument("file", help="JSONL event file as for replay ('-' for stdin)")
    p.add_argument("--html", action="store_true", help="a printable HTML page instead of JSON")
    p.add_argument("--lang", choices=LANGS, default="en", help="language of the HTML page")

    p = sub.add_parser("read", help="read dice or domino tiles in still images")
    p.add_argument("what", choices=["dice", "dominoes"])
    p.add_argument("images", nargs="*", metavar="IMAGE")
    p.add_argument("--camera", metavar="SOURCE", help="read one frame from a camera too (usb:0, usb:/dev/video2, picamera)")
    p.add_argument("--zones", metavar="FILE", help="a calibration (camera.zones): say which zone each die or tile lies in, and read nothing in its ignore areas")
    p.add_argument("--network", metavar="NAME|FILE",
                   help="dice only: the network that reads them (camera.dice_network): auto (the default: standard, or clear where it reads the picture's dice surer), standard, clear (translucent casino dice), or an .onnx file made by tools/train_dice_classifier.py")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--annotate", metavar="DIR", help="write the images with the readings (and the zones) drawn on them")

    p = sub.add_parser("games", help="list the games and their house-rule options")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=LANGS, default="en", help="names and descriptions in this language")

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
    if args.command == "club":
        return cmd_club(args)
    return cmd_run(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
