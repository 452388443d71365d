"""Read domino tiles and the line of play in a still image (pure: array in, readings out).

How it works (classical, numpy + cv2 only):

1. **Dividers first.** Every tile has a bar across its middle. Thin straight strokes
   that stand out from their surroundings are found in two polarities (dark marks on
   light tiles in the per-pixel minimum channel, light marks on black tiles in the
   maximum channel), so coloured pips and dividers are found as well as black ones;
   where no tile was read, a second look at the dark marks, against a mean weighted
   towards the pixel, finds faint bars on small tiles on a darker table; a last pass,
   with each colour scaled to the frame's light, finds thin coloured bars on ivory
   tiles missed so far. Starting from the divider rather than the tile
   outline is what keeps tiles that touch in a line of play apart.
2. **Tile from its divider.** The divider is centred on the tile and across it; the
   tile's sides are found by walking along the divider's line past its ends until the
   tile colour stops. A divider must end *inside* the tile: the dark seam between two
   touching tiles runs edge to edge and is refused.
3. **Pips in a rectified tile.** The tile is warped to a canonical 2:1 patch; marks are
   what differs from the tile's own colour (any pip colour, any tile colour); round
   blobs of the expected size in each half are the pips. The pips of a half must form
   a domino pattern on a 3x3 grid (``PATTERNS``); a half that does not, even at a few
   other tile sizes, is read as ``None`` ("unsure") rather than guessed.
4. **Overlaps.** Tiles far from the size of the frame's sure tiles are dropped (one
   set per table); readings that overlap are settled for the most halves read (a line
   read by its seams leaves its end halves unread), not best score first.

``diff_layout`` compares the layouts of two frames and proposes the tile newly laid
on the line and the end it touches.

``read_layout`` then joins tiles whose ends touch with matching pips into the line of
play and reads its open ends (see ``Layout``).

>>> read_dominoes(np.zeros((10, 10, 3), np.uint8))
[]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

import cv2
import numpy as np

from .pixels import channel_max, channel_min
from .types import TileReading

# Outline tests: a point shows the edge when outside and inside differ by this much;
# a side when its medians differ beyond _SIDE_NOISE times their noise (at least
# _SIDE_MIN); below _OUTLINE_WEAK of either the candidate is no tile on its own, only
# in a line of play (touching a tile read, halves matching), and below _OUTLINE_FAINT
# no tile at all.
_OUTLINE_MIN = 18.0
_SIDE_MIN = 9.0
_SIDE_NOISE = 3.0
_OUTLINE_WEAK = 0.2
_OUTLINE_FAINT = 0.1
_BAR_GROW = 1.8
_WORTH_FLOOR = 0.5  # settling overlaps: ties go to the score above this
_SETTLE_EXACT = 24  # overlapping readings settled exactly up to this many
# A weak reading is the table, not a tile of the set, when its colour's level is below
# 0.8x or above 2x the sure tiles' (and 25 levels off) and its long sides show on
# under 75 % of their points.
_SET_DARKER, _SET_LIGHTER, _SET_LEVELS, _SET_SIDES = 0.8, 2.0, 25.0, 0.75
# A reading whose outline is too faint to stand alone (a tile with few pips, a blank
# double) but shows on this share at least is kept when it lies in a line of play.
_LINE_OUTLINE = 0.2
P = 40  # pixels per tile width in the rectified patch
_BAND = int(0.16 * P)  # the divider's band, part of neither half


@dataclass(frozen=True)
class _Candidate:
    center: np.ndarray  # divider centre (x, y)
    along: np.ndarray  # unit vector along the divider
    length: float
    thickness: float


def _median(a: Any, axis: int | None = None) -> Any:
    """``np.median`` (whole array, or ``axis=0``) for the small arrays read here, without its overhead.

    >>> _median(np.array([3, 1, 2, 10], np.uint8)), _median(np.array([[1, 5], [3, 7], [2, 6]]), axis=0).tolist()
    (2.5, [2.0, 6.0])
    """
    x = np.asarray(a)
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    x = np.sort(x.ravel() if axis is None else x, axis=0)
    n = x.shape[0]
    if n == 0:
        return math.nan
    mid = (x[(n - 1) // 2] + x[n // 2]) / 2
    return float(mid) if axis is None else mid


def _percentile(a: np.ndarray, q: float) -> float:
    """``np.percentile`` (linear) of a whole array, by a partial sort.

    >>> _percentile(np.arange(11.0), 50), _percentile(np.arange(11.0), 99.5)
    (5.0, 9.95)
    """
    x = a.ravel()
    pos = q / 100 * (x.size - 1)
    i = int(pos)
    j = min(i + 1, x.size - 1)
    part = np.partition(x, (i, j))
    return float(part[i] + (part[j] - part[i]) * (pos - i))


def _odd(n: float) -> int:
    k = int(n)
    return k if k % 2 else k + 1


def _dividers(chan: np.ndarray, block: int, strengths: tuple[int, ...] = (14, 40),
              method: int = cv2.ADAPTIVE_THRESH_MEAN_C) -> list[_Candidate]:
    """Thin straight dark strokes in a single-channel image (dark marks on light).

    Thresholded at two strengths: a faint mark needs the low one, while at the high
    one a divider comes apart from pips or a shadow that blur joins to it. Darker than
    the neighbourhood's plain mean (``method``), or its mean weighted towards the pixel
    (``cv2.ADAPTIVE_THRESH_GAUSSIAN_C``): around a tile narrower than the block on a
    darker table the plain mean is mostly table, and a faint bar is no darker than that.
    """
    out: list[_Candidate] = []
    # Only thin dark structures: what a closing fills (a bar, a pip, a seam). A table
    # darker than the tile is not one, so a bar that ends close to the tile's edge does
    # not run into the table beyond it.
    thin = cv2.morphologyEx(chan, cv2.MORPH_BLACKHAT, cv2.getStructuringElement(cv2.MORPH_RECT, (block, block)))
    for c in strengths:
        for cand in _strokes(chan, block, c, thin, method):
            if out:
                cen = np.array([o.center for o in out])
                along = np.array([o.along for o in out])
                near = np.hypot(*(cen - cand.center).T) <= 3
                if (near & (np.abs(along @ cand.along) >= 0.98)).any():
                    continue
            out.append(cand)
    return out


def _strokes(chan: np.ndarray, block: int, c: int, thin: np.ndarray, method: int) -> list[_Candidate]:
    mask = cv2.adaptiveThreshold(chan, 255, method, cv2.THRESH_BINARY_INV, block, c)
    mask = cv2.bitwise_and(mask, cv2.threshold(thin, c // 2, 255, cv2.THRESH_BINARY)[1])
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = chan.shape
    out: list[_Candidate] = []
    pieces: list[_Candidate] = []
    max_len = 0.45 * min(h, w)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        extent = max(bw, bh)
        if area < 5 or extent < 5 or extent > max_len * 1.2:
            continue
        if area > 0.3 * extent * extent:
            continue
        ys, xs = np.nonzero(labels[y : y + bh, x : x + bw] == i)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        (cx, cy), (rw, rh), ang = cv2.minAreaRect(pts)
        length, thick = max(rw, rh), max(1.0, min(rw, rh))
        if length > max_len:
            continue
        # Direction from the points' principal axis (robust to the pin bump).
        mean = pts.mean(0)
        off = pts - mean
        sxx, syy, sxy = (off * off).sum(0).tolist() + [float((off[:, 0] * off[:, 1]).sum())]
        theta = 0.5 * math.atan2(2 * sxy, sxx - syy)  # the 2x2 covariance's main axis
        d = np.array([math.cos(theta), math.sin(theta)], np.float32)
        proj = off @ d
        lo, hi = float(proj.min()), float(proj.max())
        centre = mean + d * (lo + hi) / 2
        # The bar's thickness is its usual width along its length: a brass pin at the
        # centre widens it in one place only.
        thick = min(thick, max(1.0, float(_median(np.bincount((proj - lo).astype(int))))))
        if area < 0.45 * length * thick:
            continue
        cand = _Candidate(centre.astype(np.float32), d.astype(np.float32), hi - lo + 1, thick)
        if length >= 12 and length >= 4.5 * thick and thick <= 0.2 * length:
            out.append(cand)
        elif length >= 2.5 * thick:
            pieces.append(cand)
    # A brass pin at the centre can cut a divider in two: join collinear pieces.
    pieces += out
    if len(pieces) < 2:
        return out
    cen = np.array([q.center for q in pieces], np.float64)
    dirs = np.array([q.along for q in pieces], np.float64)
    lens = np.array([q.length for q in pieces], np.float64)
    thicks = np.array([q.thickness for q in pieces], np.float64)
    gap = cen[None] - cen[:, None]  # [i, j]: from piece i to piece j
    dist = np.linalg.norm(gap, axis=2)
    span = dist + (lens[:, None] + lens[None]) / 2
    ratio = lens[:, None] / lens[None]
    ok = (np.abs(dirs @ dirs.T) >= 0.96) & (dist > 1e-3)
    ok &= np.abs(np.einsum("ijk,ik->ij", gap, dirs)) >= 0.96 * dist  # on one line
    ok &= span - lens[:, None] - lens[None] <= 0.25 * span
    ok &= (span >= 12) & (span <= max_len) & (ratio >= 0.5) & (ratio <= 2)
    ok &= span >= 4.5 * (thicks[:, None] + thicks[None]) / 2
    for i, j in zip(*np.nonzero(np.triu(ok, 1))):
        u = gap[i, j] / dist[i, j]
        mid = (cen[i] + cen[j]) / 2 + u * (lens[j] - lens[i]) / 4
        out.append(_Candidate(mid.astype(np.float32), u.astype(np.float32), float(span[i, j]),
                              float(thicks[i] + thicks[j]) / 2))
    return out


def _warp(image: np.ndarray, center: np.ndarray, ax: np.ndarray, ay: np.ndarray, scale: float,
          size: tuple[int, int], scale_y: float | None = None) -> np.ndarray:
    """Rectified patch: patch x runs along ``ax``, y along ``ay``; ``scale`` image px per patch px."""
    pw, ph = size
    sy = scale if scale_y is None else scale_y
    m = np.array([[ax[0] * scale, ay[0] * sy, 0], [ax[1] * scale, ay[1] * sy, 0]], np.float32)
    m[:, 2] = center - m[:, :2] @ np.array([pw / 2, ph / 2], np.float32)
    return cv2.warpAffine(image, m, (pw, ph), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def _first_exceed(profile: np.ndarray, thr: float) -> int:
    over = profile > thr
    run = over[:-1] & over[1:]
    idx = np.flatnonzero(run)
    return int(idx[0]) if idx.size else len(profile)


@dataclass
class _Tile:
    pips: tuple[int | None, int | None]
    center: np.ndarray
    axis: np.ndarray  # unit vector from half 0 to half 1
    width: float
    score: float
    confidence: float
    length: float = 0.0
    outline: float = 1.0
    long_sides: float = 1.0  # outline share along the two long sides
    body: tuple[float, float, float] = (255.0, 255.0, 255.0)  # the tile's colour beside the divider
    line_only: bool = False  # outline too faint alone: kept only touching a read tile, halves matching

    @property
    def clear(self) -> bool:
        """Both halves read, and surely."""
        return self.confidence >= 1.0 and None not in self.pips

    @property
    def pip_total(self) -> int:
        """The pips read on both halves (an unsure half counts none)."""
        return sum(v or 0 for v in self.pips)

    def polygon(self, grow: float = 1.0) -> np.ndarray:
        a = self.axis * (self.length or 2 * self.width) * grow / 2
        b = np.array([-self.axis[1], self.axis[0]], np.float32) * self.width * grow / 2
        c = self.center
        return np.array([c - a - b, c + a - b, c + a + b, c - a + b], np.float32)


def _blobs(strokes: np.ndarray, diff: np.ndarray) -> tuple[list[tuple[float, float, float, float]], float]:
    """Round blobs where pips can be in one rectified half (P x P): (x, y, area, contrast), clutter."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    s = strokes.shape[0]
    blobs = []
    clutter = 0.0
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        cx, cy = cents[i]
        if area < 4:
            continue
        r_eq = math.sqrt(area / math.pi)
        round_ = area / max(1, bw * bh)
        # Pips sit within 0.4 of the half's centre; the tile's corners and rim do not.
        inside = abs(cx - s / 2) < 0.4 * s and abs(cy - s / 2) < 0.4 * s
        if inside and 0.04 * s <= r_eq <= 0.17 * s and round_ > 0.5 and max(bw, bh) < 2.3 * min(bw, bh):
            contrast = float(diff[labels == i].mean())
            blobs.append((float(cx), float(cy), float(area), contrast))
        elif inside:
            edge = (min(y, x) <= 0.15 * s or max(y + bh, x + bw) >= 0.85 * s) and max(bw, bh) >= 3 * min(bw, bh)
            if not edge:  # a thin line along the border is the tile's own edge, not clutter
                clutter += area
    return blobs, clutter


def _symmetric(pips: list[tuple[float, float, float, float]], s: int) -> bool:
    """Every domino pattern is symmetric about the half's centre."""
    if not pips:
        return True
    pts = np.array([(p[0], p[1]) for p in pips])
    c = pts.mean(axis=0)
    if np.abs(c - s / 2).max() > 0.12 * s:
        return False
    mirrored = 2 * c - pts
    d = np.linalg.norm(mirrored[:, None] - pts[None], axis=2).min(axis=1)
    return bool(d.max() < 0.1 * s)


# The pip patterns of a double-six half on its 3x3 grid, (column, row) offsets in
# units of the grid pitch; 2, 3 and 6 come turned either way on real sets.
_DIAG = frozenset({(-1, -1), (1, 1)})
_ANTI = frozenset({(-1, 1), (1, -1)})
_CORNERS = _DIAG | _ANTI
PATTERNS: dict[int, tuple[frozenset[tuple[int, int]], ...]] = {
    0: (frozenset(),),
    1: (frozenset({(0, 0)}),),
    2: (_DIAG, _ANTI),
    3: (_DIAG | {(0, 0)}, _ANTI | {(0, 0)}),
    4: (_CORNERS,),
    5: (_CORNERS | {(0, 0)},),
    6: (_CORNERS | {(-1, 0), (1, 0)}, _CORNERS | {(0, -1), (0, 1)}),
}


def _grid_value(pips: list[tuple[float, float, float, float]], s: int) -> tuple[int | None, float | None]:
    """The value of a half whose pips sit on a domino pattern, else None; and the grid pitch.

    The pattern's centre is the pips' mean (every pattern is symmetric about it), the
    pitch the median offset of the outer pips; each pip must lie near its grid point
    and the points must form one of ``PATTERNS``.

    >>> _grid_value([(10, 10, 9, 1), (30, 30, 9, 1)], 40)
    (2, 10.0)
    >>> _grid_value([(10, 10, 9, 1), (30, 10, 9, 1)], 40)[0] is None
    True
    """
    n = len(pips)
    if n == 0:
        return 0, None
    pts = np.array([(p[0], p[1]) for p in pips], np.float64)
    c = pts.mean(axis=0)
    if np.abs(c - s / 2).max() > 0.15 * s:
        return None, None
    off = pts - c
    if n == 1:
        return 1, None
    pitch = float(_median(np.abs(off).max(axis=1)))
    if not 0.15 * s <= pitch <= 0.38 * s:
        return None, pitch
    cells = np.rint(off / pitch)
    if np.abs(cells).max() > 1 or np.linalg.norm(off - cells * pitch, axis=1).max() > 0.3 * pitch:
        return None, pitch
    got = frozenset((int(x), int(y)) for x, y in cells)
    ok = len(got) == n and any(got == q or got == frozenset((y, x) for x, y in q) for q in PATTERNS.get(n, ()))
    return (n if ok else None), pitch


def _tile_length(image: np.ndarray, center: np.ndarray, axis: np.ndarray, perp: np.ndarray, width: float,
                 body: np.ndarray, thr: float) -> float:
    """The tile's length: walk along the margin rows (no pips there) to both ends."""
    big = _warp(image, center, axis, perp, width / P, (3 * P, P)).astype(np.float32)
    dist = np.linalg.norm(big[int(0.15 * P) : int(0.85 * P)] - body, axis=2)
    gx = np.zeros_like(dist)
    gx[:, 1:-1] = np.abs(dist[:, 2:] - dist[:, :-2]) / 2
    edge = (gx > max(8.0, thr / 3)).astype(np.uint8)
    # An end is a straight edge across the whole tile; a column of pips only crosses some rows.
    edge = cv2.dilate(edge, np.ones((1, 5), np.uint8))
    frac = edge.mean(axis=0)
    bodyfrac = (dist < thr).mean(axis=0)
    cx = int(1.5 * P)
    ends = []
    for sign in (-1, 1):
        start, stop = cx + sign * int(0.55 * P), cx + sign * int(1.2 * P)
        prof = frac[start:stop:sign]
        beyond = bodyfrac[start:stop:sign]
        end = math.inf
        for k in np.flatnonzero((prof[:-1] > 0.85) & (prof[1:] > 0.85)):
            # A column of pips has the tile's colour again just past it; an end does not.
            if k + 8 >= len(beyond) or float(beyond[k + 3 : k + 9].mean()) < 0.5:
                end = 0.55 * P + k + 1
                break
        ends.append(end)
    found = [e for e in ends if math.isfinite(e)]
    if not found:
        half = 0.9 * P
    elif len(found) == 1:
        half = found[0]
    else:
        # Ends that disagree: one is a column of pips, or the far end of a touching
        # tile; a tile is twice as long as wide, so the end nearer that is the tile's.
        half = min(found, key=lambda e: abs(e - P)) if max(found) > 1.15 * min(found) else sum(found) / 2
    return 2 * half * width / P


def _outline_contrast(image: np.ndarray, center: np.ndarray, axis: np.ndarray, perp: np.ndarray,
                      length: float, width: float, body: np.ndarray, thr: float) -> tuple[float, float, float]:
    """Share of the outline where the tile's edge shows: just outside differs from just inside.

    Returns the share of outline points, the share of sides whose medians differ
    beyond their noise, and the share of points along the two long sides (in a line
    of play the ends meet other tiles; the long sides never do, but for a double).

    Compared point by point, so a white tile on a white table still shows by its bevel
    and shadow, while a stroke on a plain table (the same colour all round) does not.
    """
    h, w = image.shape[:2]
    off_out, off_in = max(2.0, 0.08 * width), max(1.5, 0.07 * width)
    t = np.linspace(-0.9, 0.9, 19)[:, None]
    c = center.astype(np.float64)
    long_o = [c + axis * t * length / 2 + perp * sg * (width / 2 + off_out) for sg in (-1, 1)]
    long_i = [c + axis * t * length / 2 + perp * sg * (width / 2 - off_in) for sg in (-1, 1)]
    end_o = [c + perp * t * width / 2 + axis * sg * (length / 2 + off_out) for sg in (-1, 1)]
    end_i = [c + perp * t * width / 2 + axis * sg * (length / 2 - off_in) for sg in (-1, 1)]
    qo, qi = np.concatenate(long_o + end_o), np.concatenate(long_i + end_i)
    ok = (qo[:, 0] >= 0) & (qo[:, 0] < w - 1) & (qo[:, 1] >= 0) & (qo[:, 1] < h - 1)
    if not ok.any():
        return 0.0, 0.0, 0.0
    qo, qi = np.clip(qo, 0, [w - 1, h - 1]).astype(int), np.clip(qi, 0, [w - 1, h - 1]).astype(int)
    so = image[qo[:, 1], qo[:, 0]].astype(np.float32)
    si = image[qi[:, 1], qi[:, 0]].astype(np.float32)
    shows = np.linalg.norm(so - si, axis=1) > max(_OUTLINE_MIN, 0.6 * thr)
    point = float(shows[ok].mean())
    long_ok = ok[:38]
    along = float(shows[:38][long_ok].mean()) if long_ok.any() else 0.0
    # A side whose table and tile differ only a little (a black tile on dark felt)
    # still shows when both are even: compare the side's medians against their noise.
    sides = 0
    for k in range(4):
        sl = slice(19 * k, 19 * (k + 1))
        if ok[sl].sum() < 12:
            continue
        o, i = so[sl][ok[sl]], si[sl][ok[sl]]
        mo, mi = _median(o, axis=0), _median(i, axis=0)
        noise = max(float(_median(np.abs(o - mo).max(axis=1))), float(_median(np.abs(i - mi).max(axis=1))))
        sides += float(np.linalg.norm(mo - mi)) > max(_SIDE_MIN, _SIDE_NOISE * noise)
    return point, sides / 4, along


def _read_candidate(image: np.ndarray, cand: _Candidate) -> _Tile | None:
    u = cand.along
    nrm = np.array([-u[1], u[0]], np.float32)
    w0 = cand.length / 0.8
    # 1. Find the tile's sides along the divider's line.
    scale = w0 / P
    big = _warp(image, cand.center, nrm, u, scale, (int(1.2 * P), int(2.0 * P))).astype(np.float32)
    bh, bw = big.shape[:2]
    cy, cx = bh / 2, bw / 2
    half_len = cand.length / scale / 2
    # The tile's colour beside the divider, clear of it however thick it is.
    t2 = cand.thickness / scale / 2
    strip_cols = [int(round(cx + sgn * (t2 + off))) for sgn in (-1, 1) for off in (0.05 * P, 0.1 * P)]
    body_px = big[int(cy - 0.3 * P) : int(cy + 0.3 * P), strip_cols].reshape(-1, 3)
    body = _median(body_px, axis=0)
    spread = float(_median(np.abs(body_px - body)))
    if spread > 25:
        # On a small tile the strips can catch the pips next to the bar, or its halo:
        # the evenest strip alone then gives the tile's colour.
        strips = big[int(cy - 0.3 * P) : int(cy + 0.3 * P), strip_cols]
        meds = [_median(strips[:, k], axis=0) for k in range(len(strip_cols))]
        mads = [float(_median(np.abs(strips[:, k] - m))) for k, m in enumerate(meds)]
        k = int(np.argmin(mads))
        body, spread = meds[k], mads[k]
        if spread > 25:
            return None
    # A cheap first test: the bar must differ from the tile beside it.
    off_body = np.sqrt(((big - body) ** 2).sum(axis=2))  # each pixel's distance from the tile's colour
    bar = off_body[int(cy - 0.6 * half_len) : int(cy + 0.6 * half_len), int(cx) - 1 : int(cx) + 2]
    potential = max(float(body.max()), 255.0 - float(body.min()))
    if float(_median(bar.max(axis=1))) < 0.8 * max(30.0, 0.2 * potential):
        return None
    thr = max(28.0, 4 * spread)
    # A blurred bar's ends fade: the stroke found can be much shorter than the bar.
    # Follow the bar along its line while it keeps half its contrast and the tile's
    # colour is on both sides of it (not past the tile's side onto the table).
    along_bar = off_body[:, int(cx) - 1 : int(cx) + 2].max(axis=1)
    flank = off_body[:, strip_cols[1::2]].max(axis=1)
    level = float(_median(along_bar[int(cy - 0.6 * half_len) : int(cy + 0.6 * half_len)]))
    bar_on = (along_bar > 0.5 * level) & (flank < 1.5 * thr)
    ends = []
    for sign in (-1, 1):
        k = int(half_len)
        while k < _BAR_GROW * half_len and 0 <= int(cy + sign * (k + 1)) < bh and bar_on[int(cy + sign * (k + 1))]:
            k += 1
        ends.append(k)
    # The stroke found can be a piece off the bar's centre (cut by a pin, faint at
    # one end): centre the tile on the bar as followed.
    grown = (ends[0] + ends[1]) / 2 > 1.05 * half_len
    shift = (ends[1] - ends[0]) / 2 if grown else 0.0
    cy += shift
    half_len = max(half_len, (ends[0] + ends[1]) / 2)
    bar_len = 2 * half_len * scale
    sides = []
    reach = half_len / 0.66  # no divider is shorter than two thirds of the tile's width
    # Walked along lines 3 px wide: the distance of their mean colour from the tile's.
    off_line = np.sqrt(((cv2.blur(big, (3, 1)) - body) ** 2).sum(axis=2))
    for sign in (-1, 1):
        dists = []
        for col in (int(cx - 0.07 * P), int(cx), int(cx + 0.07 * P)):
            start = int(round(cy + sign * (half_len + cand.thickness / scale / 2 + 1)))
            stop = max(0, min(bh - 1, int(cy + sign * reach)))
            prof = off_line[start:stop:sign, col]
            k = _first_exceed(prof, thr)
            dists.append(abs(start - cy) + k if k < len(prof) else math.inf)
        sides.append(float(_median(dists)))
    found = [d for d in sides if math.isfinite(d)]
    if not found:  # both sides touch other tiles: assume a common divider
        left = right = half_len / 0.82
    elif len(found) == 1 or max(found) > 1.3 * min(found):
        left = right = min(found)
    else:
        left, right = sides
    margin = min(left, right) - half_len
    if margin < max(0.6, 0.02 * P):  # a seam between tiles runs edge to edge
        return None
    width = (left + right) * scale
    if not 0.55 < bar_len / width < 0.97:
        return None
    center = cand.center + u * (shift + (right - left) / 2) * scale
    # 2. Rectify the tile: half 0 first in reading order (left to right, top to bottom).
    axis = nrm if -45 < math.degrees(math.atan2(nrm[1], nrm[0])) <= 135 else -nrm
    perp = np.array([-axis[1], axis[0]], np.float32)
    length = _tile_length(image, center, axis, perp, width, body, thr)
    patch = _warp(image, center, axis, perp, length / (2 * P), (2 * P, P), width / P)
    tile_body = _median(patch[::2, ::2].reshape(-1, 3), axis=0)
    if np.linalg.norm(tile_body - body) > 40:
        return None
    # The divider must stand out clearly, and so must the tile from the table. (The
    # median filter of a strip 8 px either side of the divider gives the same values
    # on the divider as that of the whole patch, for a fraction of the time.)
    strip = patch[:, P - 8 : P + 8]
    strip_diff = np.linalg.norm(strip.astype(np.float32) - cv2.medianBlur(strip, 15).astype(np.float32), axis=2)
    div = strip_diff[int(0.3 * P) : int(0.7 * P), 7:9]
    if float(_median(div)) < max(30.0, 0.2 * potential):
        return None
    local = cv2.medianBlur(patch, 15).astype(np.float32)
    diff = np.linalg.norm(patch.astype(np.float32) - local, axis=2)
    outline, side_share, long_sides = _outline_contrast(image, center, axis, perp, length, width, body, thr)
    if max(outline, side_share) < _OUTLINE_FAINT:
        return None
    faint = max(outline, side_share) < _OUTLINE_WEAK  # kept only in a line of play
    # The divider's band grows with its thickness (a thick, blurred bar spills sideways).
    band = int(np.clip(round(2 * cand.thickness * P / width) - 1, _BAND, 0.22 * P))
    values, confs, clutter_total, marks = _read_pips(diff, band)
    base_quality = min(confs) - clutter_total / (P * P)
    if outline < 0.3 and base_quality < 1.0:  # a faint outline needs clear pips at once
        return None
    if base_quality < 1.0 and not _divider_across(diff, band, 0.5):  # checked again below
        return None
    if values == [0, 0] and (outline < _LINE_OUTLINE or grown):  # a blank double needs a clear outline (below)
        return None
    # The outline is not always where it was measured: try a slightly shorter, longer,
    # narrower or wider tile and keep the reading whose pips look most like domino
    # patterns (a short divider makes the tile look narrower than it is).
    if base_quality < 1.0:
        best = (base_quality, values, confs, clutter_total, length, width, diff)
        for fl, fw in _ALTERNATIVES:
            alt = _warp(image, center, axis, perp, length * fl / (2 * P), (2 * P, P), width * fw / P)
            alt_diff = np.linalg.norm(alt.astype(np.float32) - cv2.medianBlur(alt, 15).astype(np.float32), axis=2)
            v2, c2, cl2, _ = _read_pips(alt_diff, band)
            # Another size must not lose the marks of a half: a half that showed two pips
            # never reads blank because they fell outside the patch or into its rim.
            if any(v == 0 and m >= 2 for v, m in zip(v2, marks)):
                continue
            q = min(c2) - cl2 / (P * P) - 0.05
            if q > best[0]:
                best = (q, v2, c2, cl2, length * fl, width * fw, alt_diff)
                if q >= 0.95:
                    break
        _, values, confs, clutter_total, length, width, diff = best
    # The divider itself must be there across the middle of the tile; half the width
    # will do for a tile that stands out all round with both halves clear at once (a
    # thin bar on a small tile is faint beside its pips).
    clear = base_quality >= 1.0 and outline >= 0.6 and sum(v or 0 for v in values) >= 3
    if not _divider_across(diff, band, 0.45 if clear else 0.6):
        return None
    # A blank double has no pips to vouch for it: any stroke on a plain surface looks
    # like one, so it must stand out from the table all round, or (line_only) lie in
    # a line of play, touching a read tile's end with matching halves (step 7).
    line_only = False
    if values[0] == 0 and values[1] == 0:
        if min(confs) < 1.0 or grown or outline < _LINE_OUTLINE:
            return None
        line_only = outline < 0.6
    # A faint outline (a black tile on dark felt) needs pips that vouch for the tile.
    if outline < 0.3 and (min(confs) < 1.0 or None in values or sum(v or 0 for v in values) < 3):
        if min(confs) < 1.0 or None in values or outline < _LINE_OUTLINE:
            return None
        line_only = True
    # An unsure half says the patch may be off; if it is not a tile's shape either (a
    # short patch cuts the outer pips off the other half: a 3 reads 2), neither half
    # is sure.
    if None in values and not 1.6 <= length / width <= 2.5:
        values = [None, None]
        confs = [min(c, 0.4) for c in confs]
    # So has a tile with few pips or an unsure half: it needs a clear outline too.
    if (None in values or sum(v or 0 for v in values) <= 2) and outline < 0.5:
        if None in values or min(confs) < 1.0 or outline < _LINE_OUTLINE:
            return None
        line_only = True
    line_only = line_only or faint
    # A tile that stands out all round beats one made up of parts of its neighbours.
    score = min(confs) - clutter_total / (P * P) + min(margin / P, 0.1) + 0.2 * outline
    return _Tile((values[0], values[1]), center.astype(np.float32), axis.astype(np.float32), width,
                 score, min(confs), length, outline, long_sides, (float(body[0]), float(body[1]), float(body[2])),
                 line_only)


def _divider_across(diff: np.ndarray, band: int, share: float = 0.6) -> bool:
    """Does the divider's mark run across ``share`` of the rectified tile's width?"""
    floor = max(30.0, float(_percentile(diff, 50)) * 4)
    mid = diff[:, P - band // 2 : P + band // 2].max(axis=1)
    return bool((mid > max(0.7 * floor, 0.2 * float(diff.max()))).mean() >= share)


# Other tile sizes to try (length, width factors), nearest first.
_ALTERNATIVES = ((0.9, 1.0), (1.12, 1.0), (1.0, 1.1), (1.12, 1.1), (0.9, 0.92), (1.0, 0.92), (1.25, 1.0),
                 (1.0, 1.22), (1.12, 1.22), (1.25, 1.22), (1.4, 1.0), (1.4, 1.22))


def _read_pips(diff: np.ndarray, band: int = _BAND) -> tuple[list[int | None], list[float], float, list[int]]:
    """Pips of both halves of a rectified tile's mark strength: values, confidences, clutter, and
    the number of pip-like marks found in each half (before the size and colour checks)."""
    rim = int(0.09 * P)  # the bevel and the outline are not marks
    floor = max(30.0, float(_percentile(diff, 50)) * 4)
    strongest = float(_percentile(diff[rim : P - rim, rim : 2 * P - rim], 99.5))
    halves: list[list[tuple[float, float, float, float]]] = []
    clutter_total = 0.0
    for k in range(2):
        x0, x1 = (rim, P - band // 2) if k == 0 else (P + band // 2, 2 * P - rim)
        d = diff[rim : P - rim, x0:x1]
        # Pips are strong marks in their half, and not much weaker than the tile's
        # strongest marks (a blank half has only faint texture and halo).
        thr = max(floor, 0.4 * float(_percentile(d, 99.5)), 0.25 * strongest)
        full = np.zeros((P, P), np.uint8)
        ox = x0 - k * P
        full[rim : P - rim, ox : ox + (x1 - x0)] = d > thr
        # A thick or blurred divider spills past its band as a near full-height line
        # that would join the pips next to it: cut it off.
        near = range(P - band // 2 - 4, P - band // 2) if k == 0 else range(band // 2, band // 2 + 4)
        for col in near:
            if full[:, col].mean() > 0.6:
                full[:, col] = 0
        blobs, clutter = _blobs(full, diff[:, k * P : (k + 1) * P])
        halves.append(blobs)
        clutter_total += clutter
    raw = halves
    # All pips of a tile are one size; each half's pips are one colour.
    areas = [b[2] for h_ in halves for b in h_]
    values: list[int | None] = []
    confs: list[float] = []
    own = [False, False]  # a half whose marks are judged by their own size
    if areas:
        med = float(_median(areas))
        sized = [[b for b in h_ if 0.4 * med <= b[2] <= 2.5 * med] for h_ in halves]
        # Pips of a stronger colour (one colour per number) threshold larger: a half
        # whose marks are all larger than the rest is judged among itself, but only
        # against the other half's grid; if it cannot be, it is unsure, never blank.
        for k in range(2):
            if halves[k] and all(b[2] > 2.5 * med for b in halves[k]):
                mk = float(_median([b[2] for b in halves[k]]))
                sized[k] = [b for b in halves[k] if 0.4 * mk <= b[2] <= 2.5 * mk]
                own[k] = True
        halves = sized
    pitches = []
    for k, blobs in enumerate(halves):
        if own[k] and (len(blobs) < 2 or len(halves[1 - k]) < 2):
            values.append(None)
            confs.append(0.4)
            continue
        if blobs:
            top = max(b[3] for b in blobs)
            blobs = [b for b in blobs if b[3] >= 0.45 * top]
        if len(blobs) > 6:
            values.append(None)
            confs.append(0.0)
            continue
        # Pips must form a domino pattern on a 3x3 grid; if not, the half is unsure.
        value, pitch = _grid_value(blobs, P)
        if own[k] and pitch is None:
            value = None
        values.append(value)
        confs.append(1.0 if value is not None else 0.4)
        if pitch is not None:
            pitches.append(pitch)
    if len(pitches) == 2 and max(pitches) > 1.35 * min(pitches):  # one grid for the whole tile
        confs = [min(c, 0.6) for c in confs]
        values = [None if own[k] else v for k, v in enumerate(values)]
    elif any(own) and len(pitches) < 2:
        values = [None if own[k] else v for k, v in enumerate(values)]
    confs = [min(c, 0.4) if v is None else c for c, v in zip(confs, values)]
    if clutter_total > 0.03 * P * P:
        confs = [min(c, 0.5) for c in confs]
    return values, confs, clutter_total, [len(h_) for h_ in raw]


def _settle(tiles: list[_Tile]) -> list[_Tile]:
    """Keep the readings that explain the frame best when they overlap.

    Readings that overlap are settled together, group by group: the set kept is the
    one that reads the most halves, each counted as much as its reading stands out
    from the table (its outline share, squared) and is sure (confidence). Best score
    first would not do in a line of play: the seam between two touching tiles with a
    half of each beside it reads as a tile (always a double: matching halves touch)
    and can score as well as either real tile, but a line read by its seams leaves
    its two end halves unread, so the real tiles read more. Two readings that hardly
    stand out (parts of one tile read across a column of its pips) do not outweigh
    one clear tile. Groups too large to settle exactly are settled best value first.
    """
    n = len(tiles)
    if n < 2:
        return list(tiles)
    worth = np.array([max(0.0, t.score - _WORTH_FLOOR) for t in tiles])
    value = np.array([sum(v is not None for v in t.pips) / 2 * t.long_sides ** 2 * (0.5 + 0.5 * t.confidence)
                      for t in tiles]) + 1e-3 * worth
    order = sorted(range(n), key=lambda i: (-value[i], -tiles[i].score))
    clash = np.zeros((n, n), bool)
    polys = [t.polygon(0.92) for t in tiles]
    areas = [float(cv2.contourArea(p)) for p in polys]
    for i in range(n):
        for j in range(i + 1, n):
            if float(np.linalg.norm(tiles[i].center - tiles[j].center)) > (
                    max(tiles[i].length, 2 * tiles[i].width) + max(tiles[j].length, 2 * tiles[j].width)) / 2:
                continue
            area, _ = cv2.intersectConvexConvex(polys[i], polys[j])
            clash[i, j] = clash[j, i] = float(area) / min(areas[i], areas[j]) >= 0.2
    kept: set[int] = set()
    seen: set[int] = set()
    for start in order:
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            k = stack.pop()
            group.append(k)
            for m in np.flatnonzero(clash[k]):
                if int(m) not in seen:
                    seen.add(int(m))
                    stack.append(int(m))
        if len(group) <= _SETTLE_EXACT:
            kept |= _best_set(frozenset(group), clash, value, {})[1]
        else:
            chosen: set[int] = set()
            for i in sorted(group, key=order.index):
                if not any(clash[i, k] for k in chosen):
                    chosen.add(i)
            kept |= chosen
    return [tiles[i] for i in order if i in kept]


def _best_set(group: frozenset[int], clash: np.ndarray, value: np.ndarray,
              memo: dict[frozenset[int], tuple[float, frozenset[int]]]) -> tuple[float, frozenset[int]]:
    """The readings of ``group`` that overlap no other, of the largest total value."""
    if not group:
        return 0.0, frozenset()
    if group in memo:
        return memo[group]
    pick = max(group, key=lambda i: (int(clash[i, list(group)].sum()), -i))
    if not clash[pick, list(group)].any():  # overlaps nothing left: keep it
        v, rest = _best_set(group - {pick}, clash, value, memo)
        best = (v + float(value[pick]), rest | {pick})
    else:
        v_in, rest_in = _best_set(frozenset(i for i in group if i != pick and not clash[pick, i]), clash, value, memo)
        v_out, rest_out = _best_set(group - {pick}, clash, value, memo)
        best = (v_in + float(value[pick]), rest_in | {pick}) if v_in + float(value[pick]) >= v_out else (v_out, rest_out)
    memo[group] = best
    return best


def _same_set(tiles: list[_Tile]) -> list[_Tile]:
    """Drop tiles whose size or colour is far from the sure tiles' (all tiles on a table are one set).

    With fewer than two sure tiles, any tiles read clearly with pips give the size, and
    only readings with no pips to vouch for them (a blank double, an unsure half) are
    dropped for it: a stroke on a grained table reads as a blank double of any size.
    A reading with little to vouch for it (an unsure half, two pips or fewer, a doubtful
    reading) whose colour is far lighter or darker than the sure tiles' and whose long
    sides do not stand out all along is a piece of the table (wood grain, clutter)."""
    sure = [t for t in tiles if t.clear and t.pip_total >= 3]
    if sure:
        level = float(_median([sum(t.body) / 3 for t in sure]))
        tiles = [t for t in tiles if not _off_colour(t, level)]
    if len(sure) >= 2:
        med = float(_median([t.width for t in sure]))
        return [t for t in tiles if 0.72 * med <= t.width <= 1.4 * med]
    some = [t.width for t in tiles if t.clear and t.pip_total >= 1]
    if not some:
        return tiles
    med = float(_median(some))
    return [t for t in tiles if 0.72 * med <= t.width <= 1.4 * med or (None not in t.pips and t.pip_total > 0)]


def _in_line(tiles: list[_Tile]) -> list[_Tile]:
    """Keep a faint reading (``line_only``) only where it lies in a line of play.

    It must touch a tile read on its own (or one kept so, in turn), of its width: end
    to end along the same axis, or crosswise where one of them is a double (its long
    side against the other's end), and the halves that meet must match, as the rules
    want. A stroke on the table or a seam between two tiles seldom does all that."""
    def ports(t: _Tile) -> list[tuple[np.ndarray, int | None, bool]]:
        half = t.axis * (t.length or 2 * t.width) / 2
        out = [(t.center - half, t.pips[0], False), (t.center + half, t.pips[1], False)]
        if t.pips[0] == t.pips[1]:  # a double's long sides
            perp = np.array([-t.axis[1], t.axis[0]], np.float32) * t.width / 2
            out += [(t.center - perp, t.pips[0], True), (t.center + perp, t.pips[0], True)]
        return out

    def touch(t: _Tile, a: _Tile) -> bool:
        if not 0.85 * a.width <= t.width <= 1.18 * a.width:
            return False
        cos = abs(float(t.axis @ a.axis))
        if 0.26 <= cos <= 0.97:
            return False
        return any(v == w and side_t + side_a == (cos < 0.26) and float(np.linalg.norm(p - q)) < 0.25 * a.width
                   for p, v, side_t in ports(t) for q, w, side_a in ports(a))

    anchors = [t for t in tiles if not t.line_only and t.clear]
    waiting = [t for t in tiles if t.line_only]
    kept: list[_Tile] = []
    while waiting:
        found = [t for t in waiting if any(touch(t, a) for a in anchors)]
        if not found:
            break
        kept += found
        anchors += found
        waiting = [t for t in waiting if not any(t is f for f in found)]
    return [t for t in tiles if not t.line_only or any(t is k for k in kept)]


def _off_colour(t: _Tile, level: float) -> bool:
    """A weak reading whose colour is not the set's (``level``: the sure tiles' mean level)."""
    if t.clear and t.pip_total > 2:
        return False
    mine = sum(t.body) / 3
    ratio = (mine + 1) / (level + 1)
    return (ratio < _SET_DARKER or ratio > _SET_LIGHTER) and abs(mine - level) > _SET_LEVELS and t.long_sides < _SET_SIDES


def _balanced_marks(image: np.ndarray, tiles: list[_Tile]) -> np.ndarray | None:
    """Coloured marks once more, each channel first scaled to the frame's light.

    A thin blue bar on an ivory tile is dark in red, not in the raw minimum, where the
    ivory's blue is as low as the bar's. Only where no tile was read yet (the tiles
    read are blanked out), and only when it can show more than the raw minimum: not
    for black tiles (dark in every channel), nor under white light (None then). Tiles
    that look white are balanced too: a dim ivory tile under a colour cast looks grey.
    """
    bodies = [t.body for t in tiles if t.clear]
    if bodies:
        b = np.median(np.array(bodies), axis=0)
        if float(b.max()) < 100:
            return None
    light = np.percentile(image[::4, ::4].reshape(-1, 3), 99, axis=0)
    gain = 255.0 / np.maximum(light, 32.0)
    if float(gain.max()) < 1.1 * float(gain.min()):
        return None
    return _blank_read(np.clip(channel_min(image * gain.astype(np.float32)), 0, 255).astype(np.uint8), tiles)


def _blank_read(chan: np.ndarray, tiles: list[_Tile]) -> np.ndarray:
    """``chan`` (dark marks on light, changed in place) with the tiles read with both halves
    (not only in a line of play) painted out: a later pass looks only where no tile was read."""
    for t in tiles:
        if None not in t.pips and not t.line_only:
            cv2.fillConvexPoly(chan, np.rint(t.polygon(1.05)).astype(np.int32), 255)
    return chan


def read_dominoes(image: np.ndarray) -> list[TileReading]:
    """Read every tile in a BGR image, in reading order (top to bottom, left to right).

    ``pips`` are the two halves in reading order (left to right for a horizontal tile,
    top to bottom for a vertical one); ``angle`` is the direction from the first half
    to the second in degrees, in (-45, 135]; ``corners`` start at the first half.

    >>> from vision.domino_synth import random_scene
    >>> scene = random_scene(np.random.default_rng(4))
    >>> sorted(sorted(t.pips) for t in read_dominoes(scene.image)) == sorted(sorted(t.pips) for t in scene.tiles)
    True
    """
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR image of shape (h, w, 3), got {image.shape}")
    h, w = image.shape[:2]
    if min(h, w) < 24:
        return []
    block = _odd(max(15, min(h, w) / 16))
    dark_marks = channel_min(image)
    light_marks = 255 - channel_max(image)
    tiles: list[_Tile] = []
    sure: list[_Tile] = []  # tiles read clearly: a divider found again there is skipped
    width, extra = math.inf, False
    for step in ("dark", "light", "again", "balanced"):
        chan: np.ndarray | None
        strengths: tuple[int, ...]
        if step in ("dark", "light"):
            chan, strengths, method = dark_marks if step == "dark" else light_marks, (14, 40), cv2.ADAPTIVE_THRESH_MEAN_C
        else:
            # The later passes only find tiles missed so far, each mark against a mean
            # weighted towards the pixel: around a small light tile on a darker table the
            # plain mean is mostly table, and a faint bar is no darker than that.
            method = cv2.ADAPTIVE_THRESH_GAUSSIAN_C
            if step == "again":
                # Dark marks once more where no tile was read (strokes found this way come
                # out a shade different, and small tiles read right might read otherwise);
                # low strength only: a faint bar is what this pass is for.
                chan, strengths = _blank_read(dark_marks.copy(), tiles), (14,)
            else:  # a coloured bar stands out clearly there: the high strength only
                chan, strengths = _balanced_marks(image, [t for t in tiles if not t.line_only]), (40,)
                if chan is None:
                    break
            # ... and those tiles are the size of the ones read and stand out from the table.
            widths = [t.width for t in tiles if t.clear and not t.line_only]
            width = float(np.median(widths)) if widths else math.inf
            extra = True
        for cand in _dividers(np.ascontiguousarray(chan), block, strengths, method):
            if any(float(np.linalg.norm(cand.center - t.center)) < 0.15 * t.width
                   and abs(float(cand.along @ t.axis)) < 0.2 for t in sure):
                continue
            tile = _read_candidate(image, cand)
            if tile is not None and extra and (tile.outline < 0.5 or (
                    math.isfinite(width) and not 0.85 * width <= tile.width <= 1.2 * width)):
                continue
            if tile is not None:
                tiles.append(tile)
                if tile.confidence >= 1.0 and tile.outline >= 0.5 and not tile.line_only:
                    sure.append(tile)
    kept = _same_set(_settle(_same_set(_in_line(tiles))))
    kept.sort(key=lambda t: (round(float(t.center[1]) / max(1.0, t.width)), float(t.center[0])))
    out = []
    for t in kept:
        corners = tuple((float(x), float(y)) for x, y in t.polygon())
        out.append(TileReading(
            pips=t.pips,
            center=(float(t.center[0]), float(t.center[1])),
            angle=math.degrees(math.atan2(float(t.axis[1]), float(t.axis[0]))),
            confidence=t.confidence,
            corners=corners,
        ))
    return out


@dataclass(frozen=True)
class OpenEnd:
    """One open end of the line: the tile, the pip value it shows and what it counts."""

    tile: int
    pips: int
    value: int  # what the end counts: a double at an end counts both halves
    point: tuple[float, float]


@dataclass(frozen=True)
class Layout:
    """The line of play read from a frame.

    ``tiles`` are all tiles read; ``chain`` the indices of the tiles in the line of
    play, from one end to the other along its longest run; ``branches`` the other
    runs (spinner arms, side lines), each starting next to the tile it hangs on;
    ``spinner`` the index of the cross, or None when the frame cannot tell; ``ends``
    the open ends. ``open_ends`` are the values the ends count under the
    ``double_closing`` convention (``two_sides``: a spinner closed on two sides counts
    0; ``four_sides``: each free side of such a spinner counts half its value).
    """

    tiles: tuple[TileReading, ...]
    chain: tuple[int, ...] = ()
    branches: tuple[tuple[int, ...], ...] = ()
    spinner: int | None = None
    ends: tuple[OpenEnd, ...] = ()
    loose: tuple[int, ...] = field(default=())

    @property
    def open_ends(self) -> tuple[int, ...]:
        return tuple(e.value for e in self.ends)

    @property
    def open_sum(self) -> int:
        return sum(self.open_ends)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tiles": [t.to_dict() for t in self.tiles],
            "chain": list(self.chain),
            "branches": [list(b) for b in self.branches],
            "spinner": self.spinner,
            "open_ends": list(self.open_ends),
            "open_sum": self.open_sum,
        }


def _ports(t: TileReading) -> list[tuple[np.ndarray, np.ndarray, int | None, str]]:
    """The four sides of a tile: (midpoint, outward unit normal, pips on that side, kind)."""
    c = np.array(t.center)
    p = np.array(t.corners)
    a = (p[1] - p[0]) / max(1e-6, float(np.linalg.norm(p[1] - p[0])))
    b = np.array([-a[1], a[0]])
    length = float(np.linalg.norm(p[1] - p[0]))
    width = float(np.linalg.norm(p[3] - p[0]))
    double = t.pips[0] == t.pips[1]
    side_pips = t.pips[0] if double else None
    return [
        (c - a * length / 2, -a, t.pips[0], "end"),
        (c + a * length / 2, a, t.pips[1], "end"),
        (c - b * width / 2, -b, side_pips, "side"),
        (c + b * width / 2, b, side_pips, "side"),
    ]


def touching(x: TileReading, y: TileReading) -> tuple[int, int] | None:
    """Which ports of x and y meet, if their sides touch with matching pips."""
    wx = float(np.linalg.norm(np.array(x.corners[3]) - np.array(x.corners[0])))
    wy = float(np.linalg.norm(np.array(y.corners[3]) - np.array(y.corners[0])))
    tol = 0.35 * min(wx, wy)
    best = None
    for i, (pa, na, va, _ka) in enumerate(_ports(x)):
        for j, (pb, nb, vb, _kb) in enumerate(_ports(y)):
            if va is None or va != vb or float(na @ nb) > -0.8:
                continue
            gap = pb - pa
            across = abs(float(gap @ na))  # distance between the two sides
            along = float(np.linalg.norm(gap - (gap @ na) * na))  # slide along them
            limit = 0.55 * max(wx, wy) + tol
            if across < tol and along < limit:
                score = across + 0.2 * along
                if best is None or score < best[0]:
                    best = (score, i, j)
    return None if best is None else (best[1], best[2])


def layout_from_tiles(tiles: list[TileReading], double_closing: Literal["two_sides", "four_sides"] = "two_sides") -> Layout:
    """Join tiles whose sides touch with matching pips and read the line's open ends.

    >>> def tile(a, b, x):
    ...     return TileReading((a, b), (x, 0.0), 0.0, 1.0, ((x - 20, -10), (x + 20, -10), (x + 20, 10), (x - 20, 10)))
    >>> lay = layout_from_tiles([tile(3, 5, 0), tile(5, 0, 41), tile(0, 2, 82)])
    >>> lay.chain, lay.open_ends, lay.open_sum
    ((0, 1, 2), (3, 2), 5)
    """
    n = len(tiles)
    links: dict[int, dict[int, int]] = {i: {} for i in range(n)}  # tile -> port -> other tile
    for i in range(n):
        for j in range(i + 1, n):
            if None in tiles[i].pips or None in tiles[j].pips:
                continue
            hit = touching(tiles[i], tiles[j])
            if hit and hit[0] not in links[i] and hit[1] not in links[j]:
                links[i][hit[0]] = j
                links[j][hit[1]] = i
    # The line of play is the largest group of joined tiles (a lone tile if nothing joins).
    seen: set[int] = set()
    groups: list[list[int]] = []
    for i in range(n):
        if i in seen:
            continue
        stack, group = [i], []
        seen.add(i)
        while stack:
            k = stack.pop()
            group.append(k)
            for m in links[k].values():
                if m not in seen:
                    seen.add(m)
                    stack.append(m)
        groups.append(sorted(group))
    if not groups:
        return Layout(tuple(tiles))
    groups.sort(key=len, reverse=True)
    if len(groups[0]) == 1 and len(groups) > 1:
        return Layout(tuple(tiles), loose=tuple(range(n)))
    line = groups[0]
    doubles = [i for i in line if tiles[i].pips[0] == tiles[i].pips[1]]
    crosses = [i for i in doubles if len(links[i]) >= 3]
    if crosses:  # several only on an illegal table or an every-double-spins house rule
        spinner: int | None = max(crosses, key=lambda i: (len(links[i]), -line.index(i)))
    elif len(doubles) == 1:
        spinner = doubles[0]
    else:
        spinner = None
    # Chain: the longest path; branches: what hangs off it.
    def far(start: int) -> tuple[int, dict[int, int]]:
        prev = {start: -1}
        order = [start]
        for k in order:
            for m in links[k].values():
                if m not in prev:
                    prev[m] = k
                    order.append(m)
        return order[-1], prev
    a, _ = far(line[0])
    b, prev = far(a)
    chain = [b]
    while prev[chain[-1]] != -1:
        chain.append(prev[chain[-1]])
    branches: list[tuple[int, ...]] = []
    on = set(chain)
    for k in line:
        if k in on:
            continue
        run = [k]
        on.add(k)
        while True:
            nxt = [m for m in links[run[-1]].values() if m not in on]
            if not nxt:
                break
            on.add(nxt[0])
            run.append(nxt[0])
        branches.append(tuple(run))
    # Open ends.
    ends: list[OpenEnd] = []
    for k in line:
        t = tiles[k]
        ports = _ports(t)
        v0, v1 = t.pips
        if v0 is None or v1 is None:
            continue
        used = links[k]
        if v0 == v1:
            if k == spinner and len(used) >= 2:
                if double_closing == "four_sides":
                    for port in range(4):
                        if port not in used:
                            ends.append(OpenEnd(k, v0, v0, (float(ports[port][0][0]), float(ports[port][0][1]))))
            elif len(used) <= 1:
                free = [p for p in range(4) if p not in used]
                # The end faces away from its neighbour (or any side of a lone double).
                port = free[0] if not used else next(p for p in free if p ^ 1 == next(iter(used)))
                ends.append(OpenEnd(k, v0, 2 * v0, (float(ports[port][0][0]), float(ports[port][0][1]))))
        else:
            for port, v in ((0, v0), (1, v1)):
                if port not in used:
                    ends.append(OpenEnd(k, v, v, (float(ports[port][0][0]), float(ports[port][0][1]))))
    return Layout(tuple(tiles), tuple(chain), tuple(branches), spinner, tuple(ends),
                  tuple(i for i in range(n) if i not in set(line)))


def read_layout(image: np.ndarray, double_closing: Literal["two_sides", "four_sides"] = "two_sides") -> Layout:
    """Read the tiles and the line of play in a BGR image (see ``Layout``).

    >>> read_layout(np.zeros((10, 10, 3), np.uint8)).to_dict()["open_sum"]
    0
    """
    return layout_from_tiles(read_dominoes(image), double_closing)


class LayoutChangeError(ValueError):
    """The change between two layouts is not one tile laid on an open end."""


@dataclass(frozen=True)
class PlayProposal:
    """A tile newly laid on the line, read by comparing two frames.

    ``tile`` is the new tile with the half that touches the line first (``(5, 2)``
    laid on a 5); ``end_pips`` the value of the open end it was laid on (None for the
    first tile of a hand); ``onto`` the index in the *before* layout of the tile it
    touches (None for the first tile); ``index`` its index in the *after* layout;
    ``point`` where it meets the line (the new tile's centre for the first tile).
    """

    tile: tuple[int, int]
    end_pips: int | None
    onto: int | None
    index: int
    point: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        return {"tile": list(self.tile), "end_pips": self.end_pips, "onto": self.onto,
                "index": self.index, "point": list(self.point)}


def _width(t: TileReading) -> float:
    return float(np.linalg.norm(np.array(t.corners[3]) - np.array(t.corners[0])))


def _same_tile(a: TileReading, b: TileReading) -> bool:
    if sorted(a.pips, key=lambda v: -1 if v is None else v) != sorted(b.pips, key=lambda v: -1 if v is None else v):
        return False
    return math.dist(a.center, b.center) < 0.5 * min(_width(a), _width(b))


def diff_layout(before: Layout, after: Layout) -> PlayProposal | None:
    """The play seen between two frames of the table: the new tile and the end it was laid on.

    Pure: compares two ``Layout`` readings (``read_layout`` of the frame before and of
    the frame after). Returns None when the line is unchanged (tiles that only
    shifted a little, or loose tiles beside the line, do not count). Raises
    ``LayoutChangeError`` with the reason when the change is not one readable tile
    laid against the line: a tile of the line gone or unreadable, several new tiles,
    or a new tile that touches no tile of the line with matching pips.

    >>> def tile(a, b, x):
    ...     return TileReading((a, b), (x, 0.0), 0.0, 1.0, ((x - 20, -10), (x + 20, -10), (x + 20, 10), (x - 20, 10)))
    >>> before = layout_from_tiles([tile(3, 5, 0), tile(5, 0, 41)])
    >>> diff_layout(before, layout_from_tiles([tile(3, 5, 0), tile(5, 0, 41), tile(0, 2, 82)])).tile
    (0, 2)
    >>> diff_layout(before, before) is None
    True
    """
    old_line = [i for i in range(len(before.tiles)) if i not in set(before.loose)]
    if len(before.tiles) == 1:
        old_line = [0]
    # Every tile of the line must still be there (a hand over the table hides some).
    matched: dict[int, int] = {}
    for i in old_line:
        hits = [j for j, t in enumerate(after.tiles) if j not in matched.values() and _same_tile(before.tiles[i], t)]
        if not hits:
            raise LayoutChangeError(f"tile {_fmt(before.tiles[i].pips)} of the line is not seen in the new frame")
        matched[i] = min(hits, key=lambda j: math.dist(after.tiles[j].center, before.tiles[i].center))
    known = set(matched.values())
    # A new tile: in the after frame, not matched, and not a loose tile seen before.
    loose_before = [before.tiles[i] for i in range(len(before.tiles)) if i not in set(old_line)]
    new = [j for j, t in enumerate(after.tiles)
           if j not in known and not any(_same_tile(t, lb) for lb in loose_before)]
    if not old_line:
        # First tile of a hand: exactly one tile on the table that was not there before.
        if not new:
            return None
        if len(new) > 1:
            raise LayoutChangeError(f"{len(new)} new tiles at once: {', '.join(_fmt(after.tiles[j].pips) for j in new)}")
        t = after.tiles[new[0]]
        if None in t.pips:
            raise LayoutChangeError("the new tile cannot be read")
        return PlayProposal((int(t.pips[0]), int(t.pips[1])), None, None, new[0], t.center)  # type: ignore[arg-type]
    against = []
    for j in new:
        t = after.tiles[j]
        for i in old_line:
            if _near(t, after.tiles[matched[i]]):
                against.append((j, i))
                break
    if not against:
        return None  # nothing laid against the line (a tile put down beside it)
    if len({j for j, _ in against}) > 1:
        raise LayoutChangeError(f"{len(against)} new tiles against the line at once")
    j, i = against[0]
    t = after.tiles[j]
    if None in t.pips:
        raise LayoutChangeError("the new tile against the line cannot be read")
    hit = touching(t, after.tiles[matched[i]])
    if hit is None:
        raise LayoutChangeError(f"{_fmt(t.pips)} touches {_fmt(before.tiles[i].pips)} but no half matches it")
    port, other_port = hit
    other = after.tiles[matched[i]]
    ports = _ports(other)
    end_pips = ports[other_port][2]
    a, b = int(t.pips[0]), int(t.pips[1])  # type: ignore[arg-type]
    laid = (a, b) if port in (0, 2, 3) else (b, a)  # the half on the end first
    point = ports[other_port][0]
    return PlayProposal(laid, end_pips, i, j, (float(point[0]), float(point[1])))


def _near(a: TileReading, b: TileReading) -> bool:
    """Do two tiles touch at all (any sides, whatever their pips)?"""
    pa = np.array(a.corners, np.float32)
    pb = np.array(b.corners, np.float32)
    grow = 0.3 * min(_width(a), _width(b))
    ca, cb = pa.mean(axis=0), pb.mean(axis=0)

    def bigger(p: np.ndarray, c: np.ndarray) -> np.ndarray:
        d = p - c
        return (c + d * (1 + grow / np.linalg.norm(d, axis=1))[:, None]).astype(np.float32)

    area, _ = cv2.intersectConvexConvex(bigger(pa, ca), bigger(pb, cb))
    return float(area) > 0


def _fmt(pips: tuple[int | None, int | None]) -> str:
    return "-".join("?" if v is None else str(v) for v in pips)
