"""Synthetic dice pictures: a table with drawn dice, for tests, benchmarks and ``--sim``.

Deterministic for a given seed; no files, no camera.

>>> img, truth = render_dice([3, 6], seed=1)
>>> img.shape, [v for v, _ in truth]
((720, 1280, 3), [3, 6])
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

# pip positions on a face, in units of a third of the face (centre 0)
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (-1, 1), (1, 1), (0, 0)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}


PIP_STEP = 0.27
"""Distance from a face's centre to a pip's row or column, in face sizes."""
PIP_RADIUS = 0.09
"""A pip's radius, in face sizes."""


def face_geometry(value: int, center: tuple[float, float], size: float, angle: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A face of ``size`` turned by ``angle`` degrees about ``center``: its corners (4, 2) and its pips' centres (value, 2)."""
    c, s = np.cos(np.radians(angle)), np.sin(np.radians(angle))
    rot = np.array([[c, -s], [s, c]])
    half = size / 2
    corners = np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T + center
    step = size * PIP_STEP
    pips = np.array([[px * step, py * step] for px, py in PIPS[value]]) @ rot.T + center
    return corners, pips


def draw_die(
    image: np.ndarray,
    value: int,
    center: tuple[float, float],
    size: float,
    angle: float = 0.0,
    body: tuple[int, int, int] = (235, 235, 235),
    pip: tuple[int, int, int] = (20, 20, 20),
) -> None:
    """Draw one die seen from above into ``image`` (in place)."""
    corners, pips = face_geometry(value, center, size, angle)
    cv2.fillConvexPoly(image, np.round(corners * 16).astype(np.int32), body, cv2.LINE_AA, shift=4)
    for x, y in pips:
        cv2.circle(image, (int(round(x * 16)), int(round(y * 16))), int(round(size * PIP_RADIUS * 16)), pip, -1, cv2.LINE_AA, shift=4)


def render_dice(
    values: Sequence[int],
    *,
    size: tuple[int, int] = (1280, 720),
    die: float = 60.0,
    seed: int = 0,
    table: tuple[int, int, int] = (40, 110, 40),
    noise: float = 3.0,
    body: tuple[int, int, int] = (235, 235, 235),
    pip: tuple[int, int, int] = (20, 20, 20),
) -> tuple[np.ndarray, list[tuple[int, tuple[float, float]]]]:
    """A table picture with the given dice (colours ``body`` and ``pip``) at random places (not touching);
    returns it and (value, centre) pairs."""
    rng = np.random.default_rng(seed)
    w, h = size
    img = np.empty((h, w, 3), np.uint8)
    img[:] = table
    truth: list[tuple[int, tuple[float, float]]] = []
    placed: list[tuple[float, float]] = []
    for v in values:
        for _ in range(1000):
            x = float(rng.uniform(die, w - die))
            y = float(rng.uniform(die, h - die))
            if all(np.hypot(x - a, y - b) > 1.6 * die for a, b in placed):
                break
        placed.append((x, y))
        draw_die(img, v, (x, y), die, float(rng.uniform(0, 90)), body=body, pip=pip)
        truth.append((v, (x, y)))
    if noise:
        img = np.clip(img.astype(np.float32) + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)
    return img, truth


TOUCHING_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((235, 235, 235), (20, 20, 20)),  # white dice, black pips
    ((40, 40, 200), (240, 240, 240)),  # red dice, white pips
    ((30, 30, 30), (235, 235, 235)),  # black dice, white pips
)
"""Die and pip colours (BGR) of :func:`render_touching`'s rows, one set per row."""


LAYOUTS = ("row", "staggered", "block")
"""How :func:`render_touching` sets its dice: side by side in a straight row; the same with every other die
moved a quarter of a die aside; or in a block two dice wide."""


def _layout(n: int, layout: str) -> list[tuple[float, float]]:
    """Where ``n`` dice lie in ``layout`` (:data:`LAYOUTS`), in die sizes from the picture's centre, before the turn."""
    if layout == "row":
        return [(i - (n - 1) / 2, 0.0) for i in range(n)]
    if layout == "staggered":
        return [(i - (n - 1) / 2, 0.25 * (i % 2) - 0.125) for i in range(n)]
    if layout == "block":
        rows = (n + 1) // 2
        return [(i % 2 - 0.5, i // 2 - (rows - 1) / 2) for i in range(n)]
    raise ValueError(f"unknown layout {layout!r}, expected one of {', '.join(LAYOUTS)}")


def render_touching(
    values: Sequence[int],
    *,
    die: float = 60.0,
    angle: float = 0.0,
    seam: float = 2.0,
    layout: str = "row",
    colours: tuple[tuple[int, int, int], tuple[int, int, int]] = TOUCHING_COLOURS[0],
    size: tuple[int, int] = (1280, 720),
    table: tuple[int, int, int] = (40, 110, 40),
    noise: float = 3.0,
    seed: int = 0,
) -> tuple[np.ndarray, list[tuple[int, tuple[float, float]]]]:
    """A table picture with the dice ``values`` touching each other as ``layout`` sets them (:data:`LAYOUTS`),
    turned by ``angle`` degrees about the picture's centre; returns it and (value, centre) pairs.

    Drawn dice have sharp edges, so two of one colour side by side are one plain
    block; real dice have rounded edges that leave a darker groove where they
    touch, drawn here along the edge two dice share as a line ``seam`` pixels wide
    in the die's colour at 60 % (0: none). The picture is blurred a little (sigma
    0.8) and noisy (``noise`` grey levels), as a camera's frame is.
    """
    rng = np.random.default_rng(seed)
    w, h = size
    body, pip = colours
    img = np.empty((h, w, 3), np.uint8)
    img[:] = table
    c, s = float(np.cos(np.radians(angle))), float(np.sin(np.radians(angle)))

    def at(x: float, y: float) -> tuple[float, float]:  # (die sizes along the dice's sides to pixels)
        return (w / 2 + (x * c - y * s) * die, h / 2 + (x * s + y * c) * die)

    spots = _layout(len(values), layout)
    truth: list[tuple[int, tuple[float, float]]] = []
    for v, (x, y) in zip(values, spots):
        draw_die(img, v, at(x, y), die, angle, body=body, pip=pip)
        truth.append((v, at(x, y)))
    if seam > 0:
        groove = tuple(round(0.6 * ch) for ch in body)
        for i, (xa, ya) in enumerate(spots):
            for xb, yb in spots[i + 1 :]:
                # two dice side by side share the part of an edge where both lie
                for along, across, flip in ((xa - xb, ya - yb, False), (ya - yb, xa - xb, True)):
                    if abs(abs(along) - 1.0) < 1e-9 and abs(across) < 1.0:
                        mid = (xa + xb) / 2 if not flip else (ya + yb) / 2
                        lo, hi = (max(ya, yb) - 0.5, min(ya, yb) + 0.5) if not flip else (max(xa, xb) - 0.5, min(xa, xb) + 0.5)
                        ends = [at(mid, lo), at(mid, hi)] if not flip else [at(lo, mid), at(hi, mid)]
                        a, b = (tuple(int(round(v * 16)) for v in e) for e in ends)
                        cv2.line(img, a, b, groove, max(1, int(round(seam))), cv2.LINE_AA, shift=4)
    blurred: np.ndarray = cv2.GaussianBlur(img, (0, 0), 0.8)
    if noise:
        blurred = np.clip(blurred.astype(np.float32) + rng.normal(0, noise, blurred.shape), 0, 255).astype(np.uint8)
    return blurred, truth
