#!/usr/bin/env bash
# Open the dashboard full screen on the Pi's own display once the service answers.
# Started from the desktop session (install.sh --kiosk USER adds an autostart entry).
set -euo pipefail

URL=${COMPANION_URL:-http://127.0.0.1:8000/}

# However long the Pi takes to boot: a browser opened before the service answers shows an
# error page that never retries.
until curl -fsS -o /dev/null --max-time 2 "$URL"; do
    sleep 1
done

browser=""
for candidate in chromium-browser chromium; do
    if command -v "$candidate" >/dev/null 2>&1; then
        browser=$candidate
        break
    fi
done
if [ -z "$browser" ]; then
    echo "kiosk.sh: no Chromium found: sudo apt install chromium-browser" >&2
    exit 1
fi

# Autoplay without a gesture: the timer's end beep must sound on the table screen untouched.
exec "$browser" --kiosk --noerrdialogs --disable-infobars --no-first-run \
    --autoplay-policy=no-user-gesture-required \
    --disable-session-crashed-bubble --check-for-update-interval=31536000 \
    --password-store=basic "$URL"
