#!/usr/bin/env bash
# Install companion on Raspberry Pi OS (Bookworm) as a systemd service. Safe to run twice:
# packages, user and groups are only added when missing, the venv is updated in place, and an
# existing /etc/companion/config.toml is never overwritten.
#
#   sudo deploy/install.sh            # install or update, then (re)start the service
#   sudo deploy/install.sh --no-start # install only
#   sudo deploy/install.sh --kiosk pi # also open the dashboard full screen for desktop user "pi"
set -euo pipefail

PREFIX=/opt/companion
CONFIG_DIR=/etc/companion
DATA_DIR=/var/lib/companion
SERVICE_USER=companion
UNIT=/etc/systemd/system/companion.service
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
START=1
KIOSK_USER=""

usage() {
    sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --no-start) START=0 ;;
        --kiosk) KIOSK_USER=${2:?--kiosk needs the desktop user name}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

say() { printf '==> %s\n' "$*"; }

if [ "$(id -u)" -ne 0 ]; then
    echo "install.sh: run it as root (sudo $0)" >&2
    exit 1
fi
if ! grep -q 'VERSION_CODENAME=bookworm' /etc/os-release 2>/dev/null; then
    echo "install.sh: warning: written for Raspberry Pi OS Bookworm; carrying on" >&2
fi

say "system packages"
packages=(python3 python3-venv python3-pip python3-picamera2 python3-lgpio curl)
if [ -n "$KIOSK_USER" ]; then
    packages+=(chromium-browser)
fi
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    apt-get update
    apt-get install -y --no-install-recommends "${missing[@]}"
fi

say "service user $SERVICE_USER"
if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
fi
for group in gpio dialout video; do
    if getent group "$group" >/dev/null; then
        usermod -aG "$group" "$SERVICE_USER"
    else
        echo "install.sh: warning: no group $group on this system (not a Raspberry Pi?)" >&2
    fi
done

say "folders"
install -d -o root -g root -m 0755 "$PREFIX"
install -d -o root -g "$SERVICE_USER" -m 0750 "$CONFIG_DIR"
install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$DATA_DIR"

say "python venv in $PREFIX/venv"
# --system-site-packages: picamera2 and lgpio come from Raspberry Pi OS, not from PyPI.
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    python3 -m venv --system-site-packages "$PREFIX/venv"
fi
"$PREFIX/venv/bin/pip" install --quiet --upgrade pip
"$PREFIX/venv/bin/pip" install --quiet --upgrade "$SRC"

say "config $CONFIG_DIR/config.toml"
if [ ! -e "$CONFIG_DIR/config.toml" ]; then
    install -o root -g "$SERVICE_USER" -m 0640 "$SRC/deploy/config.example.toml" "$CONFIG_DIR/config.toml"
else
    echo "    kept the existing one (the example is $SRC/deploy/config.example.toml)"
fi

say "permission to power off (the hold-to-shut-down button, only when enabled in [gpio.shutdown])"
install -d -m 0755 /etc/polkit-1/rules.d
install -m 0644 "$SRC/deploy/50-companion-poweroff.rules" /etc/polkit-1/rules.d/50-companion-poweroff.rules

say "systemd unit"
install -m 0644 "$SRC/deploy/companion.service" "$UNIT"
systemctl daemon-reload
systemctl enable companion.service >/dev/null

if [ -n "$KIOSK_USER" ]; then
    say "kiosk for $KIOSK_USER"
    home=$(getent passwd "$KIOSK_USER" | cut -d: -f6)
    if [ -z "$home" ]; then
        echo "install.sh: no user $KIOSK_USER" >&2
        exit 1
    fi
    install -m 0755 "$SRC/deploy/kiosk.sh" "$PREFIX/kiosk.sh"
    install -d -o "$KIOSK_USER" -g "$KIOSK_USER" "$home/.config/autostart"
    cat > "$home/.config/autostart/companion-kiosk.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=companion dashboard
Exec=$PREFIX/kiosk.sh
X-GNOME-Autostart-enabled=true
DESKTOP
    chown "$KIOSK_USER:$KIOSK_USER" "$home/.config/autostart/companion-kiosk.desktop"
fi

if [ "$START" -eq 1 ]; then
    say "starting"
    systemctl restart companion.service
    systemctl --no-pager --lines=5 status companion.service || true
    echo "check the hardware any time with: sudo -u $SERVICE_USER $PREFIX/venv/bin/companion --data $DATA_DIR doctor --config $CONFIG_DIR/config.toml"
fi
