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

from .types import Motion

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
    img, places = _lying_apart(values, die, size, table, (body, pip), rng)
    return noisy(img, noise, rng), [(v, (x, y)) for v, (x, y, _) in zip(values, places)]


def _lying_apart(
    values: Sequence[int],
    die: float,
    size: tuple[int, int],
    table: tuple[int, int, int],
    colours: tuple[tuple[int, int, int], tuple[int, int, int]],
    rng: np.random.Generator,
) -> tuple[np.ndarray, list[tuple[float, float, float]]]:
    """A ``table`` picture of ``size`` with the dice ``values`` drawn apart (:func:`_scatter`), and where each lies."""
    img = np.empty((size[1], size[0], 3), np.uint8)
    img[:] = table
    places = _scatter(len(values), die, size, rng)
    for v, (x, y, turn) in zip(values, places):
        draw_die(img, v, (x, y), die, turn, body=colours[0], pip=colours[1])
    return img, places


def noisy(img: np.ndarray, noise: float, rng: np.random.Generator) -> np.ndarray:
    """The 8-bit picture ``img`` with Gaussian noise of ``noise`` grey levels added, as a camera's frame is (0: ``img`` itself)."""
    if not noise:
        return img
    return np.clip(img.astype(np.float32) + rng.normal(0, noise, img.shape), 0, 255).astype(np.uint8)


def nudged(frame: np.ndarray, motion: tuple[int, int] | Motion) -> np.ndarray:
    """``frame`` as a camera nudged by ``motion`` (dx, dy pixels: a table bumped; or a :class:`~vision.types.Motion`,
    turned as well) sees it: the picture moved so, the frame's mirror coming in at its edges (the table beyond them).

    >>> nudged(np.arange(4, dtype=np.uint8).reshape(1, 4), (1, 0)).tolist()
    [[0, 0, 1, 2]]
    """
    h, w = frame.shape[:2]
    return cv2.warpAffine(frame, Motion(*motion).matrix((w, h)), (w, h), borderMode=cv2.BORDER_REFLECT)


def _scatter(n: int, die: float, size: tuple[int, int], rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """Places (x, y, turn in degrees) for ``n`` dice ``die`` wide in a picture of ``size``, more than 1.6 dice apart
    (when a thousand tries find such a place)."""
    w, h = size
    placed: list[tuple[float, float, float]] = []
    for _ in range(n):
        for _ in range(1000):
            x = float(rng.uniform(die, w - die))
            y = float(rng.uniform(die, h - die))
            if all(np.hypot(x - a, y - b) > 1.6 * die for a, b, _ in placed):
                break
        placed.append((x, y, float(rng.uniform(0, 90))))
    return placed


TOUCHING_COLOURS: tuple[tuple[tuple[int, int, int], tuple[int, int, int]], ...] = (
    ((235, 235, 235), (20, 20, 20)),  # white dice, black pips
    ((40, 40, 200), (240, 240, 240)),  # red dice, white pips
    ((30, 30, 30), (235, 235, 235)),  # black dice, white pips
)
"""Die and pip colours (BGR) of :func:`render_touching`'s rows, one set per row."""


LAYOUTS = ("row", "staggered", "block", "scattered")
"""How :func:`render_touching` sets its dice: side by side in a straight row; the same with every other die
moved a quarter of a die aside; in a block two dice wide; or each at a turn of its own, touching a die
set before it, as dice come to rest after a throw."""


def _square(x: float, y: float, turn: float) -> np.ndarray:
    """The corners (4, 2) of a die one unit wide at (x, y), turned by ``turn`` degrees."""
    c, s = np.cos(np.radians(turn)), np.sin(np.radians(turn))
    return np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]) @ np.array([[c, s], [-s, c]]) + (x, y)


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Do two convex polygons overlap (by more than a hair)? No side of either parts them."""
    for poly in (a, b):
        for i in range(len(poly)):
            edge = poly[(i + 1) % len(poly)] - poly[i]
            axis = np.array([-edge[1], edge[0]])
            pa, pb = a @ axis, b @ axis
            if pa.max() <= pb.min() + 1e-6 or pb.max() <= pa.min() + 1e-6:
                return False
    return True


def _layout(n: int, layout: str, rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """Where ``n`` dice lie in ``layout`` (:data:`LAYOUTS`): (x, y, turn), in die sizes from the picture's centre
    and degrees, before the whole is turned."""
    if layout == "row":
        return [(i - (n - 1) / 2, 0.0, 0.0) for i in range(n)]
    if layout == "staggered":
        return [(i - (n - 1) / 2, 0.25 * (i % 2) - 0.125, 0.0) for i in range(n)]
    if layout == "block":
        rows = (n + 1) // 2
        return [(i % 2 - 0.5, i // 2 - (rows - 1) / 2, 0.0) for i in range(n)]
    if layout == "scattered":
        spots = [(0.0, 0.0, float(rng.uniform(0.0, 90.0)))]
        while len(spots) < n:
            bx, by, _ = spots[int(rng.integers(len(spots)))]
            way, turn = float(rng.uniform(0.0, 2 * np.pi)), float(rng.uniform(0.0, 90.0))
            squares = [_square(*spot) for spot in spots]
            for d in np.arange(0.5, 2.5, 0.01):  # (out from a die until it touches, overlapping none)
                x, y = bx + d * np.cos(way), by + d * np.sin(way)
                if not any(_overlap(_square(x, y, turn), sq) for sq in squares):
                    spots.append((float(x), float(y), turn))
                    break
        return spots
    raise ValueError(f"unknown layout {layout!r}, expected one of {', '.join(LAYOUTS)}")


def _shared_edge(a: tuple[float, float], b: tuple[float, float]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The ends of the part of an edge two dice of one turn share (their centres ``a`` and ``b`` in die
    sizes along their sides), or None when they lie side by side along no edge."""
    (xa, ya), (xb, yb) = a, b
    if abs(abs(xa - xb) - 1.0) < 1e-9 and abs(ya - yb) < 1.0:
        x = (xa + xb) / 2
        return (x, max(ya, yb) - 0.5), (x, min(ya, yb) + 0.5)
    if abs(abs(ya - yb) - 1.0) < 1e-9 and abs(xa - xb) < 1.0:
        y = (ya + yb) / 2
        return (max(xa, xb) - 0.5, y), (min(xa, xb) + 0.5, y)
    return None


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
    in the die's colour at 60 % (0: none; scattered dice, turned apart, share no
    edge). The picture is blurred a little (sigma 0.8) and noisy (``noise`` grey
    levels), as a camera's frame is. ``seed`` also sets the scattered layout.
    """
    rng = np.random.default_rng(seed)
    w, h = size
    body, pip = colours
    img = np.empty((h, w, 3), np.uint8)
    img[:] = table
    c, s = float(np.cos(np.radians(angle))), float(np.sin(np.radians(angle)))

    def at(x: float, y: float) -> tuple[float, float]:  # (die sizes along the dice's sides to pixels)
        return (w / 2 + (x * c - y * s) * die, h / 2 + (x * s + y * c) * die)

    spots = _layout(len(values), layout, rng)
    truth: list[tuple[int, tuple[float, float]]] = []
    for v, (x, y, turn) in zip(values, spots):
        draw_die(img, v, at(x, y), die, angle + turn, body=body, pip=pip)
        truth.append((v, at(x, y)))
    if seam > 0:
        groove = tuple(round(0.6 * ch) for ch in body)
        for i, (xa, ya, ta) in enumerate(spots):
            for xb, yb, tb in spots[i + 1 :]:
                edge = _shared_edge((xa, ya), (xb, yb)) if ta == tb else None  # (dice turned apart meet at a corner)
                if edge is not None:
                    a, b = (tuple(int(round(v * 16)) for v in at(*end)) for end in edge)
                    cv2.line(img, a, b, groove, max(1, int(round(seam))), cv2.LINE_AA, shift=4)
    return noisy(cv2.GaussianBlur(img, (0, 0), 0.8), noise, rng), truth


GLARE = ("pip", "face")
"""Where :func:`render_glare` puts each die's highlight: in one of its pips, or anywhere on its face."""


def render_glare(
    values: Sequence[int],
    *,
    where: str = "pip",
    strength: float = 0.9,
    die: float = 60.0,
    colours: tuple[tuple[int, int, int], tuple[int, int, int]] = TOUCHING_COLOURS[0],
    size: tuple[int, int] = (1280, 720),
    table: tuple[int, int, int] = (40, 110, 40),
    noise: float = 3.0,
    seed: int = 0,
) -> tuple[np.ndarray, list[tuple[int, tuple[float, float]]]]:
    """A table picture with the dice ``values`` lying apart, as :func:`render_dice` sets them, each with a highlight
    of glossy plastic under a lamp; returns it and (value, centre) pairs.

    The highlight is a soft spot, a Gaussian of sigma ``s`` along the picture's rows and ``s / 1.6``
    down its columns, that brightens the picture ``strength`` of the way to white at its centre: with ``where``
    ``"pip"`` in one of the die's pips, ``s`` 0.03 to 0.06 of the die (a glossy pip: a pip's radius
    is 0.09), with ``"face"`` anywhere within 0.3 dice of the face's centre, ``s`` 0.06 to 0.14 (a
    glossy face: as big as a pip and up to half as big again; on a dark die, a light spot the size
    of a pip).
    """
    if where not in GLARE:
        raise ValueError(f"glare where {where!r}: expected one of {', '.join(GLARE)}")
    if not 0.0 <= strength <= 1.0:
        raise ValueError(f"glare strength {strength!r}: expected 0 to 1 (the share of the way to white)")
    rng = np.random.default_rng(seed)
    img, places = _lying_apart(values, die, size, table, colours, rng)
    out = img.astype(np.float32)
    for v, (x, y, turn) in zip(values, places):
        if where == "pip":
            pips = face_geometry(v, (x, y), die, turn)[1]
            gx, gy = pips[rng.integers(len(pips))] + rng.normal(0.0, 0.02 * die, 2)
            sigma = die * rng.uniform(0.03, 0.06)
        else:
            gx, gy = x + rng.uniform(-0.3, 0.3) * die, y + rng.uniform(-0.3, 0.3) * die
            sigma = die * rng.uniform(0.06, 0.14)
        r = int(np.ceil(4 * sigma))  # (the spot's reach: four sigmas along the rows, more down the columns)
        x0, x1 = max(0, int(gx) - r), min(size[0], int(gx) + r + 1)
        y0, y1 = max(0, int(gy) - r), min(size[1], int(gy) + r + 1)
        yy, xx = np.mgrid[y0:y1, x0:x1]
        spot = np.exp(-((xx - gx) ** 2 + ((yy - gy) * 1.6) ** 2) / (2 * sigma * sigma))
        patch = out[y0:y1, x0:x1]
        patch += strength * spot[..., None] * (255.0 - patch)
    if noise:  # (added in place: the picture is in floating point already, and its sums stay 32-bit)
        out += rng.normal(0, noise, out.shape)
    return np.clip(out, 0, 255).astype(np.uint8), [(v, (x, y)) for v, (x, y, _) in zip(values, places)]
