"""Settling: turn a stream of frames into one reading per roll, once the dice rest.

A :class:`Settler` is fed every camera frame with the table's clock (``now``,
seconds). It answers None almost always, and the dice (a tuple of
:class:`~vision.types.DieReading`) exactly once per roll:

1. **Motion.** Each frame is reduced to a small blurred grey picture and compared
   with the previous one; the fraction of changed pixels is the motion. While
   something moves (a throw, dice rolling, a hand) nothing is read, and any motion
   *arms* the settler for the next roll.
2. **Still.** Every frame without motion is read (unless 3 vetoes it), and the
   dice are answered only once ``still_frames`` frames without motion span at
   least ``still_seconds``.
3. **Hand.** A large skin-coloured area that was not in the picture before the
   last motion (a hand resting in the tray) vetoes the reading: pixels of the
   small copy that are skin-coloured, differ from the last still picture
   before that motion, and lie outside the dice read. So a wooden or beige
   table, skin-coloured all over, is no hand, nor are wooden or ivory dice;
   before the settler has seen the table still and then something move (just
   after it starts), every skin-coloured pixel outside the dice counts.
4. **Agreement.** The last ``agree`` readings, all of frames without motion
   since the last motion, must be the same dice (same values, centres within
   ``max_shift`` of a die's size), and every die must be sure (value not None,
   and with ``min_confidence`` read at least that surely): a cocked die leaning
   on a wall or another die is read unsure, so it blocks the roll until someone
   settles it. The readings are taken while the picture
   settles, so with the defaults (3 still frames, 3 readings) a roll is
   answered on the third still frame, not the fifth.
5. **Once.** Having answered, the settler is disarmed until the picture moves
   again or the dice at rest change (a die nudged to a new value without a
   visible throw still counts as a new roll only after motion). After motion,
   dice that all lie where they were last answered (a hand passed over, a die
   touched but not turned) are no new roll either, nor are dice read in a
   picture that differs from the answer's only by its light (:func:`relit`: a
   lamp switched, one to a side, a camera's exposure or white balance, a shadow
   gone), each place where a die lay then or is read now showing its pixels of
   then but for their light (:func:`dice_relit`), whatever values they read
   now, or when some are no longer found: a die misread after such a change is
   no phantom roll, and a die turned to another face where it lay is a roll.
   Both are checked once the picture is put back where it lay then, when the
   camera was nudged since (a table bumped: :func:`camera_shift`), or turned
   as well, when a shift alone does not put it back (:func:`camera_motion`).
   ``moved`` says, for each die of an answer, whether it is new or lies
   elsewhere than in the answer before: dice
   only carried to the kept zone, the others untouched, are no throw. A table's
   camera starts disarmed (``armed=False``: dice lying still when it starts are
   no throw); after a reconnect (:meth:`Settler.reset`) it is armed, but dice
   lying as it last saw them at rest are still no new roll.
6. **Zones that follow the camera.** With ``zones``, the first frame of each
   period at rest, and one every :data:`FOLLOW_SECONDS` while it lasts (a nudge
   of a few pixels of a smooth table is no motion), is compared with the last
   one so compared, as the camera gave them, the dice read in either and the
   areas left out hidden (:func:`camera_motion`): a camera nudged or turned since (a table bumped) moves the
   zones and the areas left out with the picture (:attr:`Settler.zones`,
   :attr:`Settler.zones_moved`), so that a die lies in the zone it lies in on
   the table. That frame's readings, assigned to the zones as they were, do
   not count towards agreement (:data:`ZONES_MOVED`). A :class:`ZonesFollower`
   does this, for a domino table's tile settler too.
7. **By hand.** A throw held by a die in doubt and entered by hand instead
   (:meth:`Settler.answered`: the control page's dice read, or any roll the
   table takes from another source than the camera) is answered as if the
   settler had answered it, with the values entered (:func:`entered_on`): a
   cocked die then pushed flat in place is no second roll, nor a die read as
   it was when the throw was entered (a sure misreading corrected by hand).

Everything is pure and deterministic: the clock is an argument, the reader is
injected (default a :class:`vision.dice.DiceReader`: :func:`~vision.dice.read_dice` that
remembers the scale the camera's dice are read at).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from .pixels import channel_max, halved
from .types import DieReading, Motion, box_moved
from .zones import Zones

Reader = Callable[[np.ndarray], Sequence[DieReading]]


@dataclass(frozen=True)
class SettleStatus:
    """What the settler saw in the last frame (for a status line or a log)."""

    motion: float = 0.0
    moving: bool = True
    hand: bool = False
    still_for: int = 0
    armed: bool = True
    reason: str = "starting"
    dice: tuple[DieReading, ...] = ()  # the dice read in the last picture, when a die among them holds the roll (unsure, or read less surely than asked)


def motion_fraction(a: np.ndarray, b: np.ndarray, threshold: int = 18) -> float:
    """Fraction of pixels that changed by more than ``threshold`` between two small grey pictures.

    >>> z = np.zeros((10, 10), np.uint8); o = z.copy(); o[:5] = 200
    >>> motion_fraction(z, o)
    0.5
    """
    return float(np.count_nonzero(cv2.absdiff(a, b) > threshold)) / a.size


def small_copy(frame: np.ndarray, work_width: int) -> np.ndarray:
    """A frame shrunk to ``work_width`` pixels wide (never enlarged), each pixel the mean of those it covers.

    >>> small_copy(np.zeros((40, 80, 3), np.uint8), 20).shape
    (10, 20, 3)
    """
    h, w = frame.shape[:2]
    width = min(work_width, w)
    height = max(1, round(h * width / w))
    times = (w // width).bit_length() - 1
    if times > 0 and w == width << times and h == height << times:  # (by a power of two each way: halved, faster)
        return halved(frame, times)
    return cv2.resize(frame, (width, height), interpolation=cv2.INTER_AREA)


def _grey(frame: np.ndarray) -> np.ndarray:
    """A frame grey."""
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame


def motion_grey(small: np.ndarray) -> np.ndarray:
    """A frame's small copy (:func:`small_copy`) grey and lightly blurred: what motion is measured on.

    >>> motion_grey(small_copy(np.zeros((40, 80, 3), np.uint8), 20)).shape
    (10, 20)
    """
    return cv2.GaussianBlur(_grey(small), (3, 3), 0)


def relit(before: np.ndarray, after: np.ndarray, pixel_threshold: int = 18, motion_threshold: float = 0.002) -> bool:
    """Is ``after`` the picture ``before`` (two small copies of frames, :func:`small_copy`) with only its light
    changed? Each of its channels, lightly blurred, is fitted as a gain and an offset of ``before``'s that vary
    smoothly over the picture (:func:`_light_fit`, quadratic across it: a lamp switched, one to a side, a spot,
    a camera's exposure or white balance, a shadow gone), and what the fit leaves is no motion: at most
    ``motion_threshold`` of the pixels off by more than ``pixel_threshold`` in some channel. A die moved or
    taken away leaves its own pixels (one turned where it lay may not, in so small a copy:
    :func:`dice_relit`). Pictures of two sizes are not.

    >>> table = np.full((40, 60, 3), 90, np.uint8); table[10:16, 20:26] = 230  # (a die)
    >>> dim = (table * 0.7).astype(np.uint8)
    >>> side = (table * np.linspace(0.6, 1.1, 60)[None, :, None]).astype(np.uint8)  # (a lamp to the right)
    >>> moved = dim.copy(); moved[10:16, 20:26] = 63; moved[20:26, 30:36] = 161
    >>> relit(table, dim), relit(table, side), relit(table, moved), relit(table, table[:20])
    (True, True, False, False)
    """
    if before.shape != after.shape:
        return False
    a, b = _blurred(before), _blurred(after)
    fit = _light_fit(a, b, _smooth_basis(*before.shape[:2]), pixel_threshold)
    assert fit is not None  # (a fit with a basis is never refused: no gain of a smooth light says anything alone)
    gain, offset = fit
    off = (np.abs(b - np.clip(gain * a + offset, 0, 255)) > pixel_threshold).any(axis=0)
    return float(np.count_nonzero(off)) / off.size <= motion_threshold


def dice_relit(before: np.ndarray, after: np.ndarray, boxes: Sequence[tuple[float, float, float, float]],
               pixel_threshold: int = 18, share: float = 0.01) -> bool:
    """Does each of ``boxes`` (x0, y0, x1, y1: where a die lies or lay) show in the frame ``after`` the pixels it
    showed in the frame ``before``, but for their light? Each channel of a box, lightly blurred, is fitted as a
    gain and an offset of what it was (a gain of 0.25 to 4), and at most ``share`` of its pixels may lie more
    than ``pixel_threshold`` in some channel outside what the fit makes of the pixel and its eight
    neighbours then (a camera nudged by a pixel, a table bumped, moves no die). Pixels the camera clipped (0
    or 255) in either frame, and their neighbours, neither steer the fit nor count. A die turned to another face
    where it lay moves its pips (a five turned to a four: about 2 % of its box), a die taken away or set down
    changes its box wholly, and a change of light, even over a glossy die, leaves under 1 %
    (docs/vision-record.md).

    >>> from vision.synth import draw_die
    >>> table = np.full((100, 100, 3), (40, 110, 40), np.uint8); draw_die(table, 4, (50, 50), 40)
    >>> five, nudged = table.copy(), np.roll(table, 1, axis=1)
    >>> draw_die(five, 5, (50, 50), 40)
    >>> box = [(30, 30, 70, 70)]
    >>> [dice_relit(table, after, box) for after in ((table * 0.7).astype(np.uint8), nudged, five)]
    [True, True, False]
    """
    if before.shape != after.shape:
        return False
    h, w = before.shape[:2]
    for box in boxes:
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
        if x1 <= x0 or y1 <= y0:
            continue
        # (the box two pixels larger each way, where the frame goes on: each pixel's neighbours, blurred as they are)
        grow = np.s_[max(y0 - 2, 0) : min(y1 + 2, h), max(x0 - 2, 0) : min(x1 + 2, w)]
        inside = np.s_[y0 - grow[0].start : y1 - grow[0].start, x0 - grow[1].start : x1 - grow[1].start]
        grown = cv2.GaussianBlur(before[grow], (3, 3), 0).astype(np.float32)
        grown = grown.reshape(grown.shape[0], grown.shape[1], -1)
        was, now = _as_rows(grown[inside]), _as_rows(cv2.GaussianBlur(after[grow], (3, 3), 0).astype(np.float32)[inside])
        # (a pixel the camera clipped, in either frame, or blurred with one, says nothing of its light: a white die
        # a lamp lights past 255 is as white as it was)
        around = np.ones((3, 3), np.uint8)
        clipped = np.zeros(was.shape, bool)
        for frame in (before, after):
            edge = ((frame[grow] == 0) | (frame[grow] == 255)).astype(np.uint8)
            clipped |= _as_rows(cv2.dilate(edge, around).reshape(edge.shape[0], edge.shape[1], -1)[inside]) > 0
        fit = _light_fit(was, now, None, pixel_threshold, ~clipped)
        if fit is None:
            return False
        gain, offset = fit
        made = np.clip(grown * gain[:, 0] + offset[:, 0], 0, 255)
        low, high = _as_rows(cv2.erode(made, around)[inside]), _as_rows(cv2.dilate(made, around)[inside])
        off = (((now < low - pixel_threshold) | (now > high + pixel_threshold)) & ~clipped).any(axis=0)
        if float(np.count_nonzero(off)) > share * off.size:
            return False
    return True


NUDGE_REACH = 32
"""How far (frame pixels, each way) :func:`camera_shift` looks for a camera nudged when its table is bumped."""

NUDGE_LIKENESS = 0.3
"""The least likeness (masked normalised cross-correlation, -1 to 1) of :func:`camera_shift`'s copies an eighth as
large at their likest shift that tells a shift: byler's and matteo's held photos, nudged up to 32 pixels or not, also
in another light, give 0.83 to 1.00; drawn plain tables whose only sight is their dice, left out, 0.02 to 0.05
(docs/vision-record.md, "A harder bump")."""


NUDGE_TURN = 3.0
"""How far (degrees, each way) :func:`camera_motion` looks for a camera turned when its table is bumped."""

TURN_STEP = 1.0
"""The turns (degrees apart) :func:`camera_motion` tries first, on its copies an eighth as large ..."""

TURN_LIKENESS = 0.02
"""... where a turn must make the picture likelier than no turn by this much to be chosen (the likeness of
:func:`_likest_shift`, on byler's and matteo's 208 held photos in 1280 x 720 frames: unmoved, the likeliest turn
but none is 0.03 to 0.30 less likely than none; nudged (8, 4), at most 0.008 likelier; turned a degree, a turn of
a degree is 0.023 to 0.28 likelier than none). The walks that make the turn finer start from the turn chosen, and
reach a degree and a sixteenth either way of it: a turn under a degree is found from none."""


def camera_shift(before: np.ndarray, after: np.ndarray, hide: Sequence[tuple[float, float, float, float]] = (),
                 reach: int = NUDGE_REACH) -> tuple[int, int]:
    """How many whole pixels (dx, dy) the picture of the frame ``after`` lies from where it lay in the frame
    ``before``: a camera nudged when its table is bumped moves all of it. (0, 0) when it did not move, or when no
    shift can be told: none within ``reach``, a picture with nothing but the places ``hide`` to go by, or one
    under 128 pixels high or wide. :func:`camera_motion` that tells no turn.

    >>> from vision.synth import render_dice
    >>> table, _ = render_dice([3, 5], seed=1)
    >>> camera_shift(table, np.roll(table, (2, -3), axis=(0, 1))), camera_shift(table, table)
    ((-3, 2), (0, 0))
    """
    motion = MotionSearch(before, after, hide, reach)(turn=0.0)
    return (motion.dx, motion.dy)


def camera_motion(before: np.ndarray, after: np.ndarray, hide: Sequence[tuple[float, float, float, float]] = (),
                  reach: int = NUDGE_REACH, turn: float = NUDGE_TURN) -> Motion:
    """How the picture of the frame ``after`` moved from where it lay in the frame ``before`` (:class:`Motion`): a
    camera nudged or turned when its table is bumped moves all of it. ``Motion()`` when it did not move, or when
    no motion can be told: no shift within ``reach`` pixels and turn within ``turn`` degrees, a picture with nothing
    but the places ``hide`` to go by, or one under 128 pixels high or wide (:class:`MotionSearch`, which tells how).

    >>> from vision.synth import render_dice
    >>> table, _ = render_dice([3, 5], seed=1)
    >>> camera_motion(table, table)
    Motion(dx=0, dy=0, turn=0.0)
    """
    return MotionSearch(before, after, hide, reach)(turn)


class MotionSearch:
    """:func:`camera_motion` of two frames, keeping its copies and what it found on them: asked again of a wider
    turn (the settler's: a shift first, then a turn when that does not put the picture back), it does not look
    at what it looked at already.

    The places ``hide`` (x0, y0, x1, y1: boxes of dice, then or now, a fifth larger each way) are left out of
    both pictures, each filled with the colour round it: dice a hand moved move alone, and must not be taken
    for the table moving under them. On grey copies an eighth as large, ``after``'s turned back by each turn
    tried (every :data:`TURN_STEP` degrees within the turn asked for), the shift within twice ``reach`` whose
    overlap of their fine detail (:func:`_fine`: a change of light hardly changes it) is likest, the places left
    out and those the turned copy does not show not counted (:func:`_likest_shift`; :data:`NUDGE_LIKENESS`; beyond
    ``reach``: none); a turn is chosen there only when it is likelier than none by :data:`TURN_LIKENESS` (the turns
    are tried nearest to none first, and no further once one is as likely as ``1 - TURN_LIKENESS``: a likeness is
    at most 1, so no turn tried after it could be chosen). Then, from there, the shift of whole pixels that
    leaves the least mean difference of their fine detail outside the dice is sought on the copies a quarter and
    half as large and at full size (:func:`_least_difference`), the turn made finer (:data:`_FINER_TURNS`: a half, a
    quarter and an eighth of a degree either way on the quarter-size copies, then while there is a turn an eighth
    and a sixteenth on the larger ones, the least difference kept); a turn that moves no corner of the frame by a
    pixel is none.
    """

    def __init__(self, before: np.ndarray, after: np.ndarray, hide: Sequence[tuple[float, float, float, float]] = (),
                 reach: int = NUDGE_REACH) -> None:
        self.before, self.after, self.reach = before, after, reach
        self.hide = list(hide)
        self._levels: list[list[np.ndarray]] | None = None  # (full, half, quarter and eighth size: before's, after's)
        self._masks: list[np.ndarray] = []
        self._tried: dict[int, tuple[tuple[int, int], float]] = {}  # (steps of TURN_STEP -> the likest shift, its likeness)
        self._fine_before: dict[int, np.ndarray] = {}  # (level -> the fine detail of before's copy)
        self._walks: dict[tuple[int, float, tuple[int, int]], tuple[tuple[int, int], float]] = {}  # (level, turn, start -> _least_difference)

    def __call__(self, turn: float = NUDGE_TURN) -> Motion:
        """The motion, with a turn of at most ``turn`` degrees each way (0: a shift alone)."""
        before, reach = self.before, self.reach
        if before.shape != self.after.shape or min(before.shape[:2]) < 128:
            return Motion()
        steps = int(turn / TURN_STEP + 1e-9) + 1 if turn > 0 else 0  # (a step further: a turn further than ``turn`` is none)
        n = 0
        for m in sorted(range(-steps, steps + 1), key=abs):  # (the nearest to none of the likeliest)
            if self._likest(n) >= 1.0 - TURN_LIKENESS:
                break
            if self._likest(m) > self._likest(n):
                n = m
        t, (shift, likeness) = n * TURN_STEP, self._tried[n]
        if likeness < NUDGE_LIKENESS or max(abs(shift[0]), abs(shift[1])) * 8 > reach + 8:
            return Motion()
        for k in (2, 1, 0):
            start = (shift[0] * 2, shift[1] * 2)  # (the shift found on the copies half as large, at this size)
            found = self._walk(k, t, start)
            finer = bool(steps) and (k == 2 or t != 0.0)  # (on the quarter-size copies always, then while there is a turn)
            for step in _FINER_TURNS[k] if finer else ():  # (the turn made finer: from the eighth-size copies' step to a 16th of a degree)
                tries = {t: found, **{t + d: self._walk(k, t + d, start) for d in (-step, step)}}
                t = min(tries, key=lambda x: tries[x][1])
                found = tries[t]
            shift = found[0]
        if max(abs(shift[0]), abs(shift[1])) > reach or abs(t) > turn:  # (the walks reach a little further: a bump just beyond reach is none, not one held at reach)
            return Motion()
        if np.radians(abs(t)) * np.hypot(*before.shape[:2]) / 2 < 1.0:  # (a turn that moves no corner of the frame by a pixel is none)
            t = 0.0
        return Motion(shift[0], shift[1], t)

    def _copies(self) -> list[list[np.ndarray]]:
        """The grey copies of both frames (made once), and the masks of the places left out at each size."""
        if self._levels is None:
            levels = [[_grey(self.before)], [_grey(self.after)]]
            for _ in range(3):
                levels = [[*pics, halved(pics[-1], 1)] for pics in levels]
            self._levels = levels
            self._masks = [_shown(levels[0][k].shape, self.hide, 2.0**k) for k in range(4)]
            self._fine_before[3] = _fine(_filled(levels[0][3], self._masks[3]))
        return self._levels

    def _likest(self, n: int) -> float:
        """How likely the turn of ``n`` steps is, on the copies an eighth as large: the likeness of its likest shift,
        less :data:`TURN_LIKENESS` for a turn (it must be likelier than none by that much)."""
        if n not in self._tried:
            levels = self._copies()
            back, shown = _turned_back(levels[1][3], self._masks[3], n * TURN_STEP)
            self._tried[n] = _likest_shift(self._fine_before[3], _fine(_filled(back, shown)), shown, 2 * (self.reach // 8 + 1))  # (twice as far: a bump further than reach is none)
        return self._tried[n][1] - (TURN_LIKENESS if n else 0.0)

    def _walk(self, k: int, t: float, start: tuple[int, int]) -> tuple[tuple[int, int], float]:
        """The least difference's shift (and that difference) on the copies ``2 ** k`` times smaller, ``after``'s
        turned back by ``t`` degrees, from ``start``."""
        if (k, t, start) not in self._walks:
            levels = self._copies()
            if k not in self._fine_before:
                self._fine_before[k] = _fine(levels[0][k])
            back, shown = _turned_back(levels[1][k], self._masks[k], t)
            self._walks[k, t, start] = _least_difference(self._fine_before[k], _fine(back), shown, start, (self.reach + 8) // 2**k + 1)
        return self._walks[k, t, start]


_FINER_TURNS = {2: (TURN_STEP / 2, TURN_STEP / 4, TURN_STEP / 8), 1: (TURN_STEP / 8,), 0: (TURN_STEP / 16,)}
"""The steps (degrees) by which :class:`MotionSearch` makes its turn finer on the copies a quarter as large (2), always,
and on those half as large (1) and at full size (0) while there is a turn: a camera turned 0.2 to 0.5 degrees is
found from none, and an unmoved one, the usual case (a throw), costs six walks on the quarter-size copies and no
more. On byler's and matteo's 208 held photos in 1280 x 720 frames, each with a camera's noise: turned 0.2 to 2.6
degrees, every corner of the frame put back within 1.5 px in 1 455 of 1 456 cases (2.2 px in the other), 0.15
degrees in 161 of 208 (1.7 px at most); unmoved, nudged and in five other lights, no turn told in 2 080. Made finer
on the quarter-size copies only when none was far likelier than a degree either way on the eighth-size ones (a
gate of 0.03), a half degree was not put back in 47 of 416 (up to 8.6 px off), 0.3 degree in 183 of 208; on the
half-size copies alone, whose shifts are two pixels of the frame apart, a turn an eighth of a degree off could leave
the least difference (7 of matteo's 107 held tables turned 2.5 degrees and moved 10 px, their corners 2.4 px off).
docs/vision-record.md, "A bumped camera looked for once"."""


def _turned_back(grey: np.ndarray, shown: np.ndarray, turn: float) -> tuple[np.ndarray, np.ndarray]:
    """A grey copy of a frame turned back by ``turn`` degrees about its centre (each pixel p shows what the copy
    showed at p turned by ``turn``), and ``shown`` (a mask of the places not left out) less the places it does not
    show (beyond the copy's edge). Unturned: the copy and ``shown`` as they are."""
    if turn == 0.0:
        return grey, shown
    h, w = grey.shape[:2]
    m = Motion(turn=turn).matrix((w, h))
    flags = cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
    back = cv2.warpAffine(grey, m, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)
    inside = cv2.warpAffine(np.ones((h, w), np.uint8), m, (w, h), flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP, borderValue=0)
    return back, shown & inside


def _likest_shift(a: np.ndarray, b: np.ndarray, shown: np.ndarray, reach: int) -> tuple[tuple[int, int], float]:
    """The shift (dx, dy), at most ``reach`` each way, by which ``b`` shows ``a`` likest, and that likeness: the
    normalised cross-correlation of the pixels ``shown`` (a mask of both) that both show, where they overlap on at
    least half of them (Padfield's masked correlation, "Masked object registration in the Fourier domain", 2012:
    the places left out weigh nothing, so they cannot hold the picture where it was). (0, 0) and -1.0 when
    nothing is shown."""
    m = shown.astype(np.float64)
    total = float(m.sum())
    if total == 0:
        return (0, 0), -1.0
    h, w = a.shape
    size = (cv2.getOptimalDFTSize(h + reach + 1), cv2.getOptimalDFTSize(w + reach + 1))  # (zero-padded by reach and more: no shift within it wraps round)
    f, g = a * m, b * m
    spectra = {name: np.fft.rfft2(x, size) for name, x in (("m", m), ("f", f), ("g", g), ("ff", f * f), ("gg", g * g))}

    def correlated(x: str, y: str) -> np.ndarray:  # sum over p of x(p) y(p + shift), for every shift within reach
        c = np.fft.irfft2(np.conj(spectra[x]) * spectra[y], size)
        return c[np.ix_(np.arange(-reach, reach + 1) % size[0], np.arange(-reach, reach + 1) % size[1])]

    count, fm, mg = correlated("m", "m"), correlated("f", "m"), correlated("m", "g")
    with np.errstate(divide="ignore", invalid="ignore"):
        mean_f, mean_g = fm / count, mg / count
        spread = (correlated("ff", "m") - fm * mean_f) * (correlated("m", "gg") - mg * mean_g)
        likeness = (correlated("f", "g") - fm * mean_g) / np.sqrt(spread)
    likeness[~((count >= 0.5 * total) & (spread > 0))] = -1.0
    dy, dx = np.unravel_index(int(np.argmax(likeness)), likeness.shape)
    return (int(dx) - reach, int(dy) - reach), float(likeness[dy, dx])


def _shown(shape: tuple[int, ...], hide: Sequence[tuple[float, float, float, float]], k: float) -> np.ndarray:
    """A mask (uint8, 1 shown) of a picture of ``shape``, ``k`` times smaller than the frame, with each box of
    ``hide`` (frame pixels) a fifth larger each way left out (0)."""
    shown = np.ones(shape[:2], np.uint8)
    for x0, y0, x1, y1 in hide:
        gx, gy = 0.2 * (x1 - x0), 0.2 * (y1 - y0)
        cv2.rectangle(shown, (int((x0 - gx) / k), int((y0 - gy) / k)), (int(np.ceil((x1 + gx) / k)), int(np.ceil((y1 + gy) / k))), 0, -1)
    return shown


def _filled(grey: np.ndarray, shown: np.ndarray) -> np.ndarray:
    """``grey`` with the pixels ``shown`` leaves out filled with the mean of those shown round them (a blur of
    the shown ones alone, 31 pixels wide; the mean of all shown where none is that near): no edge where they
    meet, which would stay put as the picture moves."""
    grey = grey.astype(np.float32)
    if shown.all():
        return grey
    keep = shown.astype(np.float32)
    near = cv2.blur(keep, (31, 31))
    mean = float((grey * keep).sum() / max(keep.sum(), 1.0))
    fill = np.where(near > 1e-3, cv2.blur(grey * keep, (31, 31)) / np.maximum(near, 1e-3), mean)
    return np.where(shown > 0, grey, fill).astype(np.float32)


def _fine(grey: np.ndarray) -> np.ndarray:
    """A grey picture's fine detail (less its blur 7 pixels wide), divided by its mean size: what locates a
    picture, whatever its light (a lamp, a shade and the table's own shading are smooth)."""
    detail: np.ndarray = cv2.subtract(grey, cv2.blur(grey, (7, 7)), dtype=cv2.CV_32F)
    return cv2.multiply(detail, 1.0 / max(cv2.norm(detail, cv2.NORM_L1) / detail.size, 1e-3))


def _least_difference(a: np.ndarray, b: np.ndarray, shown: np.ndarray, start: tuple[int, int], reach: int) -> tuple[tuple[int, int], float]:
    """The shift (dx, dy) by which ``b`` shows ``a`` with the least mean absolute difference over the pixels
    ``shown`` (in ``b``) that both show, near ``start``: from there, to the best of the eight shifts a pixel
    away while one is better, never farther than ``reach`` each way; and that difference."""
    h, w = a.shape
    tried: dict[tuple[int, int], float] = {}

    def difference(dx: int, dy: int) -> float:
        if (dx, dy) not in tried:
            tried[dx, dy] = np.inf
            if max(abs(dx), abs(dy)) <= reach and abs(dx) < w // 2 and abs(dy) < h // 2:
                was, now, _ = overlap(a, b, (dx, dy))
                _, seen, _ = overlap(a, shown, (dx, dy))
                count = cv2.countNonZero(seen)
                if count:
                    tried[dx, dy] = cv2.norm(was, now, cv2.NORM_L1, seen) / count
        return tried[dx, dy]

    best = start
    while True:
        near = min(((best[0] + i, best[1] + j) for j in (-1, 0, 1) for i in (-1, 0, 1)), key=lambda s: difference(*s))
        if near == best or difference(*near) >= difference(*best):
            return best, difference(*best)
        best = near


def overlap(before: np.ndarray, after: np.ndarray, shift: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """The parts of two frames that show the same, ``after``'s picture lying ``shift`` (dx, dy) from ``before``'s
    (:func:`camera_shift`): ``before``'s, ``after``'s, and where ``after``'s part starts in it (x, y).

    >>> a = np.arange(24, dtype=np.uint8).reshape(4, 6)
    >>> was, now, corner = overlap(a, np.roll(a, 1, axis=1), (1, 0))
    >>> bool((was == now).all()), was.shape, corner
    (True, (4, 5), (1, 0))
    """
    h, w = before.shape[:2]
    dx, dy = shift
    was = before[max(0, -dy) : h - max(0, dy), max(0, -dx) : w - max(0, dx)]
    return was, after[max(0, dy) : h - max(0, -dy), max(0, dx) : w - max(0, -dx)], (max(0, dx), max(0, dy))


@lru_cache(maxsize=4)
def _smooth_basis(h: int, w: int) -> np.ndarray:
    """The basis of a light that varies smoothly over a picture of ``h`` x ``w`` (:func:`_light_fit`): 1, x, y,
    x², y², xy at each pixel, x and y from -1 to 1 across it; (6, h * w), kept for the next picture of that size."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    x, y = (2 * x - (w - 1)) / max(w - 1, 1), (2 * y - (h - 1)) / max(h - 1, 1)
    return np.stack([np.ones_like(x), x, y, x * x, y * y, x * y]).reshape(6, -1)


def _blurred(picture: np.ndarray) -> np.ndarray:
    """``picture`` lightly blurred (as :func:`motion_grey` is), as floats in rows (:func:`_as_rows`)."""
    return _as_rows(cv2.GaussianBlur(picture, (3, 3), 0).astype(np.float32))


def _as_rows(picture: np.ndarray) -> np.ndarray:
    """A picture's values with one row a channel, one column a pixel (numpy sums along rows several times
    faster than down three columns)."""
    return picture.reshape(picture.shape[0] * picture.shape[1], -1).T.copy()


def _light_fit(before: np.ndarray, after: np.ndarray, basis: np.ndarray | None, pixel_threshold: int,
               steer: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The change of light that makes ``before`` ``after`` (both (channels, pixels): :func:`_blurred`): each
    channel fitted by least squares as ``before``'s times a gain plus an offset, both the same everywhere
    (``basis`` None: each (channels, 1)) or combinations of the ``basis`` ((k, pixels): :func:`_smooth_basis`,
    a light that varies over the picture; each (channels, pixels)), then fitted again without the pixels the
    first fit left off by more than ``pixel_threshold`` (a moved die must not bend the fit). Only the pixels
    ``steer`` (like ``before``; default: those not at 0 or 255 in either picture) steer it. None when a gain
    the same everywhere is no light's (under 0.25 or over 4: a die's pixels now of something else, a die taken
    away); a fit with a basis is never None."""
    # (a seventh of the pixels of a picture steer the fit, and all are judged: as good a fit, sooner)
    step = 1 if basis is None else 7
    a, b, on = before[:, ::step], after[:, ::step], None if basis is None else basis[:, ::step]
    use = (a > 0) & (a < 255) & (b > 0) & (b < 255) if steer is None else steer[:, ::step].copy()
    for _ in range(2):
        weights = _fitted(a, b, use, on)
        gain, offset = weights if on is None else (weights[0] @ on, weights[1] @ on)
        # (with a basis, where a picture is of one colour gain and offset trade places freely, so its gain says
        # nothing: what the fit leaves says whether it is the same picture)
        if on is None and (gain.min() < 0.25 or gain.max() > 4.0):
            return None
        use &= np.abs(b - np.clip(gain * a + offset, 0, 255)) <= pixel_threshold
    return weights if basis is None else (weights[0] @ basis, weights[1] @ basis)


_FLAT_SPREAD = 16.0
"""The variance (grey levels squared) under which a channel of a picture is taken as of one colour by
:func:`_fitted`: a camera's noise of 2 to 3 levels and no more."""


def _fitted(before: np.ndarray, after: np.ndarray, use: np.ndarray, basis: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """The gain and the offset that fit ``after`` as ``before`` times the gain plus the offset by least squares,
    over the pixels ``use`` of each channel (:func:`_light_fit`): one of each a channel, (channels, 1) each
    (``basis`` None: every pixel's the same), or the weights of the ``basis``'s rows, (channels, k) each. Too
    few pixels to fit: the light unchanged (a gain of 1)."""
    if basis is None:
        n = np.count_nonzero(use, axis=1)
        ok = n >= 8
        n = np.maximum(n, 1)
        ma, mb = (before * use).sum(axis=1) / n, (after * use).sum(axis=1) / n
        da, db = (before - ma[:, None]) * use, (after - mb[:, None]) * use
        spread = (da * da).sum(axis=1)
        # (a channel of one colour, but for noise, fixes no gain: the light's is then taken as a gain alone)
        flat = spread < _FLAT_SPREAD * n
        gain = np.where(flat, mb / np.maximum(ma, 1.0), (da * db).sum(axis=1) / np.maximum(spread, 1e-9))
        gain = np.where(ok, gain, 1.0).astype(np.float32)
        return gain[:, None], np.where(ok, mb - gain * ma, 0.0).astype(np.float32)[:, None]
    k = basis.shape[0]
    gain, offset = np.zeros((len(before), k), np.float32), np.zeros((len(before), k), np.float32)
    gain[:, 0] = 1.0
    for c, mask in enumerate(use):
        if np.count_nonzero(mask) < 8 * k:
            continue
        part = basis[:, mask]
        design = np.concatenate([part * before[c, mask], part]).astype(np.float64)
        # (the normal equations: far faster than a least squares of every pixel, and as good for so few unknowns;
        # a whisper of a ridge for a channel of one colour, where a gain and an offset are one)
        normal = design @ design.T
        normal[np.diag_indices(2 * k)] += 1e-9 * np.trace(normal) + 1e-12
        weights = np.linalg.solve(normal, design @ after[c, mask]).astype(np.float32)
        gain[c], offset[c] = weights[:k], weights[k:]
    return gain, offset


def skin_mask(picture: np.ndarray) -> np.ndarray:
    """The pixels of a BGR picture in a broad skin-colour range (YCrCb): True where skin-coloured."""
    return cv2.inRange(cv2.cvtColor(picture, cv2.COLOR_BGR2YCrCb), (40, 138, 80), (250, 173, 125)) > 0


def skin_fraction(frame: np.ndarray) -> float:
    """Fraction of a BGR picture in a broad skin-colour range (:func:`skin_mask`).

    >>> skin_fraction(np.zeros((4, 4, 3), np.uint8))
    0.0
    """
    return new_skin_fraction(frame, None)


def new_skin_fraction(picture: np.ndarray, table: np.ndarray | None, threshold: int = 18,
                      dice: Sequence[tuple[float, float, float, float]] = ()) -> float:
    """Fraction of a BGR picture that is skin-coloured (:func:`skin_mask`) where it differs by more than
    ``threshold`` in some channel from ``table``, a picture of the same place and size before (None,
    or another size: every skin-coloured pixel counts), and lies in none of the boxes ``dice`` (x0, y0,
    x1, y1 in the picture's pixels). What the hand veto measures: a hand that came in, not a wooden
    table, nor wooden or ivory dice.

    >>> wood = np.full((4, 4, 3), (70, 110, 160), np.uint8)
    >>> hand = wood.copy(); hand[:2] = (120, 160, 215)
    >>> skin_fraction(hand), new_skin_fraction(hand, wood), new_skin_fraction(hand, None), new_skin_fraction(hand, wood, dice=[(0, 0, 2, 2)])
    (1.0, 0.5, 1.0, 0.25)
    """
    mask = skin_mask(picture)
    if table is not None and table.shape == picture.shape:
        mask &= channel_max(cv2.absdiff(picture, table)) > threshold
    for x0, y0, x1, y1 in dice:
        mask[max(0, int(y0)) : max(0, int(np.ceil(y1))), max(0, int(x0)) : max(0, int(np.ceil(x1)))] = False
    return float(np.count_nonzero(mask)) / mask.size


class Stillness:
    """Motion between consecutive frames and how long the picture has been still: the
    first half of settling, shared by the dice and the domino settlers.

    ``update`` returns the motion of a frame (1.0 for the first one); the picture is
    ``settled`` after ``still_frames`` frames without motion spanning ``still_seconds``.

    >>> still = Stillness(still_frames=2, still_seconds=0.0)
    >>> frame = np.zeros((20, 20, 3), np.uint8)
    >>> [(still.update(frame, t), still.settled) for t in range(3)]
    [(1.0, False), (0.0, False), (0.0, True)]
    """

    def __init__(self, *, still_frames: int = 3, still_seconds: float = 0.2, motion_threshold: float = 0.002,
                 pixel_threshold: int = 18, work_width: int = 160) -> None:
        if still_frames < 1:
            raise ValueError(f"still_frames must be at least 1, got {still_frames}")
        self.still_frames, self.still_seconds = still_frames, still_seconds
        self.motion_threshold, self.pixel_threshold, self.work_width = motion_threshold, pixel_threshold, work_width
        self.frames = 0  # still frames in a row
        self.moving = True
        self._since = self._now = 0.0
        self._prev: np.ndarray | None = None
        self.picture = np.zeros((0, 0, 3), np.uint8)  # the last frame's small colour copy (small_copy; none yet)
        self.compared = False  # was the last frame compared with one before it (else its motion is 1.0: nothing to go by)

    def reset(self) -> None:
        self._prev = None
        self.frames = 0
        self.moving = True

    def update(self, frame: np.ndarray, now: float) -> float:
        self.picture = small_copy(frame, self.work_width)
        small = motion_grey(self.picture)
        prev, self._prev = self._prev, small
        if prev is not None and prev.shape == small.shape:
            self.compared, motion = True, motion_fraction(prev, small, self.pixel_threshold)
        else:
            self.compared, motion = False, 1.0
        self.moving = motion > self.motion_threshold
        if self.moving:
            self.frames = 0
        else:
            if self.frames == 0:
                self._since = now
            self.frames += 1
        self._now = now
        return motion

    @property
    def settled(self) -> bool:
        return not self.moving and self.frames >= self.still_frames and self._now - self._since >= self.still_seconds


DIE_IN_DOUBT = "a die is unsure (cocked?)"
"""The :class:`Settler`'s reason while a die read unsure, or less surely than ``min_confidence``, holds the throw."""

ENTERED_BY_HAND = "entered by hand"
"""The :class:`Settler`'s reason once a throw it held was entered by hand (:meth:`Settler.answered`)."""

LIGHT_CHANGED = "unchanged since the last answer but for the light"
"""The :class:`Settler`'s reason when the picture, and each place where a die lay then or is read now, differ from the
last answer's only by their light (:func:`relit`, :func:`dice_relit`), whatever the dice read now."""

CAMERA_NUDGED = "unchanged since the last answer but for a nudge of the camera"
"""The :class:`Settler`'s reason when so, once the picture is put back where it lay then (:func:`camera_shift`: a camera nudged
when its table is bumped; :func:`camera_motion`: turned as well; :attr:`Settler.nudged`, :attr:`Settler.turned`)."""

FOLLOW_SECONDS = 2.0
"""How often (seconds) a settler with zones looks for a nudge of the camera while its table stays at rest, besides at
the first frame of each period at rest: a nudge of a few pixels of a smooth table is too slight for its motion test
(a byler tray nudged 4 px, under a hand the table's own grey: bench/dice_relight.py --zones). Each look is one
:func:`camera_motion`, 9 ms for a 1280 x 720 frame when the camera did not move, 21 when it was nudged, 28 to 36 when
it turned (bench/camera_motion.py, the thirty-fourth session)."""

ZONES_MOVED = "the camera was nudged: the zones moved with the picture"
"""The reason of a :class:`Settler` (or a ``vision.tile_settle.TileSettler``) on the frame at rest where it found the
camera nudged or turned since the frame it last looked at so and moved its zones with the picture (:attr:`Settler.zones_moved`, :attr:`Settler.zones_turned`;
:class:`ZonesFollower`); the next frames are read in the zones moved."""

WAITING_FOR_A_THROW = "at rest since the camera started: waiting for a throw"
"""The :class:`Settler`'s reason while it started disarmed and nothing has moved since."""


@dataclass(frozen=True)
class _Seen:
    """A frame at rest (a copy), and its small copy: what :func:`relit` and :func:`dice_relit` compare a later
    frame with."""

    picture: np.ndarray
    frame: np.ndarray


@dataclass(frozen=True)
class _Anchor:
    """A frame at rest as the camera gave it (a copy, the areas left out and all), the boxes of what was read in it,
    and the zones it was read in: what the next frame looked at so is compared with, to tell whether the camera was
    nudged meanwhile (:class:`ZonesFollower`)."""

    frame: np.ndarray
    boxes: list[tuple[float, float, float, float]]
    zones: Zones


class ZonesFollower:
    """Zones that follow a nudged or turned camera, for a settler of dice or of tiles (the module's point 6): the first
    frame of each period at rest, and one every :data:`FOLLOW_SECONDS` while it lasts, is compared with the last frame
    so compared, as the camera gave them, what was read in either and the areas left out hidden (:func:`camera_motion`);
    a motion moves the zones and the areas left out with the picture (:meth:`Zones.moved`)."""

    def __init__(self) -> None:
        self._anchor: _Anchor | None = None  # (the frame last looked at so)
        self._anchored: float | None = None  # (when, in this period at rest; None: not yet)

    def moving(self) -> None:
        """The picture moves: the next frame at rest is looked at, whenever it comes."""
        self._anchored = None

    def due(self, now: float) -> bool:
        """Is the frame at rest seen at ``now`` one to look at?"""
        return self._anchored is None or now - self._anchored >= FOLLOW_SECONDS

    def follow(self, frame: np.ndarray, zones: Zones, boxes: list[tuple[float, float, float, float]], now: float) -> tuple[Zones, Motion] | None:
        """``zones`` moved with the picture, and how (:class:`Motion`), when the camera was nudged or turned since the
        frame last looked at so (:func:`camera_motion` of that frame and ``frame``, seen at ``now``, as the camera
        gave them, ``boxes`` (what was read in ``frame``) and those of that frame and the areas left out hidden);
        None when it was not, or when that frame was read in other zones (a calibration saved since)."""
        self._anchored = now
        size = (frame.shape[1], frame.shape[0])
        last, out = self._anchor, None
        if last is not None and last.zones is zones and last.frame.shape == frame.shape:
            motion = camera_motion(last.frame, frame, [*last.boxes, *boxes, *zones.boxes_left_out(size)])
            if motion != Motion():
                zones = zones.moved(motion, size)
                out = (zones, motion)
        self._anchor = _Anchor(frame.copy(), boxes, zones)  # (a copy: a camera may fill the same buffer with its next frame)
        return out


class _Relighting:
    """Whether the picture since the last motion is that of ``seen`` but for its light (:func:`relit`), and each
    box where a die lies or lay too (:func:`dice_relit`), once the picture is put back where it lay then when the
    camera was nudged, or turned when that alone does not put it back (:attr:`motion`: one :class:`MotionSearch` of
    the two frames, asked for a shift and then, on the copies it made and from what it found, for a turn as
    :func:`camera_motion` is). Each verdict is kept until the picture moves: it is the same picture
    till then, and dice at rest are read in the same boxes frame after frame."""

    def __init__(self, seen: _Seen) -> None:
        self.seen = seen
        self.motion: Motion | None = None  # (how the picture moved from the seen one's; None: not yet asked)
        self._then = self._now = seen.frame  # (the parts of the seen frame and of the frame now, put back, that show the same)
        self._then_at = self._now_at = (0.0, 0.0)  # (where those parts start in each frame: the seen one's, and the one now's)
        self._back: np.ndarray | None = None  # (for a turn: the matrix that takes a point of the frame now to the seen one's)
        self._picture: bool | None = None
        self._boxes: dict[tuple[float, float, float, float], bool] = {}

    def __call__(self, frame: np.ndarray, then: Sequence[tuple[float, float, float, float]],
                 now: Sequence[tuple[float, float, float, float]], still: Stillness) -> bool:
        """Are the picture, the boxes ``then`` (the seen frame's pixels) and the boxes ``now`` (``frame``'s) as they
        were but for the light?"""
        if self.motion is None:  # (a copy: a camera may fill the same buffer with its next frame)
            search = MotionSearch(self.seen.frame, frame, [*then, *now])
            self._put_back(frame, search(turn=0.0))
            if not self._relit(frame, then, now, still):  # (a camera turned as well? then so, else as it is)
                turned = search(turn=NUDGE_TURN)
                if turned.turn != 0.0:
                    self._put_back(frame, turned)
        return self._relit(frame, then, now, still)

    def _put_back(self, frame: np.ndarray, motion: Motion) -> None:
        """The parts of the seen frame and of ``frame`` that show the same once ``frame`` is put back by ``motion``."""
        self.motion, self._picture, self._boxes, self._back = motion, None, {}, None
        if motion.turn == 0.0:
            self._then, now_part, corner = overlap(self.seen.frame, frame, (motion.dx, motion.dy))
            self._now = now_part.copy()
            self._now_at = (float(corner[0]), float(corner[1]))
            self._then_at = (corner[0] - motion.dx, corner[1] - motion.dy)
            return
        h, w = frame.shape[:2]
        m = motion.matrix((w, h))
        corners = np.array([[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]], np.float64)
        margin = int(np.ceil(np.abs(corners @ m[:, :2].T + m[:, 2] - corners).max())) + 1  # (a point of the seen frame this far in lies in the frame now)
        back = cv2.warpAffine(frame, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
        inner = np.s_[margin : h - margin, margin : w - margin]
        self._then, self._now = self.seen.frame[inner], back[inner]
        self._then_at = self._now_at = (float(margin), float(margin))
        self._back = cv2.invertAffineTransform(m)

    def _relit(self, frame: np.ndarray, then: Sequence[tuple[float, float, float, float]],
               now: Sequence[tuple[float, float, float, float]], still: Stillness) -> bool:
        """:meth:`__call__` once the picture is put back (:meth:`_put_back`)."""
        if self._picture is None:
            if self.motion == Motion():
                self._picture = relit(self.seen.picture, still.picture, still.pixel_threshold, still.motion_threshold)
            else:  # (the parts that show the same, shrunk as the settler shrinks a frame)
                width = max(1, round(still.work_width * self._now.shape[1] / frame.shape[1]))
                self._picture = relit(small_copy(self._then, width), small_copy(self._now, width), still.pixel_threshold, still.motion_threshold)
        if not self._picture:
            return False
        tx, ty = self._then_at
        for box in [(x0 - tx, y0 - ty, x1 - tx, y1 - ty) for x0, y0, x1, y1 in then] + [self._from_now(b) for b in now]:
            if box not in self._boxes:
                self._boxes[box] = dice_relit(self._then, self._now, [box], still.pixel_threshold)
            if not self._boxes[box]:
                return False
        return True

    def _from_now(self, box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        """A box of the frame now (x0, y0, x1, y1) in the pixels of the parts that show the same: put back with the
        picture (for a turn, by its centre: :func:`~vision.types.box_moved`)."""
        x0, y0, x1, y1 = box if self._back is None else box_moved(box, self._back)
        nx, ny = self._now_at
        return (x0 - nx, y0 - ny, x1 - nx, y1 - ny)


def _box_of(die: DieReading) -> tuple[float, float, float, float]:
    """A die's box; a die read without one: 20 pixels wide about its centre (as :func:`moved_dice` takes it)."""
    if die.box is not None:
        return die.box
    x, y = die.center
    return (x - 10, y - 10, x + 10, y + 10)


class Settler:
    """Feed frames; get the dice once per roll when they have come to rest.

    ``armed``: answer the dice that already lie still when it starts (the default). A
    table's camera starts disarmed (:class:`refbox.camera.CameraWorker`): dice lying in the
    tray when the table starts are no throw (after a restart they are the last roll,
    already scored), and are read once something moves.

    ``min_confidence``: the least confidence of every die of an answer; a die read less surely
    holds the roll as an unsure one does (a table's camera: ``camera.dice_confidence``). The
    default, 0.0, takes any die the reader gives a value.

    >>> from vision.synth import render_dice
    >>> s = Settler(still_frames=2, agree=2)
    >>> still, _ = render_dice([2, 5], seed=3)
    >>> [s.feed(still, t * 0.1) is not None for t in range(6)]  # still from 0.1 s, for 0.2 s from 0.3 s
    [False, False, False, True, False, False]
    """

    def __init__(
        self,
        reader: Reader | None = None,
        *,
        zones: Zones | None = None,
        still_frames: int = 3,
        still_seconds: float = 0.2,
        agree: int = 3,
        motion_threshold: float = 0.002,
        pixel_threshold: int = 18,
        hand_fraction: float = 0.04,
        max_shift: float = 0.35,
        work_width: int = 160,
        min_dice: int = 1,
        armed: bool = True,
        min_confidence: float = 0.0,
    ) -> None:
        if reader is None:
            from .dice import DiceReader

            reader = DiceReader()
        if still_frames < 1 or agree < 1:
            raise ValueError(f"still_frames and agree must be at least 1, got {still_frames} and {agree}")
        if not 0.0 <= min_confidence < 1.0:
            raise ValueError(f"min_confidence must be at least 0 and under 1, got {min_confidence!r}")
        self.reader = reader
        self.min_confidence = min_confidence
        self.zones = zones
        self.agree = agree
        self.hand_fraction = hand_fraction
        self.max_shift = max_shift
        self.min_dice = min_dice
        self.stillness = Stillness(still_frames=still_frames, still_seconds=still_seconds,
                                   motion_threshold=motion_threshold, pixel_threshold=pixel_threshold,
                                   work_width=work_width)
        self._history: deque[tuple[DieReading, ...]] = deque(maxlen=agree)
        self._armed = armed
        self._last: tuple[DieReading, ...] | None = None  # the last answer
        self._rest: tuple[DieReading, ...] | None = None  # the dice of the last frame read once the picture had settled
        self._rest_seen: _Seen | None = None  # ... and how that frame looked
        self._answer_seen: _Seen | None = None  # how the frame of the last answer looked (relit)
        self._lit: _Relighting | None = None  # (whether the picture since the last motion is that but for its light)
        self.moved: tuple[bool, ...] = ()
        self.nudged = (0, 0)  # how far (dx, dy, frame pixels) the picture lay from the last answer's when last compared with it ...
        self.turned = 0.0  # ... and how far it was turned then (degrees, counter-clockwise: Motion)
        self.zones_moved = (0, 0)  # how far (dx, dy, frame pixels) the zones were last moved with the picture (ZonesFollower) ...
        self.zones_turned = 0.0  # ... and turned then (degrees, counter-clockwise: Motion)
        self._follower = ZonesFollower()
        self.status = SettleStatus()
        self._still: np.ndarray | None = None  # the small copy of the last still frame since the last motion
        self._table: np.ndarray | None = None  # ... and of the last one before it: what a hand is told from
        self._by_hand: tuple[DieReading, ...] | None = None  # the dice of the last throw entered by hand, as read then
        self.read: tuple[DieReading, ...] = ()  # the dice read in the last picture (none while it moves: not read)

    def reset(self, reader: Reader | None = None) -> None:
        """Forget what the frames showed (after a camera reconnect; ``reader``: the new connection's
        reader, else the same): the next settled dice count as a roll, unless every die lies as the
        dice last seen at rest did ("unchanged since the last answer": a throw may have happened
        while the camera was away, but dice left as they lay are the roll already answered, or
        dice that lay there since it started)."""
        if reader is not None:
            self.reader = reader
        if self._rest is not None:  # (dice it saw at rest and did not answer, lying there since it started, are no roll either)
            self._last, self._answer_seen = self._rest, self._rest_seen
        self.stillness.reset()
        self._history.clear()
        self._armed = True
        self.moved = ()
        self._still = None  # (the table before the last motion stays what a hand is told from: a camera back over its table sees it)

    def feed(self, frame: np.ndarray, now: float) -> tuple[DieReading, ...] | None:
        """One frame at time ``now``; the settled dice once per roll, else None.

        With ``zones``, the calibration's ``ignore`` areas are left out of the frame
        first (:meth:`Zones.leave_out`): nothing there is read or counts as motion; the
        zones follow the camera when it is nudged (the module's point 6)."""
        given = frame
        if self.zones is not None:
            frame = self.zones.leave_out(frame)
        still = self.stillness
        motion = still.update(frame, now)
        if still.moving:
            if self._still is not None:
                self._table, self._still = self._still, None
            self._history.clear()
            self.read, self._lit = (), None
            self._follower.moving()
            self._armed = self._armed or still.compared  # (a first frame, with nothing to compare, arms nothing)
            self.status = SettleStatus(motion, True, False, 0, self._armed, "moving")
            return None
        self._still = still.picture
        dice = self.read = tuple(self.reader(frame))
        k = still.picture.shape[1] / frame.shape[1]  # (frame pixels to the small copy's)
        boxes = [(x0 * k, y0 * k, x1 * k, y1 * k) for x0, y0, x1, y1 in (d.box for d in dice if d.box is not None)]
        if new_skin_fraction(still.picture, self._table, still.pixel_threshold, boxes) > self.hand_fraction:
            self._history.clear()
            # (started disarmed, nothing is read before a throw anyway: a skin-coloured table is no news to the operator)
            why = WAITING_FOR_A_THROW if not self._armed and self._last is None else "hand in the picture"
            self.status = SettleStatus(motion, False, True, still.frames, self._armed, why)
            return None
        if self.zones is not None:
            dice = self.zones.assign(dice, (frame.shape[1], frame.shape[0]))
        self._history.append(dice)
        if not still.settled:  # (read already: the readings of the frames it settles over count towards agreement)
            self.status = SettleStatus(motion, False, False, still.frames, self._armed, "settling")
            return None
        if self.zones is not None and self._follower.due(now):
            followed = self._follower.follow(given, self.zones, [_box_of(d) for d in dice], now)
            if followed is not None:
                self.zones, bump = followed
                self.zones_moved, self.zones_turned = (bump.dx, bump.dy), bump.turn
                self._history.clear()  # (read in the zones as they were: the next frames are read in the zones moved)
                self.status = SettleStatus(motion, False, False, still.frames, self._armed, ZONES_MOVED)
                return None
        self._rest, self._rest_seen = dice, _Seen(still.picture, frame.copy())
        if not self._armed:
            if self._last is None:
                why = WAITING_FOR_A_THROW
            elif self._same(dice, self._last):
                why = "already reported"
            elif self._by_hand is not None and self._same(dice, self._by_hand):  # (the die in doubt of a throw entered by hand, still so)
                why = ENTERED_BY_HAND
            elif self._relit_answer(dice, frame):
                why = self._unchanged()
            else:
                why = "dice changed without a throw"
            self.status = SettleStatus(motion, False, False, still.frames, False, why)
            return None
        if any(not self.sure(d) for d in dice):
            self.status = SettleStatus(motion, False, False, still.frames, True, DIE_IN_DOUBT, dice)
            return None
        if len(dice) < self.min_dice:
            self.status = SettleStatus(motion, False, False, still.frames, True, "no dice")
            return None
        if len(self._history) < self.agree or not all(self._same(dice, h) for h in self._history):
            self.status = SettleStatus(motion, False, False, still.frames, True, "waiting for agreement")
            return None
        self._armed = False
        before, by_hand = self._last, self._by_hand
        moved = tuple(moved_dice(before, dice, self.max_shift)) if before is not None else (True,) * len(dice)
        if by_hand is not None:  # (after a throw entered by hand, a die lying as it was read then is no roll either:
            # a die the camera read surely, corrected by hand, read so again once a hand has passed over it)
            moved = tuple(m and n for m, n in zip(moved, moved_dice(by_hand, dice, self.max_shift)))
        if before is not None and len(before) == len(dice) and not any(moved):
            if by_hand is None:  # (a throw entered by hand stands, with the dice as read then, until the next answer)
                self._last, self._answer_seen = dice, self._rest_seen  # (the answer, as it lies now)
            self.status = SettleStatus(motion, False, False, still.frames, False, "unchanged since the last answer")
            return None
        if self._relit_answer(dice, frame):
            # (the dice lie where they were answered, and the picture is the answer's but for its light: a value
            # read otherwise now is a misreading, not a throw; the answer stands)
            self.status = SettleStatus(motion, False, False, still.frames, False, self._unchanged())
            return None
        self._last, self._by_hand, self._answer_seen = dice, None, self._rest_seen
        self.moved = moved
        self.status = SettleStatus(motion, False, False, still.frames, False, "settled")
        return dice

    def answered(self, values: Sequence[int] | None) -> None:
        """A throw was entered by hand, as the one this settler held (a die in doubt; the control page's
        dice read, or a roll sent as an event): the dice it read in its last picture at rest are that
        throw, answered, with the ``values`` entered in place of its readings as :func:`entered_on` puts
        them (``values`` None: as read). It is disarmed as after an answer of its own: dice settled where
        they lie (a cocked die pushed flat in place, read as entered) are no new roll, and the next throw
        is one. Entered while the picture moves (the dice picked up to be thrown again), it is still that
        throw: the motion arms the settler for the next, as ever."""
        dice = self._rest
        if dice is None:  # (no picture at rest seen: nothing for the camera to take as that throw)
            return
        self._by_hand, self._answer_seen = dice, self._rest_seen
        self._last = dice if values is None else entered_on(dice, values, self.sure)
        self._armed = False
        self._history.clear()
        self.moved = ()
        self.status = replace(self.status, armed=False, reason=ENTERED_BY_HAND, dice=())

    def sure(self, die: DieReading) -> bool:
        """Is ``die`` read surely enough for a roll: a value, at ``min_confidence`` or surer?"""
        return die.value is not None and die.confidence >= self.min_confidence

    def _relit_answer(self, dice: tuple[DieReading, ...], frame: np.ndarray) -> bool:
        """Is the picture the last answer's but for its light (:func:`relit`), and does every box where a die of
        the answer lay or one of ``dice`` lies show the same pixels as it did then, but for their light
        (:func:`dice_relit`)? Both once the picture is put back where it lay then, when the camera was nudged
        since (:func:`camera_shift`: :attr:`nudged`). Then nothing on the table moved, and whatever reads
        otherwise is misread: a die no longer found, read from another of its faces a little aside, or read where
        nothing is. A die turned where it lay changes its box, and a die thrown, even of the table's own colour,
        changes the box where it is read."""
        last, seen = self._last, self._answer_seen
        if last is None or seen is None:
            return False
        if self._lit is None or self._lit.seen is not seen:
            self._lit = _Relighting(seen)
        relit = self._lit(frame, [_box_of(d) for d in last], [_box_of(d) for d in dice], self.stillness)
        motion = self._lit.motion or Motion()
        self.nudged, self.turned = (motion.dx, motion.dy), motion.turn
        return relit

    def _unchanged(self) -> str:
        """Why dice read otherwise than the last answer, in its picture but for the light, are no roll."""
        return CAMERA_NUDGED if self.nudged != (0, 0) or self.turned else LIGHT_CHANGED

    def _same(self, a: tuple[DieReading, ...], b: tuple[DieReading, ...]) -> bool:
        """The same dice: equal multiset of values, each die of ``a`` near a die of ``b`` of that value."""
        return len(a) == len(b) and not any(moved_dice(b, a, self.max_shift))


def entered_on(dice: Sequence[DieReading], values: Sequence[int], sure: Callable[[DieReading], bool]) -> tuple[DieReading, ...]:
    """``dice`` (top to bottom) with the ``values`` of a throw entered by hand for them, in any order: each die
    read ``sure`` keeps its value while the values hold it (once each); the values left replace the readings
    of the dice left, in order, when there are as many (a die read surely but corrected by hand among them:
    the control page enters the dice in view top to bottom), else of the dice in doubt alone when there are
    as many of those (the dice in view are the throw and dice set aside, which a roll leaves out). Otherwise
    the dice in view are not the throw entered: as read.

    >>> a, b = DieReading(6, (0.0, 0.0), 0.9), DieReading(None, (0.0, 50.0), 0.3)
    >>> [d.value for d in entered_on([a, b], [4, 6], lambda d: d.value is not None)]
    [6, 4]
    >>> [d.value for d in entered_on([a, a, a, b], [6, 1], lambda d: d.value is not None)]  # (two 6 set aside)
    [6, 6, 6, 1]
    >>> [d.value for d in entered_on([a, b], [2, 5], lambda d: d.value is not None)]  # (the 6 corrected to 2)
    [2, 5]
    >>> [d.value for d in entered_on([a, b], [6, 1, 2], lambda d: d.value is not None)]
    [6, None]
    """
    left = [int(v) for v in values]
    kept = []
    for d in dice:
        held = sure(d) and d.value in left
        if held and d.value is not None:
            left.remove(d.value)
        kept.append(held)
    rest = [i for i, k in enumerate(kept) if not k]
    doubt = [i for i in rest if not sure(dice[i])]
    into = rest if len(left) == len(rest) else doubt if len(left) == len(doubt) else []
    if not into:
        return tuple(dice)
    out = list(dice)
    for i, v in zip(into, left):
        out[i] = replace(dice[i], value=v)
    return tuple(out)


def moved_dice(
    before: Sequence[DieReading], after: Sequence[DieReading], max_shift: float = 0.35, reach: Callable[[DieReading], float] | None = None
) -> list[bool]:
    """For each die of ``after``: True unless a die of ``before`` of the same value lay
    within ``max_shift`` of its size of it, and 2 pixels (a die without a box: 20 pixels wide),
    each die of ``before`` matching once. ``reach``: how near instead, for each die of ``after``
    (a camera's reader asks whether its looks read the same dice so: ``vision.dice._same_dice``).

    >>> a = DieReading(3, (100.0, 100.0), 0.9, (90, 90, 110, 110))
    >>> moved_dice([a], [a, DieReading(5, (300.0, 100.0), 0.9, (290, 90, 310, 110))])
    [False, True]
    """
    left = list(before)
    out = []
    for d in after:
        if reach is not None:
            far = reach(d)
        else:
            size = 20.0
            if d.box is not None:
                size = max(d.box[2] - d.box[0], d.box[3] - d.box[1], 4)
            far = max_shift * size + 2
        near = next((i for i, e in enumerate(left) if e.value == d.value
                     and np.hypot(d.center[0] - e.center[0], d.center[1] - e.center[1]) <= far), None)
        if near is not None:
            left.pop(near)
        out.append(near is None)
    return out
