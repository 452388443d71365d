"""Camera pipeline: pure image -> reading functions, settling, frame sources at the edge."""

from .types import DieReading, TileReading

__all__ = ["DieReading", "TileReading"]
