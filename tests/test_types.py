"""mypy runs over the pure packages as part of the tests."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_is_clean_on_the_pure_packages():
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "rules", "vision", "refbox"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stdout + out.stderr
