"""The appliance's units and install script: systemd verifies the unit, the hardening
is there, the install script's dry run shows every step and changes nothing."""

import configparser
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from refbox.config import load

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "refbox.service"
INSTALL = ROOT / "systemd" / "install.sh"


def unit_directives() -> dict[str, dict[str, str]]:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keep the case of the keys
    parser.read_string(UNIT.read_text())
    return {s: dict(parser[s]) for s in parser.sections()}


def test_service_unit_verifies(tmp_path):
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze is missing: install the Debian package 'systemd' (scripts/setup.sh does in CI)"
    # the unit as shipped, with ExecStart pointed at an executable that exists here
    unit = tmp_path / "refbox.service"
    unit.write_text(UNIT.read_text().replace("/opt/refbox/.venv/bin/refbox", sys.executable))
    out = subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True)
    problems = [line for line in (out.stdout + out.stderr).splitlines() if "refbox.service" in line]
    assert out.returncode == 0 and not problems, out.stdout + out.stderr


def test_service_is_notify_with_watchdog_restart_and_hardening():
    d = unit_directives()
    service = d["Service"]
    expected = {
        "Type": "notify",
        "Restart": "on-failure",
        "User": "refbox",
        "ProtectSystem": "strict",
        "ReadWritePaths": "/var/lib/refbox",
        "NoNewPrivileges": "yes",
        "PrivateTmp": "yes",
        "ProtectHome": "yes",
    }
    for key, value in expected.items():
        assert service.get(key) == value, f"{key}={service.get(key)!r}, expected {value!r}"
    assert int(service["WatchdogSec"]) > 0
    assert {"gpio", "dialout", "video"} <= set(service["SupplementaryGroups"].split())
    assert "--config /etc/refbox/refbox.toml" in service["ExecStart"]
    assert d["Install"]["WantedBy"] == "multi-user.target"


def test_ready_comes_after_replay_and_devices_and_the_watchdog_follows_the_loop():
    import inspect

    from refbox import runtime

    src = inspect.getsource(runtime.run)
    order = [src.index(s) for s in ("Table(journal", "start_keypad(", "start_display(", "table.start()",
                                     "start_web(", "Watchdog(notifier, lambda: table.ticks)", "notifier.ready(")]
    assert order == sorted(order)


def test_udev_rules_name_the_display():
    rules = (ROOT / "systemd" / "99-refbox.rules").read_text()
    assert 'SYMLINK+="refbox-display"' in rules


def test_install_script_parses_and_passes_shellcheck_when_available():
    assert subprocess.run(["bash", "-n", str(INSTALL)]).returncode == 0
    if shutil.which("shellcheck"):
        out = subprocess.run(["shellcheck", "-x", str(INSTALL)], capture_output=True, text=True)
        assert out.returncode == 0, out.stdout


def test_install_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    prefix = tmp_path / "opt-refbox"
    env = {**os.environ, "PREFIX": str(prefix)}
    out = subprocess.run(["bash", str(INSTALL), "--dry-run"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for step in (
        "useradd --system --user-group --home-dir /var/lib/refbox --shell /usr/sbin/nologin refbox",
        "usermod -aG gpio refbox",
        "usermod -aG dialout refbox",
        f"python3 -m venv --system-site-packages {prefix}/.venv",
        f"{prefix}/.venv/bin/pip install -q {prefix}",
        "> /etc/refbox/refbox.toml",
        "chown -R refbox:refbox /var/lib/refbox",
        "install -m 644",
        "/etc/systemd/system/refbox.service",
        "/etc/udev/rules.d/99-refbox.rules",
        "systemctl daemon-reload",
        "systemctl enable --now refbox.service",
    ):
        if step.startswith("useradd") and "user refbox exists" in text:
            continue
        assert step in text, f"missing step {step!r} in:\n{text}"
    assert not prefix.exists()  # nothing was done
    no_start = subprocess.run(["bash", str(INSTALL), "--dry-run", "--no-start"], capture_output=True, text=True, env=env)
    assert "systemctl enable refbox.service" in no_start.stdout and "--now" not in no_start.stdout


def test_install_refuses_unknown_options():
    out = subprocess.run(["bash", str(INSTALL), "--dryrun"], capture_output=True, text=True)
    assert out.returncode == 2 and "unknown option '--dryrun'" in out.stderr


@pytest.mark.parametrize("example", sorted((ROOT / "examples").glob("*.toml")), ids=lambda p: p.name)
def test_examples_load_and_the_installed_config_too(example):
    cfg = load(example)
    assert not cfg.web.pin, "an example must not ship a PIN every box would share"
    if example.name == "pig.toml":  # what install.sh writes to /etc/refbox/refbox.toml
        text = "".join(
            'path = "/var/lib/refbox/journal.sqlite3"\n' if line.startswith("path = ") else line
            for line in example.read_text().splitlines(keepends=True)
        )
        with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as f:
            f.write(text)
        try:
            assert load(f.name).journal.path == "/var/lib/refbox/journal.sqlite3"
        finally:
            os.unlink(f.name)
