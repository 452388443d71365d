#!/usr/bin/env bash
# Install Refbox as an appliance on Raspberry Pi OS (run as root from a clone):
# a system user, the code and its venv in /opt/refbox, the config in /etc/refbox,
# the journal in /var/lib/refbox, the unit and udev rules, enabled at boot.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "install.sh: run as root" >&2; exit 1; }
src="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${PREFIX:-/opt/refbox}"

apt-get install -y -qq python3-venv python3-lgpio >/dev/null || true
id refbox >/dev/null 2>&1 || useradd --system --home-dir /var/lib/refbox --shell /usr/sbin/nologin refbox
for g in gpio dialout video spi; do
    getent group "$g" >/dev/null && usermod -aG "$g" refbox
done

mkdir -p "$PREFIX" /etc/refbox /var/lib/refbox
if [ "$src" != "$PREFIX" ]; then
    cp -a "$src/." "$PREFIX/"
fi
python3 -m venv --system-site-packages "$PREFIX/.venv"   # system lgpio for the pins
"$PREFIX/.venv/bin/pip" install -q "$PREFIX"
if [ ! -f /etc/refbox/refbox.toml ]; then
    sed 's#^path = .*#path = "/var/lib/refbox/journal.sqlite3"#' "$src/examples/pig.toml" > /etc/refbox/refbox.toml
    chmod 640 /etc/refbox/refbox.toml
    chgrp refbox /etc/refbox/refbox.toml
    echo "install.sh: wrote /etc/refbox/refbox.toml (set web.pin before opening the control panel)"
fi
chown -R refbox:refbox /var/lib/refbox

install -m 644 "$src/systemd/refbox.service" /etc/systemd/system/refbox.service
install -m 644 "$src/systemd/99-refbox.rules" /etc/udev/rules.d/99-refbox.rules
udevadm control --reload-rules && udevadm trigger || true
systemctl daemon-reload
systemctl enable --now refbox.service
echo "install.sh: refbox is running; logs: journalctl -u refbox -f"
