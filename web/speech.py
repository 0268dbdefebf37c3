"""The next step, spoken: a WAV made on the Pi by espeak-ng, so kid mode talks with no internet.

Browsers' own speech (speechSynthesis) is offline only with a local voice, and Debian's Chromium
has none; espeak-ng is one apt package (in Raspberry Pi OS too). Only the table's own next step
is spoken, never text a client sends, and each state is synthesised once however many screens
ask (the newest one is kept).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify

speech = Blueprint("speech", __name__, url_prefix="/api")
ENGINE = "espeak-ng"
MAX_CHARS = 300
TIMEOUT_S = 15


def spoken_text(view: dict) -> str:
    """What the table says now: the result when the game is over, else the next step; asides in
    brackets (the API's own words) are left out."""
    out = view.get("outcome") or {}
    if view.get("game") is None:
        text = "No game in progress."
    elif out.get("status") == "won":
        winner = out.get("winner_name") or out.get("winner")
        text = (f"{winner} wins! " if winner else "You won! ") + str(out.get("reason") or "")
    elif out.get("status") == "lost":
        text = "The game is lost. " + str(out.get("reason") or "")
    else:
        # a camera read waiting for a tap holds the game up: that is the next step, as shown
        text = str(view.get("read_waits") or (view.get("expect") or {}).get("prompt") or "")
    text = re.sub(r"\s*\([^)]*(?:data\.|\w_\w)[^)]*\)", "", text)   # the API's words, for scripts
    text = re.sub(r"\s*\(([^)]*)\)", r", \1", text)                    # "(or stay)": ", or stay"
    text = re.sub(r"\b\w+_\w+\b", "", text)
    return " ".join(text.split())[:MAX_CHARS]


def synthesise(text: str) -> bytes:
    """A WAV of ``text``; raises FileNotFoundError when espeak-ng is not installed."""
    binary = shutil.which(ENGINE)
    if binary is None:
        raise FileNotFoundError(ENGINE)
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "say.wav"
        # the text goes in on stdin: nothing in it can be read as an option
        subprocess.run([binary, "-v", "en", "-s", "145", "-w", str(wav)], input=text.encode(),
                       check=True, timeout=TIMEOUT_S, capture_output=True)
        return wav.read_bytes()


@speech.get("/speech/next.wav")
def next_step():
    ext = current_app.extensions["companion"]
    text = spoken_text(ext["session"].view())
    cache = ext.setdefault("speech", {"lock": threading.Lock(), "last": None})
    with cache["lock"]:
        cached = cache["last"]
        if cached is None or cached[0] != text:
            try:
                cached = (text, synthesise(text))
            except FileNotFoundError:
                return jsonify({"error": "speaking needs espeak-ng on the Pi "
                                         "(sudo apt install espeak-ng)"}), 501
            except (subprocess.SubprocessError, OSError) as exc:
                return jsonify({"error": f"espeak-ng failed: {exc}"}), 500
            cache["last"] = cached
    return Response(cached[1], mimetype="audio/wav",
                    headers={"Cache-Control": "no-store", "X-Spoken": cached[0][:200].encode(
                        "ascii", "replace").decode()})
