"""bench/camera_latency.py runs, and with either way of reading the camera every roll is answered."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "camera_latency.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("camera_latency", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return bench


def test_camera_latency_bench_answers_every_roll(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    assert bench.main(["--rolls", "1"]) == 0
    rows = {line.split("  ")[0].strip(): line.split() for line in capsys.readouterr().out.splitlines()[2:]}
    assert set(rows) == {"UsbCamera", "VideoCapture.read"}
    for row in rows.values():
        assert row[1:4] == ["1", "/", "1"]  # answered 1 / 1
        assert 0 < float(row[4]) < 3500  # (within the roll's rest: a figure, not a budget)


def test_camera_latency_bench_refuses_nonsense(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    with pytest.raises(SystemExit):
        bench.main(["--fps", "0"])
    assert "--fps: above 0" in capsys.readouterr().err
