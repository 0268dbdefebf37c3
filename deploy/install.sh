#!/usr/bin/env bash
# Install companion on Raspberry Pi OS (Bookworm) as a systemd service. Safe to run twice:
# packages, user and groups are only added when missing, the venv is updated in place, and an
# existing /etc/companion/config.toml is never overwritten.
#
#   sudo deploy/install.sh            # install or update, then (re)start the service
#   sudo deploy/install.sh --no-start # install only
#   sudo deploy/install.sh --kiosk pi # also open the dashboard full screen for desktop user "pi"
#   sudo deploy/install.sh --not-a-pi --no-start # a test root that is not Raspberry Pi OS
#                                     # (make pi-check): the Raspberry Pi OS packages are skipped
set -euo pipefail

PREFIX=/opt/companion
CONFIG_DIR=/etc/companion
DATA_DIR=/var/lib/companion
SERVICE_USER=companion
UNIT=/etc/systemd/system/companion.service
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
START=1
KIOSK_USER=""
NOT_A_PI=0

usage() {
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
    case "$1" in
        --no-start) START=0 ;;
        --kiosk) KIOSK_USER=${2:?--kiosk needs the desktop user name}; shift ;;
        --not-a-pi) NOT_A_PI=1 ;;
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
# espeak-ng: kid mode says the next step aloud, made on the Pi (no internet, no browser voice)
packages=(python3 python3-venv python3-pip curl espeak-ng)
pi_packages=(python3-picamera2 python3-lgpio)   # from Raspberry Pi OS's own archive only
if [ -n "$KIOSK_USER" ]; then
    pi_packages+=(chromium-browser)
fi
if [ "$NOT_A_PI" -eq 1 ]; then
    echo "    --not-a-pi: skipped ${pi_packages[*]} (Raspberry Pi OS only: camera, GPIO pins)"
else
    packages+=("${pi_packages[@]}")
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
# picamera2 and simplejpeg come built against the OS's numpy (1.24 on Bookworm). A newer numpy
# installed into the venv would shadow it and they would fail to import ("numpy.dtype size
# changed"): the camera would never open. So the venv keeps the OS's numpy, and pip picks the
# wheels that work with it (OpenCV 4.11 for numpy 1.24). Never build numpy or OpenCV from source.
pip_args=(--upgrade --only-binary numpy --only-binary opencv-python-headless)
os_numpy=$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
if [ -n "$os_numpy" ]; then
    echo "    keeping the OS's numpy $os_numpy"
    printf 'numpy==%s\n' "$os_numpy" > "$PREFIX/constraints.txt"
    pip_args+=(--constraint "$PREFIX/constraints.txt")
    # an install made before this rule may hold its own numpy: remove it (only the venv's copy)
    own_numpy='import numpy, sys; sys.exit(not numpy.__file__.startswith(sys.prefix))'
    if "$PREFIX/venv/bin/python" -c "$own_numpy" 2>/dev/null; then
        "$PREFIX/venv/bin/pip" uninstall --quiet --yes numpy
    fi
fi
case "$os_numpy" in
    1.*) printf 'opencv-python-headless<4.12\n' >> "$PREFIX/constraints.txt" ;;  # the last for numpy 1
esac
# Built from a copy: pip builds in the tree it is given, and root's build/ and *.egg-info left in
# the owner's clone would break their `make run`, and a stale build/lib would put back files
# deleted since (a module, a game's page).
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' \
    --exclude=./data -cf - . | tar -C "$build" -xf -
"$PREFIX/venv/bin/pip" install --quiet "${pip_args[@]}" "$build"

say "the companion command"
# As the service runs it: its user, config and data, so that `companion doctor` and
# `companion journal restore` look at and write what the service uses, as files it can write.
cat > /usr/local/bin/companion <<WRAPPER
#!/bin/sh
# companion as the service runs it (written by deploy/install.sh)
export COMPANION_DATA=$DATA_DIR COMPANION_CONFIG=$CONFIG_DIR/config.toml
if [ "\$(id -un)" = "$SERVICE_USER" ]; then
    exec $PREFIX/venv/bin/companion "\$@"
fi
exec sudo -u $SERVICE_USER env COMPANION_DATA=$DATA_DIR COMPANION_CONFIG=$CONFIG_DIR/config.toml \\
    $PREFIX/venv/bin/companion "\$@"
WRAPPER
chmod 0755 /usr/local/bin/companion

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
# A root being prepared (an image, a chroot) runs no systemd: enabling works offline, while
# reloading and starting wait for its first boot. A booted Pi always has /run/systemd/system.
booted=0
[ -d /run/systemd/system ] && booted=1
if [ "$booted" -eq 1 ]; then
    systemctl daemon-reload
else
    echo "    systemd is not running here: the unit is enabled and starts at the next boot"
fi
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

if [ "$START" -eq 1 ] && [ "$booted" -eq 0 ]; then
    echo "install.sh: warning: systemd is not running here, so the service is not started" >&2
elif [ "$START" -eq 1 ]; then
    say "starting"
    systemctl restart companion.service
    systemctl --no-pager --lines=5 status companion.service || true
    echo "check the hardware any time with: companion doctor (stop the service first: sudo systemctl stop companion)"
fi
