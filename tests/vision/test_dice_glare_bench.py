"""bench/dice_glare.py and the pictures it draws (vision.synth.render_glare): dice lying apart, each with a highlight
of glossy plastic in one of its pips or on its face; the same pictures every run."""

from __future__ import annotations

import numpy as np
import pytest

from bench.dice_glare import main, picture
from vision.synth import GLARE, TOUCHING_COLOURS, render_dice, render_glare


def test_without_highlights_the_dice_are_those_render_dice_draws() -> None:
    plain, truth = render_glare([2, 5, 6], strength=0.0, noise=0.0, seed=4)
    dice, same = render_dice([2, 5, 6], noise=0.0, seed=4)
    assert np.array_equal(plain, dice) and truth == same


@pytest.mark.parametrize(("where", "colours"), [("pip", TOUCHING_COLOURS[0]), ("face", TOUCHING_COLOURS[2])])  # (black pips, a black face)
def test_a_highlight_brightens_a_pip_or_the_face_of_each_die(where: str, colours: tuple[tuple[int, int, int], tuple[int, int, int]]) -> None:
    assert where in GLARE
    die = 60.0
    plain, truth = render_glare([3, 4, 6], strength=0.0, noise=0.0, seed=2, die=die, colours=colours)
    shiny, _ = render_glare([3, 4, 6], where=where, strength=0.9, noise=0.0, seed=2, die=die, colours=colours)
    brighter = shiny.astype(int).sum(axis=2) - plain.astype(int).sum(axis=2)
    assert brighter.min() >= 0  # (a highlight only brightens)
    for _, (x, y) in truth:
        box = brighter[int(y - die) : int(y + die), int(x - die) : int(x + die)]
        by, bx = np.unravel_index(np.argmax(box), box.shape)
        spot = (x - die + bx, y - die + by)
        assert box.max() > 300  # (up to 0.9 of the way to white, over three channels)
        if where == "pip":  # (brightest where the die shows a black pip)
            assert plain[round(spot[1]), round(spot[0])].astype(int).sum() < 3 * 60
        else:
            assert np.hypot(spot[0] - x, spot[1] - y) <= 0.3 * np.sqrt(2) * die + 1


def test_render_glare_refuses_an_unknown_place_and_a_strength_out_of_range() -> None:
    with pytest.raises(ValueError, match=r"glare where 'rim': expected one of pip, face"):
        render_glare([1], where="rim")
    with pytest.raises(ValueError, match=r"glare strength 1.5: expected 0 to 1"):
        render_glare([1], strength=1.5)


def test_the_bench_draws_the_same_pictures_every_run() -> None:
    a, labels, name = picture(4, 0, "face", 0.9)
    b, _, _ = picture(4, 0, "face", 0.9)
    assert np.array_equal(a, b) and name.startswith("glare4:") and len(labels) == 5


def test_the_bench_prints_the_figures_without_and_with_each_kind_of_glare(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--photos", "3", "--strength", "0.9"]) == 0
    out = capsys.readouterr().out
    heads = [line.split(":")[0] for line in out.splitlines() if "photos," in line]
    assert heads == ["glare / none (the same pictures)", "glare / on a pip, 0.9 of the way to white", "glare / on a face, 0.9 of the way to white"]
    assert out.count("per-die accuracy") == 3 and out.count("dice right per colour: white, black pips") == 3


def test_the_bench_refuses_a_strength_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--strength", "0"])
    assert "--strength 0.0: each above 0 and at most 1" in capsys.readouterr().err
