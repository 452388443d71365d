"""The firmware's protocol handling under real MicroPython gives byte-identical results
to CPython. Needs node and the npm package @micropython/micropython-webassembly-pyscript
(``npm install -g @micropython/micropython-webassembly-pyscript``; scripts/setup.sh test installs it); skipped without them, except under CI."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_bridge.firmware import frames as fw_frames
from firmware_bridge.protocol import Ping, Show, encode_frame

HERE = Path(__file__).parent
FIRMWARE = Path(fw_frames.__file__).parent
PACKAGE = "@micropython/micropython-webassembly-pyscript"


def micropython_mjs():
    node = shutil.which("node")
    if not node:
        return None
    candidates = []
    if os.environ.get("REFBOX_MICROPYTHON_MJS"):
        candidates.append(Path(os.environ["REFBOX_MICROPYTHON_MJS"]))
    npm = shutil.which("npm")
    if npm:
        try:
            root = subprocess.run([npm, "root", "-g"], capture_output=True, text=True, timeout=30).stdout.strip()
            candidates.append(Path(root) / PACKAGE / "micropython.mjs")
        except (OSError, subprocess.SubprocessError):
            pass
    return next((c for c in candidates if c.is_file()), None)


def stream() -> bytes:
    corrupted = bytearray(encode_frame(3, Show(clock="00:03")))
    corrupted[7] ^= 0x40
    parts = [
        b"\x00\xa5\x30noise",
        encode_frame(1, Show(clock="12:34", shot_clock="24", home_score=3, away_score=11, home_fouls=2, period="1")),
        encode_frame(2, Ping()),
        bytes(corrupted),
        fw_frames.build_frame(4, fw_frames.T_SHOW, b"\x01" * fw_frames.SHOW_LEN),  # refused: NAK
        encode_frame(5, Show(clock="59.3", shot_clock="4.5", home_score=105, horn=True, clock_running=True, turn="away")),
        b"\xa5\xa5\xa5",
        encode_frame(6, Show(clock="59.2", shot_clock="4.4", home_score=105, horn=True, period="H")),
    ]
    return b"".join(parts)


def test_firmware_runs_identically_under_micropython(tmp_path):
    mjs = micropython_mjs()
    if mjs is None:
        if os.environ.get("CI"):  # CI's setup installs it (scripts/setup.sh test): its absence there is a failure, not a skip
            pytest.fail(f"node and the npm package {PACKAGE} are needed (scripts/setup.sh test installs them)")
        pytest.skip(f"node and the npm package {PACKAGE} are needed")
    data = tmp_path / "input.bin"
    data.write_bytes(stream())
    cpython = subprocess.run(
        [sys.executable, str(HERE / "firmware_driver.py"), str(FIRMWARE), str(data)],
        capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    micro = subprocess.run(
        ["node", str(HERE / "micropython_run.mjs"), str(mjs), str(FIRMWARE), str(HERE / "firmware_driver.py"), str(data)],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout
    assert "reply" in cpython and " clock=59.2 " in cpython
    assert micro.split("\n") == cpython.split("\n")
