"""Configuration: one frozen dataclass, loaded from TOML and validated once.

Unknown keys and bad values are refused with the key's name and what is allowed.
Constructors never read files or the environment; :func:`load` does, once.

>>> cfg = from_dict({"table": {"game": "futsal", "players": ["Home", "Away"]}})
>>> cfg.table.game, cfg.web.port
('futsal', 8080)
>>> from_dict({"web": {"prot": 1}})
Traceback (most recent call last):
...
refbox.config.ConfigError: unknown key 'web.prot'; allowed: web.host, web.pin, web.port
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Mapping, get_args, get_origin, get_type_hints


class ConfigError(ValueError):
    """A configuration key or value is refused."""


@dataclass(frozen=True)
class TableConfig:
    name: str = "table-1"
    game: str = "pig"
    players: tuple[str, ...] = ("Ann", "Bob")
    options: Mapping[str, Any] = field(default_factory=dict)
    # what people read at this table: web page, displays' words, refusals (docs/i18n.md)
    language: str = "en"


@dataclass(frozen=True)
class JournalConfig:
    path: str = "var/refbox-journal.sqlite3"
    synchronous: str = "FULL"


@dataclass(frozen=True)
class WebConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    pin: str = ""  # control-panel PIN; empty: the control panel is off


@dataclass(frozen=True)
class KeypadConfig:
    # "auto": the timekeeper's layout for the field sports, the dominoes layout for
    # domino games, the dice layout otherwise (docs/keypad.md); "custom": the buttons
    # below; "none": no keypad.
    layout: str = "auto"
    # custom layout only: logical button -> BCM pin; two names may share a pin when
    # one of them is in long_press (held hold_ms) and the other is not.
    pins: Mapping[str, int] = field(default_factory=dict)
    long_press: tuple[str, ...] = ()
    bounce_ms: int = 30
    hold_ms: int = 1000


@dataclass(frozen=True)
class HornConfig:
    pin: int = 16
    enabled: bool = True


@dataclass(frozen=True)
class DisplayConfig:
    url: str = ""  # serial display: /dev/serial/by-id/..., a pty, loop://; empty: none
    baudrate: int = 115200


@dataclass(frozen=True)
class CameraConfig:
    source: str = "none"  # "usb:0", "picamera", "folder:PATH", "none"
    interval_ms: int = 100
    # a calibration file (vision/zones.py) whose zones are named after the players or
    # seats: the end-of-hand domino count attributes the tiles shown to the hands
    zones: str = ""
    # the network that reads the dice (vision/dice_model.py): "auto" (the camera chooses "standard"
    # or "clear" from its frames: vision.dice.ChoosingReader), "standard" (opaque dice), "clear"
    # (translucent casino dice), or the path of an .onnx file made by tools/train_dice_classifier.py
    dice_network: str = "auto"
    # the least confidence of every die of a throw the camera takes (vision.settle.Settler's
    # min_confidence): a die read less surely holds the throw, as an unsure one does, until it is
    # settled or the throw is entered by hand; 0.0 takes any die the reader reads (at 0.5 and more)
    dice_confidence: float = 0.7


@dataclass(frozen=True)
class LedSection:
    # "none", or a back end of firmware_bridge.led: "gpio", "max7219", "emulator";
    # with --sim the emulator stands in for a real back end. The other keys are
    # LedConfig's (docs/displays.md): digits, groups, segment_pins, dp_pin, ...
    backend: str = "none"
    settings: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ClubConfig:
    # the club's MQTT broker (docs/club.md); empty host: this table is not in a club
    host: str = ""
    port: int = 1883
    prefix: str = "refbox"  # topics are <prefix>/<table_id>/view and .../status
    table_id: str = ""  # empty: table.name (letters, digits, '-' and '_' only)
    username: str = ""
    password: str = field(default="", repr=False)  # never published, never logged
    tls: bool = False
    ca_file: str = ""  # with tls: a CA bundle for a private broker; empty: the system's
    keepalive: int = 30
    homeassistant: bool = False  # publish Home Assistant MQTT discovery messages
    discovery_prefix: str = "homeassistant"


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    web: WebConfig = field(default_factory=WebConfig)
    keypad: KeypadConfig = field(default_factory=KeypadConfig)
    horn: HornConfig = field(default_factory=HornConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    led: LedSection = field(default_factory=LedSection)
    club: ClubConfig = field(default_factory=ClubConfig)


CHOICES: dict[str, tuple[Any, ...]] = {
    "table.language": ("uk", "ru", "en"),
    "journal.synchronous": ("FULL", "NORMAL", "EXTRA"),
    "keypad.layout": ("auto", "timekeeper", "dice", "dominoes", "custom", "none"),
    "led.backend": ("none", "gpio", "max7219", "emulator"),
}
RANGES: dict[str, tuple[float, float]] = {
    "web.port": (1, 65535),
    "keypad.bounce_ms": (0, 1000),
    "keypad.hold_ms": (100, 10_000),
    "horn.pin": (0, 27),
    "display.baudrate": (300, 4_000_000),
    "camera.interval_ms": (10, 10_000),
    "camera.dice_confidence": (0.0, 0.99),
    "club.port": (1, 65535),
    "club.keepalive": (5, 3600),
}


def _check_value(key: str, kind: Any, value: Any) -> Any:
    origin = get_origin(kind)
    if origin is tuple:
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{key} must be a list of strings, got {value!r}")
        return tuple(value)
    if origin is not None and issubclass(origin, Mapping) or kind is Mapping:
        if not isinstance(value, Mapping):
            raise ConfigError(f"{key} must be a table, got {value!r}")
        args = get_args(kind)
        if args and args[1] is int:
            for k, v in value.items():
                if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 27:
                    raise ConfigError(f"{key}.{k} must be a BCM pin number 0..27, got {v!r}")
        return dict(value)
    if kind is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false, got {value!r}")
        return value
    if kind is int or kind is float:
        whole = kind is int  # (a number key takes a whole number too: 0 for 0.0)
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
            raise ConfigError(f"{key} must be {'a whole number' if whole else 'a number'}, got {value!r}")
        lo, hi = RANGES.get(key, (None, None))
        if lo is not None and hi is not None and not lo <= value <= hi:
            raise ConfigError(f"{key} must be in {lo}..{hi}, got {value}")
        return value if whole else float(value)
    if kind is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key} must be a string, got {value!r}")
        if key in CHOICES and value not in CHOICES[key]:
            raise ConfigError(f"{key} must be one of {list(CHOICES[key])}, got {value!r}")
        return value
    raise ConfigError(f"{key}: unsupported type {kind}")  # pragma: no cover


def _section(cls: Any, prefix: str, data: Any) -> Any:
    if not isinstance(data, Mapping):
        raise ConfigError(f"{prefix} must be a table, got {data!r}")
    hints = get_type_hints(cls)
    names = [f.name for f in fields(cls)]
    unknown = sorted(set(data) - set(names))
    if unknown:
        allowed = ", ".join(f"{prefix}.{n}" if prefix else n for n in sorted(names))
        raise ConfigError(f"unknown key '{prefix + '.' if prefix else ''}{unknown[0]}'; allowed: {allowed}")
    values = {}
    for name in names:
        if name not in data:
            continue
        key = f"{prefix}.{name}" if prefix else name
        kind = hints[name]
        if dataclasses.is_dataclass(kind):
            values[name] = _section(kind, key, data[name])
        else:
            values[name] = _check_value(key, kind, data[name])
    return cls(**values)


def from_dict(data: Mapping[str, Any]) -> Config:
    """Validate a parsed configuration; the game, players and options are checked too."""
    cfg: Config = _section(Config, "", data)
    _check_pin_clashes(cfg)
    club_table_id(cfg)
    from rules import BadHeader, Header

    try:
        Header.from_dict({"game": cfg.table.game, "players": list(cfg.table.players), "options": dict(cfg.table.options)})
    except BadHeader as exc:
        raise ConfigError(f"table: {exc}") from None
    return cfg


def keypad_pins(kc: KeypadConfig) -> dict[int, tuple[str | None, str | None]] | None:
    """The custom layout as ``Keypad`` wants it: BCM pin -> (short, long). ``None`` for
    the built-in layouts.

    >>> keypad_pins(KeypadConfig(layout="custom", pins={"stop": 17, "undo": 17}, long_press=("undo",)))
    {17: ('stop', 'undo')}
    >>> keypad_pins(KeypadConfig(layout="custom", pins={"stop": 17, "undo": 17}))
    Traceback (most recent call last):
    ...
    refbox.config.ConfigError: keypad.pins: 'stop' and 'undo' are both short presses of BCM 17; put one of them in keypad.long_press
    """
    if kc.layout != "custom":
        if kc.pins or kc.long_press:
            raise ConfigError(f'keypad.pins and keypad.long_press are only used with keypad.layout = "custom", not {kc.layout!r}')
        return None
    if not kc.pins:
        raise ConfigError('keypad.layout = "custom" needs keypad.pins (logical button = BCM pin)')
    stray = sorted(set(kc.long_press) - set(kc.pins))
    if stray:
        raise ConfigError(f"keypad.long_press names {stray[0]!r}, which is not in keypad.pins; buttons: {', '.join(sorted(kc.pins))}")
    out: dict[int, tuple[str | None, str | None]] = {}
    for name, pin in kc.pins.items():
        short, long = out.get(pin, (None, None))
        slot = 1 if name in kc.long_press else 0
        taken = (short, long)[slot]
        if taken is not None:
            kind = "long" if slot else "short"
            raise ConfigError(
                f"keypad.pins: {taken!r} and {name!r} are both {kind} presses of BCM {pin}; "
                + ("give one of them another pin" if slot else "put one of them in keypad.long_press"))
        out[pin] = (name, long) if slot == 0 else (short, name)
    return out


def led_config(section: LedSection, *, sim: bool) -> Any:
    """The LED scoreboard's ``LedConfig`` (``None`` for "none"); ``sim`` swaps in the emulator."""
    from firmware_bridge.led import LedConfig, LedConfigError

    if section.backend == "none" and not sim:
        return None
    backend = "emulator" if sim or section.backend == "none" else section.backend
    data = dict(section.settings, backend=backend)
    if sim and "groups" not in data and "digits" not in data:
        # the emulated board gets a third row: an 8-digit message group (TIME OUT, ...)
        from firmware_bridge.led import DEFAULT_GROUPS

        data["digits"] = 24
        data["groups"] = [{"field": g.field, "first": g.first, "width": g.width, "row": g.row} for g in DEFAULT_GROUPS]
        data["groups"].append({"field": "message", "first": 16, "width": 8, "row": 2})
    if sim:  # the emulator ignores the wiring of a real back end
        for key in ("segment_pins", "dp_pin", "digit_pins", "spi_port", "spi_device"):
            data.pop(key, None)
    try:
        return LedConfig.from_mapping(data)
    except (LedConfigError, TypeError) as exc:
        raise ConfigError(str(exc).replace("led.", "led.settings.", 1) if str(exc).startswith("led.") else f"led.settings: {exc}") from None


def keypad_layouts(kc: KeypadConfig) -> dict[str, Mapping[int, Any]]:
    """The keypad layouts the configuration may wire, by name (BCM pin -> names):
    one, none for "none", or every built-in one for "auto" (the runtime picks by game).

    >>> sorted(keypad_layouts(KeypadConfig())), keypad_layouts(KeypadConfig(layout="none"))
    (['dice', 'dominoes', 'timekeeper'], {})
    """
    from firmware_bridge.keypad import DICE_PINS, DOMINOES_PINS, TIMEKEEPER_PINS

    custom = keypad_pins(kc)
    if custom is not None:
        return {"custom": custom}
    built_in: dict[str, Mapping[int, Any]] = {"timekeeper": TIMEKEEPER_PINS, "dice": DICE_PINS,
                                                  "dominoes": DOMINOES_PINS}
    if kc.layout == "auto":
        return built_in
    return {kc.layout: built_in[kc.layout]} if kc.layout in built_in else {}


def _check_pin_clashes(cfg: Config) -> None:
    """Refuse two devices on one GPIO pin (the keypad's layout, the horn relay, LED digits).

    >>> from_dict({"horn": {"pin": 17}})
    Traceback (most recent call last):
    ...
    refbox.config.ConfigError: horn.pin: BCM 17 is already used by the keypad (button start_stop/next_period); the keypad of the "timekeeper" layout uses BCM 5, 6, 13, 17, 19, 20, 21, 22, 26, 27
    """
    layouts = keypad_layouts(cfg.keypad)
    led = led_config(cfg.led, sim=False)
    others: list[tuple[str, Any]] = []
    if cfg.horn.enabled:
        others.append(("horn.pin", cfg.horn.pin))
    if led is not None and led.backend == "gpio":
        pins = [*led.segment_pins, *([led.dp_pin] if led.dp_pin is not None else []), *led.digit_pins]
        others += [("led.settings", p) for p in pins]
    seen: dict[Any, str] = {}
    for key, pin in others:
        if pin in seen:
            raise ConfigError(f"{key}: BCM {pin} is used twice (also by {seen[pin]})")
        for name, layout in layouts.items():
            if pin in layout:
                names = "/".join(n for n in layout[pin] if n) if isinstance(layout[pin], tuple) else layout[pin]
                raise ConfigError(
                    f"{key}: BCM {pin} is already used by the keypad (button {names}); the keypad of the "
                    f'"{name}" layout uses BCM {", ".join(str(p) for p in sorted(layout))}')
        seen[pin] = key


TOPIC_LEVEL = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_topic_prefix(key: str, prefix: str) -> str:
    """An MQTT topic prefix: levels separated by '/', no wildcards, no empty level.

    >>> check_topic_prefix("club.prefix", "club/refbox")
    'club/refbox'
    >>> check_topic_prefix("club.prefix", "refbox/#")
    Traceback (most recent call last):
    ...
    refbox.config.ConfigError: club.prefix 'refbox/#' is not a usable MQTT topic prefix: level '#' may hold only letters, digits, '-' and '_'
    """
    if not prefix:
        raise ConfigError(f"{key} must not be empty")
    for level in prefix.split("/"):
        if not TOPIC_LEVEL.fullmatch(level):
            shown = "an empty level" if not level else f"level {level!r} may hold only letters, digits, '-' and '_'"
            raise ConfigError(f"{key} {prefix!r} is not a usable MQTT topic prefix: {shown}")
    return prefix


def club_table_id(cfg: Config) -> str:
    """The table's MQTT topic level: ``club.table_id``, else ``table.name``.

    >>> club_table_id(from_dict({"club": {"host": "broker.local"}}))
    'table-1'
    >>> club_table_id(from_dict({"table": {"name": "Table 7"}}))
    ''
    >>> from_dict({"table": {"name": "Table 7"}, "club": {"host": "broker.local"}})
    Traceback (most recent call last):
    ...
    refbox.config.ConfigError: table.name 'Table 7' cannot name the table in MQTT topics (letters, digits, '-' and '_' only, at most 64); set club.table_id
    """
    club = cfg.club
    if not club.host:
        return ""
    check_topic_prefix("club.prefix", club.prefix)
    check_topic_prefix("club.discovery_prefix", club.discovery_prefix)
    if club.ca_file and not club.tls:
        raise ConfigError("club.ca_file is only used with club.tls = true")
    if club.table_id:
        if not TOPIC_LEVEL.fullmatch(club.table_id):
            raise ConfigError(f"club.table_id must hold only letters, digits, '-' and '_' (at most 64), got {club.table_id!r}")
        return club.table_id
    if not TOPIC_LEVEL.fullmatch(cfg.table.name):
        raise ConfigError(f"table.name {cfg.table.name!r} cannot name the table in MQTT topics "
                          "(letters, digits, '-' and '_' only, at most 64); set club.table_id")
    return cfg.table.name


def load(path: str | Path | None) -> Config:
    """Read and validate a TOML file (``None``: the embedded defaults)."""
    if path is None:
        return from_dict({})
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {p} does not exist") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {p} is not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:  # a directory, no permission, an I/O error
        raise ConfigError(f"config file {p} cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {p} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"config file {p} is not valid TOML: arrays or tables nested too deeply") from None
    return from_dict(data)
