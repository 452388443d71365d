import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze (Debian package systemd)")
def test_service_unit_verifies(tmp_path):
    # the unit as shipped, with ExecStart pointed at an executable that exists here
    text = (ROOT / "systemd" / "refbox.service").read_text()
    assert "Type=notify" in text and "WatchdogSec=" in text and "Restart=on-failure" in text
    unit = tmp_path / "refbox.service"
    unit.write_text(text.replace("/opt/refbox/.venv/bin/refbox", sys.executable))
    out = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    problems = [l for l in (out.stdout + out.stderr).splitlines() if "refbox.service" in l]
    assert out.returncode == 0 and not problems, out.stdout + out.stderr


def test_hardening_and_paths():
    text = (ROOT / "systemd" / "refbox.service").read_text()
    for line in ("ProtectSystem=strict", "ReadWritePaths=/var/lib/refbox", "NoNewPrivileges=yes", "PrivateTmp=yes", "User=refbox"):
        assert line in text
    assert "gpio" in text and "dialout" in text and "video" in text


def test_udev_rules_name_the_display():
    rules = (ROOT / "systemd" / "99-refbox.rules").read_text()
    assert 'SYMLINK+="refbox-display"' in rules
    assert subprocess.run(["bash", "-n", str(ROOT / "systemd" / "install.sh")]).returncode == 0
