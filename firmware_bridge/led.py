"""LED scoreboard: 7-segment digits from GPIO, MAX7219 chains over SPI, or an emulator.

One pure step turns a view into a *frame*: a list of segment bytes, one per
digit, in MAX7219 "no decode" bit order (DP A B C D E F G, bit 7 .. bit 0; the
font is the display firmware's, ``firmware/segments.py``). Which field goes on
which digits is configuration (:class:`LedConfig`); the back ends only light
what the frame says:

- :class:`GpioSegments`: gpiozero ``LEDMultiCharDisplay`` (segments a-g + dp on
  GPIO, one common pin per digit, multiplexed by gpiozero's thread);
- :class:`Max7219Segments`: a chain of MAX7219 (8 digits each) through
  luma.led_matrix's ``max7219`` device and luma.core's ``sevensegment``;
- :class:`EmulatedSegments`: the same frames drawn to a PNG (pillow) and to the
  terminal, for ``refbox run --sim`` and the golden-image tests.

>>> board = LedScoreboard(LedConfig(backend="emulator"))
>>> board.show({"game": "futsal", "clock": "12:34", "period": "2nd half",
...             "home": {"name": "A", "score": 3, "fouls": 1}, "away": {"name": "B", "score": 0, "fouls": 0}})
>>> board.backend.text()
'12:34 |  / 3 | 1 | 2 | 0 | 0'
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass, fields
from typing import Any, Callable, Iterator, Mapping, Protocol, Sequence

from .firmware import segments
from .layout import DisplayFields, LayoutConfig

BACKENDS = ("gpio", "max7219", "emulator")
FIELDS = ("clock", "shot_clock", "home_score", "away_score", "home_fouls", "away_fouls", "period", "message")


class LedConfigError(ValueError):
    """A LED setting is wrong; the message names the key and the allowed values."""


@dataclass(frozen=True)
class LedGroup:
    """``width`` digits starting at digit ``first`` show ``field``; ``row`` is where
    the emulator draws the group (groups of a row are drawn in config order)."""

    field: str
    first: int
    width: int
    row: int = 0


DEFAULT_GROUPS = (
    LedGroup("clock", 0, 4, 0),
    LedGroup("shot_clock", 4, 3, 0),
    LedGroup("home_score", 7, 3, 1),
    LedGroup("home_fouls", 13, 1, 1),
    LedGroup("period", 15, 1, 1),
    LedGroup("away_fouls", 14, 1, 1),
    LedGroup("away_score", 10, 3, 1),
)


@dataclass(frozen=True)
class LedConfig:
    """Which back end, how many digits, and which field goes on which digits.

    ``gpio`` needs ``segment_pins`` (a, b, c, d, e, f, g), ``dp_pin`` and one
    ``digit_pins`` entry per digit (``active_high``: a segment pin high lights it;
    ``digit_active_high``: a digit pin high selects the digit, as through an NPN
    transistor on a common cathode -- False for a cathode wired straight to the pin); ``max7219`` needs ``digits`` to be a multiple
    of 8 (``digits // 8`` chips in the chain) and uses ``spi_port``/``spi_device``.
    """

    backend: str = "emulator"
    digits: int = 16
    groups: tuple[LedGroup, ...] = DEFAULT_GROUPS
    segment_pins: tuple[int | str, ...] = ()
    dp_pin: int | str | None = None
    digit_pins: tuple[int | str, ...] = ()
    active_high: bool = True
    digit_active_high: bool = True
    spi_port: int = 0
    spi_device: int = 0
    contrast: int = 0x70

    def __post_init__(self) -> None:
        if self.backend not in BACKENDS:
            raise LedConfigError(f"led.backend: {self.backend!r} is not allowed; allowed: {list(BACKENDS)}")
        if isinstance(self.digits, bool) or not isinstance(self.digits, int) or not 1 <= self.digits <= 64:
            raise LedConfigError(f"led.digits: expected an integer in 1..64, got {self.digits!r}")
        if self.backend == "max7219" and self.digits % 8:
            raise LedConfigError(f"led.digits: the max7219 back end drives 8 digits per chip; {self.digits} is not a multiple of 8")
        used: dict[int, str] = {}
        for i, g in enumerate(self.groups):
            where = f"led.groups[{i}]"
            if g.field not in FIELDS:
                raise LedConfigError(f"{where}.field: {g.field!r} is not allowed; allowed: {list(FIELDS)}")
            if g.width < 1 or g.first < 0 or g.first + g.width > self.digits:
                raise LedConfigError(
                    f"{where}: digits {g.first}..{g.first + g.width - 1} do not fit on 0..{self.digits - 1}"
                )
            for d in range(g.first, g.first + g.width):
                if d in used:
                    raise LedConfigError(f"{where}: digit {d} is already used by {used[d]!r}")
                used[d] = g.field
        if self.backend == "gpio":
            if len(self.segment_pins) != 7:
                raise LedConfigError(
                    f"led.segment_pins: the gpio back end needs 7 pins (a..g), got {len(self.segment_pins)}"
                )
            if len(self.digit_pins) != self.digits:
                raise LedConfigError(
                    f"led.digit_pins: the gpio back end needs one pin per digit ({self.digits}), "
                    f"got {len(self.digit_pins)}"
                )
        if not 0 <= self.contrast <= 255:
            raise LedConfigError(f"led.contrast: expected 0..255, got {self.contrast!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> "LedConfig":
        """From a config section (lists for tuples; groups as mappings)."""
        allowed = [f.name for f in fields(cls)]
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise LedConfigError(f"led: unknown key(s) {unknown}; allowed: {allowed}")
        values = dict(data)
        if "groups" in values:
            groups = []
            for i, g in enumerate(values["groups"]):
                keys = {"field", "first", "width", "row"}
                if not isinstance(g, Mapping) or not {"field", "first", "width"} <= set(g) or set(g) - keys:
                    raise LedConfigError(f"led.groups[{i}]: expected keys {sorted(keys)} (row optional), got {g!r}")
                groups.append(LedGroup(**g))
            values["groups"] = tuple(groups)
        for key in ("segment_pins", "digit_pins"):
            if key in values:
                values[key] = tuple(values[key])
        return cls(**values)


def field_text(f: DisplayFields, name: str) -> str:
    value = getattr(f, name)
    if value is None:
        return ""
    if name in ("home_fouls", "away_fouls"):
        return str(min(value, 9))
    return str(value)


def frame(f: DisplayFields, config: LedConfig, translate: Callable[[str], str] | None = None) -> list[int]:
    """The segment bytes of every digit for these fields (the pure step). A ``message``
    group shows ``translate(message)`` (the table's language) drawn with the Cyrillic
    substitutes of :mod:`firmware_bridge.glyphs`.

    >>> cfg = LedConfig(digits=8, groups=(LedGroup("message", 0, 8),))
    >>> f = DisplayFields(message="TIME OUT")
    >>> frame(f, cfg) == frame(f, cfg, lambda s: {"TIME OUT": "ТАЙМ-АУТ"}[s])
    False
    """
    cells = [0] * config.digits
    for g in config.groups:
        if g.field == "message":
            from .glyphs import segment_cells

            words = (translate or (lambda s: s))(f.message) if f.message else ""
            encoded = segment_cells(words, g.width)
        else:
            encoded = segments.encode(field_text(f, g.field), g.width)
        for i, cell in enumerate(encoded):
            cells[g.first + i] = cell
    return cells


class Backend(Protocol):
    def write(self, cells: list[int]) -> None: ...

    def close(self) -> None: ...


def _gpiozero_font() -> dict[str, tuple[int, ...]]:
    bits = (segments.A, segments.B, segments.C, segments.D, segments.E, segments.F, segments.G)
    font = {ch: tuple(int(bool(pattern & b)) for b in bits) for ch, pattern in segments.FONT.items()}
    font["?"] = font["-"]
    return font


_FACTORY_LOCK = threading.Lock()


@contextmanager
def _borrowed_default_factory(pin_factory: Any) -> Iterator[None]:
    """gpiozero 2.0.1's LEDMultiCharDisplay builds its inner CompositeOutputDevice
    without passing ``pin_factory`` on, so that one device asks for the global
    default (and fails where there is none, e.g. with MockFactory on a laptop).
    It allocates no pins itself; lend it our factory only while constructing,
    only when no default is set, and put things back."""
    from gpiozero import Device

    with _FACTORY_LOCK:
        lent = Device.pin_factory is None
        if lent:
            Device.pin_factory = pin_factory
        try:
            yield
        finally:
            if lent:
                Device.pin_factory = None


class GpioSegments:
    """Multiplexed 7-segment digits straight from GPIO (gpiozero ``LEDMultiCharDisplay``)."""

    def __init__(self, config: LedConfig, *, pin_factory: Any) -> None:
        from gpiozero import LEDCharDisplay, LEDMultiCharDisplay

        if config.backend != "gpio":
            raise LedConfigError(f"led.backend: GpioSegments needs 'gpio', got {config.backend!r}")
        char = LEDCharDisplay(
            *config.segment_pins,
            dp=config.dp_pin,
            font=_gpiozero_font(),
            active_high=config.active_high,
            pin_factory=pin_factory,
        )
        try:
            with _borrowed_default_factory(pin_factory):
                self.display = LEDMultiCharDisplay(
                    char, *config.digit_pins, active_high=config.digit_active_high, pin_factory=pin_factory
                )
        except Exception:
            char.close()
            raise
        self.has_dp = config.dp_pin is not None

    def write(self, cells: list[int]) -> None:
        if not self.has_dp:
            cells = [c & ~segments.DP for c in cells]
        self.display.value = tuple(
            segments.decode(c) + ("." if c & segments.DP else "") for c in cells
        )

    def close(self) -> None:
        self.display.close()


class Max7219Segments:
    """A chain of MAX7219 over SPI through luma.led_matrix (``serial_interface`` may be
    any luma interface: ``luma.core.interface.serial.spi`` on the Pi, a recorder in tests)."""

    def __init__(self, config: LedConfig, serial_interface: Any = None) -> None:
        from luma.core.virtual import sevensegment
        from luma.led_matrix.device import max7219

        if config.backend != "max7219":
            raise LedConfigError(f"led.backend: Max7219Segments needs 'max7219', got {config.backend!r}")
        if serial_interface is None:
            from luma.core.interface.serial import noop, spi

            serial_interface = spi(port=config.spi_port, device=config.spi_device, gpio=noop())
        self.device = max7219(serial_interface, cascaded=config.digits // 8, contrast=config.contrast)
        # our frames are already segment bytes: carry them through sevensegment's text
        # buffer one character per digit, and map each character back to its byte
        self.segments = sevensegment(self.device, segment_mapper=lambda text, notfound=None: (ord(c) for c in text))

    def write(self, cells: list[int]) -> None:
        # luma puts text position p on chip (chips-1 - p//8) counted from the Pi, register
        # DIGIT(7 - p%8); reversed, digit i lands on chip i//8, DIGIT(i%8): the wiring of
        # docs/displays.md and of the Pico firmware
        self.segments.text = "".join(chr(c) for c in reversed(cells))

    def close(self) -> None:
        self.device.cleanup()


class EmulatedSegments:
    """Frames drawn as an image (PNG) and as terminal text; nothing to wire."""

    DIGIT_W, DIGIT_H, GAP, GROUP_GAP, ROW_GAP, MARGIN = 20, 36, 6, 18, 14, 10
    ON, OFF, BACKGROUND = (255, 40, 20), (45, 12, 8), (10, 10, 10)

    def __init__(self, config: LedConfig) -> None:
        self.config = config
        self.cells: list[int] = [0] * config.digits
        self.frames = 0

    def write(self, cells: list[int]) -> None:
        self.cells = list(cells)
        self.frames += 1

    def close(self) -> None:
        pass

    def _rows(self) -> list[list[LedGroup]]:
        rows: dict[int, list[LedGroup]] = {}
        for g in self.config.groups:
            rows.setdefault(g.row, []).append(g)
        return [rows[r] for r in sorted(rows)]

    def text(self) -> str:
        """One line per row: each group's characters, groups separated by ' | '."""
        return " / ".join(
            " | ".join(_group_chars(self.cells[g.first : g.first + g.width], g.field) for g in row)
            for row in self._rows()
        )

    def render_text(self) -> str:
        """Big 7-segment digits for the terminal, one block per row of groups."""
        from .emulator import big_digit

        lines: list[str] = []
        for row in self._rows():
            label, rows = "", ["", "", ""]
            for g in row:
                part = ["", "", ""]
                for i, cell in enumerate(self.cells[g.first : g.first + g.width]):
                    for r, s in enumerate(big_digit(cell, colon=g.field == "clock" and i == 1)):
                        part[r] += s
                width = max(len(part[0]), len(g.field))
                label += g.field.upper().replace("_", " ")[:width].ljust(width) + "  "
                for r in range(3):
                    rows[r] += part[r].ljust(width) + "  "
            lines += [label.rstrip()] + [r.rstrip() for r in rows]
        return "\n".join(lines)

    def image(self, scale: int = 1) -> Any:
        """A pillow image of the board (segments as rectangles: pixel-exact, font-free)."""
        from PIL import Image, ImageDraw

        w, h, gap, ggap = self.DIGIT_W, self.DIGIT_H, self.GAP, self.GROUP_GAP
        rows = self._rows()
        widths = [sum(g.width * (w + gap) for g in row) + ggap * (len(row) - 1) for row in rows]
        size = (2 * self.MARGIN + max(widths), 2 * self.MARGIN + len(rows) * h + (len(rows) - 1) * self.ROW_GAP)
        img = Image.new("RGB", size, self.BACKGROUND)
        draw = ImageDraw.Draw(img)
        y = self.MARGIN
        for row in rows:
            x = self.MARGIN
            for g in row:
                for i in range(g.width):
                    _draw_digit(draw, x, y, self.cells[g.first + i], self.ON, self.OFF, colon=g.field == "clock" and i == 1)
                    x += w + gap
                x += ggap
            y += h + self.ROW_GAP
        if scale != 1:
            img = img.resize((size[0] * scale, size[1] * scale), Image.Resampling.NEAREST)
        return img

    def save_png(self, path: Any, scale: int = 1) -> None:
        self.image(scale).save(path, format="PNG")


def _group_chars(cells: Sequence[int], name: str) -> str:
    out = ""
    for i, cell in enumerate(cells):
        out += segments.decode(cell)
        if cell & segments.DP:
            out += ":" if name == "clock" and i == 1 else "."
    return out.strip()


def _draw_digit(draw: Any, x: int, y: int, cell: int, on: tuple[int, int, int], off: tuple[int, int, int], colon: bool) -> None:
    t, w, h = 3, EmulatedSegments.DIGIT_W - 4, EmulatedSegments.DIGIT_H
    mid = y + h // 2
    boxes = {
        segments.A: (x + t, y, x + w - t, y + t - 1),
        segments.B: (x + w - t, y + t, x + w - 1, mid - 1),
        segments.C: (x + w - t, mid + 1, x + w - 1, y + h - t - 1),
        segments.D: (x + t, y + h - t, x + w - t, y + h - 1),
        segments.E: (x, mid + 1, x + t - 1, y + h - t - 1),
        segments.F: (x, y + t, x + t - 1, mid - 1),
        segments.G: (x + t, mid - 1, x + w - t, mid + 1),
    }
    for bit, box in boxes.items():
        draw.rectangle(box, fill=on if cell & bit else off)
    dot = on if cell & segments.DP else off
    draw.rectangle((x + w + 1, y + h - t, x + w + t, y + h - 1), fill=dot)
    if colon:
        draw.rectangle((x + w + 1, y + h // 3, x + w + t, y + h // 3 + t - 1), fill=dot)


class LedScoreboard:
    """Views in, frames out to one back end. ``show`` is synchronous and cheap (a
    frame is 16 bytes; gpiozero multiplexes in its own thread, SPI writes take
    microseconds); only changed frames are written."""

    def __init__(self, config: LedConfig, backend: Backend | None = None, *, layout: LayoutConfig | None = None,
                 translate: Callable[[str], str] | None = None) -> None:
        self.config = config
        self.translate = translate
        self.layout = layout or LayoutConfig()
        if backend is None:
            if config.backend != "emulator":
                raise LedConfigError(
                    f"led.backend {config.backend!r} needs its device: pass GpioSegments(config, pin_factory=...) "
                    "or Max7219Segments(config)"
                )
            backend = EmulatedSegments(config)
        self.backend: Any = backend
        self.cells: list[int] | None = None

    def show(self, view: Mapping[str, Any]) -> None:
        cells = frame(DisplayFields.from_view(view, self.layout), self.config, self.translate)
        if cells != self.cells:
            self.cells = cells
            self.backend.write(cells)

    def close(self) -> None:
        self.backend.close()
