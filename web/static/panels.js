// Panels every game shares: timers (counted on the server's clock), dice reads, decks,
// reminders, the log, "done" toggles, undo and the hardware's status.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const P = (C.panels = {});

  // -- timers -------------------------------------------------------------------------------------

  const seen = {};  // timer name -> {expired, warned}: what this page last showed, for sounds

  function clock(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function remainingOf(t) {
    if (t.running && t.deadline) return Math.max(0, t.deadline - C.serverNow());
    return t.remaining;
  }

  P.timers = function (view, controls) {
    const box = C.$("timers");
    if (!box) return;
    const timers = Object.values(view.timers || {});
    const nodes = timers.map((t) => {
      const status = t.expired ? "expired" : t.running ? "running" : "paused";
      const node = el("div", { class: "timer " + status, "data-timer": t.name },
        el("span", { class: "timer-label" }, "◷ " + t.label),
        el("span", { class: "timer-left", "data-left": t.name }, clock(remainingOf(t))),
        el("span", { class: "timer-state", "data-state": t.name }, ""));
      if (controls) {
        const name = t.name;
        const row = el("div", { class: "row timer-controls" });
        if (t.running) row.append(C.button("‖", "Pause", () => C.act("timer.pause", { name }, null), { "data-key": "pause-" + name }));
        else if (!t.expired) row.append(C.button("▶", "Resume", () => C.act("timer.resume", { name }, null), { "data-key": "resume-" + name }));
        if (!t.expired) row.append(C.button("✚", "1 minute", () => C.act("timer.add", { name, seconds: 60 }, null), { "data-key": "add-" + name }));
        row.append(C.button("✖", t.expired ? "Clear" : "Stop", () => C.act("timer.cancel", { name }, null), { "data-key": "cancel-" + name }));
        node.append(row);
      }
      return node;
    });
    // one start form per page, kept across renders so a half-made choice survives updates
    if (controls && view.game) nodes.push(P.startForm || (P.startForm = startForm()));
    if (!nodes.length) nodes.push(el("p", { class: "none" }, "◷ No timer running."));
    box.replaceChildren(...nodes);
    P.tick();
  };

  function startForm() {
    const pick = el("select", { id: "timer-minutes", "aria-label": "Timer length" },
      [1, 2, 5, 10, 15].map((m) => el("option", { value: m, selected: m === 5 }, m + " min")),
      el("option", { value: "custom" }, "Custom…"));
    const custom = el("input", { id: "timer-custom", type: "number", min: 0.1, step: "any", size: 4, hidden: true, "aria-label": "Custom minutes" });
    pick.addEventListener("change", () => { custom.hidden = pick.value !== "custom"; });
    return el("div", { class: "row timer-start" },
      pick, custom,
      C.button("◷", "Start turn timer", () => {
        const minutes = pick.value === "custom" ? Number(custom.value) : Number(pick.value);
        if (!(minutes > 0)) { C.showError("Give the timer a length in minutes."); return; }
        C.act("timer.start", { name: "turn", seconds: Math.round(minutes * 60), label: "Turn" }, null);
      }, { "data-key": "timer-start" }));
  }

  // Recounts every running timer from its server deadline; plays the sounds on this page.
  P.tick = function () {
    const view = C.view;
    if (!view) return;
    for (const t of Object.values(view.timers || {})) {
      const left = remainingOf(t);
      const leftNode = document.querySelector('[data-left="' + CSS.escape(t.name) + '"]');
      const stateNode = document.querySelector('[data-state="' + CSS.escape(t.name) + '"]');
      const warning = t.running && left <= t.warn && left > 0;
      if (leftNode) leftNode.textContent = t.expired ? "0:00" : clock(left);
      if (stateNode) {
        stateNode.textContent = t.expired ? "⚑ Time's up!" : !t.running ? "‖ Paused"
          : left <= 0 ? "⚑ Time's up!" : warning ? "⚠ Last minute!" : "▶ Running";
        stateNode.parentElement.classList.toggle("warning", warning);
      }
      const was = seen[t.name];
      if (was && !was.expired && t.expired) C.beep("end");
      if (warning && was && !was.warned) C.beep("warning");
      seen[t.name] = { expired: t.expired, warned: warning || (was && was.warned && t.running) };
    }
  };
  setInterval(P.tick, 250);

  // -- "done" toggles (Invincible's hero phase, any game whose expect offers "done") -----------------

  // Who may say "done": expect.players / expect.heroes (names, or objects with their own
  // "actions" or "done"), else the state's players.
  function playersOf(view) {
    const e = view.expect || {};
    const s = view.state || {};
    const list = e.players || e.heroes || e.waiting || s.players || s.heroes || [];
    return (Array.isArray(list) ? list : []).map((p) => (typeof p === "string" ? { id: p, name: p } : {
      id: p.id || p.hero || p.name,
      name: p.name || p.id || p.hero,
      done: Array.isArray(p.actions) ? !p.actions.includes("done") : typeof p.done === "boolean" ? p.done : undefined,
    }));
  }

  function isDone(view, p) {
    if (p.done !== undefined) return p.done;
    const d = (view.expect && view.expect.done) || (view.state && view.state.done);
    if (Array.isArray(d)) return d.includes(p.id);
    return !!(d && d[p.id]);
  }

  P.done = function (view) {
    if (!view.expect || !(view.expect.actions || []).includes("done")) return null;
    const players = playersOf(view);
    const row = el("div", { class: "done-row", role: "group", "aria-label": "Done toggles" });
    for (const p of players.length ? players : [{ id: view.expect.player, name: view.expect.player_name || view.expect.player }]) {
      if (!p.id) continue;
      const done = isDone(view, p);
      row.append(C.button(done ? "✔" : "☐", p.name + (done ? " is done" : ": done?"),
        () => C.act("done", {}, p.id), { class: "done" + (done ? " on" : ""), "aria-pressed": String(done), disabled: done, "data-key": "done-" + p.id }));
    }
    return el("div", {}, el("h3", {}, "☝ Done this phase?"), row);
  };

  // -- dice reads ---------------------------------------------------------------------------------

  // The faces die i of a camera read may show: the read is the first dice request's roll
  // (companion/dice.py), its kinds of die in turn (the first one, then "also").
  function facesFor(view, i) {
    const first = ((view.expect && view.expect.dice) || [])[0];
    const wanted = [];
    if (first) for (const kind of [first].concat(first.also || [])) for (let n = 0; n < (kind.count || 1); n++) wanted.push(kind.faces || []);
    return wanted[i] || [...new Set(wanted.flat())];
  }

  function crop(image, box, size) {
    const node = el("span", { class: "crop", role: "img", "aria-label": "camera crop" });
    if (!image || !box) return node;
    const img = new Image();
    img.onload = () => {
      const scale = size / Math.max(box[2], box[3], 1);
      node.style.backgroundImage = "url(" + JSON.stringify(image).slice(1, -1) + ")";
      node.style.backgroundSize = img.naturalWidth * scale + "px " + img.naturalHeight * scale + "px";
      node.style.backgroundPosition = -box[0] * scale + "px " + -box[1] * scale + "px";
    };
    img.src = image;
    return node;
  }

  const corrections = {};  // read id -> faces picked on this phone before confirming

  P.dice = function (view, controls) {
    const box = C.$("dice");
    if (!box) return;
    const read = view.dice_read;
    const title = el("h2", {}, el("span", { "aria-hidden": "true" }, "⚄"), " Last roll");
    if (!read) {
      const r = C.renderer(view.game);
      const roll = r.lastRoll ? r.lastRoll(view) : null;
      box.replaceChildren(title, roll || el("p", { class: "none" }, "No dice read yet."));
      return;
    }
    const faces = corrections[read.id] || read.dice.map((d) => d.face);
    const list = el("ol", { class: "dice-list" });
    read.dice.forEach((d, i) => {
      const changed = faces[i] !== d.face;
      const sure = d.confidence >= 0.8;
      const label = el("span", { class: "die-face" }, faces[i]);
      const conf = el("span", { class: "confidence" + (sure ? "" : " unsure") },
        changed ? "✎ corrected" : (sure ? "" : "⚠ unsure ") + Math.round(d.confidence * 100) + "% sure");
      const item = el("li", { class: "die" }, crop(read.image, d.box, C.page === "table" ? 96 : 64), label, conf);
      if (controls && !read.confirmed) {
        const picker = el("div", { class: "faces", hidden: true });
        for (const f of facesFor(view, i)) picker.append(C.button(null, f, () => {
          corrections[read.id] = faces.slice();
          corrections[read.id][i] = f;
          P.dice(C.view, true);
        }, { "data-key": "face-" + i + "-" + f }));
        item.append(C.button("✎", "Change die " + (i + 1), () => { picker.hidden = !picker.hidden; }, { class: "small", "data-key": "change-" + i }), picker);
      }
      list.append(item);
    });
    const parts = [title, list];
    if (read.confirmed) parts.push(el("p", { class: "ok" }, "✔ Confirmed"));
    else if (controls) parts.push(C.button("✔", "Confirm " + faces.join(", "), async () => {
      const res = await C.send("POST", "/api/dice/confirm", { id: read.id, faces });
      if (res.ok) delete corrections[read.id];
    }, { class: "big confirm", "data-key": "confirm-read" }));
    else parts.push(el("p", { class: "hint" }, "◔ Waiting for a player to confirm the dice."));
    box.replaceChildren(...parts);
  };

  // -- decks, reminders, log, undo ----------------------------------------------------------------

  P.decks = function (view) {
    const box = C.$("decks");
    if (!box) return;
    const r = C.renderer(view.game);
    let content = r.decks ? r.decks(view) : null;
    if (!content && view.state) {
      const items = [];
      for (const [k, v] of Object.entries(view.state)) {
        if (!/deck|discard|pile/i.test(k)) continue;
        const n = typeof v === "number" ? v : Array.isArray(v) ? v.length : null;
        if (n !== null) items.push(el("div", { class: "stat" }, el("span", { class: "label" }, "🂠 " + C.human(k)), " ", el("b", {}, n)));
      }
      const last = view.state.last_card_info ? view.state.last_card_info.title : view.state.last_card;
      if (last) items.push(el("div", { class: "last-card" }, el("span", { class: "label" }, "Last card"), el("b", {}, String(last))));
      content = items.length ? el("div", { class: "deck-row" }, items) : null;
    }
    box.hidden = !content;
    box.replaceChildren(el("h2", {}, el("span", { "aria-hidden": "true" }, "🂠"), " Cards"), content || "");
  };

  P.reminders = function (view) {
    const list = C.$("reminders");
    if (!list) return;
    const items = (view.reminders || []).map((r) => el("li", {}, r.text, r.rule ? el("small", {}, " (" + r.rule + ")") : null));
    list.replaceChildren(...(items.length ? items : [el("li", { class: "none" }, "Nothing to remember right now.")]));
  };

  P.log = function (view) {
    const list = C.$("log");
    if (!list) return;
    const lines = (view.state && Array.isArray(view.state.log) ? view.state.log : []).slice(-12).reverse();
    list.replaceChildren(...lines.map((line) => el("li", {}, String(line))));
  };

  C.describe = function (view, action) {
    const r = C.renderer(view.game);
    if (r.describe) {
      const text = r.describe(action, view);
      if (text) return text;
    }
    const d = action.data || {};
    if (action.type.startsWith("timer.")) {
      const name = "the " + (d.label || d.name || "turn") + " timer";
      const verb = { start: "start " + name + " (" + clock(d.seconds || 0) + ")", pause: "pause " + name,
        resume: "resume " + name, cancel: "stop " + name, expire: name + " running out",
        add: (d.seconds < 0 ? "take " : "add ") + clock(Math.abs(d.seconds || 0)) + (d.seconds < 0 ? " from " : " to ") + name };
      return verb[action.type.slice(6)] || action.type;
    }
    const detail = Object.values(d).map((v) => (typeof v === "object" ? JSON.stringify(v) : v)).join(" ");
    return (action.player ? action.player + ": " : "") + action.type + (detail ? " " + detail : "");
  };

  P.undo = function (view) {
    const btn = C.$("undo");
    if (!btn) return;
    const undo = view.undo;
    const over = !view.game;
    btn.hidden = over || !undo;
    if (!undo || over) return;
    btn.replaceChildren(el("span", { class: "icon", "aria-hidden": "true" }, "↩"),
      el("span", { class: "word" }, "Undo: " + C.describe(view, undo.action)));
  };

  // -- hardware -----------------------------------------------------------------------------------

  P.hardware = async function () {
    const box = C.$("hardware");
    if (!box) return;
    const res = await C.api("GET", "/api/hardware");
    if (!res.ok || (!res.data.status && !res.data.can_press && !res.data.camera)) {
      box.hidden = true;
      // no adapter attached: stop asking until the page reloads (unless they are still starting)
      P.noHardware = res.ok && !(res.data.starting || []).length;
      return;
    }
    const status = res.data.status || {};
    const parts = [el("h2", {}, el("span", { "aria-hidden": "true" }, "⚡"), " Devices" + (res.data.simulate ? " (simulated)" : ""))];
    const link = status.serial || status.link;
    if (link && typeof link === "object") {
      const ok = /^(ready|operational|connected|ok)$/i.test(String(link.state));
      parts.push(el("p", { class: "link-state " + (ok ? "ok" : "bad") }, (ok ? "✔ " : "⚠ ") + "Serial: " + (link.state || "?") + (link.reason ? " (" + link.reason + ")" : "")));
    }
    const cam = res.data.camera;
    if (cam) {
      parts.push(el("p", { class: "link-state " + (cam.error ? "bad" : "ok") }, (cam.error ? "⚠ " : "📷 ") +
        "Camera: " + (cam.expects ? "watching for " + cam.expects : "idle") + ", " + cam.reads + " reads" +
        (cam.error ? " (" + cam.error + ")" : "")));
      if (C.page === "play") {
        const row = el("div", { class: "row" },
          C.button("📷", "Read the dice now", () => C.send("POST", "/api/camera/read", {})));
        if (res.data.can_throw) row.append(C.button("🎲", "Throw the dice (simulated tray)", () => C.send("POST", "/api/camera/throw", {})));
        parts.push(row);
      }
    }
    const rest = Object.assign({}, status);
    delete rest.serial; delete rest.link;
    if (res.data.status) parts.push(C.showValue(rest));
    if (res.data.can_press && C.page === "play") {
      const names = Array.isArray(status.buttons) ? status.buttons.map((b) => (typeof b === "string" ? b : b.name))
        : status.buttons && typeof status.buttons === "object" ? Object.keys(status.buttons) : [];
      const row = el("div", { class: "row" });
      for (const name of names.filter(Boolean)) {
        row.append(C.button("◉", "Press " + name, () => C.send("POST", "/api/hardware/press", { name, hold: false })),
          C.button("☝", "Hold " + name, () => C.send("POST", "/api/hardware/press", { name, hold: true }), { class: "small" }));
      }
      parts.push(row);
    }
    box.hidden = false;
    box.replaceChildren(...parts);
  };
})();
