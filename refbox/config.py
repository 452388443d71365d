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
    # logical button -> BCM pin number
    pins: Mapping[str, int] = field(
        default_factory=lambda: {"stop": 17, "start_stop": 27, "undo": 22, "horn": 23}
    )
    bounce_ms: int = 30


@dataclass(frozen=True)
class HornConfig:
    pin: int = 24
    enabled: bool = True


@dataclass(frozen=True)
class DisplayConfig:
    url: str = ""  # serial display: /dev/serial/by-id/..., a pty, loop://; empty: none
    baudrate: int = 115200


@dataclass(frozen=True)
class CameraConfig:
    source: str = "none"  # "usb:0", "picamera", "folder:PATH", "none"
    interval_ms: int = 100


@dataclass(frozen=True)
class Config:
    table: TableConfig = field(default_factory=TableConfig)
    journal: JournalConfig = field(default_factory=JournalConfig)
    web: WebConfig = field(default_factory=WebConfig)
    keypad: KeypadConfig = field(default_factory=KeypadConfig)
    horn: HornConfig = field(default_factory=HornConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)


CHOICES: dict[str, tuple[Any, ...]] = {
    "journal.synchronous": ("FULL", "NORMAL", "EXTRA"),
}
RANGES: dict[str, tuple[int, int]] = {
    "web.port": (1, 65535),
    "keypad.bounce_ms": (0, 1000),
    "horn.pin": (0, 27),
    "display.baudrate": (300, 4_000_000),
    "camera.interval_ms": (10, 10_000),
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
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key} must be a whole number, got {value!r}")
        lo, hi = RANGES.get(key, (None, None))
        if lo is not None and hi is not None and not lo <= value <= hi:
            raise ConfigError(f"{key} must be in {lo}..{hi}, got {value}")
        return value
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
    from rules import BadHeader, Header

    try:
        Header.from_dict({"game": cfg.table.game, "players": list(cfg.table.players), "options": dict(cfg.table.options)})
    except BadHeader as exc:
        raise ConfigError(f"table: {exc}") from None
    return cfg


def load(path: str | Path | None) -> Config:
    """Read and validate a TOML file (``None``: the embedded defaults)."""
    if path is None:
        return from_dict({})
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"config file {p} does not exist") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {p} is not valid TOML: {exc}") from None
    return from_dict(data)
