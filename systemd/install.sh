#!/usr/bin/env bash
# Install Refbox as an appliance on Raspberry Pi OS (run as root from a clone):
# a system user, the code and its venv in /opt/refbox, the config in /etc/refbox,
# the journal in /var/lib/refbox, the unit and udev rules, enabled at boot.
#
#   sudo bash systemd/install.sh             install and start
#   sudo bash systemd/install.sh --no-start  install and enable, start at next boot
#   bash systemd/install.sh --dry-run        print what it would do, change nothing
set -euo pipefail

usage() {
    sed -n '2,8s/^# \{0,1\}//p' "$0"
}

DRY_RUN=0
START=1
for arg in "$@"; do
    case "$arg" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$arg' (try --help)" >&2; exit 2 ;;
    esac
done

src="$(cd "$(dirname "$0")/.." && pwd)"
PREFIX="${PREFIX:-/opt/refbox}"
CONF_DIR=/etc/refbox
STATE_DIR=/var/lib/refbox
UNIT_DIR=/etc/systemd/system
UDEV_DIR=/etc/udev/rules.d

# run CMD...: run it, or with --dry-run print it
run() {
    if [ "$DRY_RUN" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

say() { echo "install.sh: $*"; }

if [ "$DRY_RUN" = 1 ]; then
    say "dry run: nothing is changed; the commands are printed"
elif [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (or with --dry-run to see what it would do)" >&2
    exit 1
fi

os_id="$(. /etc/os-release 2>/dev/null && echo "${ID:-unknown}")" || os_id=unknown
case "$os_id" in
    raspbian|debian) ;;
    *) say "warning: this is '$os_id', not Raspberry Pi OS / Debian; carrying on" ;;
esac

# system packages: the venv, and lgpio for the pins where the OS has it (Raspberry Pi OS)
pkgs=(python3-venv)
if apt-cache show python3-lgpio >/dev/null 2>&1; then
    pkgs+=(python3-lgpio)
fi
run apt-get install -y -qq "${pkgs[@]}"

# the service user: no login, no home of its own but the state directory
if id refbox >/dev/null 2>&1; then
    say "user refbox exists"
else
    run useradd --system --user-group --home-dir "$STATE_DIR" --shell /usr/sbin/nologin refbox
fi
# the unit's SupplementaryGroups= must exist (Raspberry Pi OS has them all; plain Debian
# lacks gpio and spi, and a missing group stops the unit from starting)
for g in gpio dialout video spi; do
    if ! getent group "$g" >/dev/null; then
        run groupadd --system "$g"
    fi
    run usermod -aG "$g" refbox
done

# the code and its venv (system site packages: lgpio comes from the OS)
run install -d -m 755 "$PREFIX" "$CONF_DIR"
run install -d -m 750 "$STATE_DIR"
if [ "$src" != "$PREFIX" ]; then
    run cp -a "$src/." "$PREFIX/"
fi
run python3 -m venv --system-site-packages "$PREFIX/.venv"
run "$PREFIX/.venv/bin/pip" install -q "$PREFIX"

# the configuration: written once, never overwritten
if [ -f "$CONF_DIR/refbox.toml" ]; then
    say "keeping $CONF_DIR/refbox.toml"
elif [ "$DRY_RUN" = 1 ]; then
    printf '+ %s\n' "sed 's#^path = .*#path = \"$STATE_DIR/journal.sqlite3\"#' $src/examples/pig.toml > $CONF_DIR/refbox.toml"
    run chmod 640 "$CONF_DIR/refbox.toml"
    run chgrp refbox "$CONF_DIR/refbox.toml"
else
    sed "s#^path = .*#path = \"$STATE_DIR/journal.sqlite3\"#" "$src/examples/pig.toml" > "$CONF_DIR/refbox.toml"
    chmod 640 "$CONF_DIR/refbox.toml"
    chgrp refbox "$CONF_DIR/refbox.toml"
    say "wrote $CONF_DIR/refbox.toml (set web.pin before opening the control panel)"
fi
run chown -R refbox:refbox "$STATE_DIR"

# the unit and the udev names, enabled at boot
run install -m 644 "$src/systemd/refbox.service" "$UNIT_DIR/refbox.service"
run install -m 644 "$src/systemd/99-refbox.rules" "$UDEV_DIR/99-refbox.rules"
run udevadm control --reload-rules
run udevadm trigger
run systemctl daemon-reload
if [ "$START" = 1 ]; then
    run systemctl enable --now refbox.service
    [ "$DRY_RUN" = 1 ] || say "refbox is running; logs: journalctl -u refbox -f"
else
    run systemctl enable refbox.service
    [ "$DRY_RUN" = 1 ] || say "refbox starts at the next boot; logs: journalctl -u refbox -f"
fi
