#!/usr/bin/env bash
# make pi-check: the Pi's own install path, on an arm64 Debian Bookworm root run under qemu-user
# emulation (binfmt_misc), with Debian's packages only.
#
#   tests/pi/pi_check.sh            # build or reuse the root, run deploy/install.sh in it, smoke
#   tests/pi/pi_check.sh --can-run  # only say whether this machine can (exit 0) or why not (1)
#
# Needs root (debootstrap, chroot, mounts); installs debootstrap, qemu-user-static and
# binfmt-support with apt where they are missing. The base root (debootstrap plus the OS packages
# below) is cached under $PI_CHECK_CACHE (default ~/.cache/companion-pi-check) and each run copies
# it afresh, so install.sh always meets a root that has never seen companion. Logs, figures and
# (with PI_CHECK_KEEP=1 or after a failure) the root itself stay in var/pi-check/.
# Times measured here are emulated x86-64 times, not a Raspberry Pi's.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${PI_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/companion-pi-check}
WORK=${PI_CHECK_WORK:-$REPO/var/pi-check}
SUITE=bookworm
# What Raspberry Pi OS has before install.sh runs, taken from Debian: python3, systemd, and the
# OS's numpy with a C extension built against it. python3-pywt (Cython, like simplejpeg) stands
# in for python3-picamera2 and python3-simplejpeg, which only Raspberry Pi OS's archive has.
BASE_PACKAGES=python3,python3-numpy,python3-pywt,systemd,ca-certificates
CANARY=pywt
VENV=/opt/companion/venv
SAMPLES=tests/companion/games

ROOT=$WORK/root
LOG=$WORK/pi-check.log
STEPS=$WORK/steps
FIGURES=$WORK/figures.md

die() { echo "pi-check: $*" >&2; exit 1; }

# -- can this machine run it? -------------------------------------------------------------------

ensure_tools() {
    local missing=()
    command -v debootstrap >/dev/null || missing+=(debootstrap)
    command -v qemu-aarch64-static >/dev/null || missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
    command -v flock >/dev/null || missing+=(util-linux)
    if [ ${#missing[@]} -gt 0 ]; then
        echo "pi-check: installing ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                "${missing[@]}" >/dev/null
    fi
}

# Register qemu-aarch64 with binfmt_misc; say why not where this kernel or container forbids it.
ensure_binfmt() {
    local entry=/proc/sys/fs/binfmt_misc/qemu-aarch64
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || {
            echo "binfmt_misc cannot be mounted here (no CAP_SYS_ADMIN, or no binfmt_misc in the kernel)"
            return 1; }
    fi
    if [ ! -e "$entry" ]; then
        update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || update-binfmts --import qemu-aarch64 \
            >/dev/null 2>&1 || true
    fi
    if [ ! -e "$entry" ] || ! grep -qx enabled "$entry"; then
        echo "qemu-aarch64 cannot be registered with binfmt_misc here"
        return 1
    fi
}

can_run() {
    [ "$(id -u)" -eq 0 ] || { echo "it needs root (debootstrap, chroot, mounts)"; return 1; }
    ensure_tools >&2 || { echo "debootstrap, qemu-user-static or binfmt-support would not install"; return 1; }
    ensure_binfmt
}

if [ "${1:-}" = "--can-run" ]; then
    if why=$(can_run); then
        echo "pi-check: this machine can run arm64 code under emulation (binfmt: qemu-aarch64)"
        exit 0
    fi
    echo "pi-check: cannot run here: $why"
    exit 1
fi
[ $# -eq 0 ] || die "unknown argument $1 (usage: tests/pi/pi_check.sh [--can-run])"
why=$(can_run) || die "cannot run here: $why"

# -- logging and steps ------------------------------------------------------------------------

mkdir -p "$WORK" "$CACHE"
exec 9>"$WORK/lock"
flock -n 9 || die "another pi-check is running in $WORK"
rm -rf "$STEPS"
mkdir -p "$STEPS"
: >"$LOG"
exec > >(tee -a "$LOG") 2>&1

START=$(date +%s.%N)
PASSED=()
FAILED=()
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" -v d="${2:-1}" 'BEGIN { printf "%.*f", d, b - a }'; }
log() { printf '[pi-check %6ss] %s\n' "$(since "$START")" "$*"; }

# step NAME COMMAND...: runs it in a subshell that stops at its first failing command (set -e
# holds there: the subshell is not itself tested by || or if), with its output in steps/NN.log;
# logs ok or FAILED with the output's tail.
step() {
    local name=$1 t0 rc out
    shift
    out=$(printf '%s/%02d.log' "$STEPS" $((${#PASSED[@]} + ${#FAILED[@]} + 1)))
    LAST_LOG=$out
    t0=$(now)
    set +e
    (set -e; "$@") >"$out" 2>&1
    rc=$?
    set -e
    if [ $rc -eq 0 ]; then
        PASSED+=("$name")
        log "ok      $name ($(since "$t0") s)"
    else
        FAILED+=("$name")
        log "FAILED  $name (exit $rc after $(since "$t0") s; $out):"
        tail -n 30 "$out" | sed 's/^/            | /'
    fi
    return $rc
}

# -- the root -----------------------------------------------------------------------------------

mounts_under() { awk -v d="$1/" 'index($2 "/", d) == 1 { print $2 }' /proc/mounts | sort -r; }
unmount_under() {
    local m
    for m in $(mounts_under "$1"); do umount "$m" 2>/dev/null || umount -l "$m"; done
}
# Never rm -rf a root with anything mounted in it (a bind of /dev would take the host's with it).
remove_root() {
    [ -e "$1" ] || return 0
    unmount_under "$1"
    [ -z "$(mounts_under "$1")" ] || die "$1 still has mounts; not removing it"
    rm -rf --one-file-system "$1"
}

cleanup() {
    unmount_under "$ROOT"
}
trap cleanup EXIT

debian_mirror() {
    if [ -n "${PI_CHECK_MIRROR:-}" ]; then echo "$PI_CHECK_MIRROR"; return; fi
    # the Debian archive this machine's apt already uses (debootstrap's default where there is none)
    # shellcheck disable=SC2016 # $(SITE) is apt's own field syntax, not the shell's
    apt-get indextargets --format '$(SITE) $(RELEASE)' 2>/dev/null |
        awk -v s="$SUITE" '$2 == s { print $1; exit }'
}

build_base() {
    local base=$1 tmp=$1.tmp mirror
    mirror=$(debian_mirror)
    remove_root "$tmp"
    mkdir -p "$CACHE/debs"
    debootstrap --arch=arm64 --variant=minbase --cache-dir="$CACHE/debs" \
        --include="$BASE_PACKAGES" "$SUITE" "$tmp" ${mirror:+"$mirror"} || {
            unmount_under "$tmp"; return 1; }
    unmount_under "$tmp"
    chroot "$tmp" apt-get clean
    mv "$tmp" "$base"
    touch "$base/.pi-check-complete"
}

base_key=$(printf '%s %s %s' "$SUITE" arm64 "$BASE_PACKAGES" | sha256sum | cut -c1-12)
BASE=$CACHE/base-$SUITE-arm64-$base_key
log "pi-check of $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo "$REPO") on $(uname -m), $(nproc) cores"
log "binfmt: $(tr '\n' ' ' </proc/sys/fs/binfmt_misc/qemu-aarch64 | cut -c1-80)"
{
    flock 8
    if [ -e "$BASE/.pi-check-complete" ]; then
        log "reusing the base root $BASE"
    else
        step "debootstrap arm64 $SUITE ($BASE_PACKAGES)" build_base "$BASE" || exit 1
    fi
} 8>"$CACHE/lock"

# A clean environment in the root (none of this machine's pip or Python settings), keeping only
# a proxy or package index that the person running the check chose.
IN_ROOT=(chroot "$ROOT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
         HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive)
for var in http_proxy https_proxy no_proxy PIP_INDEX_URL; do
    if [ -n "${!var:-}" ]; then IN_ROOT+=("$var=${!var}"); fi
done
# the service's way: its own user, its own data folder, the installed config
COMPANION=("${IN_ROOT[@]}" setpriv --reuid=companion --regid=companion --init-groups
           env HOME=/var/lib/companion "$VENV/bin/companion" --data /var/lib/companion)
in_root() { "${IN_ROOT[@]}" "$@"; }
companion() { "${COMPANION[@]}" "$@"; }

project_files() {
    if git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$REPO" ls-files -z --cached --others --exclude-standard |
            while IFS= read -r -d '' f; do [ -e "$REPO/$f" ] && printf '%s\0' "$f"; done
    else
        (cd "$REPO" && find . -path ./.venv -prune -o -path ./var -prune -o -path ./.git -prune \
            -o -type f -print0)
    fi
}

prepare_root() {
    remove_root "$ROOT"
    cp -a "$BASE" "$ROOT"
    # the network as this machine sees it: name service and trusted certificate authorities
    cp /etc/resolv.conf /etc/hosts "$ROOT/etc/"
    if [ -d /usr/local/share/ca-certificates ]; then
        cp -r /usr/local/share/ca-certificates/. "$ROOT/usr/local/share/ca-certificates/"
    fi
    cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/ca-certificates.crt"
    mkdir -p "$ROOT/opt/src/companion" "$ROOT/opt/pi-check" "$ROOT/root/.cache/pip" \
        "$CACHE/pip" "$CACHE/apt-archives/partial" "$CACHE/apt-lists/partial"
    project_files | tar -C "$REPO" --null -T - -cf - | tar -C "$ROOT/opt/src/companion" -xf -
    cp "$REPO/$SAMPLES"/*_sample_game.jsonl "$ROOT/opt/pi-check/"
    mount -t proc proc "$ROOT/proc"
    # downloads kept between runs: wheels, Debian packages and package lists
    mount --bind "$CACHE/pip" "$ROOT/root/.cache/pip"
    mount --bind "$CACHE/apt-archives" "$ROOT/var/cache/apt/archives"
    mount --bind "$CACHE/apt-lists" "$ROOT/var/lib/apt/lists"
}
step "a fresh copy of the base root, with this checkout in /opt/src/companion" prepare_root ||
    exit 1

# install.sh exactly as a person runs it on a Pi, less the Raspberry Pi OS packages and the
# start of the service; each of its lines timed.
run_install() {
    local t0
    t0=$(now)
    in_root bash /opt/src/companion/deploy/install.sh --not-a-pi --no-start 2>&1 |
        while IFS= read -r line; do printf '%7ss %s\n' "$(since "$t0")" "$line"; done
    return "${PIPESTATUS[0]}"
}
INSTALL_T0=$(now)
step "deploy/install.sh --not-a-pi --no-start inside the root" run_install || exit 1
INSTALL_S=$(since "$INSTALL_T0")
INSTALL_LOG=$LAST_LOG
grep -E '^ *[0-9.]+s (==>|install.sh|    [^ ])' "$LAST_LOG" | sed 's/^/            /' || true

# -- smoke: the commands, under emulation -------------------------------------------------------

help_lists_commands() {
    local out
    out=$(companion --help)
    echo "$out"
    for c in serve replay dice doctor; do grep -q "$c" <<<"$out" || { echo "no $c in --help"; return 1; }; done
}
step "companion --help (as the service user)" help_lists_commands || true

step "companion doctor --simulate --config /etc/companion/config.toml" \
    companion doctor --simulate --config /etc/companion/config.toml || true

replay_wins() {
    local game=$1 sample=$2
    companion replay "/opt/pi-check/$sample" --game "$game" >"$ROOT/opt/pi-check/$game.json"
    in_root "$VENV/bin/python" - "/opt/pi-check/$game.json" <<'PY'
import json, sys
final = json.load(open(sys.argv[1]))
print(final["game"], "seq", final["seq"], final["outcome"])
assert final["outcome"]["status"] == "won", final["outcome"]
PY
}
step "companion replay xmen_sample_game.jsonl --game xmen-alert: won" \
    replay_wins xmen-alert xmen_sample_game.jsonl || true
step "companion replay invincible_sample_game.jsonl --game invincible: won" \
    replay_wins invincible invincible_sample_game.jsonl || true

dice_read_matches() {
    in_root "$VENV/bin/python" - <<'PY'
import json
import cv2
import numpy as np
from vision.render import render_roll
img, faces, _ = render_roll(np.random.default_rng(3), "d6", 4)
assert cv2.imwrite("/opt/pi-check/roll.png", img)
json.dump(sorted(faces), open("/opt/pi-check/roll-faces.json", "w"))
print("rendered", sorted(faces))
PY
    companion dice read --set d6 --json /opt/pi-check/roll.png >"$ROOT/opt/pi-check/roll-read.json"
    in_root "$VENV/bin/python" - <<'PY'
import json
read = json.load(open("/opt/pi-check/roll-read.json"))
truth = json.load(open("/opt/pi-check/roll-faces.json"))
faces = sorted(d["face"] for d in read["dice"])
print("read", faces, f"in {read['ms']:.0f} ms")
assert faces == truth, (faces, truth)
PY
}
step "companion dice read --set d6 on a rendered roll of 4 dice: the faces rendered" \
    dice_read_matches || true
DICE_READ_MS=$(sed -n 's/^read .* in \([0-9]*\) ms$/\1/p' "$LAST_LOG")

# the learned recognizer runs on onnxruntime's aarch64 wheel against the OS's numpy 1.24: a
# wheel built for numpy 2 would import here and fail only at the first frame
learned_read_matches() {
    companion dice read --set d6 --recognizer learned --json /opt/pi-check/roll.png \
        >"$ROOT/opt/pi-check/roll-learned.json"
    in_root "$VENV/bin/python" - <<'PY'
import json
import onnxruntime
read = json.load(open("/opt/pi-check/roll-learned.json"))
truth = json.load(open("/opt/pi-check/roll-faces.json"))
faces = sorted(d["face"] for d in read["dice"])
print("onnxruntime", onnxruntime.__version__, "read", faces, f"in {read['ms']:.0f} ms")
assert faces == truth, (faces, truth)
PY
}
step "companion dice read --recognizer learned on the same roll (onnxruntime on the OS's numpy)" \
    learned_read_matches || true

serve_answers_health() {
    local out=$ROOT/opt/pi-check/serve.out port="" i rc=0 t0
    t0=$(now)
    # a simple command in the background: $! is chroot, which execs down to the service itself
    "${COMPANION[@]}" serve --simulate --config /etc/companion/config.toml --host 127.0.0.1 \
        --port 0 >"$out" 2>&1 &
    SERVE_PID=$!
    trap 'kill "$SERVE_PID" 2>/dev/null || true' EXIT
    for i in $(seq 1 600); do
        port=$(sed -n 's|.*dashboard at http://[^/]*:\([0-9]*\)/.*|\1|p' "$out" | head -n 1)
        [ -n "$port" ] && break
        kill -0 "$SERVE_PID" 2>/dev/null || { cat "$out"; return 1; }
        sleep 0.5
    done
    [ -n "$port" ] || { cat "$out"; echo "no address after ${i} tries"; return 1; }
    for i in $(seq 1 120); do
        if in_root curl -fsS --max-time 10 "http://127.0.0.1:$port/api/health" >"$ROOT/opt/pi-check/health.json"; then
            break
        fi
        sleep 0.5
    done
    echo "serve answered /api/health after $(since "$t0") s:"
    cat "$ROOT/opt/pi-check/health.json"; echo
    grep -q '"ok":true' "$ROOT/opt/pi-check/health.json" || { cat "$out"; return 1; }
    kill -TERM "$SERVE_PID"
    wait "$SERVE_PID" || rc=$?
    trap - EXIT
    cat "$out"
    echo "serve exited with $rc on SIGTERM"
    return $rc
}
step "companion serve --simulate --config /etc/companion/config.toml until /api/health answers" \
    serve_answers_health || true
# the step ran in a subshell: its figure is read back from the step's log
SERVE_READY_S=$(sed -n 's/^serve answered \/api\/health after \([0-9.]*\) s:$/\1/p' \
    "$LAST_LOG")

# -- the numpy trap -----------------------------------------------------------------------------

venv_uses_os_numpy() {
    in_root "$VENV/bin/python" -c '
import numpy, sys
print("numpy", numpy.__version__, "from", numpy.__file__)
assert numpy.__file__.startswith("/usr/lib/python3/dist-packages/"), "the venv shadows the OS numpy"
'
}
step "the venv imports the OS's numpy (python3-numpy), not a copy of its own" venv_uses_os_numpy ||
    true

os_extension_imports() {
    in_root "$VENV/bin/python" -c "
import cv2, numpy, $CANARY
print('$CANARY', $CANARY.__version__, 'from', $CANARY.__file__)
print('cv2', cv2.__version__, 'beside it')
print($CANARY.dwt([1.0, 2.0, 3.0, 4.0], 'haar'))
"
}
step "python3-$CANARY (Debian's, built against Debian's numpy) imports and runs in the venv" \
    os_extension_imports || true

# The same extension beside a numpy 2 in the path is what picamera2 met: it must fail, or the
# step above would prove nothing.
newer_numpy_breaks_it() {
    local out
    in_root "$VENV/bin/pip" install --quiet --no-deps --only-binary=:all: --target /opt/pi-check/numpy2 \
        'numpy>=2'
    if out=$(in_root env PYTHONPATH=/opt/pi-check/numpy2 "$VENV/bin/python" -c "import $CANARY" 2>&1); then
        echo "$out"; echo "$CANARY imported with numpy 2 in front: this check cannot tell"; return 1
    fi
    echo "$out" | tail -n 5
    grep -qE 'numpy.dtype size changed|compiled using NumPy 1.x|_ARRAY_API' <<<"$out"
}
step "control: with a pip numpy 2 shadowing the OS's, python3-$CANARY fails to import" \
    newer_numpy_breaks_it || true

# "Safe to run twice", over an install that an earlier install.sh made with its own numpy 2 in
# the venv (the trap itself): the second run keeps the owner's config and takes the venv's numpy
# out, so the OS's is the one imported again.
second_install_mends_numpy() {
    in_root "$VENV/bin/pip" install --quiet --only-binary=:all: 'numpy>=2'
    in_root "$VENV/bin/python" -c 'import numpy; print("before: numpy", numpy.__version__, numpy.__file__)'
    echo '# edited by the owner (pi-check)' >>"$ROOT/etc/companion/config.toml"
    in_root bash /opt/src/companion/deploy/install.sh --not-a-pi --no-start
    grep -qx '# edited by the owner (pi-check)' "$ROOT/etc/companion/config.toml"
    in_root "$VENV/bin/python" -c "
import numpy, $CANARY
print('after: numpy', numpy.__version__, numpy.__file__)
assert numpy.__file__.startswith('/usr/lib/python3/dist-packages/'), numpy.__file__
"
    companion --help >/dev/null
}
step "install.sh again over a venv holding its own numpy 2: config kept, the OS's numpy back" \
    second_install_mends_numpy || true

# -- figures ------------------------------------------------------------------------------------

SERVE_IMPORTS='import companion.cli, waitress, web, vision.sources, vision.table_camera, vision.simulated_tray, hardware.wiring'
# wall times of the venv's `python -c pass` and `python -c <what serve imports>`, taken in turns
# so that a change of load on the machine falls on both; prints the two medians
import_times() {
    local i t0
    for i in $(seq 1 "$1"); do
        t0=$(now); in_root "$VENV/bin/python" -c pass; echo "pass $(since "$t0" 2)"
        t0=$(now); in_root "$VENV/bin/python" -c "$SERVE_IMPORTS"; echo "serve $(since "$t0" 2)"
    done | sort -k1,1 -k2,2n | awk '{ v[$1, ++n[$1]] = $2 }
        END { printf "%s %s\n", v["pass", int((n["pass"] + 1) / 2)], v["serve", int((n["serve"] + 1) / 2)] }'
}
# seconds between two of install.sh's "==> " lines in its timed log
phase_s() {
    awk -v a="==> $1" -v b="==> $2" '
        index($0, a) { t0 = $1 + 0 } index($0, b) && !t1 { t1 = $1 + 0 }
        END { printf "%.0f", t1 - t0 }' "$INSTALL_LOG"
}
figures() {
    local bare serve wheels
    read -r bare serve < <(import_times 7)
    wheels=$(in_root "$VENV/bin/pip" list --path "$VENV/lib/python3.11/site-packages" --format=freeze |
        tr '\n' ' ')
    {
        echo "| measure (arm64 under qemu-user on $(uname -m), $(nproc) cores) | figure |"
        echo "|---|---|"
        echo "| install.sh --not-a-pi, whole | ${INSTALL_S} s |"
        echo "| of which apt (python3-venv, python3-pip, curl) | $(phase_s "system packages" "service user") s |"
        echo "| of which the venv and pip (upgrade pip, build, install the wheels) | $(phase_s "python venv" "config") s |"
        echo "| python -c pass (median of 7) | ${bare} s |"
        echo "| import of what serve loads (median of 7) | ${serve} s ($(awk -v a="$serve" -v b="$bare" 'BEGIN { printf "%.1f", a / b }') x python -c pass) |"
        echo "| serve --simulate: start to /api/health answering | ${SERVE_READY_S:-?} s |"
        echo "| dice read of the rendered 4-dice roll (the reader's own time) | ${DICE_READ_MS:-?} ms |"
        echo "| wheels in the venv | ${wheels}|"
        echo "| from the OS | $(in_root python3 -c "import numpy, $CANARY as c; print('numpy', numpy.__version__, '$CANARY', c.__version__)") |"
    } | tee "$FIGURES"
}
step "figures (install time, import times, wheels chosen)" figures || true
sed 's/^/            /' "$FIGURES" 2>/dev/null || true

# -- the verdict --------------------------------------------------------------------------------

cleanup
if [ ${#FAILED[@]} -eq 0 ] && [ "${PI_CHECK_KEEP:-0}" != 1 ]; then
    remove_root "$ROOT"
fi
total=$(since "$START")
if [ ${#FAILED[@]} -gt 0 ]; then
    log "pi-check FAILED: ${#FAILED[@]} of $((${#PASSED[@]} + ${#FAILED[@]})) steps (${FAILED[*]}); root kept in $ROOT; log in $LOG"
    exit 1
fi
log "pi-check passed: all ${#PASSED[@]} steps in $total s (log in $LOG, figures in $FIGURES)"
