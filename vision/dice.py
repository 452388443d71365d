"""Read dice pips in a still image (pure: array in, readings out).

The reader finds dice by their pips, not by die outlines, so that it does not
care about the colour of the dice, the polarity of the pips (dark on light or
light on dark), touching dice or a cluttered background; a small shipped
network then checks and reads each candidate:

1. **Scale.** The frame is reduced so its longer side is at most
   ``WORK_SIZE`` pixels (speed; the pips of a die on a table camera stay a few
   pixels wide). When the dice found there are smaller than the reader reads
   well (``Params.min_work_die``: a 1280 x 720 camera that sees a die 45
   pixels wide), the frame is read again less reduced, so that dice are
   ``Params.work_die`` pixels (at most at the frame's own size);
   :class:`DiceReader` remembers that scale for the next frames of a camera.
   Dice so big that their pips are wider than a pip can be (``Params.big_die``
   working pixels: a close-up) are looked for in a copy half as large when the
   first look read no die surely (:func:`big_dice`).
2. **Pip evidence.** A colour difference of Gaussians (fine blur minus coarse
   blur, per channel, then the Euclidean norm over channels) is large on small
   blobs of any colour against their surroundings, and only a thin ridge on the
   straight edges of dice, trays and table clutter.
3. **Pips.** The evidence is thresholded; components that are small, round and
   solid are pips (ridges are long and thin; glare streaks fail the roundness).
4. **Faces.** Pips are linked into faces when they have similar sizes, lie
   within a few pip diameters of each other, and the straight path between them
   crosses no edge (a die edge between two pips, e.g. between touching dice or
   between the top and a side face, is a ridge of the evidence); inside the
   outline of a lone die (:func:`die_regions`) the path test is skipped, and
   pips in two squares of a row of dice side by side never link. A group
   that is no face keeps the largest subset of alike pips that fits a die face
   pattern (:func:`best_face`); the rest are grouped again. Each face (1 to 6
   pips on something that differs from the table) is a *candidate*.
5. **Value and confidence** (``Params.learned``, the default). A small network
   (:mod:`vision.dice_model`) reads a crop round each candidate: "no die" or
   the value 1..6. Candidates it takes for no die are dropped; of candidates of
   one die a clear face whose count the network reads is kept, else the
   surest, its value the network's (a clear face of round pips keeps its own
   count if the network finds it possible). By default (:data:`AUTO`) a second
   network, the one for translucent casino dice, reads the candidates too, and
   its dice are kept when they are clearly surer (:func:`read_faces`).
   With ``learned=False`` the classical rules decide instead: faces on clutter
   or much smaller than the clear faces are dropped, the roundest face of a die
   is its top and the number of pips its value, the confidence how well they
   form the pattern. Either way, below ``CONFIDENCE_THRESHOLD`` the die is
   reported with value None (unsure), never guessed.
6. **Touching dice, again.** Dice that touch share no outline, and in a
   reduced copy the pips of neighbours run together. A group of dice read
   touching each other that the first look is in doubt about (a die read
   unsure, a die read as wide as two, or a pip group seen squarely that no
   die read claims) is read
   again from a copy twice as large, cut round the group; its readings are
   kept when they read more dice surely (:func:`touching_again`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import combinations
from math import atan2, ceil, cos, degrees, floor, hypot, inf, pi, radians, sin, sqrt
from pathlib import Path
from statistics import median
from typing import NamedTuple

import cv2
import numpy as np

from .dice_model import network_path
from .pixels import channel_max, halved
from .settle import moved_dice
from .types import DieReading

CONFIDENCE_THRESHOLD = 0.5
"""Readings with a confidence below this are reported unsure (value None)."""

WORK_SIZE = 640
"""Longer side, in pixels, of the image the reader works on first (at most the image's own: never enlarged)."""


@dataclass(frozen=True)
class Params:
    """Tuning of the reader (all lengths in working-scale pixels)."""

    fine_sigma: float = 1.0
    coarse_sigma: float = 3.0
    pip_threshold: float = 14.0  # lightness DoG a pip must reach (L in 0..255)
    chroma_threshold: float = 10.0
    levels: tuple[float, ...] = (1.0, 2.0, 4.0)  # threshold steps, times the thresholds above
    min_peak: float = 24.0  # a pip's strongest lightness DoG (scaled for chroma)  # same in a or b (colour pips on a colour die)
    min_pip_area: float = 4.0
    max_pip_area: float = 400.0
    min_solidity: float = 0.75
    min_ring_area: float = 30.0  # rings of evidence this big (round a big pip) are filled
    max_elongation: float = 2.6
    tilt_roundness: float = 0.2  # pips of one face differ at most this much in roundness
    tilt_angle: float = 30.0
    tilt_min_diameter: float = 0.0  # pips smaller than this have no reliable shape  # elongated pips of one face point the same way (degrees)
    max_face_spread: float = 3.6  # a face's pips lie at most this many pip lengths from its centre (pips of several touching dice spread further)
    max_clutter: float = 0.35  # colour spread round a lone pip / its contrast
    max_clutter_pattern: float = 0.7  # the same for several pips (their pattern is evidence too)
    min_single_roundness: float = 0.62  # a lone pip (a one) must be seen this squarely
    min_relative_diameter: float = 0.65  # pips smaller than this part of the clear faces' pips are specks
    min_relative_peak: float = 0.45
    min_relative_diameter_pattern: float = 0.65  # the same for several pips in a face pattern
    min_relative_peak_pattern: float = 0.3
    pip_weight: float = 0.0  # choosing a die's top face: each pip counts like this much roundness
    side_face_margin: float = 0.0  # a side face's pips are this much less round than the top's
    same_die: float = 0.85  # faces closer than this many die sizes belong to one die
    link_factor: float = 4.5  # link pips closer than this many (mean) diameters
    min_face_contrast: float = 10.0  # colour distance between die face and table background ...
    contrast_pips: int = 4  # ... which faces of this many pips (a square pattern: a white die on a white tray) need not reach
    edge_colour: float = 40.0  # colour change along the path between two pips that means an edge
    seam_colour: float = 60.0  # a colour this far from the face round both pips, on a path ...
    seam_path: float = 1.0  # ... at most this many pip diameters long, is the seam between touching dice
    pip_colour: float = 80.0  # pips of one die have about the same colour
    learned: bool = True  # check and read the candidates with the shipped classifier (vision.dice_model)
    turns: int = 4  # the classifier looks at each crop turned this many quarter turns (1-4) ...
    sure: float = 0.5  # ... when its first look gives no class this much probability (half: one class outweighs the rest) ...
    turn_claimed: float = 0.8  # ... unless a die read this surely (die times confidence) claims it (one_per_die would drop it whatever it reads)
    min_die: float = 0.8  # the classifier's probability of "a die" a candidate needs ...
    unsure_die: float = 0.9  # ... and one whose value it cannot read (an unsure die, which holds the roll): clutter is rarely this clearly a die
    clear_roundness: float = 0.85  # a face whose pips are this round ...
    second_opinion: float = 0.15  # ... keeps its pip count when the network gives that count this much
    agree_roundness: float = 0.75  # a face of round pips (this much) in a good pattern whose count the network reads is its die
    lone_one: float = 0.9  # a lone pip as round that the network reads as a one this surely is its die's top face
    region_colour: float = 30.0  # colour distance from the table model that marks a die's body
    region_solidity: float = 0.88  # a lone die's outline is convex (touching dice are not)
    region_aspect: float = 1.5  # ... and about square (a die and its side faces)
    region_size: float = 12.0  # ... and at most this many pip diameters across
    region_row: int = 6  # a convex blob that fills its box and is 2 to this many times as long as wide (1: none) ...
    region_row_slack: float = 0.12  # ... within this share of a whole number is that many dice in a row, one square each
    row_one_crop: float = 1.0  # a lone pip in a square of a row is read from a crop this many die sizes wide (else 1.5: its neighbours' pips would show)
    min_work_die: float = 22.0  # dice smaller than this (die_size, working pixels; the training photos: 22 to 60) are read again from a larger copy ...
    work_die: float = 30.0  # ... where they are this big
    big_die: float = 100.0  # dice this big (working pixels) are looked for in a copy half as large, when the first look read no die surely (big_dice)
    touching_scale: float = 2.0  # a group of dice read touching that the reader is in doubt about is read again this many times as large, at most at the picture's own size (1: never) ...
    touching_reach: float = 1.5  # ... dice whose centres lie closer than this many die sizes touch, and candidates that close belong to their group ...
    touching_big: float = 1.8  # ... in doubt: a die read more than this many die sizes wide (the pips of several), which touches on its own ...
    touching_off: float = 0.75  # ... a die read unsure, or a candidate further than this many die sizes from every die read ...
    touching_roundness: float = 0.9  # ... whose pips are this round (a face seen squarely, not a side face) ...
    touching_margin: float = 1.5  # ... from a copy cut this many die sizes round the group's centres ...
    touching_new: int = 2  # ... whose readings replace the first look's there when they read more dice surely, and at most this many dice more (clutter read larger) ...
    touching_clear: float = 0.9  # ... or any number more at this mean confidence
    part_colour: float = 12.0  # a camera's reader reads only the parts of a frame whose 8x reduced copy differs this much from the table model in some channel ...
    part_share: float = 0.7  # ... unless those parts cover more than this share of the frame (changed_parts)
    same_picture: float = 6.0  # a frame read in the same parts as the frame before (or both whole), whose 8x reduced copy differs from that one's nowhere by more than this in any channel, is not searched: that frame's readings are kept (look_at's before; negative: never)
    network: Path | None = None  # the classifier's ONNX file (vision.dice_model.network_path; None: the standard one, dice_model.MODEL_PATH)
    other_network: Path | None = None  # a second classifier that reads the same candidates (None: none) ...
    other_margin: float = 0.1  # ... whose readings are kept when their mean confidence is higher by more than this (read_faces)


DEFAULT = Params()

CHOICE_OF_NETWORKS = ("standard", "clear")
"""The networks the reader chooses between, the first first (``vision.dice_model.NETWORKS``): for a
picture by :data:`AUTO`, for a camera's frames by :class:`ChoosingReader`."""

AUTO = replace(DEFAULT, network=network_path(CHOICE_OF_NETWORKS[0]), other_network=network_path(CHOICE_OF_NETWORKS[1]))
"""How :func:`read_dice` reads a picture unless told otherwise: its candidates are read by the
standard network and by the clear one, and the clear network's dice are kept when they are
surer by more than ``other_margin`` (:func:`read_faces`). Translucent casino dice are read by
the clear network so, and opaque dice keep the standard network's readings (docs/vision-record.md,
"A picture that chooses its network")."""

CHOOSE = "auto"
"""The network name that has the reader choose between :data:`CHOICE_OF_NETWORKS` (:func:`params_for`)."""


def params_for(network: str) -> Params:
    """How a picture is read by the network named ``network`` (``camera.dice_network``): :data:`AUTO`
    for ``auto`` (:data:`CHOOSE`), else by that network alone: a name of
    ``vision.dice_model.NETWORKS`` or an ``.onnx`` file (:func:`vision.dice_model.network_path`,
    which refuses anything else with a ValueError naming it). A camera given these reads as
    :func:`camera_reader` makes it.

    >>> params_for("auto") is AUTO, params_for("standard") == DEFAULT
    (True, True)
    """
    return AUTO if network == CHOOSE else Params(network=network_path(network))


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    area: float
    strength: float
    roundness: float = 1.0  # minor / major axis of the blob
    angle: float = 0.0  # orientation of the major axis, degrees
    colour: tuple[float, float, float] = (0.0, 0.0, 0.0)
    dark: bool = True  # darker than its surroundings

    @property
    def diameter(self) -> float:
        return 2.0 * sqrt(self.area / pi)  # (math's root of a float: numpy's, without its wrapper)


def working_copy(image: np.ndarray, scale: float | None = None) -> tuple[np.ndarray, float]:
    """The image at the reader's working scale (``scale``, default :func:`first_scale`), and that scale
    (working pixels per image pixel)."""
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"expected a BGR image of shape (h, w, 3), got {image.shape}")
    if scale is not None and not 0.0 < scale < float("inf"):
        raise ValueError(f"working scale {scale!r}: expected working pixels per image pixel above 0")
    h, w = image.shape[:2]
    scale = first_scale(image.shape) if scale is None else min(1.0, scale)
    if scale == 1.0:
        return image, scale
    return shrunk(image, (round(w * scale), round(h * scale))), scale


def shrunk(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """``image`` made smaller, ``size`` (width, height): each pixel about the mean of those it covers.

    By a whole number of pixels each way, or by more than 3, that is OpenCV's area resize. By any
    other share, the area resize takes 4 to 8 ms for a 1280 x 720 frame on one core (0.3 ms at a
    half), so the image is blurred by the Gaussian with the variance of the box one new pixel
    covers ((k² - 1) / 12 for k old pixels a new one) and sampled between its pixels: 1.3 to 2 ms,
    and on average 0.03 to 0.25 grey levels from the area resize (byler's photos in 1280 x 720
    frames, scales 0.95 to 0.6; a pattern as fine as the pixels themselves keeps more contrast).
    Below ``_IDENTITY_SIGMA`` (scales above 0.72) OpenCV's blur of 8-bit pixels gives each
    neighbour a weight that rounds to nothing: the picture comes back unchanged, so it is not
    blurred (0.8 ms of a 1280 x 720 frame; a camera's reader works at such scales when its dice
    are 30 to 42 pixels wide).
    """
    h, w = image.shape[:2]
    kx, ky = w / size[0], h / size[1]
    if (w % size[0] == 0 and h % size[1] == 0) or max(kx, ky) > 3:
        return cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    sigma_x, sigma_y = (np.sqrt(max(k * k - 1.0, 0.0) / 12.0) for k in (kx, ky))
    if max(sigma_x, sigma_y) >= _IDENTITY_SIGMA:
        image = cv2.GaussianBlur(image, (0, 0), sigma_x, sigmaY=sigma_y)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR)


_IDENTITY_SIGMA = 0.28
"""The Gaussian blur below which OpenCV leaves 8-bit pixels as they are (:func:`shrunk`): a neighbour
one pixel away weighs exp(-1 / (2 sigma²)), under 0.0017 here, less than the half step of the
fixed-point weights OpenCV blurs bytes with. Measured: unchanged at sigma 0.278 (scale 0.72) on
noise and on real frames, 4 grey levels off at 0.295 (scale 0.70); a test checks it."""


def first_scale(shape: tuple[int, ...]) -> float:
    """The scale an image of this shape is read at first: its longer side ``WORK_SIZE`` pixels, never enlarged."""
    return min(1.0, WORK_SIZE / max(shape[:2]))


def read_dice(image: np.ndarray, params: Params = AUTO, scale: float | None = None) -> list[DieReading]:
    """Read every die in a BGR image; centres and boxes are in the image's pixels.

    ``scale``: the working scale to try first (:func:`look_at`).

    >>> read_dice(np.zeros((100, 100, 3), np.uint8))
    []
    """
    return look_at(image, params, scale).readings


@dataclass(frozen=True)
class Look:
    """What :func:`look_at` saw in a picture on the way to its readings (for benches that sort the reader's errors,
    and for a camera's reader that has the same candidates read by another network: :func:`read_faces`)."""

    work: np.ndarray  # the picture at the working scale
    scale: float  # working pixels per image pixel
    candidates: list[Face]  # every candidate face, in working pixels
    readings: list[DieReading]  # what read_dice returns
    parts: list[tuple[int, int, int, int]] | None = None  # the boxes of work that differ from the table (changed_parts): searched alone when changed_only; None: the whole
    found: list[Face] = field(default_factory=list)  # the big dice found in a copy half as large (big_dice), in working pixels
    regions: Regions | None = None  # work's die outlines: lone dice, and the squares of rows of dice (die_regions)
    network: Path | None = None  # the network whose readings these are (Params.network, or Params.other_network when its were kept)
    table: Table | None = None  # the table it was read against (table_model, table_background)
    reduced: np.ndarray | None = None  # work reduced 8 times (table_model), which the parts were found in
    again: list[tuple[int, int, int, int]] = field(default_factory=list)  # the boxes (image pixels) round touching dice whose second, larger look's readings were kept (touching_again)
    in_parts: bool = False  # its candidates are of its parts alone (changed_only), searched or read again
    reused: bool = False  # its candidates (and outlines) are those of the look before it (look_at's before): the same parts showing the same picture

    @property
    def faces(self) -> list[Face]:
        """The candidates and the big dice found: every face a die was looked for at."""
        return self.candidates + self.found

    @property
    def die_px(self) -> float:
        """The dice's size in the picture's own pixels (:func:`die_size` of the faces; 0.0 without a clear face)."""
        return die_size(self.faces) / self.scale

    @property
    def outline_px(self) -> float:
        """The lone dice's size by their outlines (:func:`outline_size`) in the picture's own pixels (0.0: none measured)."""
        return outline_size(self.faces, self.regions) / self.scale if self.regions is not None else 0.0


def look_at(
    image: np.ndarray, params: Params = AUTO, scale: float | None = None, changed_only: bool = False, table: Table | None = None, before: Look | None = None,
    search_whole: bool = False,
) -> Look:
    """:func:`read_dice`, keeping what it saw on the way (:class:`Look`).

    ``changed_only``: search only the parts of the picture that differ from the
    table (:func:`changed_parts`); a camera's reader does, once a look at a whole
    frame has shown that they hold its dice (:class:`DiceReader`). ``table``: the
    table a look at a whole earlier frame of this camera saw (:attr:`Look.table`),
    which the parts are found against instead of this picture's own when it is
    of the working copy's size (:func:`_candidates`). ``before``: the look at the
    camera's frame before this one; when both are read in the same parts (or both
    whole) at the same scale and this picture, reduced 8 times, differs from that
    one's by no more than ``params.same_picture`` anywhere (a table at rest: a
    camera's noise), it is not searched (:attr:`Look.reused`, :func:`_same_search`):
    that look's readings are kept when they were read by the network ``params``
    read with (the same candidates in the same pixels but for that noise), else
    its candidates are read again. A look whose readings are kept keeps the
    picture they were read from (:attr:`Look.reduced`), so each frame after it is
    compared with that picture, not with the frame before: a light that changes
    slowly has the frame searched again once it has moved ``same_picture``.

    The image is looked at at ``scale`` (default :func:`first_scale`); when the
    candidate faces found there (:func:`candidate_faces`) show dice smaller than
    ``params.min_work_die`` working pixels (:func:`die_size`) and the image was
    reduced, it is looked at again at the scale :func:`better_scale` gives, and
    only then are the candidates read (:func:`read_faces`). When every candidate
    of the first look lies in the parts of the picture that differ from the
    table (:func:`changed_parts`), the second look searches those parts alone
    (:attr:`Look.in_parts`), as a camera's reader does once a whole look has
    shown that they hold its dice: a picture's bare table is not searched twice.
    ``search_whole`` searches the whole picture at the second scale all the
    same: a camera's check of a whole frame, whose readings must tell whether
    its parts hold every die (:func:`in_changed_parts`). A reduced picture's
    groups of touching dice that the look is in doubt about are read again
    larger (:func:`touching_groups`, :func:`touching_again`).
    """
    work, scale, regions, faces, parts, seen, small, reused = _candidates(image, params, first_scale(image.shape) if scale is None else scale, changed_only, table, before)
    again = better_scale(faces, scale, params, regions)
    if again is not None:
        # (the first look's candidates all in its parts: the dice are there, and the second look searches them alone)
        changed_only = changed_only or (not search_whole and parts is not None and _all_inside(((f.x, f.y) for f in faces), parts))
        work, scale, regions, faces, parts, seen, small, reused = _candidates(image, params, again, changed_only, table, before)
    if reused and before is not None and (before.network == params.network or (params.other_network is not None and before.network == params.other_network)):
        # the candidates of a picture as before's but for a camera's noise, read by the same network: its readings
        # (and the picture they were read from, which the next frame is compared with: no drift, frame by frame)
        return replace(before, work=work, table=seen, reused=True)
    chosen, found, network = read_faces(image, work, scale, faces, regions, params)
    out: list[DieReading] = []
    for f in chosen:
        x0, y0, x1, y1 = f.box
        out.append(
            DieReading(
                f.value if f.confidence >= CONFIDENCE_THRESHOLD else None,
                (f.x / scale, f.y / scale),
                f.confidence,
                (int(x0 / scale), int(y0 / scale), int(np.ceil(x1 / scale)), int(np.ceil(y1 / scale))),
            )
        )
    read_again: list[_Box] = []
    if scale < 1.0 and params.touching_scale > 1.0:
        out, read_again = touching_again(image, scale, out, touching_groups(chosen, faces, params), params)
    out.sort(key=lambda r: (r.center[1], r.center[0]))
    in_parts = before.in_parts if reused and before is not None else changed_only and parts is not None
    return Look(work, scale, faces, out, parts, found, regions, network, seen, small, read_again, in_parts, reused)


def touching_groups(chosen: list[Face], faces: list[Face], params: Params = DEFAULT) -> list[_Box]:
    """Boxes (working pixels) round the groups of dice read (``chosen``) that touch each other and that the
    look is in doubt about, each ``params.touching_margin`` die sizes round its centres; boxes that overlap are one.

    Dice whose centres lie closer than ``touching_reach`` die sizes (:func:`die_size` of the candidate
    ``faces``, or the dice's median size) touch; a candidate that close to a die or to another
    candidate of the group belongs to it. A group is in doubt when a die of it was read unsure, or
    when a candidate of it seen squarely (pips ``touching_roundness`` round: a top face, not a
    side face) lies further than ``touching_off`` die sizes from every die read: a face whose pips
    the look grouped with a neighbour's, or read as no die. A die read more than ``touching_big``
    die sizes wide is a face made of the pips of several dice (unless it is a lone pip read as a
    one: a big pip, or a round token): its group is in doubt, and is read again even when no other
    die read touches it.
    """
    if not chosen:
        return []
    size = die_size(faces) or float(median([f.size for f in chosen]))
    every = chosen + faces
    n = len(chosen)
    xy = np.array([(f.x, f.y) for f in every])
    apart = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1])  # (all at once: a frame has tens of candidates)
    near = apart < params.touching_reach * size
    root = _components(near).tolist()
    ii, jj = np.nonzero(np.triu(near[:n, :n], 1))
    touching = {root[i] for i in ii.tolist()}  # (two dice read)
    big = {root[i] for i, f in enumerate(chosen) if f.size > params.touching_big * size and not (f.pips == 1 and f.value == 1)}  # (a big lone pip read as a one is one die)
    touching |= big
    doubt = {root[i] for i, f in enumerate(chosen) if f.confidence < CONFIDENCE_THRESHOLD} | big
    off = apart[n:, :n].min(axis=1) > params.touching_off * size  # (candidates off every die read)
    doubt.update(root[n + k] for k, f in enumerate(faces) if off[k] and f.roundness >= params.touching_roundness)
    margin = params.touching_margin * size
    boxes: dict[int, tuple[float, float, float, float]] = {}
    for i, f in enumerate(every):
        r = root[i]
        if r in touching and r in doubt:
            x0, y0, x1, y1 = boxes.get(r, (f.x, f.y, f.x, f.y))
            boxes[r] = (min(x0, f.x), min(y0, f.y), max(x1, f.x), max(y1, f.y))
    return _merged([(floor(x0 - margin), floor(y0 - margin), ceil(x1 + margin), ceil(y1 + margin)) for x0, y0, x1, y1 in boxes.values()])


def touching_again(
    image: np.ndarray, scale: float, readings: list[DieReading], groups: list[_Box], params: Params = DEFAULT
) -> tuple[list[DieReading], list[_Box]]:
    """``readings`` (of ``image`` read at ``scale``) with each group of touching dice (:func:`touching_groups`,
    boxes in working pixels) read again from ``image`` cut round it, ``params.touching_scale`` times as
    large (at most the picture's own size), where that reads more dice surely; and the boxes
    (image pixels) whose second look was kept.

    The second look reads the cut as a picture of its own (:func:`look_at`; it reads nothing again).
    Of its readings, those wholly inside the cut count; they take the place of the first look's
    readings that lie more than half a die inside the cut or within 0.6 of a die of one of them,
    when they hold more dice read surely, less those read unsure, than those, and at most
    ``params.touching_new`` dice more: the first look saw the dice of the group, and a cut that
    finds many more has read clutter (a printed board) larger, not dice the first look ran together,
    unless it reads them all clearly (a mean confidence of ``params.touching_clear``: a first look
    that took the pips of many dice for a few big faces).
    """
    h, w = image.shape[:2]
    larger = min(1.0, scale * params.touching_scale)
    inner = replace(params, touching_scale=1.0)
    out, kept = list(readings), []
    for gx0, gy0, gx1, gy1 in groups:
        x0, y0 = max(0, int(gx0 / scale)), max(0, int(gy0 / scale))
        x1, y1 = min(w, ceil(gx1 / scale)), min(h, ceil(gy1 / scale))
        cut = look_at(image[y0:y1, x0:x1], inner, larger).readings
        if not cut:
            continue
        whole = [r for r in cut if r.box is not None and r.box[0] > 0 and r.box[1] > 0 and r.box[2] < x1 - x0 and r.box[3] < y1 - y0]
        theirs = [_shifted(r, x0, y0) for r in whole]
        die = float(median([r.box[2] - r.box[0] for r in cut if r.box is not None]))
        half = 0.5 * die
        ours = [
            r
            for r in out
            if (x0 + half <= r.center[0] <= x1 - half and y0 + half <= r.center[1] <= y1 - half)
            or any(hypot(r.center[0] - t.center[0], r.center[1] - t.center[1]) < 0.6 * die for t in theirs)
        ]
        few = len(theirs) <= len(ours) + params.touching_new or mean_confidence(theirs) >= params.touching_clear
        if _sure_less_unsure(theirs) > _sure_less_unsure(ours) and few:
            out = [r for r in out if r not in ours] + theirs
            kept.append((x0, y0, x1, y1))
    return out, kept


def _shifted(r: DieReading, dx: int, dy: int) -> DieReading:
    """A reading of a cut of a picture, in the picture's pixels (the cut's corner at ``dx``, ``dy``)."""
    box = None if r.box is None else (r.box[0] + dx, r.box[1] + dy, r.box[2] + dx, r.box[3] + dy)
    return replace(r, center=(r.center[0] + dx, r.center[1] + dy), box=box)


def _sure_less_unsure(readings: list[DieReading]) -> int:
    """The dice read surely, less those read unsure."""
    return sum(1 if r.value is not None else -1 for r in readings)


def _components(near: np.ndarray) -> np.ndarray:
    """The group of each node of a graph (``near``: (n, n) booleans, symmetric): the smallest index of the
    nodes joined to it by a path. (Each pass takes the smallest of the neighbours' labels, so as many
    passes as the longest path: a few, between dice; in numpy, faster than a union-find in Python.)"""
    label = np.arange(len(near))
    while True:
        new = np.where(near, label[None, :], label[:, None]).min(axis=1)
        if np.array_equal(new, label):
            return label
        label = new


def _roots(n: int, pairs: Sequence[tuple[int, int]]) -> list[int]:
    """The group of each of ``n`` items once every pair is joined (union-find): a representative index each;
    items of one group share it."""
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for u, v in pairs:
        parent[find(u)] = find(v)
    return [find(i) for i in range(n)]


def read_faces(
    image: np.ndarray, work: np.ndarray, scale: float, faces: list[Face], regions: Regions | None, params: Params = DEFAULT
) -> tuple[list[Face], list[Face], Path | None]:
    """The dice read from the candidate ``faces`` of ``work`` (``image`` at ``scale``), one face each;
    the big dice among them found in a copy half as large; and the network that read them.

    With ``params.learned`` the network ``params.network`` reads them (:func:`learned_faces`).
    When that look was at the first scale (or a smaller one) and reads no die, or some die
    unsure, a copy half as large is searched for dice too big to read there (:func:`big_dice`).
    With ``params.other_network`` a second network then reads the same candidates the same way,
    and its dice are kept instead when both networks read dice and the mean confidence of its
    dice is higher by more than ``params.other_margin``: translucent casino dice, which the
    standard network reads badly, are read by the ``clear`` network so (docs/vision-record.md, "A
    picture that chooses its network"). Dice the first network reads at a mean confidence of
    ``1 - other_margin`` and more cannot be beaten so, and are not read by the second.
    Without ``params.learned``, the classical rules choose (:func:`plausible_faces`).
    """
    if not params.learned:
        return suppress_side_faces(plausible_faces(faces, params), params), [], None
    chosen = learned_faces(work, faces, params, regions)
    found: list[Face] = []
    if scale <= first_scale(image.shape) and not (chosen and all(f.confidence >= CONFIDENCE_THRESHOLD for f in chosen)):
        chosen, found = big_dice(image, work, scale, chosen, regions, params)
    if params.other_network is None or not chosen or mean_confidence(chosen) >= 1.0 - params.other_margin:
        return chosen, found, params.network  # (without dice of the first, or with dice so sure that no reading can be surer by the margin, the second's are not kept)
    theirs, their_found, _ = read_faces(image, work, scale, faces, regions, replace(params, network=params.other_network, other_network=None))
    if theirs and mean_confidence(theirs) - mean_confidence(chosen) > params.other_margin:
        return theirs, their_found, params.other_network
    return chosen, found, params.network


def mean_confidence(faces: Sequence[Face] | Sequence[DieReading]) -> float:
    """The mean confidence of dice read (0.0 for none)."""
    return float(np.mean([f.confidence for f in faces])) if faces else 0.0


def big_dice(
    image: np.ndarray, work: np.ndarray, scale: float, chosen: list[Face], regions: Regions | None, params: Params = DEFAULT
) -> tuple[list[Face], list[Face]]:
    """``chosen`` (the dice read in ``work``, ``image`` at ``scale``) with the dice too big to read there
    that a copy half as large shows (unchanged when ``work`` cannot hold a die that big), and those big
    dice alone.

    The pips of a die ``params.big_die`` working pixels wide and more are wider than a pip can be
    (``max_pip_area``): such a die is not found, or only by specks on it. In the half-size copy
    its pips are found; each candidate face at least ``big_die`` wide (in ``work``'s pixels) is
    read from ``work`` like any other, and is a die when the network reads the number of pips
    found on it (a big lone "pip" is often a cluster of small dice or a game's round token,
    read as a six) and no sure reading of ``chosen`` lies in its box (small dice taken for the
    pips of a big face). Readings of ``chosen`` in its box (unsure, specks) are dropped.
    """
    if min(work.shape[:2]) < params.big_die:
        return chosen, []
    big = [_scaled(f, 2.0) for f in _candidates(image, params, scale / 2)[3] if 2.0 * f.size >= params.big_die]
    if not big:
        return chosen, []

    def inside(f: Face, b: Face) -> bool:
        return b.box[0] <= f.x <= b.box[2] and b.box[1] <= f.y <= b.box[3]

    sure = [f for f in chosen if f.confidence >= CONFIDENCE_THRESHOLD]
    found = [b for b in learned_faces(work, big, params, regions) if b.value == b.pips and b.confidence >= CONFIDENCE_THRESHOLD and not any(inside(f, b) for f in sure)]
    return [f for f in chosen if not any(inside(f, b) for b in found)] + found, found


def _scaled(f: Face, k: float) -> Face:
    """A candidate face found in a copy of the picture ``1 / k`` as large, in the picture's working pixels."""
    r = f.roundest
    x0, y0, x1, y1 = f.box
    return replace(f, x=f.x * k, y=f.y * k, size=f.size * k, box=(x0 * k, y0 * k, x1 * k, y1 * k), diameter=f.diameter * k, roundest=None if r is None else (r[0] * k, r[1] * k))


_Box = tuple[int, int, int, int]


def _candidates(
    image: np.ndarray, params: Params, scale: float, changed_only: bool = False, table: Table | None = None, before: Look | None = None
) -> tuple[np.ndarray, float, Regions | None, list[Face], list[_Box] | None, Table, np.ndarray, bool]:
    """The picture at ``scale`` (:func:`working_copy`), that scale, its lone-die outlines (:func:`die_regions`),
    its candidate faces, its parts that differ from the table (:func:`changed_parts`): with
    ``changed_only`` only those are searched; that table; the picture reduced 8 times, which
    the parts were found in (:func:`table_model`); and whether the outlines and candidates are
    those of ``before`` (:func:`_same_search`: then the parts are not searched).

    The table is the picture's own (:func:`table_model`, :func:`table_background`), or with
    ``changed_only`` the given ``table`` of the working copy's size (a whole earlier frame's:
    its median is a millisecond and more of a frame read in parts) while the parts found
    against it are few enough to be searched alone; when they are not, as without ``table``."""
    work, scale = working_copy(image, scale)
    small = _reduced(work)
    if changed_only and table is not None and table.background.shape == work.shape:
        parts = changed_parts(small, table.model, work.shape, params, table.watch)
        if parts is not None:
            if before is not None and _same_search(before, scale, parts, small, params):
                return work, scale, before.regions, before.candidates, parts, table, small, True
            return (*_in_parts(work, scale, parts, table, params), small, False)
    if before is not None and before.table is not None and _same_search(before, scale, None, small, params):
        return work, scale, before.regions, before.candidates, before.parts, before.table, small, True
    model = _table_median(small)
    table = Table(model, table_background(work, model))
    parts = changed_parts(small, model, work.shape, params)
    if changed_only and parts is not None:
        return (*_in_parts(work, scale, parts, table, params), small, False)
    regions = die_regions(work, table.background, params) if params.region_colour > 0 else None
    return work, scale, regions, candidate_faces(work, params, table.background, regions), parts, table, small, False


def _same_search(before: Look, scale: float, parts: list[_Box] | None, small: np.ndarray, params: Params) -> bool:
    """Would a search of ``parts`` (None: the whole) of a working copy at ``scale``, reduced 8 times ``small``,
    find what the look ``before`` found? It searched the same parts (or the whole picture) at the same
    scale, and its picture differs from this one by no more than ``params.same_picture`` in any channel
    of any block of 8 x 8 working pixels: the same table at rest, seen through a camera's noise (a die
    pushed a pixel further changes the blocks on its edge by about an eighth of its contrast with the
    table). A look at the whole picture after one in parts searches it whole (a camera's check)."""
    last = before.reduced
    searched = before.in_parts == (parts is not None) and (parts is None or before.parts == parts)
    return (
        searched and before.scale == scale and last is not None and last.shape == small.shape
        and int(channel_max(cv2.absdiff(small, last)).max()) <= params.same_picture
    )


def _in_parts(
    work: np.ndarray, scale: float, parts: list[_Box], table: Table, params: Params
) -> tuple[np.ndarray, float, Regions | None, list[Face], list[_Box] | None, Table]:
    """:func:`_candidates` of the ``parts`` of ``work`` alone, against ``table``."""
    h, w = work.shape[:2]
    background = table.background
    # each part alone, its faces and outlines moved to the picture's pixels
    labels = np.zeros((h, w), np.int32)
    sizes, in_row = [0.0], [False]
    faces: list[Face] = []
    for x0, y0, x1, y1 in parts:
        part, back = work[y0:y1, x0:x1], background[y0:y1, x0:x1]
        regions = die_regions(part, back, params) if params.region_colour > 0 else None
        if regions is not None and len(regions.sizes) > 1:
            labels[y0:y1, x0:x1] = np.where(regions.labels > 0, regions.labels + (len(sizes) - 1), 0)
            sizes.extend(regions.sizes[1:].tolist())
            in_row.extend(regions.in_row[1:].tolist())
        faces.extend(_moved(f, x0, y0) for f in candidate_faces(part, params, back, regions))
    return work, scale, Regions(labels, np.array(sizes), np.array(in_row)) if params.region_colour > 0 else None, faces, parts, table


_PART_GROW = 3
"""Reduced pixels (8 working pixels each) by which :func:`changed_parts` grows what differs from the table ..."""
_PART_MARGIN = 16
"""... and working pixels it adds round each part: a die whose body is the table's colour lies
round its pips, and the blurs of the pip evidence reach about 12 pixels."""


def changed_parts(
    small: np.ndarray, model: np.ndarray, shape: tuple[int, ...], params: Params = DEFAULT, watch: np.ndarray | None = None
) -> list[_Box] | None:
    """Boxes (x0, y0, x1, y1: working pixels) of a picture of ``shape`` that hold all that differs from the table;
    None when they would cover more than ``params.part_share`` of it (then it is read whole).

    ``small`` is the picture reduced 8 times and ``model`` the table in it (:func:`table_model`).
    What differs by more than ``params.part_colour`` in some channel is grown by 3 reduced pixels
    and 16 working pixels; overlapping boxes are merged. A die whose body and pips are both
    within that of the table (a purple die on purple felt) lies in no part: a camera's reader
    finds that out from a look at a whole frame (:class:`DiceReader`).
    """
    h, w = shape[:2]
    change = channel_max(cv2.absdiff(small, model)) > params.part_colour
    if watch is not None:
        change |= watch
    if not change.any():
        return []
    grown = cv2.dilate(change.view(np.uint8), np.ones((2 * _PART_GROW + 1, 2 * _PART_GROW + 1), np.uint8))
    _, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    fx, fy = min(8.0, w / small.shape[1]), min(8.0, h / small.shape[0])  # (8 x 8 blocks; a picture under 8 pixels is one)
    boxes = [
        (max(0, int(x * fx) - _PART_MARGIN), max(0, int(y * fy) - _PART_MARGIN), min(w, ceil((x + bw) * fx) + _PART_MARGIN), min(h, ceil((y + bh) * fy) + _PART_MARGIN))
        for x, y, bw, bh, _ in stats[1:].tolist()
    ]
    boxes = _merged(boxes)
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) > params.part_share * w * h:
        return None
    return boxes


def _merged(boxes: list[_Box]) -> list[_Box]:
    """The boxes with every two that overlap replaced by the box round both, until none overlap."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i, j in combinations(range(len(out)), 2):
            a, b = out[i], out[j]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                del out[j]
                merged = True
                break
    return out


def _moved(f: Face, dx: float, dy: float) -> Face:
    """A candidate face found in a part of the picture whose corner is ``dx``, ``dy``, in the picture's working pixels."""
    x0, y0, x1, y1 = f.box
    r = f.roundest
    return replace(f, x=f.x + dx, y=f.y + dy, box=(x0 + dx, y0 + dy, x1 + dx, y1 + dy), roundest=None if r is None else (r[0] + dx, r[1] + dy))


def better_scale(faces: list[Face], scale: float, params: Params = DEFAULT, regions: Regions | None = None) -> float | None:
    """The scale to read a picture at instead of ``scale``, if the candidate ``faces`` seen there show
    dice too small to read well: the one that makes them ``params.work_die`` working pixels, at most
    the picture's own size (None: keep it).

    The dice's size is that of the clear faces (:func:`die_size`), or of those of three pips and
    more where they are smaller: dice too small for their pips to be found are each one blob, and
    two of them side by side make a clear two as wide as two dice. Without a clear face of three
    pips, the outlines of the lone dice (``regions``, :func:`outline_size`) measure the dice
    where they are smaller than ``min_work_die``. (Byler's photos in 1280 x 720 frames: 25 of 200
    were read at half size with their dice 16 to 22 working pixels wide, and 59 of their 115 dice
    right; docs/vision-record.md, "Dice measured by their outlines".)

    A picture is never enlarged: enlarging a 640-pixel photo whose dice measure a little less
    than ``min_work_die`` lost dice. A picture without a clear face or outline (no die,
    a lone one, or dice so small that their pips were not found) is kept too. (Reading such a
    reduced picture again twice as large found 8 more of the 756 byler tune dice in 1280 x 720
    frames, but took three times as long on frames with one die, and would on every frame of an
    empty table.)
    """
    size = die_size(faces)
    many = _clear_sizes(faces, 3)
    if many:
        size = min(size, float(np.median(many)))
    elif regions is not None:
        outline = outline_size(faces, regions)
        if 0 < outline < params.min_work_die:
            size = min(size, outline) if size else outline
    again = _scale_for(size / scale, scale, params)
    return again if again is not None and again > 1.05 * scale else None


OUTLINE_PIPS = 3.0
"""An outline counts as a die's (:func:`outline_size`) when it is more than this many pips wide."""


def outline_size(faces: list[Face], regions: Regions) -> float:
    """The median size of the lone dice's outlines (:func:`die_regions`, not the squares of rows) more than
    :data:`OUTLINE_PIPS` times as wide as the candidate ``faces``' pips (their lower quartile): 0.0 for none.

    A light pip on a die whose body differs from the table is a hole in the die's body, and an
    outline of its own; so is a screw head on a tray's rim. Among the candidates' pips are whole
    dice too small for their pips to be found (the faces :func:`better_scale` doubts), hence the
    lower quartile.
    """
    if not faces:
        return 0.0
    pip = float(np.percentile([f.diameter for f in faces], 25))
    lone = ~np.asarray(regions.in_row[1:], bool)
    sizes = regions.sizes[1:][lone & (regions.sizes[1:] > OUTLINE_PIPS * pip)]
    return float(np.median(sizes)) if len(sizes) else 0.0


def _scale_for(die_px: float, scale: float, params: Params) -> float | None:
    """The scale that makes dice of ``die_px`` picture pixels ``params.work_die`` working pixels, at most 1.0,
    when at ``scale`` they would be smaller than ``params.min_work_die`` (None: ``scale`` will do, or no size)."""
    if not die_px or die_px * scale >= params.min_work_die or scale >= 1.0:
        return None
    return min(1.0, params.work_die / die_px)


@dataclass(frozen=True)
class _Rest:
    """What a camera's reader remembers of its table at rest (:meth:`DiceReader._learn`), per block of the
    frame reduced 8 times."""

    last: np.ndarray  # the last frame reduced 8 times
    quiet: np.ndarray  # frames each block has stayed as it was with no die read on it or beside it (uint8, at most 255)
    since: np.ndarray  # frames since a die was read on each block or beside it (uint8, at most 255)


@dataclass
class _Frames:
    """What a camera's reader remembers of its frames of one size (:class:`DiceReader`)."""

    sizes: deque[float]  # the dice's size in its last frames that showed a clear face, in the frame's pixels (the last ``memory``)
    scale: float | None = None  # the scale its last frame was read at first (None: first_scale)
    table: Table | None = None  # the table its parts are found against: the last one a look made its own
    parts_hold_dice: bool | None = None  # did the last check find every die in the changed parts (None: not checked yet)
    unchecked: int = 0  # frames read in parts since the last check
    rest: _Rest | None = None  # what its last frames showed of the table at rest (_learn)
    last: Look | None = None  # the look at its last frame (look_at's before) ...
    part: Look | None = None  # ... its last look in parts ...
    whole: Look | None = None  # ... and at a whole frame
    alike: int = 0  # looks in a row that read the same dice as the look before them (_same_dice)


def _size_of(shape: tuple[int, ...]) -> tuple[int, int]:
    """A frame's (height, width), the key of what a camera's reader remembers of frames of that size."""
    return int(shape[0]), int(shape[1])


STEADY = 0.1
"""A camera's reader keeps the scale it reads at while the one its dice's size asks for differs from it
by at most this share, unless that is the frame's own size (:meth:`DiceReader.scale`)."""


class DiceReader:
    """:func:`read_dice` for the frames of one camera, remembering the scale its dice are read at.

    A camera over a table sees its dice at about one size. Once frames showed
    dice too small to read well at the first scale (:func:`better_scale`), the
    next frames of that size are read at the scale that suits them straight
    away: one pass instead of two. The dice's size is the median of the last
    ``memory`` frames that showed a clear face (one frame's estimate can be off:
    a few dice seen askew, or clutter); frames without one leave it as it is.
    Each look measures the dice a little differently at the scale it reads
    them at, so the scale is kept while the one their size asks for lies
    within ``scale_margin`` of it: a table at rest is read at one scale, and
    so the same each frame.

    Most of a table is bare, so a camera's frames are searched only where they
    differ from the table (``look_at(..., changed_only=True)``,
    :func:`changed_parts`), once a look at a whole frame has shown that those
    parts hold every die it read. Every ``check_every``-th frame is looked at
    whole again and checked so. Dice the table's own colour, pips and all,
    lie in no part: once a check finds a die outside them, this camera's
    frames of that size are always read whole. The table the parts are found
    against is the one the last whole look saw (:class:`Table`: a table does
    not change from one frame to the next, and its median is a millisecond
    and more of a frame read in parts); a frame that differs from it too
    widely is read against its own table, which is kept from then on.

    That table's median smooths away what is thin (a tray's printed rim),
    which then differs from it in every frame. So the reader learns what
    stays: a block of the frame reduced 8 times that has stayed as it was for
    ``rest_frames`` frames, with no die read on it or beside it, becomes
    table as the frame shows it; blocks where a die was read within
    ``rest_frames`` frames are searched whatever they show (:class:`Table`).

    Once its last ``steady_reads`` looks have read the same dice (a table at
    rest), a frame that shows the same parts as the frame before, alike but
    for a camera's noise, keeps that frame's readings instead of being
    searched and read by the network (:func:`look_at`'s ``before``: all of
    a frame's time but its copies, 1.5 to 2 ms of 1280 x 720); the check of every ``check_every``-th frame is read as the
    last check was when the frame is as it was then (:func:`_before`). The
    looks a settler's agreement is made of (3 by default)
    are each searched, so that a search that finds a candidate in one frame
    and not the next still holds the roll; the frames after them at rest keep
    their readings until the picture changes.

    >>> DiceReader()(np.zeros((100, 100, 3), np.uint8))
    []
    """

    def __init__(
        self, params: Params = DEFAULT, memory: int = 9, check_every: int = 10, scale_margin: float = STEADY, rest_frames: int = 5, steady_reads: int = 3
    ) -> None:
        if check_every < 1:
            raise ValueError(f"check_every {check_every!r}: expected a whole look every 1 or more frames")
        if steady_reads < 1:
            raise ValueError(f"steady_reads {steady_reads!r}: expected 1 or more looks that read the same dice")
        if not 1 <= rest_frames <= 255:
            raise ValueError(f"rest_frames {rest_frames!r}: expected 1 to 255 frames at rest before a block is learnt as table")
        self.params = params
        self.memory = memory
        self.check_every = check_every
        self.scale_margin = scale_margin
        self.rest_frames = rest_frames
        self.steady_reads = steady_reads
        self.frames: dict[tuple[int, int], _Frames] = {}  # frame (height, width) -> what it remembers of frames of that size

    def scale(self, shape: tuple[int, ...]) -> float | None:
        """The scale frames of this shape are read at first (None: :func:`first_scale`): the one that makes
        their dice ``params.work_die`` wide (at most 1.0), or the one the last frame was read at while
        that one is within ``scale_margin`` of it and below 1.0."""
        return self._scale(self.frames.get(_size_of(shape)), shape)

    def _scale(self, seen: _Frames | None, shape: tuple[int, ...]) -> float | None:
        """:meth:`scale` from what this reader remembers of frames of this shape (None: nothing)."""
        wanted = _scale_for(float(median(seen.sizes)), first_scale(shape), self.params) if seen is not None and seen.sizes else None
        kept = None if seen is None else seen.scale
        if wanted is None or wanted == 1.0 or kept is None:  # (the frame's own size, asked for: no resize at all)
            return wanted
        return kept if abs(wanted - kept) <= self.scale_margin * kept else wanted

    def _learn(self, seen: _Frames, look: Look) -> None:
        """Count, for each block of the frame reduced 8 times, the frames since a die was read on it or beside
        it, and the frames it has stayed as it was with none read there; blocks quiet for ``rest_frames`` frames
        become the table the next frame's parts are found against (where they show what the frame shows),
        and blocks where a die was read within ``rest_frames`` frames are searched whatever they show."""
        small, rest = look.reduced, seen.rest
        if small is None:
            return
        quiet: np.ndarray
        since: np.ndarray
        if rest is None or rest.last.shape != small.shape:
            quiet, since = np.zeros(small.shape[:2], np.uint8), np.full(small.shape[:2], 255, np.uint8)
        else:
            quiet, since = cv2.add(rest.quiet, 1), cv2.add(rest.since, 1)  # (saturating at 255)
            quiet[channel_max(cv2.absdiff(small, rest.last)) > self.params.part_colour] = 0
        k = look.scale / 8.0  # (image pixels to reduced pixels)
        for x0, y0, x1, y1 in (r.box for r in look.readings if r.box is not None):  # (look_at gives each reading its box)
            near = (slice(max(0, int(y0 * k) - 1), int(y1 * k) + 2), slice(max(0, int(x0 * k) - 1), int(x1 * k) + 2))
            quiet[near] = 0
            since[near] = 0
        seen.rest = _Rest(small, quiet, since)
        kept = seen.table
        if kept is None or kept.model.shape != small.shape:
            return
        model = kept.model.copy()
        np.copyto(model, small, where=(quiet >= self.rest_frames)[:, :, None])
        seen.table = Table(model, kept.background, since < self.rest_frames)

    def reads_in_parts(self, shape: tuple[int, ...]) -> bool | None:
        """Are frames of this shape read only where they differ from the table (True), whole since a check
        found a die outside those parts (False), or not checked yet (None)?"""
        seen = self.frames.get(_size_of(shape))
        return None if seen is None else seen.parts_hold_dice

    def __call__(self, image: np.ndarray) -> list[DieReading]:
        return self.look(image).readings

    def look(self, image: np.ndarray) -> Look:
        """:func:`look_at` of the next frame at the scale this camera's frames are read at, remembering its dice's size
        (and, on a whole look, whether the changed parts hold its dice)."""
        key = _size_of(image.shape)
        seen = self.frames.get(key)
        if seen is None:
            seen = self.frames[key] = _Frames(deque(maxlen=self.memory))
        scale = self._scale(seen, image.shape)  # (a new record remembers no size: first_scale, as for none)
        trusted = seen.parts_hold_dice
        in_parts = trusted is True and seen.unchecked < self.check_every
        table = seen.table
        seen.scale = scale
        before = _before(seen, in_parts) if seen.alike >= self.steady_reads - 1 else None
        look = look_at(image, self.params, scale, changed_only=in_parts, table=table, before=before, search_whole=True)
        seen.alike = seen.alike + 1 if seen.last is not None and _same_dice(look.readings, seen.last.readings) else 0
        seen.last = look
        if look.in_parts:
            seen.part = look
        else:
            seen.whole = look
        if look.table is not None and look.table is not table:  # (a table of its own: a whole look, or a frame that differs from the last table too widely)
            seen.table = look.table
        self._learn(seen, look)
        if in_parts:
            seen.unchecked += 1
        elif trusted is not False:
            seen.parts_hold_dice = in_changed_parts(look)
            seen.unchecked = 0
        die_px = look.die_px or (look.outline_px if look.readings else 0.0)  # (a median over the faces: once a frame; without a clear face, a lone one, the outlines of the dice read)
        if die_px:
            seen.sizes.append(die_px)
        return look


class ChoosingReader:
    """A camera's reader that chooses between two networks from its own frames (``camera.dice_network: auto``).

    Frames are read by a :class:`DiceReader` with the chosen network: at first the
    first of ``networks`` (the standard network). The candidates of the first
    ``at_least`` frames that show dice are read by the other network too
    (:func:`learned_faces`: the frame is not searched again, not even a copy of
    it half as large for dice too big to read, as :func:`read_faces` would
    when a reading is unsure), and after them those of
    the first frame with dice once ``compare_every`` frames have passed; for each
    such frame where both read dice, how much surer the second network's readings
    are than the first's (their mean confidence) is remembered, the last
    ``memory`` of them. The second network is chosen while their median is above
    ``margin``, the first otherwise.

    Translucent casino dice, whose hidden pips show through, are what this is
    for: read as a camera, casino photos have the ``clear`` network surer by
    0.186 in the median (on 86 % of them), while on three sets of opaque dice
    the median is between −0.002 and 0.004, so a table of opaque dice keeps the
    standard network (docs/vision-record.md, "A camera that chooses its network").

    >>> ChoosingReader()(np.zeros((100, 100, 3), np.uint8))
    []
    """

    def __init__(
        self, params: Params = DEFAULT, networks: tuple[str, str] = CHOICE_OF_NETWORKS,
        compare_every: int = 10, at_least: int = 9, memory: int = 25, margin: float = 0.05,
    ) -> None:
        if compare_every < 1 or at_least < 1 or memory < at_least:
            raise ValueError(f"compare_every {compare_every!r}, at_least {at_least!r}, memory {memory!r}: expected 1 or more, and memory at least at_least")
        if not params.learned:
            raise ValueError("params.learned False: a ChoosingReader chooses between networks, and the classical reader reads with none (use a DiceReader)")
        self.names = networks
        self.params = {name: replace(params, network=network_path(name), other_network=None) for name in networks}
        self.chosen = networks[0]
        self.reader = DiceReader(self.params[self.chosen])  # (what it remembers is the camera's: the dice's size, the parts that hold them)
        self.compare_every, self.at_least, self.margin = compare_every, at_least, margin
        self.surer: deque[float] = deque(maxlen=memory)  # mean confidence of the second network's readings minus the first's, per frame compared
        self.since = 0  # frames since the last comparison

    def __call__(self, image: np.ndarray) -> list[DieReading]:
        return self.look(image).readings

    def reads_in_parts(self, shape: tuple[int, ...]) -> bool | None:
        """:meth:`DiceReader.reads_in_parts` of its reader."""
        return self.reader.reads_in_parts(shape)

    def look(self, image: np.ndarray) -> Look:
        """The chosen network's look at the next frame (on the frames compared, its candidates are read by the other too)."""
        self.reader.params = self.params[self.chosen]
        look = self.reader.look(image)
        self.since += 1
        if not look.readings or (len(self.surer) >= self.at_least and self.since < self.compare_every):
            return look
        self.since = 0
        other = self.names[1] if self.chosen == self.names[0] else self.names[0]
        theirs = learned_faces(look.work, look.candidates, self.params[other], look.regions)  # (its candidates alone: no search of the frame)
        if theirs:
            seen = {self.chosen: mean_confidence(look.readings), other: mean_confidence(theirs)}
            self.surer.append(seen[self.names[1]] - seen[self.names[0]])
            if len(self.surer) >= self.at_least:
                self.chosen = self.names[1] if median(self.surer) > self.margin else self.names[0]
        return look


def camera_reader(params: Params = AUTO) -> DiceReader | ChoosingReader:
    """The reader of a camera's frames that reads as ``params`` do (:func:`params_for`): for
    :data:`AUTO` a :class:`ChoosingReader`, which chooses from the frames (not frame by frame, as a
    picture does), else a :class:`DiceReader`.

    >>> type(camera_reader()).__name__, type(camera_reader(DEFAULT)).__name__
    ('ChoosingReader', 'DiceReader')
    """
    return ChoosingReader() if params == AUTO else DiceReader(params)


def _before(seen: _Frames, in_parts: bool) -> Look | None:
    """The look a camera's next frame may be read as (:func:`look_at`'s ``before``): its last look when that was
    of the kind asked for (in parts, or whole), else its last look of that kind (a check of the whole frame reads
    as the last check did when the frame is as it was then, and the frame after it as the frame before it), else
    its last look (a camera asked for parts that were too wide read whole frames)."""
    last = seen.last
    if last is None or last.in_parts == in_parts:
        return last
    return (seen.part if in_parts else seen.whole) or last


def _same_dice(a: Sequence[DieReading], b: Sequence[DieReading]) -> bool:
    """Did two looks read the same dice: as many, each of ``a`` of the value (or unsure) of one of ``b`` whose
    centre lies within a third of its die's size of it and a pixel (each die of ``b`` matched once; the
    settler's matching, :func:`vision.settle.moved_dice`, nearer than it matches a die moved)?"""
    return len(a) == len(b) and not any(moved_dice(b, a, reach=_looks_reach))


def _looks_reach(r: DieReading) -> float:
    """How near a die of one look the same die of another lies (:func:`_same_dice`): a third of its size and a pixel."""
    return (max(r.box[2] - r.box[0], r.box[3] - r.box[1]) / 3 if r.box is not None else 4.0) + 1


def in_changed_parts(look: Look) -> bool:
    """Does every reading of a look (a die, sure or not) lie in its changed parts (:func:`changed_parts`; None: the whole picture)?"""
    if look.parts is None:
        return True
    return _all_inside(((r.center[0] * look.scale, r.center[1] * look.scale) for r in look.readings), look.parts)


def _all_inside(points: Iterable[tuple[float, float]], boxes: Sequence[_Box]) -> bool:
    """Does every point (x, y) lie in one of the boxes (x0, y0, x1, y1; ends excluded)?"""
    return all(any(x0 <= x < x1 and y0 <= y < y1 for x0, y0, x1, y1 in boxes) for x, y in points)


def candidate_faces(
    work: np.ndarray,
    params: Params = DEFAULT,
    background: np.ndarray | None = None,
    regions: Regions | None = None,
) -> list[Face]:
    """Every pip group that forms a die face, before one face per die is chosen.

    ``background`` (:func:`table_background`) and ``regions`` (:func:`die_regions`)
    are made here when not given.
    """
    fine = cv2.GaussianBlur(work, (0, 0), params.fine_sigma)
    pips = find_pips(_difference_of_gaussians(work, fine, params), work, params)
    if background is None:
        background = table_background(work)
    # the colours along paths and round pips are read from a picture blurred by one pixel:
    # the fine blur of the pip evidence when it is that
    smooth = fine if params.fine_sigma == 1.0 else cv2.GaussianBlur(work, (0, 0), 1.0)
    if regions is None and params.region_colour > 0:
        regions = die_regions(work, background, params)
    groups: list[tuple[list[Pip], float | None]] = []  # (a face's pips, their pattern error when known)
    todo = link_pips(pips, work, params, smooth, regions)
    while todo:
        group = todo.pop()
        diam = float(median([p.diameter for p in group]))
        face, rest, err = _best_face(group, diam, params)
        groups.append((face, err))
        if rest:
            todo.extend(link_pips(rest, work, params, smooth, regions))
    if not groups:
        return []
    # the learned reader reads only the colour round the pips: of all faces at once
    colours = _ring_colours([g for g, _ in groups], smooth) if params.learned else [None] * len(groups)
    faces = (face_of(group, work, background, params, smooth, err, colour) for (group, err), colour in zip(groups, colours))
    return [f for f in faces if f is not None]


_OPPONENT = np.array(
    [
        [0.114, 0.587, 0.299],  # lightness (BGR weights of grey)
        [0.0, -0.5, 0.5],  # red - green
        [-0.5, 0.25, 0.25],  # yellow - blue
    ],
    np.float32,
)


def pip_evidence(work: np.ndarray, params: Params = DEFAULT) -> np.ndarray:
    """Signed colour difference of Gaussians: (3, h, w) float32 planes, lightness and two opponent colours.

    Positive where a small blob is lighter (or redder, or yellower) than its
    surroundings, negative where it is darker; between two close pips the sign
    flips, which keeps neighbouring pips apart.
    """
    return _difference_of_gaussians(work, cv2.GaussianBlur(work, (0, 0), params.fine_sigma), params)


def _difference_of_gaussians(work: np.ndarray, fine: np.ndarray, params: Params) -> np.ndarray:
    """:func:`pip_evidence` from the fine blur of the picture."""
    coarse = _coarse_blur(work, fine, params)
    diff = cv2.subtract(fine, coarse, dtype=cv2.CV_32F)
    # blurring is linear, so the opponent colours of the difference are the
    # difference of the opponent colours: lightness, red-green, yellow-blue,
    # each made as a plane of its own (the pip search reads them one by one)
    planes = np.empty((3, *work.shape[:2]), np.float32)
    for ch in range(3):
        cv2.transform(diff, _OPPONENT[ch : ch + 1], dst=planes[ch])
    return planes


def _coarse_blur(work: np.ndarray, fine: np.ndarray, params: Params) -> np.ndarray:
    """The picture blurred by ``coarse_sigma``: its fine blur blurred further by four box filters
    whose variances add up to what the fine blur lacks, when an odd width gives that sum exactly
    (a box w pixels wide has a variance of (w² − 1) / 12: four of 5 pixels take sigma 1 to sigma 3),
    else a Gaussian of the picture.

    Four boxes are a Gaussian within 2.4 levels (of 255) on real frames (0.05 root mean square)
    and take 2.4 ms on a 1280×720 frame where the Gaussian takes 5.5 (one core).
    """
    extra = params.coarse_sigma**2 - params.fine_sigma**2
    width = sqrt(3 * extra + 1) if extra > 0 else 0.0
    if width >= 3 and width == round(width) and round(width) % 2 == 1:
        size = (round(width), round(width))
        return cv2.blur(cv2.blur(cv2.blur(cv2.blur(fine, size), size), size), size)
    return cv2.GaussianBlur(work, (0, 0), params.coarse_sigma)


def _fill_holes(inside: np.ndarray) -> np.ndarray:
    """The mask with its enclosed holes filled."""
    flood = cv2.copyMakeBorder(inside.astype(np.uint8), 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(flood, None, (0, 0), 2)
    return flood[1:-1, 1:-1] != 2


def _round_blob(inside: np.ndarray, params: Params) -> tuple[float, float, float, float, float] | None:
    """(x, y, area, roundness, angle) of a boolean mask if it is a round solid blob, else None."""
    m = cv2.moments(inside.view(np.uint8), binaryImage=True)
    m00 = m["m00"]
    if m00 <= 0:
        return None
    mu20, mu02, mu11 = m["mu20"] / m00, m["mu02"] / m00, m["mu11"] / m00
    common = sqrt(4 * mu11 * mu11 + (mu20 - mu02) ** 2)
    l1, l2 = (mu20 + mu02 + common) / 2 + 1 / 12, (mu20 + mu02 - common) / 2 + 1 / 12  # + pixel size
    roundness = sqrt(l2 / l1)
    # solid: the blob fills its moment ellipse (a disc: area = 4 pi sqrt(l1 l2))
    if roundness < 1 / params.max_elongation or m00 < params.min_solidity * 4 * pi * sqrt(l1 * l2):
        return None
    ang = degrees(0.5 * atan2(2 * mu11, mu20 - mu02))
    return m["m10"] / m00, m["m01"] / m00, float(m00), roundness, ang


_Blob = tuple[float, float, float, float, float, float, int]


def _blobs(values: np.ndarray, levels: Sequence[float], params: Params, min_peak: float) -> list[_Blob]:
    """Round solid blobs where ``values`` exceed the first level: (x, y, area, roundness, angle, peak, depth).

    Only components that reach ``min_peak`` somewhere count. A component that
    is no pip (too big, not round) but holds pixels above the next level is cut
    again at that level, within its own box only (pips packed close merge at a
    low level and come apart higher up).

    Rows with no pixel above the first level part the picture into bands no
    component crosses; each band is searched within the box of its pixels (most
    of a table is empty), in order, which finds what the whole picture would, in
    the same order.
    """
    if not (values > min_peak).any():  # no component reaches the peak (most opponent-colour channels of most frames)
        return []
    mask = values > levels[0]
    rows = np.flatnonzero(mask.any(axis=1))
    if not len(rows):
        return []
    gaps = np.flatnonzero(np.diff(rows) > _BAND_GAP)
    out: list[_Blob] = []
    for top, bottom in zip(np.r_[rows[0], rows[gaps + 1]].tolist(), np.r_[rows[gaps], rows[-1]].tolist()):
        x, _, w, _ = cv2.boundingRect(mask[top : bottom + 1].view(np.uint8))
        # the box starts on an even row and column (one more empty one): the labelling scans blocks
        # of 2 x 2 pixels, and so numbers the components in the order it does on the whole picture
        top, x = top - top % 2, x - x % 2
        out.extend(_blobs_in(values[top : bottom + 1, x : x + w + 1], levels, params, min_peak, x, top))
    return out


_BAND_GAP = 4
"""Empty rows that part two bands of :func:`_blobs` (fewer: the bands are searched together)."""


def _blobs_in(values: np.ndarray, levels: Sequence[float], params: Params, min_peak: float, x_off: int = 0, y_off: int = 0, depth: int = 0) -> list[_Blob]:
    """:func:`_blobs` in a part of the picture whose pixels are ``x_off``, ``y_off`` from the picture's corner."""
    mask = (values > levels[0]).view(np.uint8)
    if levels[0] >= min_peak:
        # (a cut inside a component, at a level at least the peak: every component reaches the peak)
        if not mask.any():
            return []
        n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_16U, cv2.CCL_BBDT)
        peaked = list(range(n - 1))
    else:
        hot = values > min_peak
        if not hot.any():  # no component reaches the peak (most opponent-colour channels of most frames)
            return []
        n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_16U, cv2.CCL_BBDT)
        # components that reach the pip peak at all, in label order
        peaked = np.flatnonzero(np.bincount(labels[hot], minlength=n)[1:]).tolist()
    if n <= 1 or not peaked:
        return []
    boxes = stats.tolist()
    out: list[_Blob] = []
    # the next level as numpy compares it with the values (in their own precision)
    next_level = float(values.dtype.type(levels[1])) if len(levels) > 1 else 0.0
    for i in peaked:
        i += 1
        x0, y0, w, h, area = boxes[i]
        ok = params.min_pip_area <= area <= params.max_pip_area
        ok = ok and max(w, h) <= params.max_elongation * min(w, h) + 2
        ok = ok and area >= 0.4 * w * h  # a disc fills pi/4 of its box; a diagonal ellipse less
        cut = len(levels) > 1 and area >= 2 * params.min_pip_area
        if not ok and not cut:  # no pip, and too small to hold one at the next level
            continue
        box = values[y0 : y0 + h, x0 : x0 + w]
        inside = labels[y0 : y0 + h, x0 : x0 + w] == i
        blob = _round_blob(inside, params) if ok else None
        if blob is None:
            inner: list[_Blob] = []
            if cut and cv2.minMaxLoc(box, inside.view(np.uint8))[1] > next_level:
                inner = _blobs_in(np.where(inside, box, 0), levels[1:], params, min_peak, x_off + x0, y_off + y0, depth + 1)
            out.extend(inner)
            if inner or not ok or area < params.min_ring_area:
                continue
            # a big pip gives a ring of evidence (the blur is smaller than the pip): fill it,
            # but not the outline of a whole die (its hole is much bigger than its rim)
            filled = _fill_holes(inside)
            if np.count_nonzero(filled) > 2 * area:
                continue
            blob = _round_blob(filled, params)
            if blob is None:
                continue
        bx, by, barea, roundness, ang = blob
        peak = cv2.minMaxLoc(box, inside.view(np.uint8))[1]
        out.append((bx + x0 + x_off, by + y0 + y_off, barea, roundness, ang, peak, depth))
    return out


def find_pips(evidence: np.ndarray, work: np.ndarray | None = None, params: Params = DEFAULT) -> list[Pip]:
    """Small, round, solid blobs lighter or darker than their surroundings (in L, a or b: the
    planes of :func:`pip_evidence`).

    Each channel and sign is cut at a few levels (like a blob detector's
    threshold steps): tiny pips packed close merge at a low level and come apart
    at a higher one, faint pips only pass the low one.
    """
    rows: list[tuple[float, ...]] = []
    thresholds = (params.pip_threshold, params.chroma_threshold, params.chroma_threshold)
    for ch in range(3):
        channel = evidence[ch]
        min_peak = params.min_peak * thresholds[ch] / params.pip_threshold
        peak32 = float(evidence.dtype.type(min_peak))  # (numpy compares a float32 picture with a float in float32)
        # a channel and sign that reach no pip peak are not searched (most opponent-colour channels of most frames)
        lowest, highest, _, _ = cv2.minMaxLoc(channel)
        for sign in (-1.0, 1.0):
            if not (highest if sign > 0 else -lowest) > peak32:
                continue
            s = channel if sign > 0 else np.negative(channel)
            levels = [thresholds[ch] * f for f in (params.levels if ch == 0 else params.levels[:2])]
            for blob in _blobs(s, levels, params, min_peak):
                rows.append((*blob, ch, sign))
    if not rows:
        return []
    a = np.array(rows)
    x, y, area, roundness, ang, peak, level, ch_of, sign_of = a.T
    h, w = evidence.shape[1:]
    xi = np.minimum(np.maximum(np.round(x).astype(int), 0), w - 1)  # (clip, without its wrapper)
    yi = np.minimum(np.maximum(np.round(y).astype(int), 0), h - 1)
    colours = work[yi, xi].astype(float) if work is not None else np.zeros((len(a), 3))
    dark = np.where(ch_of == 0, sign_of < 0, evidence[0, yi, xi] <= 0)
    diam = 2.0 * np.sqrt(area / np.pi)
    # one blob shows at several levels and maybe in several channels: keep the first seen
    # (lowest level, then strongest); the same blob: close, and not five times bigger
    # (small pips found at a higher level inside a blob as big as a whole light face are
    # pips of their own)
    order = np.lexsort((-peak, level))
    x, y, diam = x[order], y[order], diam[order]
    big = np.maximum(diam[:, None], diam[None, :])
    same = (np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]) <= 0.5 * big) & (big <= 5.0 * np.minimum(diam[:, None], diam[None, :]))
    # (`same` is symmetric: a blob is kept when no blob kept before it has marked it)
    marked = np.zeros(len(order), bool)
    kept: list[int] = []
    for k in range(len(order)):
        if not marked[k]:
            kept.append(k)
            marked |= same[k]
    xs, ys, js = x.tolist(), y.tolist(), order.tolist()
    areas, peaks, rounds, angles, cols, darks = area.tolist(), peak.tolist(), roundness.tolist(), ang.tolist(), colours.tolist(), dark.tolist()
    pips: list[Pip] = []
    for k in kept:
        j = js[k]
        pips.append(Pip(xs[k], ys[k], areas[j], peaks[j], rounds[j], angles[j], tuple(cols[j]), darks[j]))
    return pips


def _edges_between(pairs: list[tuple[Pip, Pip]], smooth: np.ndarray, params: Params, samples: int = 16) -> np.ndarray:
    """For each pair of pips: does the straight path between them cross an edge (a colour change)?

    The path is sampled outside both pips; an edge is a sample whose colour is
    far from the path's median colour (a die edge, the gap between touching
    dice, the rim between a top and a side face).
    """
    if not pairs:
        return np.zeros(0, bool)
    a = _path_ends(np.array([[p.x, p.y] for p, _ in pairs]), np.array([p.diameter for p, _ in pairs]))
    b = _path_ends(np.array([[q.x, q.y] for _, q in pairs]), np.array([q.diameter for _, q in pairs]))
    return _edges_along(a, b, smooth, params, samples)


def _path_ends(xy: np.ndarray, diam: np.ndarray) -> np.ndarray:
    """Rows (x, y, how far from the centre the path starts, diameter) of pips at ``xy`` (n, 2) of diameters ``diam``: just outside the pip."""
    return np.column_stack([xy, 0.75 * diam + 1.0, diam])


def _edges_along(
    a: np.ndarray, b: np.ndarray, smooth: np.ndarray, params: Params, samples: int = 16, pips: tuple[list[Pip], np.ndarray, np.ndarray] | None = None
) -> np.ndarray:
    """:func:`_edges_between` for pips given as rows of ``a`` and ``b`` (:func:`_path_ends`).

    ``pips``: the pips, and the index of each row's pip of ``a`` and of ``b`` among them. A short path
    (``seam_path``) then also crosses an edge where it passes a colour far from the face round both
    pips (``seam_colour``): the groove between two touching dice can fill most of the gap between
    their nearest pips, and then the path's median too, which leaves the groove no farther from the
    median than the face is.
    """
    if not len(a):
        return np.zeros(0, bool)
    d = b[:, :2] - a[:, :2]
    dist = np.hypot(d[:, 0], d[:, 1])
    near = dist <= a[:, 2] + b[:, 2] + 1
    safe = np.maximum(dist, 1e-6)
    t = np.linspace(0.0, 1.0, samples)[None, :]
    t0, t1 = (a[:, 2] / safe)[:, None], (1 - b[:, 2] / safe)[:, None]
    ts = t0 + (t1 - t0) * t
    xs = np.clip(np.round(a[:, 0:1] + ts * d[:, 0:1]).astype(int), 0, smooth.shape[1] - 1)
    ys = np.clip(np.round(a[:, 1:2] + ts * d[:, 1:2]).astype(int), 0, smooth.shape[0] - 1)
    along = smooth[ys, xs].astype(np.float32)  # (pairs, samples, 3)
    # the median of each path's samples (np.median's figures, without its overhead)
    ordered = np.sort(along, axis=1)
    half = samples // 2
    ref = ordered[:, half : half + 1] if samples % 2 else (ordered[:, half - 1 : half] + ordered[:, half : half + 1]) / np.float32(2)
    edge = np.sqrt(((along - ref) ** 2).sum(axis=2)).max(axis=1) > params.edge_colour
    if pips is not None:
        group, ia, ib = pips
        seam = ~edge & ~near & (dist - a[:, 2] - b[:, 2] <= params.seam_path * 0.5 * (a[:, 3] + b[:, 3]) + 1.0)
        if seam.any():
            used = np.unique(np.concatenate([ia[seam], ib[seam]]))
            face = np.zeros((len(group), 3), np.float32)
            face[used] = _ring_colours([[group[k]] for k in used.tolist()], smooth)  # (the face just round each pip)
            path = along[seam]
            off_a = ((path - face[ia[seam]][:, None]) ** 2).sum(axis=2)
            off_b = ((path - face[ib[seam]][:, None]) ** 2).sum(axis=2)
            edge[seam] = np.minimum(off_a, off_b).max(axis=1) > params.seam_colour**2
    return edge & ~near


def _edge_between(a: Pip, b: Pip, smooth: np.ndarray, params: Params) -> bool:
    """Does the straight path from pip ``a`` to pip ``b`` cross an edge? (one pair of :func:`_edges_between`)"""
    return bool(_edges_between([(a, b)], smooth, params)[0])


class Regions(NamedTuple):
    """The outlines :func:`die_regions` finds, each one die's: a label image (0 = none), and per label its size
    (the longer side of its rotated box, pixels) and whether it is a square of a row of touching dice."""

    labels: np.ndarray
    sizes: np.ndarray
    in_row: np.ndarray


def die_regions(work: np.ndarray, background: np.ndarray, params: Params = DEFAULT) -> Regions:
    """Blobs that stand out from the table and look like one lone die, or like a row of dice side by side, cut into
    one square per die (:class:`Regions`).

    A blob is one die when its outline is convex and about square; tray walls,
    table clutter and dice touching anyhow are not (their pips rely on the path
    test of :func:`link_pips` alone). A convex blob that fills its rotated box
    (``region_solidity``) and is a whole number n of times as long as it is wide
    (2 to ``region_row``, within ``region_row_slack`` of n) is n dice in a row,
    each touching the next: it is cut into n squares along its length. The size
    lets the caller check it against the pips' size.
    """
    # the colour change: the sum of the channels' changes over sqrt 3 (about the Euclidean
    # distance), rounded to whole units, above region_colour; that is a sum of the changes
    # above a limit (summed in 16 bits, plane by plane: faster than a transform of the pixels)
    limit = (floor(params.region_colour) + 0.5) * sqrt(3)
    b, g, r = cv2.split(cv2.absdiff(work, background))
    change = cv2.add(cv2.add(b, g, dtype=cv2.CV_16U), r, dtype=cv2.CV_16U)
    mask = cv2.morphologyEx((change > limit).view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    labels = np.zeros(work.shape[:2], np.int32)
    sizes, in_row = [0.0], [False]
    for c in contours:
        area = cv2.contourArea(c)
        if area < 30:
            continue
        hull = cv2.contourArea(cv2.convexHull(c))
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(c)
        if hull <= 0 or area < params.region_solidity * hull:
            continue
        long, short = max(rw, rh), max(min(rw, rh), 1.0)
        if long <= params.region_aspect * short:
            sizes.append(float(long))
            in_row.append(False)
            cv2.drawContours(labels, [c], -1, len(sizes) - 1, -1)
            continue
        n = round(long / short)
        if not (2 <= n <= params.region_row and abs(long / short / n - 1) <= params.region_row_slack and area >= params.region_solidity * rw * rh):
            continue
        # n dice in a row: n squares along the box's longer side (u), as wide as it is (v)
        t = radians(angle if rw >= rh else angle + 90.0)
        u, v = np.array([cos(t), sin(t)]), np.array([-sin(t), cos(t)])
        side = long / n
        for i in range(n):
            centre = np.array([cx, cy]) + (i - (n - 1) / 2) * side * u
            corners = [centre + 0.5 * side * (a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            sizes.append(float(side))
            in_row.append(True)
            cv2.fillConvexPoly(labels, np.round(np.array(corners)).astype(np.int32), len(sizes) - 1)
    return Regions(labels, np.array(sizes), np.array(in_row))


def link_pips(
    pips: list[Pip],
    work: np.ndarray,
    params: Params = DEFAULT,
    smooth: np.ndarray | None = None,
    regions: Regions | None = None,
) -> list[list[Pip]]:
    """Group pips into dice faces (connected components of the 'same face' relation).

    Pips inside the outline of one lone die (``regions``, see
    :func:`die_regions`) need not pass the path test (marbled and translucent
    dice and glare look like edges); pips in two squares of a row of dice side
    by side never link (their pips lie on one even grid, and the groove between
    the dice may not show).
    """
    n = len(pips)
    joined: list[tuple[int, int]] = []
    if n:
        if smooth is None:
            smooth = cv2.GaussianBlur(work, (0, 0), 1.0)
        xy = np.array([[p.x, p.y] for p in pips])
        diam = np.array([p.diameter for p in pips])
        region = np.zeros(n, np.int32)
        in_row = np.zeros(n, bool)
        if regions is not None:
            lab = regions.labels
            xi = np.clip(np.round(xy[:, 0]).astype(int), 0, lab.shape[1] - 1)
            yi = np.clip(np.round(xy[:, 1]).astype(int), 0, lab.shape[0] - 1)
            region = lab[yi, xi]
            region[regions.sizes[region] > params.region_size * diam] = 0
            in_row = regions.in_row[region]
        # every pair closer than a few pip diameters, alike in size, polarity, colour and foreshortening
        rnd = np.array([p.roundness for p in pips])
        ang = np.array([p.angle for p in pips])
        dark = np.array([p.dark for p in pips])
        col = np.array([p.colour for p in pips])
        ii, jj = np.triu_indices(n, 1)
        dx, dy = xy[jj, 0] - xy[ii, 0], xy[jj, 1] - xy[ii, 1]
        di, dj = diam[ii], diam[jj]
        ratio = di / dj
        ok = (np.hypot(dx, dy) < params.link_factor * 0.5 * (dj + di) + 2) & (0.55 < ratio) & (ratio < 1.8) & (dark[ii] == dark[jj])
        dc = col[ii] - col[jj]
        ok &= np.sqrt((dc * dc).sum(axis=1)) <= params.pip_colour
        # pips of one face are foreshortened alike: similar roundness, and if elongated, the same
        # way (tiny blobs have too few pixels for a shape: they always pass)
        turn = np.abs(ang[ii] - ang[jj]) % 180.0
        tilt = (np.abs(rnd[ii] - rnd[jj]) <= params.tilt_roundness) & ~((np.maximum(rnd[ii], rnd[jj]) < 0.8) & (np.minimum(turn, 180.0 - turn) > params.tilt_angle))
        ok &= tilt | (np.minimum(di, dj) < params.tilt_min_diameter)
        inner = ok & (region[ii] != 0) & (region[ii] == region[jj])
        ok &= ~(in_row[ii] & in_row[jj]) | (region[ii] == region[jj])  # (pips in two squares of a row of dice: two dice)
        lone = list(zip(ii[inner].tolist(), jj[inner].tolist()))
        tested = ok & ~inner
        pairs = list(zip(ii[tested].tolist(), jj[tested].tolist()))
        ends = _path_ends(xy, diam)
        edges = _edges_along(ends[ii[tested]], ends[jj[tested]], smooth, params, pips=(pips, ii[tested], jj[tested]))
        joined = [pair for pair, edge in zip(pairs, edges) if not edge] + lone
    groups: dict[int, list[Pip]] = {}
    for i, r in enumerate(_roots(n, joined)):
        groups.setdefault(r, []).append(pips[i])
    return list(groups.values())


def table_background(work: np.ndarray, model: np.ndarray | None = None) -> np.ndarray:
    """The table without the dice: a median 120 pixels wide of an image reduced 8 times, scaled back
    (``model``: that median, :func:`table_model`'s, when made already). Each reduced pixel is scaled
    back onto the block of 8 x 8 it was made of; the rows and columns past the last whole block
    repeat the edge."""
    h, w = work.shape[:2]
    model = table_model(work)[1] if model is None else model
    mh, mw = model.shape[:2]
    if 8 * mw > w or 8 * mh > h:  # (a picture under 8 pixels, or a model not made of its blocks: stretched over it)
        return cv2.resize(model, (w, h), interpolation=cv2.INTER_LINEAR)
    back = cv2.resize(model, (8 * mw, 8 * mh), interpolation=cv2.INTER_LINEAR)
    return cv2.copyMakeBorder(back, 0, h - 8 * mh, 0, w - 8 * mw, cv2.BORDER_REPLICATE)


def table_model(work: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The picture reduced 8 times, and the table in it: its median 15 reduced pixels wide.

    Each reduced pixel is the mean of a block of 8 x 8 (the rows and columns past the last
    whole block are left out): an exact factor, which OpenCV reduces 2.5 times as fast as
    the nearest size of a picture whose sides are no multiple of 8 (a camera's frame at
    most working scales)."""
    small = _reduced(work)
    return small, _table_median(small)


def _reduced(work: np.ndarray) -> np.ndarray:
    """The picture reduced 8 times, each pixel the mean of a whole block of 8 x 8 (:func:`table_model`)."""
    h, w = work.shape[:2]
    bh, bw = max(h // 8, 1), max(w // 8, 1)
    if h < 8 or w < 8:
        return cv2.resize(work, (bw, bh), interpolation=cv2.INTER_AREA)
    return halved(work[: 8 * bh, : 8 * bw], 3)


def _table_median(small: np.ndarray) -> np.ndarray:
    """The table in a picture reduced 8 times: its median 15 reduced pixels wide (:func:`table_model`)."""
    k = 15 if min(small.shape[:2]) > 15 else max(3, (min(small.shape[:2]) // 2) * 2 - 1)
    return cv2.medianBlur(small, k)


@dataclass(frozen=True)
class Table:
    """The table without the dice, as a reader finds the changed parts of a picture against it:
    :func:`table_model`'s median and :func:`table_background`, in working pixels."""

    model: np.ndarray  # the picture reduced 8 times without the dice (a camera's: with the blocks it learnt, DiceReader)
    background: np.ndarray
    watch: np.ndarray | None = None  # reduced pixels searched whether they differ from the model or not: where a camera's last frames read dice


_FACES: dict[int, np.ndarray] = {
    4: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], float),
    5: np.array([[-1, -1], [1, -1], [-1, 1], [1, 1], [0, 0]], float),
    6: np.array([[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]], float),
}


def _whiten(pts: np.ndarray) -> np.ndarray | None:
    rel = pts - pts.mean(axis=0)
    cov = rel.T @ rel / len(pts)
    vals, vecs = np.linalg.eigh(cov)
    if vals[0] <= 1e-6 * max(vals[1], 1e-9):
        return None
    return rel @ vecs @ np.diag(1 / np.sqrt(vals)) @ vecs.T


def pattern_error(pts: np.ndarray, diam: float) -> float:
    """How far ``pts`` (n x 2) are from the pips of an n face seen at any angle, 0 = exact.

    A face seen obliquely is an affine image of the square face; whitening the
    points and the model removes the affine part up to a rotation (or mirror),
    which is searched. For 2 and 3 pips the pattern is a line (checked directly).
    The error is in units of the whitened spread (about a third of the face).
    """
    n = len(pts)
    if n == 1:
        return 0.0
    if n == 2:
        d = float(np.hypot(*(pts[0] - pts[1])))
        return 0.0 if 1.6 * diam <= d <= 7.0 * diam else 1.0
    if n == 3:
        c = pts.mean(axis=0)
        r = np.hypot(pts[:, 0] - c[0], pts[:, 1] - c[1])
        order = np.argsort(r)
        mid, ends = pts[order[0]], pts[order[1:]]
        span = float(np.hypot(*(ends[0] - ends[1])))
        if span < 2.0 * diam:
            return 1.0
        off_mid = float(np.hypot(*(mid - (ends[0] + ends[1]) / 2))) / span
        return off_mid * 2.0
    models = _WHITE_FACES.get(n)
    if models is None:
        return 1.0
    w = _whiten(pts)
    if w is None:
        return 1.0
    ang_w = np.arctan2(w[:, 1], w[:, 0])
    ok_w = np.hypot(w[:, 0], w[:, 1]) >= 0.3
    mm, am, mirror = models
    m = mm[mirror]  # (A, n, 2): the model each direction belongs to
    # every rotation that puts some model pip onto some point's direction, for the pattern and its mirror image
    t = ang_w[ok_w][:, None] - am[None, :]  # (point, A): R = point * A rotations
    c, s = np.cos(t)[:, :, None], np.sin(t)[:, :, None]
    rx = (m[None, :, :, 0] * c - m[None, :, :, 1] * s).reshape(-1, n)  # (R, n)
    ry = (m[None, :, :, 0] * s + m[None, :, :, 1] * c).reshape(-1, n)
    d = np.hypot(w[None, :, None, 0] - rx[:, None, :], w[None, :, None, 1] - ry[:, None, :])  # (R, point, model)
    err = np.maximum(d.min(axis=1).max(axis=1), d.min(axis=2).max(axis=1))
    # one-to-one: every point must take a different model pip
    nearest = np.sort(d.argmin(axis=2), axis=1)
    clash = np.any(nearest[:, 1:] == nearest[:, :-1], axis=1)
    return float(np.where(clash, np.maximum(err, 1.0), err).min())


def _pattern_errors(pts: np.ndarray, diam: float) -> np.ndarray:
    """:func:`pattern_error` of each of ``pts`` (S, n, 2): S sets of n points at once, (S,) errors.

    The same arithmetic, set by set, with the rotations of a set whose point lies too near
    the centre to give a direction left out (as :func:`pattern_error` leaves them out). A test
    holds the two together. (:func:`pattern_error` keeps its own code for one set: through this
    function one call takes 11-15 microseconds more, and a camera's look makes 12-33 of them.)"""
    s, n = pts.shape[:2]
    if n == 1:
        return np.zeros(s)
    if n == 2:
        d = np.hypot(*(pts[:, 0] - pts[:, 1]).T)
        return np.where((1.6 * diam <= d) & (d <= 7.0 * diam), 0.0, 1.0)
    if n == 3:
        c = pts.mean(axis=1)
        r = np.hypot(pts[:, :, 0] - c[:, None, 0], pts[:, :, 1] - c[:, None, 1])
        order = np.argsort(r, axis=1)
        mid = np.take_along_axis(pts, order[:, :1, None], axis=1)[:, 0]
        ends = np.take_along_axis(pts, order[:, 1:, None], axis=1)
        span = np.hypot(*(ends[:, 0] - ends[:, 1]).T)
        off_mid = np.hypot(*(mid - (ends[:, 0] + ends[:, 1]) / 2).T) / np.where(span > 0, span, 1.0)
        return np.where(span < 2.0 * diam, 1.0, off_mid * 2.0)
    models = _WHITE_FACES.get(n)
    if models is None:
        return np.ones(s)
    rel = pts - pts.mean(axis=1, keepdims=True)
    cov = np.matmul(rel.transpose(0, 2, 1), rel) / n
    vals, vecs = np.linalg.eigh(cov)
    flat = vals[:, 0] <= 1e-6 * np.maximum(vals[:, 1], 1e-9)
    root = np.sqrt(np.where(flat[:, None], 1.0, vals))
    w = np.matmul(np.matmul(rel, vecs) / root[:, None, :], vecs.transpose(0, 2, 1))  # (S, n, 2): rel @ vecs @ diag(1 / root) @ vecs.T
    ang_w = np.arctan2(w[:, :, 1], w[:, :, 0])
    ok_w = np.hypot(w[:, :, 0], w[:, :, 1]) >= 0.3
    mm, am, mirror = models
    m = mm[mirror]  # (A, n, 2)
    t = ang_w[:, :, None] - am[None, None, :]  # (S, point, A): R = point * A rotations
    c, sn = np.cos(t)[..., None], np.sin(t)[..., None]
    rx = (m[None, None, :, :, 0] * c - m[None, None, :, :, 1] * sn).reshape(s, -1, n)  # (S, R, n)
    ry = (m[None, None, :, :, 0] * sn + m[None, None, :, :, 1] * c).reshape(s, -1, n)
    d = np.hypot(w[:, None, :, None, 0] - rx[:, :, None, :], w[:, None, :, None, 1] - ry[:, :, None, :])  # (S, R, point, model)
    err = np.maximum(d.min(axis=2).max(axis=2), d.min(axis=3).max(axis=2))
    nearest = np.sort(d.argmin(axis=3), axis=2)
    clash = np.any(nearest[:, :, 1:] == nearest[:, :, :-1], axis=2)
    err = np.where(clash, np.maximum(err, 1.0), err)
    err = np.where(np.repeat(ok_w, len(am), axis=1), err, np.inf)  # (rotations from a point that gives no direction: none)
    return np.where(flat, 1.0, err.min(axis=1))


@lru_cache(maxsize=64)
def _subsets(n: int, k: int) -> np.ndarray:
    """Every subset of k of range(n), in the order of :func:`itertools.combinations`: (C, k) indices."""
    subsets = np.array(list(combinations(range(n), k)), np.intp).reshape(-1, k)
    subsets.setflags(write=False)  # (one array for every caller)
    return subsets


def _white_faces(model: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The whitened face pattern and its mirror image (2, n, 2); the directions of their pips off the centre
    (the centre pip left out); and for each direction, which of the two it belongs to.

    A pattern that is its own mirror image (the faces of a die are) has no mirror image
    to search: (1, n, 2), the pattern alone.
    """
    m = _whiten(model)
    assert m is not None
    symmetric = sorted(map(tuple, model.tolist())) == sorted(map(tuple, (model * np.array([1.0, -1.0])).tolist()))
    both = m[None] if symmetric else np.stack([m, m * np.array([1.0, -1.0])])
    ang, mirror = [], []
    for k, mm in enumerate(both):
        am = np.arctan2(mm[:, 1], mm[:, 0])[np.hypot(mm[:, 0], mm[:, 1]) >= 0.3]
        ang.append(am)
        mirror.extend([k] * len(am))
    return both, np.concatenate(ang), np.array(mirror)


_WHITE_FACES = {n: _white_faces(model) for n, model in _FACES.items()}


def _pattern_score(pts: np.ndarray, diam: float, err: float | None = None) -> float:
    """Confidence 0..1 that ``pts`` form a die face (``err``: their :func:`pattern_error`, when known)."""
    if err is None:
        err = pattern_error(pts, diam)
    return min(max(1.0 - err / 0.5, 0.0), 1.0) * 0.5 + 0.5 if err < 0.5 else float(max(0.0, 0.5 - err))


FIT_ERROR = 0.35
"""A pip set fits a face pattern when :func:`pattern_error` is below this."""

MAX_SEARCH = 10
"""Groups up to this many pips are searched exhaustively for their best face."""


def best_face(group: list[Pip], diam: float, params: Params | None = None) -> tuple[list[Pip], list[Pip]]:
    """Split a group that is no face (too many pips, or a bad pattern) into a face and the rest.

    The face is the largest subset of the group that fits a die face pattern
    and whose pips look alike (similar roundness and size: one face is seen at
    one angle; the pips of a side face linked to the top face are flatter and
    smaller). Among subsets of that size the best fit wins, ties going to the
    roundest pips (the top face is seen most squarely). Groups bigger than
    ``MAX_SEARCH`` first shed their least round pips.
    """
    face, rest, _ = _best_face(group, diam, DEFAULT if params is None else params)
    return face, rest


def _best_face(group: list[Pip], diam: float, params: Params) -> tuple[list[Pip], list[Pip], float | None]:
    """:func:`best_face`, and the face's :func:`pattern_error` for its own median pip diameter when known (else None)."""
    g = list(group)
    pts_all = np.array([[p.x, p.y] for p in g])
    # (two pips have a bound of their own in pattern_error, within this one; one has no spread)
    reach = params.max_face_spread * _pip_length(g) if len(g) > 2 else inf
    if len(g) <= 6:
        err_all = pattern_error(pts_all, diam)
        if err_all < FIT_ERROR and (len(g) <= 2 or _spread(pts_all) <= reach):
            return g, [], err_all
    rest: list[Pip] = []
    if len(g) > MAX_SEARCH:
        g.sort(key=lambda p: -p.roundness)
        rest, g = g[MAX_SEARCH:], g[:MAX_SEARCH]
    pts = np.array([[p.x, p.y] for p in g])
    rnd = np.array([p.roundness for p in g])
    dia = np.array([p.diameter for p in g])
    for k in range(min(6, len(g)), 1, -1):
        subs = _subsets(len(g), k)  # (every subset of k pips at once: the search is numpy's, not a loop's)
        r, d = rnd[subs], dia[subs]
        alike = (r.max(axis=1) - r.min(axis=1) <= params.tilt_roundness) & (d.max(axis=1) <= 1.6 * d.min(axis=1))
        if not alike.any():
            continue
        subs, r = subs[alike], r[alike]
        snug = _spread(pts[subs]) <= reach  # (pips of several dice spread wider)
        if not snug.any():
            continue
        subs, r = subs[snug], r[snug]
        errs = _pattern_errors(pts[subs], diam)
        keys = np.where(errs < FIT_ERROR, errs - 0.5 * r.mean(axis=1), np.inf)
        j = int(np.argmin(keys))  # (the first of the best, as combinations orders them)
        if keys[j] < np.inf:
            chosen = set(subs[j].tolist())
            # (the error of 2 and 3 pips depends on the pip diameter, here the whole group's)
            return [g[i] for i in subs[j].tolist()], rest + [g[i] for i in range(len(g)) if i not in chosen], float(errs[j]) if k >= 4 else None
    # no pattern of two or more: the roundest pip alone
    i = int(np.argmax(rnd))
    return [g[i]], rest + g[:i] + g[i + 1 :], 0.0


def _pip_length(group: list[Pip]) -> float:
    """The median length of the pips of ``group`` (the major axis of each: its diameter over the root of its
    roundness, which a pip seen obliquely keeps)."""
    return float(median([p.diameter / sqrt(max(p.roundness, 0.2)) for p in group]))


def _spread(pts: np.ndarray) -> np.ndarray:
    """How far the points (..., n, 2) lie from their centre at most: (...,)."""
    rel = pts - pts.mean(axis=-2, keepdims=True)
    return np.hypot(rel[..., 0], rel[..., 1]).max(axis=-1)


@dataclass(frozen=True)
class Face:
    """A candidate die face: a group of pips that sits on a die."""

    x: float
    y: float
    size: float  # estimated side of the die face, working pixels
    value: int | None
    confidence: float
    roundness: float  # mean roundness of its pips (the face seen most squarely is roundest)
    box: tuple[float, float, float, float]
    pips: int
    peak: float = 0.0  # median pip evidence
    diameter: float = 0.0  # median pip diameter
    contrast: float = 0.0  # colour distance of the face from the table
    clutter: float = 0.0  # colour spread just round the pips, relative to the pips' contrast (a plain face: small)
    roundest: tuple[float, float] | None = None  # (x, y) of its roundest pip: the one seen most squarely


def face_of(
    group: list[Pip],
    work: np.ndarray,
    background: np.ndarray,
    params: Params,
    smooth: np.ndarray | None = None,
    err: float | None = None,
    colour: np.ndarray | None = None,
) -> Face | None:
    """The face a pip group forms, or None if it is no die (``err``: its :func:`pattern_error`, when known;
    ``colour``: with ``params.learned``, the face's colour round its pips, :func:`_ring_colours`, when known)."""
    n = len(group)
    xs = [p.x for p in group]
    ys = [p.y for p in group]
    diam = float(median([p.diameter for p in group]))  # (statistics and plain floats: small lists, no numpy overhead)
    cx, cy = sum(xs) / n, sum(ys) / n
    spread = max(hypot(x - cx, y - cy) for x, y in zip(xs, ys)) if n > 1 else 0.0
    major = _pip_length(group)
    size = max(5.0 * major, spread / 0.36) if n > 1 else 6.0 * major
    half = 0.5 * size
    h, w = work.shape[:2]
    x0, y0 = max(cx - half, 0.0), max(cy - half, 0.0)
    x1, y1 = min(cx + half, float(w)), min(cy + half, float(h))
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    ring_from = work if smooth is None else smooth
    if params.learned:  # (the network judges clutter itself: only the colour)
        clutter, face = 0.0, _ring_colours([group], ring_from)[0] if colour is None else colour
    else:
        clutter, face = _face_ring(group, ring_from)
    # the table under the die, from the background model (the die itself is removed from it)
    to_table = face - background[min(max(int(cy), 0), h - 1), min(max(int(cx), 0), w - 1)].astype(np.float32)
    contrast = float(np.sqrt(to_table.dot(to_table)))  # (the norm, without its wrapper)
    if contrast < params.min_face_contrast:
        # a die big in the picture is part of the wide-median table model: look just outside it instead
        rx = np.clip(np.round(cx + 0.8 * size * _RING[:, 0]).astype(int), 0, w - 1)
        ry = np.clip(np.round(cy + 0.8 * size * _RING[:, 1]).astype(int), 0, h - 1)
        around = np.median(work[ry, rx].astype(np.float32), axis=0)
        contrast = float(np.linalg.norm(face - around))
    roundness = sum(p.roundness for p in group) / n
    peak = float(median([p.strength for p in group]))
    box = (x0, y0, x1, y1)
    top = max(group, key=lambda p: p.roundness)
    if n > 6:
        return Face(cx, cy, size, None, 0.0, roundness, box, n, peak, diam, contrast, clutter, (top.x, top.y))
    if contrast < params.min_face_contrast and n < params.contrast_pips:
        return None
    conf = _pattern_score(np.array([xs, ys]).T, diam, err)
    return Face(cx, cy, size, n, conf, roundness, box, n, peak, diam, contrast, clutter, (top.x, top.y))


_RING = np.stack([np.cos(np.linspace(0, 2 * np.pi, 16, endpoint=False)), np.sin(np.linspace(0, 2 * np.pi, 16, endpoint=False))], axis=1)


def _ring_points(group: list[Pip], shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Where the face is sampled round each pip of ``group``: 16 points on a ring just outside it (pips, 16) x and y, inside the picture."""
    h, w = shape[:2]
    p = np.array([[q.x, q.y, q.diameter, q.roundness] for q in group])
    r = 0.5 * p[:, 2] / np.sqrt(np.maximum(p[:, 3], 0.3)) + np.maximum(1.5, 0.4 * p[:, 2])
    xs = np.minimum(np.maximum(np.round(p[:, 0:1] + r[:, None] * _RING[None, :, 0]).astype(int), 0), w - 1)  # (clip, without its wrapper)
    ys = np.minimum(np.maximum(np.round(p[:, 1:2] + r[:, None] * _RING[None, :, 1]).astype(int), 0), h - 1)
    return xs, ys


def _face_ring(group: list[Pip], smooth: np.ndarray) -> tuple[float, np.ndarray]:
    """Clutter round the pips and the colour of the face there (the classical reader).

    The clutter is how uneven the face is on a ring just outside each pip
    (:func:`_ring_points`), relative to the pip's contrast: a die face round a
    pip is plain; table clutter (print, wood grain, cables, reflections) that
    happens to hold a round blob is not.
    """
    h, w = smooth.shape[:2]
    xs, ys = _ring_points(group, smooth.shape)
    ring = smooth[ys, xs].astype(np.float32)  # (pips, 16, 3)
    ref = np.median(ring, axis=1)  # (pips, 3)
    spread = np.median(np.linalg.norm(ring - ref[:, None, :], axis=2), axis=1)
    cx = np.clip(np.round([q.x for q in group]).astype(int), 0, w - 1)
    cy = np.clip(np.round([q.y for q in group]).astype(int), 0, h - 1)
    centre = smooth[cy, cx].astype(np.float32)
    ratios = spread / (np.linalg.norm(centre - ref, axis=1) + 1.0)
    return float(np.median(ratios)), np.median(ring.reshape(-1, 3), axis=0)


def _ring_colours(groups: list[list[Pip]], smooth: np.ndarray) -> np.ndarray:
    """The colour of the face round each group's pips, for all groups at once: (groups, 3) float32.

    The median of the group's ring samples (:func:`_ring_points`) per channel,
    as the learned reader needs it (it judges clutter itself). Each group's
    samples are sorted in a row of their own, padded with a value above any
    byte, and the middle two averaged (the counts are even); groups all of one
    size (lone pips, as :func:`_edges_along` asks) need no padding.
    """
    xs, ys = _ring_points([q for g in groups for q in g], smooth.shape)
    samples = smooth[ys.ravel(), xs.ravel()]  # (pips * 16, 3), group by group
    if len({len(g) for g in groups}) == 1:
        block = np.sort(samples.reshape(len(groups), -1, 3), axis=1)
        half = block.shape[1] // 2
        return (block[:, half - 1].astype(np.float32) + block[:, half]) / np.float32(2)
    counts = len(_RING) * np.array([len(g) for g in groups])
    starts = np.cumsum(counts) - counts
    rows = np.repeat(np.arange(len(groups)), counts)
    padded = np.full((len(groups), int(counts.max()), 3), 256, np.uint16)
    padded[rows, np.arange(len(rows)) - starts[rows]] = samples
    padded.sort(axis=1)
    middle, every = counts // 2, np.arange(len(groups))
    return (padded[every, middle - 1].astype(np.float32) + padded[every, middle]) / np.float32(2)


def plausible_faces(faces: list[Face], params: Params = DEFAULT) -> list[Face]:
    """Drop faces on clutter, lone pips seen askew, and faces whose pips are much smaller or fainter than the clear faces.

    Clear faces (several pips in a good pattern, seen squarely) fix the pip size
    and strength of this picture; specks of dirt, texture and glare are smaller
    and fainter. Without a clear face nothing is dropped.
    """
    faces = [
        f
        for f in faces
        if f.clutter <= (params.max_clutter if f.pips == 1 else params.max_clutter_pattern)
        # a lone pip seen askew is a side face's pip, or no pip at all
        and (f.pips > 1 or f.roundness >= params.min_single_roundness)
    ]
    clear = [f for f in faces if _clear(f, 0.75)]
    if not clear:
        return faces
    diam = float(np.median([f.diameter for f in clear]))
    peak = float(np.median([f.peak for f in clear]))
    return [
        f
        for f in faces
        if (f.pips == 1 and f.diameter >= params.min_relative_diameter * diam and f.peak >= params.min_relative_peak * peak)
        or (f.pips > 1 and f.diameter >= params.min_relative_diameter_pattern * diam and f.peak >= params.min_relative_peak_pattern * peak)
    ]


def die_size(faces: list[Face]) -> float:
    """The size of a die in this picture: the median size of its clear faces (several pips in a good pattern).

    Dice on one table are one size and a table camera sees them at about one
    scale; one figure per picture steadies the crops of :func:`learned_faces`.
    0.0 when the picture has no clear face (then each candidate's own size is used).
    """
    clear = _clear_sizes(faces)
    return float(np.median(clear)) if clear else 0.0


def _clear_sizes(faces: list[Face], pips: int = 2) -> list[float]:
    """The sizes of the clear faces of ``pips`` pips and more (pips in a good pattern: a confidence of 0.9)."""
    return [f.size for f in faces if f.pips >= pips and f.confidence >= 0.9]


def learned_faces(work: np.ndarray, faces: list[Face], params: Params = DEFAULT, regions: Regions | None = None) -> list[Face]:
    """One face per die, read by the classifier of :mod:`vision.dice_model` from a crop round each candidate
    (:func:`read_candidates`; not round those a face that agrees claims, whose reading cannot matter).

    A candidate is kept when the classifier says it is a die (probability of
    "no die" below ``1 - min_die``); its value is the classifier's most likely
    value and its confidence that value's probability (below
    ``CONFIDENCE_THRESHOLD``: unsure). An unsure candidate is kept only when
    the classifier is surer that it is a die (``unsure_die``): an unsure
    reading holds the roll at the table, and clutter the network half takes
    for a die (a port, a key, a label) reads as no value in particular. Of
    the kept candidates one per die is chosen by :func:`one_per_die`
    (``regions``, :func:`die_regions`, made here when not given), and a one
    read from several pips lies at its roundest (:func:`_at_the_one`).
    """
    if not faces:
        return []
    size = die_size(faces)
    if regions is None and params.region_colour > 0:
        regions = die_regions(work, table_background(work), params)
    # The clear faces are read first: only they can agree, and one_per_die keeps the ones that
    # agree before any other. A candidate that one of those kept would drop (a side face or a
    # stray blob of a die read by its top face) is dropped whatever the network reads of it, so it
    # is not read: the readings are those of reading every crop, for fewer crops (the bench's real
    # frames of ten dice: 24 of 33 candidates a frame read).
    first = [i for i, f in enumerate(faces) if _clear(f, params.agree_roundness)]
    done = read_candidates(work, faces, first, size, params, regions)
    agreed = _keep([c for c in done.values() if c[2]], size, regions, params)
    read_first = set(first)
    rest = [i for i, f in enumerate(faces) if i not in read_first and not agreed.claims(f)]
    done.update(read_candidates(work, faces, rest, size, params, regions, before=done))
    cands = [done[i] for i in sorted(done)]  # (in the candidates' order, which one_per_die's ties keep)
    return [_at_the_one(f) for f in one_per_die(cands, size, regions, params)]


def read_candidates(
    work: np.ndarray,
    faces: list[Face],
    chosen: list[int],
    size: float,
    params: Params = DEFAULT,
    regions: Regions | None = None,
    before: dict[int, tuple[Face, float, bool]] | None = None,
) -> dict[int, tuple[Face, float, bool]]:
    """The candidates ``faces[i]``, i in ``chosen``, read by the classifier from crops ``size`` wide (the
    picture's :func:`die_size`; 0: each its own): i -> (the face as read, its surety, whether it
    :func:`agrees`), for :func:`one_per_die`; those :func:`learned_faces` drops are left out.

    A lone pip in a square of a row of dice (``regions``, :func:`die_regions`) is read from a crop
    ``params.row_one_crop`` die sizes wide: the usual crop, half a die wider, takes in the nearest
    pips of the dice it touches, and the network, never shown a one so, reads it unsure or as a two.

    ``before``: the picture's candidates read already (as this returns them), when ``chosen`` are
    all the rest; then a crop the network is unsure of is looked at again in turns only when
    :func:`one_per_die` could keep it (:func:`_worth_turning`).
    """
    from .dice_model import CROP_FACTOR, classify, load_model

    if not chosen:
        return {}
    rows = np.array([[faces[i].x, faces[i].y, size or faces[i].size] for i in chosen], np.float32)
    if regions is not None and regions.in_row.any():
        in_row = [faces[i].pips == 1 and bool(regions.in_row[_outline_of(regions, faces[i], size)]) for i in chosen]
        rows[in_row, 2] *= params.row_one_crop / CROP_FACTOR
    again = None if before is None else (lambda p, unsure: _worth_turning(faces, chosen, p, unsure, before, size, regions, params))
    probs = classify(work, rows, load_model(params.network), params.turns, params.sure, again)
    return _readings(faces, chosen, probs, params)


def _readings(faces: list[Face], chosen: list[int], probs: np.ndarray, params: Params) -> dict[int, tuple[Face, float, bool]]:
    """:func:`read_candidates`' readings of ``faces[i]``, i in ``chosen``, from the classifier's ``probs``."""
    out = {}
    for i, p, die, v, conf in zip(chosen, probs, *(a.tolist() for a in network_readings(probs))):
        f = faces[i]
        if die < params.min_die:
            continue
        if f.value is not None and f.value != v and _clear(f, params.clear_roundness) and p[f.value] / die >= params.second_opinion:
            # a clear face (several round pips in a good pattern) the network thinks possible: its own count stands
            v, conf = f.value, max(float(p[f.value]) / die, CONFIDENCE_THRESHOLD)
        if conf < CONFIDENCE_THRESHOLD and die < params.unsure_die:
            continue  # no value it can read, and not clearly a die: a laptop's port, a key, a label, a speck
        out[i] = (replace(f, value=v, confidence=conf), die * conf, agrees(f, v, conf, params))
    return out


def _worth_turning(
    faces: list[Face],
    chosen: list[int],
    probs: np.ndarray,
    unsure: np.ndarray,
    before: dict[int, tuple[Face, float, bool]],
    size: float,
    regions: Regions | None,
    params: Params,
) -> np.ndarray:
    """Of the crops round ``faces[chosen[j]]`` the network is unsure of at its first look (``probs``; j in
    ``unsure``), those worth turning: all but those a die claims that :func:`one_per_die` keeps from the
    first looks (with ``before``, the picture's other candidates, read) and that agrees or was read at
    least ``params.turn_claimed`` surely. A stray blob of a die (a side face's pip, a corner) is often
    read unsure; such a die keeps it out whatever its turns read."""
    read = {**before, **_readings(faces, chosen, probs, params)}
    dice = _keep([read[i] for i in sorted(read)], size, regions, params)
    unsure_read = {id(read[i][0]) for i in (chosen[j] for j in unsure.tolist()) if i in read}
    firm = _Dice(size, regions, params)
    by_face = {id(r[0]): r for r in read.values()}
    for f in dice.faces():
        _, surety, agreed = by_face[id(f)]
        if id(f) not in unsure_read and (agreed or surety >= params.turn_claimed):
            firm.keep(f, agreed)
    return unsure[[not firm.claims(faces[chosen[j]]) for j in unsure.tolist()]]


def _at_the_one(face: Face) -> Face:
    """A face read as a one that has several pips, moved to its roundest pip (others unchanged).

    A die seen obliquely shows its top face and side faces; on a die of one
    colour the path from its one to a side face's pip crosses no visible edge,
    so they form one pip group, centred between them (on the die's side),
    whose crop the network reads as the one it is. The one is the pip seen
    most squarely: the top face's. (Its box stays the group's.)
    """
    if face.value == 1 and face.pips > 1 and face.roundest is not None:
        return replace(face, x=face.roundest[0], y=face.roundest[1])
    return face


def network_readings(probs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The classifier's reading of each crop from its probabilities (n, 7; "no die", 1..6), in float64:
    the probability of a die, the most likely value, and the confidence in it (its share of the
    die probability). A crop is a die when the first reaches ``Params.min_die``; below
    ``CONFIDENCE_THRESHOLD`` the confidence makes the value unsure."""
    p = probs.astype(np.float64)
    die = 1.0 - p[:, 0]
    value = p[:, 1:].argmax(axis=1) + 1
    with np.errstate(divide="ignore", invalid="ignore"):  # (no die at all: the crop is no die anyway)
        confidence = p[np.arange(len(p)), value] / die
    return die, value, confidence


def _clear(f: Face, roundness: float) -> bool:
    """Is ``f`` a clear face: several pips, this round at least, in a good pattern (by the classical rules)?"""
    return f.pips >= 2 and f.confidence >= 0.9 and f.roundness >= roundness


def agrees(face: Face, value: int, confidence: float, params: Params = DEFAULT) -> bool:
    """Does the network's reading (``value``, ``confidence``) of a candidate agree with its own pips?

    It does when the candidate is a clear face (several pips, at least
    ``agree_roundness`` round: seen about squarely, not a side face seen askew,
    in a good pattern) and the network reads its pip count, surely
    (``CONFIDENCE_THRESHOLD``). Such a candidate is its die's top face.
    """
    return value == face.pips and confidence >= CONFIDENCE_THRESHOLD and _clear(face, params.agree_roundness)


def one_per_die(
    cands: list[tuple[Face, float, bool]], size: float, regions: Regions | None = None, params: Params = DEFAULT
) -> list[Face]:
    """One reading per die from the read candidates: rows (face as read, surety, agrees).

    ``surety`` is the classifier's probability of the die times its
    confidence in the value; ``agrees``: :func:`agrees`, the candidate is a
    clear face whose own pip count the classifier reads.

    Candidates closer than ``same_die`` die sizes (``size``, the picture's,
    :func:`die_size`, or the candidates' own if bigger, up to 1.5 times the
    picture's; of a kept candidate that agrees, its own if bigger, up to twice
    the picture's: its pips' spread measures it), or lying in the outline of
    one lone die (``regions``, :func:`die_regions`), are one die, and the first
    of them in this order wins: candidates that agree, then lone round pips
    the network surely reads as a one (``agree_roundness``, ``lone_one``),
    then the surest. (A crop round a stray blob of a die, a corner or a side
    face's pip, often reads the die as surely as the crop round its top face;
    it lies off the die's centre, so two of them on either side of the die can
    be further apart than ``same_die``; the top face between them, whose pips
    the network counts alike, or the one pip it reads as the one it is, is the
    die.)
    """
    return _keep(cands, size, regions, params).faces()


def _keep(cands: list[tuple[Face, float, bool]], size: float, regions: Regions | None, params: Params) -> _Dice:
    """:func:`one_per_die`'s dice: the candidates in its order, each kept unless a die kept before claims it."""
    dice = _Dice(size, regions, params)
    for f, _, agreed in sorted(cands, key=lambda t: (not t[2], not _lone_one(t[0], params), -t[1])):
        if not dice.claims(f):
            dice.keep(f, agreed)
    return dice


def _lone_one(f: Face, params: Params) -> bool:
    """Is ``f`` a lone pip seen about squarely (``agree_roundness``) that the network surely reads as a one?"""
    return f.value == 1 and f.pips == 1 and f.roundness >= params.agree_roundness and f.confidence >= params.lone_one


def _outline_of(regions: Regions, f: Face, size: float) -> int:
    """The label of the die's outline (:func:`die_regions`) ``f`` lies in, when that outline is at most two die
    sizes across (``size``, the picture's, or else ``f``'s own; a tray can have a die's outline); else 0."""
    lab = regions.labels
    r = int(lab[min(max(int(f.y), 0), lab.shape[0] - 1), min(max(int(f.x), 0), lab.shape[1] - 1)])
    return r if r and regions.sizes[r] <= 2.0 * (size or f.size) else 0


class _Dice:
    """The dice :func:`one_per_die` has kept so far (one candidate each), and which candidates are one of them."""

    def __init__(self, size: float, regions: Regions | None, params: Params) -> None:
        self.size, self.regions, self.params = size, regions, params
        self.kept: list[tuple[Face, int, float]] = []  # (face, its region, its reach when it agrees, else 0)
        # the labels of the squares of rows of dice (die_regions), most pictures none
        self.squares = frozenset(np.flatnonzero(regions.in_row).tolist()) if regions is not None else frozenset()

    def _reach(self, a: float, b: float) -> float:
        # how far apart two candidates of one die can be: the picture's die size, or their own
        # sizes up to half as much again (a lone big blob, taken for a pip, would claim a wide
        # circle and swallow the dice round it); a face that agrees measured its own size by
        # its pips' spread, which holds up to two die sizes (as the outline of one lone die:
        # its own reach, kept with it)
        return min(max(a, b, self.size), 1.5 * self.size) if self.size else max(a, b)

    def _region(self, f: Face) -> int:
        # two candidates inside the outline of one lone die (die_regions: convex, about square,
        # at most two die sizes across) are that die however far apart (a top face and a tall
        # side face seen from the side)
        return 0 if self.regions is None else _outline_of(self.regions, f, self.size)

    def claims(self, f: Face) -> bool:
        """Is candidate ``f`` one of the kept dice (within its reach, or in its lone outline)? Not when the two lie in
        two squares of a row of dice side by side (:func:`die_regions`): dice that touch lie about a die apart, as
        the reach's own slack allows."""
        rf = self._region(f)
        in_square = rf in self.squares
        for k, rk, own in self.kept:
            if rf and rk == rf:
                return True  # (in the outline of one lone die, or in one square of a row of dice)
            if in_square and rk in self.squares:
                continue  # (two squares of a row of dice side by side: two dice however close)
            if hypot(f.x - k.x, f.y - k.y) <= self.params.same_die * (own or self._reach(k.size, f.size)):
                return True
        return False

    def keep(self, f: Face, agreed: bool) -> None:
        """``f`` is a die (``agreed``: it agrees with the network, :func:`agrees`)."""
        self.kept.append((f, self._region(f), min(max(f.size, self.size), 2.0 * self.size) if agreed else 0.0))

    def faces(self) -> list[Face]:
        return [f for f, _, _ in self.kept]


def suppress_side_faces(faces: list[Face], params: Params = DEFAULT) -> list[Face]:
    """Keep one face per die: of faces closer than a die apart, the one seen most squarely."""
    order = sorted(faces, key=lambda f: (-(f.roundness + params.pip_weight * min(f.pips, 6)), -f.confidence))
    kept: list[Face] = []
    for f in order:
        if all(
            np.hypot(f.x - k.x, f.y - k.y) > params.same_die * max(k.size, f.size) or f.roundness > k.roundness - params.side_face_margin
            for k in kept
        ) or not kept:
            kept.append(f)
    return kept
