"""Synthetic domino frames with ground truth, for volume testing of the tile reader.

Five real photos are far too few to tune a reader on; this generator draws double-six
tiles on a table and photographs them with a random camera. Everything is drawn with
numpy/cv2 from a seeded ``numpy.random.Generator``, so a seed gives the same frame on
every machine.

What varies: tile colour (white, ivory, cream, black with light pips), pip colour
(black, navy, red, green, blue, one colour per number), pip size and spacing, the
divider (length, thickness, brass centre pin), rounded corners, tile size, rotation,
the table (wood, felt, plain, cluttered with dots, strokes and letters), lighting
(gradients, colour cast), camera perspective, blur, sensor noise and JPEG.

Two kinds of scene: ``"scatter"`` (tiles apart, as in a hand laid open) and ``"line"``
(a line of play with matching ends, touching tiles, doubles crosswise, and a spinner
with arms), optionally with a few loose tiles beside it.

>>> scene = random_scene(np.random.default_rng(1), kind="line")
>>> scene.image.dtype, scene.image.ndim
(dtype('uint8'), 3)
>>> all(0 <= a <= 6 and 0 <= b <= 6 for a, b in (t.pips for t in scene.tiles))
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np

Point = tuple[float, float]

# Pip positions on a 3x3 grid (row, column) for each value; 2, 3 and 6 come in two
# mirror/rotated variants on real sets, chosen at random when drawing.
PIP_GRID: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}

# BGR colours of coloured-pip sets, one per number (0 unused).
NUMBER_COLOURS = ((0, 0, 0), (200, 120, 20), (40, 140, 40), (40, 40, 200), (30, 30, 30), (130, 40, 130), (20, 100, 200))


@dataclass(frozen=True)
class SynthTile:
    """Ground truth of one drawn tile: ``pips[0]`` is the half at ``half_centers[0]``."""

    pips: tuple[int, int]
    center: Point
    half_centers: tuple[Point, Point]
    corners: tuple[Point, Point, Point, Point]
    width: float  # short side in pixels (about; perspective makes it vary)


@dataclass(frozen=True)
class SynthScene:
    """A frame, its tiles and, for a line of play, the layout truth."""

    image: np.ndarray
    tiles: tuple[SynthTile, ...]
    chain: tuple[int, ...] = ()  # indices of the tiles in the line of play (any order)
    spinner: int | None = None
    open_ends: tuple[int, ...] = ()  # values of the open ends, ``two_sides`` convention
    style: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class _Style:
    body: tuple[int, int, int]
    pip_colour: tuple[int, int, int]
    per_number: bool
    divider_colour: tuple[int, int, int]
    pip_r: float  # pip radius / half side
    pip_pitch: float  # grid offset from the half centre / half side
    div_len: float  # divider length / tile width
    div_thick: float  # divider thickness / tile width
    pin: bool
    corner_r: float
    ring: bool


def _random_style(rng: np.random.Generator) -> _Style:
    kind = rng.choice(["white", "ivory", "cream", "black"], p=[0.3, 0.35, 0.15, 0.2])
    if kind == "white":
        body = tuple(int(v) for v in rng.integers(228, 252, 3))
    elif kind == "ivory":
        body = (int(rng.integers(170, 205)), int(rng.integers(215, 238)), int(rng.integers(232, 250)))
    elif kind == "cream":
        body = (int(rng.integers(150, 185)), int(rng.integers(200, 225)), int(rng.integers(220, 245)))
    else:
        body = tuple(int(v) for v in rng.integers(15, 45, 3))
    per_number = bool(rng.random() < 0.2)
    if kind == "black":
        choices = [(240, 240, 240), (230, 235, 245), (60, 200, 240), (240, 200, 120)]
    else:
        choices = [(15, 15, 15), (30, 30, 30), (90, 40, 20), (40, 40, 190), (40, 120, 40), (200, 150, 80), (110, 60, 20)]
    pip = choices[int(rng.integers(len(choices)))]
    divider = pip if rng.random() < 0.7 else ((20, 20, 20) if kind != "black" else (220, 220, 220))
    return _Style(
        body=body,  # type: ignore[arg-type]
        pip_colour=pip,
        per_number=per_number and kind != "black",
        divider_colour=divider,
        pip_r=float(rng.uniform(0.075, 0.1)),
        pip_pitch=float(rng.uniform(0.25, 0.3)),
        div_len=float(rng.uniform(0.68, 0.88)),
        div_thick=float(rng.uniform(0.03, 0.065)),
        pin=bool(rng.random() < 0.2),
        corner_r=float(rng.uniform(0.06, 0.16)),
        ring=bool(rng.random() < 0.3),
    )


def _draw_tile(style: _Style, pips: tuple[int, int], half: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A horizontal tile ``2*half`` x ``half`` (pips[0] on the left) and its alpha mask."""
    w, h = 2 * half, half
    img = np.zeros((h, w, 3), np.uint8)
    mask = np.zeros((h, w), np.uint8)
    r = max(1, int(style.corner_r * h))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    img[:] = style.body
    # A soft bevel: the rim is a little darker (or lighter on black tiles).
    dist = cv2.distanceTransform((mask > 128).astype(np.uint8), cv2.DIST_L2, 3)
    rim = np.clip(dist / max(2.0, 0.08 * h), 0, 1)
    if style.body[0] > 100:
        img = np.clip(img.astype(np.float32) * (0.82 + 0.18 * rim)[..., None], 0, 255).astype(np.uint8)
    else:  # a black tile's bevel catches the light: its outline shows even on a dark table
        img = np.clip(img.astype(np.float32) + (55 * (1 - rim))[..., None], 0, 255).astype(np.uint8)
    for k, value in enumerate(pips):
        colour = NUMBER_COLOURS[value] if style.per_number else style.pip_colour
        grid = PIP_GRID[value]
        if value in (2, 3, 6) and rng.random() < 0.5:
            grid = tuple((c, 2 - rr) if value != 6 else (c, rr) for rr, c in grid)
        cx0, cy0 = half * k + half / 2, h / 2
        for rr, c in grid:
            px = cx0 + (c - 1) * style.pip_pitch * half
            py = cy0 + (rr - 1) * style.pip_pitch * half
            rad = style.pip_r * half
            cv2.circle(img, (int(round(px * 16)), int(round(py * 16))), int(round(rad * 16)), colour, -1, cv2.LINE_AA, 4)
            if style.ring:
                light = tuple(int(min(255, v + 70)) for v in colour)
                cv2.circle(img, (int(round((px - rad * 0.25) * 16)), int(round((py - rad * 0.25) * 16))),
                           int(round(rad * 0.35 * 16)), light, -1, cv2.LINE_AA, 4)
    dl = style.div_len * h / 2
    th = max(1, int(round(style.div_thick * h)))
    cv2.line(img, (half, int(h / 2 - dl)), (half, int(h / 2 + dl)), style.divider_colour, th, cv2.LINE_AA)
    if style.pin:
        cv2.circle(img, (half, h // 2), max(2, int(0.07 * h)), (60, 160, 200), -1, cv2.LINE_AA)
    return img, mask


def _background(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, str]:
    kind = str(rng.choice(["wood", "felt", "plain", "cluttered"], p=[0.35, 0.3, 0.15, 0.2]))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "wood":
        base = np.array([rng.uniform(40, 110), rng.uniform(80, 150), rng.uniform(120, 200)], np.float32)
        a = rng.uniform(0, math.pi)
        u = xx * math.cos(a) + yy * math.sin(a)
        v = -xx * math.sin(a) + yy * math.cos(a)
        noise = cv2.resize(rng.normal(0, 1, (h // 16 + 2, w // 16 + 2)).astype(np.float32), (w, h))
        grain = np.sin(v / rng.uniform(3, 9) + 3 * noise + 0.01 * u) * 0.5 + 0.5
        field_ = 0.75 + 0.3 * grain[..., None]
        img = base * field_
    elif kind == "felt":
        base = np.array(rng.choice([(40, 110, 30), (90, 60, 20), (40, 40, 140), (60, 60, 60), (120, 110, 100)]), np.float32)
        base = base * rng.uniform(0.6, 1.3)
        img = np.broadcast_to(base, (h, w, 3)).astype(np.float32) + rng.normal(0, 6, (h, w, 1)).astype(np.float32)
    elif kind == "plain":
        g = rng.uniform(60, 230)
        img = np.full((h, w, 3), g, np.float32) + rng.normal(0, 3, (h, w, 3)).astype(np.float32)
    else:
        img = np.full((h, w, 3), rng.uniform(80, 200), np.float32)
        canvas = img.astype(np.uint8).copy()
        for _ in range(int(rng.integers(20, 60))):
            colour = tuple(int(c) for c in rng.integers(0, 256, 3))
            x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
            shape = rng.integers(0, 4)
            if shape == 0:
                cv2.circle(canvas, (x, y), int(rng.integers(2, 30)), colour, -1, cv2.LINE_AA)
            elif shape == 1:
                cv2.rectangle(canvas, (x, y), (x + int(rng.integers(5, 120)), y + int(rng.integers(5, 80))), colour, -1)
            elif shape == 2:
                cv2.line(canvas, (x, y), (x + int(rng.integers(-100, 100)), y + int(rng.integers(-100, 100))),
                         colour, int(rng.integers(1, 6)), cv2.LINE_AA)
            else:
                cv2.putText(canvas, "DOMINO"[: int(rng.integers(1, 7))], (x, y), cv2.FONT_HERSHEY_SIMPLEX,
                            float(rng.uniform(0.5, 2.0)), colour, int(rng.integers(1, 4)), cv2.LINE_AA)
        img = canvas.astype(np.float32)
    return np.clip(img, 0, 255).astype(np.float32), kind


def _tile_corners(cx: float, cy: float, angle: float, half: float) -> np.ndarray:
    ca, sa = math.cos(angle), math.sin(angle)
    ux, uy = ca * half, sa * half  # half the length
    vx, vy = -sa * half / 2, ca * half / 2  # half the width
    return np.array([[cx - ux - vx, cy - uy - vy], [cx + ux - vx, cy + uy - vy],
                     [cx + ux + vx, cy + uy + vy], [cx - ux + vx, cy - uy + vy]], np.float32)


@dataclass
class _Placed:
    pips: tuple[int, int]
    cx: float
    cy: float
    angle: float  # radians, direction from pips[0] half to pips[1] half


def _line_layout(rng: np.random.Generator, half: float) -> tuple[list[_Placed], int | None, list[int]]:
    """A line of play in table units: tiles, the spinner index and the open-end values."""
    gap = half * 0.04  # tiles laid by hand touch, with a seam between them
    used: set[tuple[int, int]] = set()

    def take(a: int, b: int) -> bool:
        key = (min(a, b), max(a, b))
        if key in used:
            return False
        used.add(key)
        return True

    v = int(rng.integers(0, 7))
    placed: list[_Placed] = []
    spinner: int | None = None
    if rng.random() < 0.6:  # the spinner, crosswise to the main line, with arms
        take(v, v)
        placed.append(_Placed((v, v), 0.0, 0.0, math.pi / 2))
        spinner = 0
        arms = [(1, 0, v, half / 2), (-1, 0, v, half / 2)]
        lengths = [int(rng.integers(0, 5)), int(rng.integers(0, 4))]
        if lengths[0] and lengths[1] and rng.random() < 0.7:
            arms += [(0, -1, v, half), (0, 1, v, half)]
            lengths += [int(rng.integers(0, 3)), int(rng.integers(0, 3))]
    else:  # a line with no spinner in sight: starts on a non-double
        b = int((v + rng.integers(1, 7)) % 7)
        take(v, b)
        placed.append(_Placed((v, b), 0.0, 0.0, 0.0))
        arms = [(1, 0, b, half), (-1, 0, v, half)]
        lengths = [int(rng.integers(0, 5)), int(rng.integers(0, 4))]
    ends: list[int] = []
    for (dx, dy, value, dist), count in zip(arms, lengths):
        along = math.atan2(dy, dx)
        pos = dist + gap
        last_double = False
        n = 0
        for _ in range(count):
            nxt = value if (spinner is not None and rng.random() < 0.25) else int(rng.integers(0, 7))
            if not take(value, nxt):
                free = [x for x in range(7) if (min(value, x), max(value, x)) not in used and x != value]
                if not free:
                    break
                nxt = free[int(rng.integers(len(free)))]
                take(value, nxt)
            if nxt == value:  # a double, crosswise to its arm
                c = pos + half / 2
                placed.append(_Placed((value, value), dx * c, dy * c, along + math.pi / 2))
                pos += half + gap
                last_double = True
            else:
                c = pos + half
                placed.append(_Placed((value, nxt), dx * c, dy * c, along))
                pos += 2 * half + gap
                last_double = False
            value = nxt
            n += 1
        if n:
            ends.append(2 * value if last_double else value)
        elif spinner is None:
            ends.append(value)  # a free half of the first tile
    if spinner is not None and sum(1 for c in lengths if c) <= 1:
        ends.append(2 * v)  # a spinner counts in full until closed on two sides
    return placed, spinner, ends


def random_scene(
    rng: np.random.Generator,
    kind: Literal["scatter", "line"] = "scatter",
    size: tuple[int, int] = (640, 480),
) -> SynthScene:
    """Draw one frame of ``size`` (width, height) with its ground truth."""
    w, h = size
    style = _random_style(rng)
    half = float(rng.uniform(26, 48)) * min(w, h) / 480  # half-tile side on the table plane
    bg, bg_kind = _background(rng, h, w)
    canvas = bg.copy()
    shadow = np.zeros((h, w), np.float32)
    occupied = np.zeros((h, w), np.uint8)
    placed: list[_Placed] = []
    spinner: int | None = None
    ends: list[int] = []
    chain: tuple[int, ...] = ()
    # The camera's perspective: the frame sees a quadrilateral inside the table plane
    # (corners pushed outward), so every pixel of the frame shows the table, never a
    # reflected border; tiles must come out whole inside the frame.
    j = float(rng.uniform(0, 0.07))
    push = rng.uniform(0, 2 * j, (4, 2)).astype(np.float32) * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)

    def camera(k: float) -> np.ndarray:
        return cv2.getPerspectiveTransform(src, src + k * push * np.array([w, h], np.float32))

    hom = camera(1.0)

    def inside(poly: np.ndarray, hom: np.ndarray) -> bool:
        q = cv2.perspectiveTransform(poly[None].astype(np.float32), hom)[0]
        return bool(q[:, 0].min() >= 3 and q[:, 1].min() >= 3 and q[:, 0].max() <= w - 4 and q[:, 1].max() <= h - 4)
    if kind == "line":
        # A camera is set up so that tiles stay readable: redraw lines that would have
        # to shrink the tiles by more than a fifth to fit the frame.
        for _attempt in range(20):
            layout, spinner, ends = _line_layout(rng, half)
            pts = np.array([c for p in layout for c in _tile_corners(p.cx, p.cy, p.angle, half)])
            rot = float(rng.uniform(-math.pi, math.pi)) if rng.random() < 0.6 else float(rng.normal(0, 0.05))
            ca, sa = math.cos(rot), math.sin(rot)
            rpts = pts @ np.array([[ca, sa], [-sa, ca]], np.float32)
            span = rpts.max(0) - rpts.min(0)
            fit = min(1.0, 0.92 * w / span[0], 0.92 * h / span[1])
            if fit * half >= 0.8 * 26 * min(w, h) / 480:
                break
        if fit < 1.0:
            half *= fit
            layout, spinner, ends = _rescale(layout, fit), spinner, ends
            rpts = rpts * fit
            span = span * fit
        ox = rng.uniform(-rpts.min(0)[0] + 0.04 * w, w * 0.96 - rpts.max(0)[0]) if span[0] < 0.92 * w else w / 2 - (rpts.max(0)[0] + rpts.min(0)[0]) / 2
        oy = rng.uniform(-rpts.min(0)[1] + 0.04 * h, h * 0.96 - rpts.max(0)[1]) if span[1] < 0.92 * h else h / 2 - (rpts.max(0)[1] + rpts.min(0)[1]) / 2
        for p in layout:
            x = p.cx * ca - p.cy * sa + ox
            y = p.cx * sa + p.cy * ca + oy
            # A hand-laid line is never perfect: jitter each tile a little.
            placed.append(_Placed(p.pips, x + rng.normal(0, 0.01 * half), y + rng.normal(0, 0.01 * half),
                                  p.angle + rot + rng.normal(0, 0.008)))
        chain = tuple(range(len(placed)))
        for k in (1.0, 0.5, 0.25, 0.0):  # a milder perspective when the line would leave the frame
            hom = camera(k)
            if all(inside(_tile_corners(p.cx, p.cy, p.angle, half * 1.05), hom) for p in placed):
                break
        for p in placed:
            cv2.fillConvexPoly(occupied, _tile_corners(p.cx, p.cy, p.angle, half * 1.35).astype(np.int32), 255)
        loose = int(rng.integers(0, 3))
    else:
        loose = int(rng.integers(1, 9))
    used = {tuple(sorted(p.pips)) for p in placed}
    for _ in range(loose):
        for _attempt in range(30):
            a, b = int(rng.integers(0, 7)), int(rng.integers(0, 7))
            if tuple(sorted((a, b))) in used:
                continue
            ang = float(rng.uniform(-math.pi, math.pi))
            cx, cy = rng.uniform(half * 1.2, w - half * 1.2), rng.uniform(half * 1.2, h - half * 1.2)
            poly = _tile_corners(cx, cy, ang, half * 1.3)
            if not inside(_tile_corners(cx, cy, ang, half * 1.05), hom):
                continue
            test = np.zeros_like(occupied)
            cv2.fillConvexPoly(test, poly.astype(np.int32), 255)
            if (test & occupied).any():
                continue
            occupied |= test
            used.add((min(a, b), max(a, b)))
            placed.append(_Placed((a, b), cx, cy, ang))
            break
    # Draw the tiles (supersampled), their contact shadows, then the camera.
    ss = 4
    for p in placed:
        tile, mask = _draw_tile(style, p.pips, int(round(half * ss)), rng)
        th, tw = mask.shape
        ca, sa = math.cos(p.angle), math.sin(p.angle)
        m = np.array([[ca / ss, -sa / ss, 0.0], [sa / ss, ca / ss, 0.0]], np.float32)
        m[:, 2] = np.array([p.cx, p.cy]) - m[:, :2] @ np.array([tw / 2, th / 2])
        warped = cv2.warpAffine(tile, m, (w, h), flags=cv2.INTER_AREA)
        alpha = cv2.warpAffine(mask, m, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        shadow = np.maximum(shadow, alpha)
        canvas = canvas * (1 - alpha[..., None]) + warped.astype(np.float32) * alpha[..., None]
    # Soft cast shadow around the tiles, offset away from the light.
    sdx, sdy = rng.normal(0, 0.08 * half, 2)
    sh = cv2.warpAffine(shadow, np.array([[1, 0, sdx], [0, 1, sdy]], np.float32), (w, h))
    sh = cv2.GaussianBlur(sh, (0, 0), max(1.0, 0.12 * half))
    canvas = canvas * (1 - 0.45 * sh * (1 - shadow))[..., None]
    # Camera: perspective, lighting, colour cast, blur, noise, JPEG.
    img = cv2.warpPerspective(canvas, hom, (w, h), borderMode=cv2.BORDER_REFLECT)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.normal(0, 0.35, 2)
    light = rng.uniform(0.6, 1.15) * (1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5))
    if rng.random() < 0.4:
        lx, ly = rng.uniform(0, w), rng.uniform(0, h)
        light = light * (1 + 0.3 * np.exp(-((xx - lx) ** 2 + (yy - ly) ** 2) / (2 * (0.3 * w) ** 2)))
    cast = rng.uniform(0.88, 1.12, 3).astype(np.float32)
    img = img * light[..., None] * cast
    sigma = float(rng.uniform(0, min(1.1, 0.045 * half)))  # a focused camera: pips stay apart
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    img = img + rng.normal(0, rng.uniform(1, 6), img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 96))])
    out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    tiles = []
    for p in placed:
        ca, sa = math.cos(p.angle), math.sin(p.angle)
        pts = np.array([[p.cx, p.cy], [p.cx - ca * half / 2, p.cy - sa * half / 2], [p.cx + ca * half / 2, p.cy + sa * half / 2]], np.float32)
        corners = _tile_corners(p.cx, p.cy, p.angle, half)
        allp = cv2.perspectiveTransform(np.concatenate([pts, corners])[None], hom)[0]
        width = float(np.linalg.norm(allp[3 + 0] - allp[3 + 3]))
        tiles.append(SynthTile(
            pips=p.pips,
            center=(float(allp[0, 0]), float(allp[0, 1])),
            half_centers=((float(allp[1, 0]), float(allp[1, 1])), (float(allp[2, 0]), float(allp[2, 1]))),
            corners=tuple((float(x), float(y)) for x, y in allp[3:]),  # type: ignore[arg-type]
            width=width,
        ))
    return SynthScene(out, tuple(tiles), chain, spinner, tuple(ends),
                      {"background": bg_kind, "body": style.body, "pips": style.pip_colour, "half": half})


def _rescale(layout: list[_Placed], k: float) -> list[_Placed]:
    return [_Placed(p.pips, p.cx * k, p.cy * k, p.angle) for p in layout]
