"""The native link's SHOW frame (sequence number 0), for files and pipes."""

from __future__ import annotations

from ..layout import DisplayFields
from ..protocol import Show, encode_frame


def encode(fields: DisplayFields) -> bytes:
    return encode_frame(0, Show.from_fields(fields))
