// The Devices page: what is connected, whether it works, and what to do when it does not, in a
// person's words (the raw status is GET /api/hardware). Refreshed every few seconds.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const WORDS = { confirm: "confirm", undo: "undo", read_dice: "read the dice", draw_card: "draw a card",
    timer_toggle: "start or pause the timer", done: "say done", next: "go on" };

  function ago(epoch) {
    if (!epoch) return "";
    const s = Math.max(0, Date.now() / 1000 + C.offset - epoch);
    return s < 90 ? Math.round(s) + " seconds ago" : s < 5400 ? Math.round(s / 60) + " minutes ago" : Math.round(s / 3600) + " hours ago";
  }
  const does = (cmd) => (cmd ? WORDS[cmd] || C.human(cmd).toLowerCase() : null);

  function card(icon, title, ok, state, lines, todo) {
    return el("section", { class: "panel device", "data-device": title },
      C.icon(icon), el("h3", {}, title),
      el("p", { class: ok ? "state-ok" : "state-bad" }, C.icon(ok ? "check" : "warn"), " " + state),
      el("div", {}, lines.length ? el("ul", {}, lines.map((l) => el("li", {}, l))) : null,
        todo ? el("p", {}, el("b", {}, "What to do: "), todo) : null));
  }

  function camera(hw) {
    const cam = hw.camera;
    if (!cam) return card("camera", "Camera", true, "none attached", ["Rolls are entered by tapping faces on a phone."],
      "to read the dice by camera, add a [camera] section to the config (docs/vision.md).");
    const sim = /Simulated/i.test(cam.source);
    const lines = [(sim ? "The simulated tray" : "The camera") + (cam.running ? " is watching" : " is stopped") +
      (cam.expects ? ", for the " + C.human(cam.expects) + " dice" : ", with no roll expected now") + ".",
    cam.reads + (cam.reads === 1 ? " roll read" : " rolls read") + " since the start."];
    if (cam.left_unread) lines.push("Its last read left " + cam.left_unread + " die-like thing" + (cam.left_unread === 1 ? "" : "s") + " unread (a mark beside the tray, or dice it could not read).");
    return card("camera", "Camera", !cam.error && cam.running, cam.error ? "not working" : cam.running ? "works" : "stopped",
      cam.error ? lines.concat(["Last problem: " + cam.error]) : lines,
      cam.error ? "check the camera's cable and the [camera] source in the config, then restart; `companion doctor` tells more." : null);
  }

  // what a command means in this game and phase (GET /api/hardware's meanings, from the game's
  // table map), beside the generic word: "next (now: stay: end the move on your own space)"
  const now = (hw, cmd) => {
    const m = hw.meanings && hw.meanings.buttons[cmd];
    return m ? " (" + (m.startsWith("nothing now") ? m : "now: " + m) + ")" : "";
  };

  function buttons(status, hw) {
    const list = Object.entries(status.buttons || {});
    if (!list.length) return null;
    const lines = list.map(([name, b]) => C.human(name) + " button: " + [b.press && "press to " + does(b.press) + now(hw, b.press), b.hold && "hold to " + does(b.hold) + now(hw, b.hold)].filter(Boolean).join(", ") +
      ". Pressed " + b.presses + (b.presses === 1 ? " time" : " times") + (b.bounces > 20 ? "; it bounces a lot" : "") + ".");
    const bouncy = list.some(([, b]) => b.bounces > 20);
    return card("press", "Table buttons", !bouncy, bouncy ? "one bounces a lot" : "work (" + list.length + ")", lines,
      bouncy ? "check that button's wiring (a loose wire or a worn switch)." : null);
  }

  function lights(status) {
    const leds = Object.entries(status.leds || {});
    if (!leds.length && !status.buzzer) return null;
    const lines = leds.map(([name, l]) => C.human(name) + " light: " + (l.mode === "blink" ? "blinking" : l.lit ? "on" : "off") + ".");
    if (status.buzzer) lines.push("Buzzer: " + (status.buzzer.quiet ? "quiet" : status.buzzer.sounding ? "sounding" : "ready") + ".");
    return card("light", "Lights and buzzer", true, "work", lines, null);
  }

  function controller(status, hw) {
    const link = status.serial;
    if (!link) return null;
    if (link.state === "closed" && /no serial/.test(link.reason || "")) return card("devices", "Table controller (USB)", true, "none configured", [],
      "to use one, add a [serial] section to the config (docs/serial-protocol.md).");
    if (link.state === "off") return card("devices", "Table controller (USB)", true, "turned off", [],
      "to use it, set enabled = true in the config's [serial] section.");
    const ok = link.state === "ready";
    const dev = link.device || {};
    const lines = ok ? ["Connected to " + (dev.id || "the device") + (dev.firmware ? " (firmware " + dev.firmware + ")" : "") + (link.since ? " for " + ago(link.since).replace(" ago", "") : "") + "."]
      : ["Not connected " + ago(link.since) + ": " + String(link.reason || "").replace(/\s+on \/\S+/, "") + "."];
    if (link.display) lines.push("Its display (" + link.display.width + " characters) shows: " + (link.display.text ? "\u201c" + link.display.text + "\u201d" : "nothing yet") + ".");
    if ((link.unknown_tags || []).length) lines.push(link.unknown_tags.length + " token(s) it does not know yet: add them to [tokens.tags].");
    for (const [n, b] of Object.entries(link.buttons || {})) {
      lines.push("Button " + n + ": " + ([b.press && "press to " + does(b.press) + now(hw, b.press), b.hold && "hold to " + does(b.hold) + now(hw, b.hold)]
        .filter(Boolean).join(", ") || "nothing (give it a meaning in [serial.buttons])") + ".");
    }
    return card("devices", "Table controller (USB)", ok, ok ? "works" : link.state === "connecting" ? "connecting" : "not connected", lines,
      ok ? null : "check the USB cable; it reconnects by itself as soon as the device answers.");
  }

  function refusals(status) {
    const r = status.actions && status.actions.last_refusal;
    if (!r) return null;
    return card("warn", "Last refused press", true, "the rules said no", [C.human(r.origin) + ", " + ago(r.at) + ": " + r.reason], null);
  }

  async function refresh() {
    const res = await C.api("GET", "/api/hardware");
    const summary = C.$("devices-summary");
    if (!res.ok) { summary.textContent = "Cannot ask the table about its devices: " + res.data.error; return; }
    const hw = res.data;
    const status = hw.status || {};
    const cards = [camera(hw)].concat(hw.status ? [controller(status, hw), buttons(status, hw), lights(status), refusals(status)] : []).filter(Boolean);
    const bad = cards.filter((c) => c.querySelector(".state-bad")).length;
    summary.className = "banner " + (bad ? "lost" : "won");
    summary.replaceChildren(C.icon(bad ? "warn" : "check"), " " + (hw.simulate ? "Simulation: every device is simulated. " : "") +
      ((hw.starting || []).length ? "Still starting: " + hw.starting.join(", ") + "." : !hw.status && !hw.camera ? "No devices are attached: the table runs from the phones alone." : bad ? bad + " device(s) need attention." : "Everything attached works."));
    C.$("devices-list").replaceChildren(...cards);
    document.body.dataset.rendered = Date.now();
  }

  (async function () {
    const access = await C.loadAccess();
    C.setupToggles(access.settings);
    C.$("link").hidden = true;
    await refresh();
    setInterval(() => { if (document.visibilityState === "visible") refresh(); }, 3000);
  })();
})();
