"""Standard scoreboard wire formats: the bytes other equipment expects, from our views.

``refbox replay FILE --emit FORMAT`` writes ``encode(FORMAT, final_view)`` to
stdout. Every encoder starts from :class:`~firmware_bridge.layout.DisplayFields`.

>>> sorted(FORMATS)
['daktronics-rtd-basketball', 'daktronics-rtd-soccer', 'native', 'stramatel']
>>> encode("stramatel", {"game": "futsal", "clock": "07:30", "period": "2nd half",
...        "home": {"name": "A", "score": 3, "fouls": 1}, "away": {"name": "B", "score": 12, "fouls": 4}})[:14]
b'\\xf83  0730  3 12'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ..layout import DisplayFields, LayoutConfig
from . import daktronics, native, stramatel


@dataclass(frozen=True)
class WireFormat:
    name: str
    description: str
    encode_fields: Callable[[DisplayFields], bytes]


FORMATS: dict[str, WireFormat] = {
    f.name: f
    for f in (
        WireFormat("native", "Refbox display link frame (SHOW, seq 0), as the Pico firmware reads it", native.encode),
        WireFormat(
            "daktronics-rtd-soccer",
            "Daktronics All Sport 5000 RTD, soccer layout (SYN/ETB framing, mod-256 checksum)",
            daktronics.encode_soccer,
        ),
        WireFormat(
            "daktronics-rtd-basketball",
            "Daktronics All Sport 5000 RTD, basketball layout (adds shot clock, team fouls, possession)",
            daktronics.encode_basketball,
        ),
        WireFormat("stramatel", "Stramatel RS-485 scoreboard frame (54 bytes, 0xF8 ... 0x0D)", stramatel.encode),
    )
}


class UnknownFormat(ValueError):
    pass


def encode(format_name: str, view: Mapping[str, Any], layout: LayoutConfig | None = None) -> bytes:
    """The bytes ``format_name`` carries for ``view``; unknown names list the known ones."""
    try:
        fmt = FORMATS[format_name]
    except KeyError:
        raise UnknownFormat(f"unknown wire format {format_name!r}; known: {sorted(FORMATS)}") from None
    return fmt.encode_fields(DisplayFields.from_view(view, layout))
