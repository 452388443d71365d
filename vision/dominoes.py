"""Read domino tiles in a still image (pure). The full reader comes with issue 5."""

from __future__ import annotations

import numpy as np

from .types import TileReading


def read_dominoes(image: np.ndarray) -> list[TileReading]:
    """Read every tile in a BGR image.

    >>> read_dominoes(np.zeros((10, 10, 3), np.uint8))
    []
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR image of shape (h, w, 3), got {image.shape}")
    return []
