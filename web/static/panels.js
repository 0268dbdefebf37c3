// Panels every game shares: timers (counted on the server's clock), the last roll and camera
// reads, decks, reminders, the log, "done" toggles, undo, the result, speech, and the table's fit.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const P = (C.panels = {});
  const table = C.page === "table";

  // -- timers --

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
    // a game over is timed no more: the table leaves its timers to the phones (which may stop them)
    const over = view.outcome && view.outcome.status && view.outcome.status !== "playing";
    const timers = table && over ? [] : Object.values(view.timers || {});
    // the clock a phase is played against (a renderer's hotTimer: Invincible's hero time) stays
    // in view: pinned to the top of a phone while it scrolls, never left off the table to fit
    const r = view.game ? C.renderer(view.game) : {};
    const hot = r.hotTimer && (view.timers || {})[r.hotTimer(view)];
    const pin = C.$("clock");
    if (pin) { pin.hidden = !hot; pin.replaceChildren(...(hot ? [face(hot)] : [])); }
    if (table) { if (hot) box.removeAttribute("data-drop"); else box.dataset.drop = "1"; }
    // a game that owns its timers says which controls are open (view.timer_controls; none: the
    // table's own timers, every control as the timer stands)
    const owned = view.timer_controls;
    const nodes = timers.map((t) => {
      const own = owned && owned[t.name];
      // a game's timer between its phases (hero time before the next Hero Phase) shows the time
      // the next phase starts with, not a "Paused 5:09" or "Time's up!" of the last
      const node = own && own.next ? waiting(t, own.next) : face(t);
      if (controls) node.append(...timerControls(t, own));
      return node;
    });
    // one start form per page, kept across renders so a half-made choice survives updates
    if (controls && view.game) nodes.push(P.startForm || (P.startForm = startForm()));
    box.hidden = table && !nodes.length;  // the table shows a timer only while there is one
    if (!nodes.length) nodes.push(el("p", { class: "none" }, "No timer running."));
    box.replaceChildren(...nodes);
    P.tick();
  };

  function timerControls(t, own) {
    const name = t.name;
    const open = own ? own.open : [t.running ? "pause" : t.expired ? null : "resume", t.expired ? null : "add", "cancel"];
    const row = el("div", { class: "row timer-controls" });
    if (open.includes("pause")) row.append(C.button("pause", "Pause", () => C.act("timer.pause", { name }, null), { "data-key": "pause-" + name }));
    if (open.includes("resume")) row.append(C.button("play", "Resume", () => C.act("timer.resume", { name }, null), { "data-key": "resume-" + name }));
    if (open.includes("add")) row.append(C.button("plus", "1 minute", () => C.act("timer.add", { name, seconds: 60 }, null), { "data-key": "add-" + name }));
    if (open.includes("cancel")) row.append(C.button("cross", t.expired ? "Clear" : "Stop", () => C.act("timer.cancel", { name }, null), { "data-key": "cancel-" + name }));
    const why = own && own.why ? [el("p", { class: "timer-why", "data-why": name }, own.why[0].toUpperCase() + own.why.slice(1) + ".")] : [];
    return row.childNodes.length ? [row, ...why] : why;
  }

  function waiting(t, next) {
    return el("div", { class: "timer waiting", "data-timer": t.name, "data-next": next },
      el("span", { class: "timer-label" }, C.icon("clock"), " " + t.label),
      el("span", { class: "timer-left" }, clock(next)),
      el("span", { class: "timer-state" }, C.icon("pause"), " Next phase"));
  }

  function face(t) {
    return el("div", { class: "timer " + (t.expired ? "expired" : t.running ? "running" : "paused"), "data-timer": t.name },
      el("span", { class: "timer-label" }, C.icon("clock"), " " + t.label),
      el("span", { class: "timer-left", "data-left": t.name }, clock(remainingOf(t))),
      el("span", { class: "timer-state", "data-state": t.name }, ""));
  }

  function startForm() {
    const pick = el("select", { id: "timer-minutes", "aria-label": "Timer length" },
      [1, 2, 5, 10, 15].map((m) => el("option", { value: m, selected: m === 5 }, m + " min")),
      el("option", { value: "custom" }, "Custom…"));
    const custom = el("input", { id: "timer-custom", type: "number", min: 0.1, step: "any", size: 4, hidden: true, "aria-label": "Custom minutes" });
    pick.addEventListener("change", () => { custom.hidden = pick.value !== "custom"; });
    return el("div", { class: "row timer-start" },
      pick, custom,
      C.button("clock", "Start turn timer", () => {
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
      const name = CSS.escape(t.name);
      const warning = t.running && left <= t.warn && left > 0;
      // each copy of the timer (the pinned clock's too)
      for (const n of document.querySelectorAll('[data-left="' + name + '"]')) n.textContent = t.expired ? "0:00" : clock(left);
      for (const stateNode of document.querySelectorAll('[data-state="' + name + '"]')) {
        const [icon, word] = t.expired || (t.running && left <= 0) ? ["flag", "Time's up!"] : !t.running ? ["pause", "Paused"]
          : warning ? ["warn", "Last minute!"] : ["play", "Running"];
        if (stateNode.dataset.word !== word) {
          stateNode.dataset.word = word;
          stateNode.replaceChildren(C.icon(icon), " " + word);
        }
        stateNode.parentElement.classList.toggle("warning", warning);
      }
      const was = seen[t.name];
      // warned once per stretch under the warning mark: a pause and resume does not warn again
      const warnedBefore = !!(was && was.warned && left <= t.warn && !t.expired);
      if (was && !was.expired && t.expired) C.beep("end");
      if (warning && was && !warnedBefore) C.beep("warning");
      seen[t.name] = { expired: t.expired, warned: warning || warnedBefore };
    }
  };
  setInterval(P.tick, 250);

  // -- "done" toggles (Invincible's hero phase, any game whose expect offers "done") --

  // Who may say "done": expect.players / expect.heroes (names, or objects with their own
  // "actions" or "done"), else the state's players; shown by the names the board uses.
  function playersOf(view) {
    const e = view.expect || {};
    const s = view.state || {};
    const list = e.players || e.heroes || e.waiting || s.players || s.heroes || [];
    return (Array.isArray(list) ? list : []).map((p) => {
      const id = typeof p === "string" ? p : p.id || p.hero || p.name;
      return { id, name: C.playerName(view, id) || (typeof p === "object" && p.name) || id,
        // a hero whose effect waits for a tap may not say "done" now, but is not done
        done: typeof p !== "object" ? undefined : typeof p.finished === "boolean" ? p.finished
          : Array.isArray(p.actions) ? !p.actions.includes("done") : typeof p.done === "boolean" ? p.done : undefined,
        // not done, yet "done" is not among their own moves now (their power resolving): the
        // engine's refusal, shown instead of a toggle it would only refuse
        closed: typeof p === "object" && Array.isArray(p.actions) && !p.actions.includes("done")
          ? p.done_closed || { reason: "not open now" } : null };
    });
  }

  // A player or hero id as every screen names it (the game's renderer knows its own names).
  C.playerName = function (view, id) {
    if (!id || !view || !view.game) return id;
    const r = C.renderer(view.game);
    return (r.playerName && r.playerName(view, id)) || id;
  };

  function isDone(view, p) {
    if (p.done !== undefined) return p.done;
    const d = (view.expect && view.expect.done) || (view.state && view.state.done);
    if (Array.isArray(d)) return d.includes(p.id);
    return !!(d && d[p.id]);
  }

  // ``only``: these players' toggles (default: the phone's own, where the renderer knows it:
  // mine). A renderer's askDone(view) makes "done" ask once: the first tap only arms it for a
  // few seconds and says what it will do, so a stray tap cannot end a player's phase.
  const armed = {};  // player id -> until when (ms) a second tap sends
  P.done = function (view, only) {
    if (!view.expect || !(view.expect.actions || []).includes("done")) return null;
    const r = C.renderer(view.game);
    const players = playersOf(view);
    const mine = !only && r.mine && r.mine(view);
    const keep = only || (mine && players.some((p) => p.id === mine) ? [mine] : null);
    const ask = r.askDone && r.askDone(view);
    const row = el("div", { class: "done-row", role: "group", "aria-label": "Done toggles" });
    for (const p of players.length ? players : [{ id: view.expect.player, name: C.playerName(view, view.expect.player) }]) {
      if (!p.id || (keep && !keep.includes(p.id))) continue;
      const done = isDone(view, p);
      if (!done && p.closed) {
        row.append(el("div", { class: "done-closed", "data-why": "done-" + p.id },
          C.button("box", p.name + " can't stop yet", null, { class: "done", "aria-pressed": "false", disabled: true, "data-key": "done-" + p.id }),
          el("p", { class: "hint" }, C.icon("clock"), " " + p.closed.reason, p.closed.rule ? el("small", {}, " (rule: " + p.closed.rule + ")") : null)));
        continue;
      }
      const sure = () => armed[p.id] > Date.now();
      const word = () => p.name + (done ? " is done" : sure() ? ": tap again, " + ask : " is done?");
      const show = () => { btn.classList.toggle("armed", sure()); btn.lastChild.textContent = word(); };
      const btn = C.button(done ? "check" : "box", word(), () => {
        if (!ask || sure()) { delete armed[p.id]; C.act("done", {}, p.id); return; }
        armed[p.id] = Date.now() + 5000;
        show();
        setTimeout(show, 5001);
      }, { class: "done" + (done ? " on" : ""), "aria-pressed": String(done), disabled: done, "data-key": "done-" + p.id });
      if (sure()) { show(); setTimeout(show, armed[p.id] - Date.now() + 1); }  // drawn again while armed
      row.append(btn);
    }
    return row.childElementCount ? el("div", {}, el("h3", {}, "Done with this phase?"), row) : null;
  };

  // -- the last roll: one truth, whatever channel entered it (view.last_roll) --

  P.crop = function (image, box, size) {
    const node = el("span", { class: "crop", role: "img", "aria-label": "camera crop" });
    if (!image || !box) return node;
    const img = new Image();
    img.onload = () => {
      const px = size * parseFloat(getComputedStyle(document.documentElement).fontSize);
      const scale = px / Math.max(box[2], box[3], 1);
      node.style.backgroundImage = "url(" + JSON.stringify(image).slice(1, -1) + ")";
      node.style.backgroundSize = img.naturalWidth * scale + "px " + img.naturalHeight * scale + "px";
      node.style.backgroundPosition = -box[0] * scale + "px " + -box[1] * scale + "px";
    };
    img.src = image;
    return node;
  };

  const dice = (P.diceWords = (n) => (n === 1 ? "1 die" : n + " dice"));
  const BY = { dashboard: "tapped on a phone", api: "sent by a script", camera: "read by the camera", button: "a table button",
    replay: "from a replayed file", clock: "the clock", token: "a token" };
  const CONFIRMED = { dashboard: "on a phone", button: "with the table button", api: "by a script" };

  // what the players changed in a camera read before confirming it, in their words
  function changesOf(read) {
    const said = [];
    const n = (read.corrected || []).length, gone = (read.removed || []).length, more = (read.added || []).length;
    if (more) said.push(dice(more) + " added");
    if (gone) said.push(dice(gone) + " marked not a die");
    if (n) said.push(dice(n) + " corrected");
    return said.join(", ");
  }

  P.dice = function (view, controls) {
    const box = C.$("dice");
    if (!box) return;
    const read = view.dice_read;
    const title = el("h2", {}, C.icon("die"), " Last roll");
    if (P.fixing) P.fixing();   // the table's full-screen fix of a waiting read (reads.js)
    if (!view.game) { box.replaceChildren(title, el("p", { class: "none" }, "No game.")); return; }
    // a read waiting for a tap is never left off the table; the last roll may be, if space runs out
    if (read && !read.confirmed) box.removeAttribute("data-drop"); else if (table) box.dataset.drop = "3";
    if (read && !read.confirmed) {
      // its panel is web/static/reads.js, which the page fetches (C.need) when a read first waits
      box.className = "dice waiting-read" + (table ? "" : " panel");
      box.replaceChildren(el("h2", {}, C.icon("camera"), " Waiting for a tap"), ...(P.waitingRead ? P.waitingRead(view, read, controls)
        : [el("p", { class: "waiting" }, "The camera is not sure: nothing is done until a player confirms.")]));
      return;
    }
    box.className = "dice" + (table ? "" : " panel");
    const last = view.last_roll;
    const r = C.renderer(view.game);
    if (!last) {
      box.replaceChildren(title, el("p", { class: "none" }, "No roll yet."));
      return;
    }
    const photo = read && last.read === read.id ? read : null;
    const who = C.playerName(view, last.player);
    // many dice: how many of each face; a few: each die, with the camera's crop when it read them
    const counts = {};
    for (const d of last.dice) counts[d.face] = (counts[d.face] || 0) + 1;
    const group = !(photo && last.dice.length <= 3) && (last.dice.length > 3 || Object.keys(counts).length < last.dice.length);
    // the roll's dice are the read's kept dice in order, then the ones the players added
    const readDice = photo ? photo.dice.filter((d, i) => !(photo.removed || []).includes(i)) : [];
    const faces = el("ol", { class: "dice-list" }, group
      ? Object.entries(counts).map(([f, n]) => el("li", { class: "die" }, n + " × ", C.faceTag(view.game, f)))
      : last.dice.map((d, i) => el("li", { class: "die" },
        readDice[i] ? P.crop(photo.image, readDice[i].box, table ? 2.2 : 3.2) : null, C.faceTag(view.game, d.face, d.die))));
    const fixed = photo ? changesOf(photo) : "";
    const detail = r.lastRoll ? r.lastRoll(view, last) : null;
    // "Roll for me" tapped on a phone: the phone asked, the companion rolled
    const by = !last.dice.length && last.source === "dashboard" ? "asked for on a phone" : BY[last.source] || last.source;
    box.replaceChildren(title,
      el("p", { class: "roll-who", "data-drop": "4" }, (who ? who + ": " : "") + (C.human(last.type).toLowerCase()), el("span", { class: "by" }, " · " + by +
        (last.confirmed_by ? ", confirmed " + (CONFIRMED[last.confirmed_by] || "by " + last.confirmed_by) : ""))),
      last.dice.length ? faces : el("p", { class: "virtual" }, "Rolled by the companion" + (last.said ? ": " + last.said : ".")),
      fixed ? el("p", { class: "put-right", "data-drop": "5" }, "Put right: " + fixed + ".") : "",
      detail || "");  // a game's detail may be none (its roll already moved on)
  };

  // -- decks, reminders, log, undo --

  P.decks = function (view) {
    const box = C.$("decks");
    if (!box) return;
    const r = C.renderer(view.game);
    let content = r.decks ? r.decks(view, table) : null;
    if (!content && view.state) {
      const items = [];
      for (const [k, v] of Object.entries(view.state)) {
        if (!/deck|discard|pile/i.test(k)) continue;
        const n = typeof v === "number" ? v : Array.isArray(v) ? v.length : null;
        if (n !== null) items.push(el("div", { class: "stat" }, C.tag("card", el("span", { class: "label" }, C.human(k))), " ", el("b", {}, n)));
      }
      const last = view.state.last_card_info ? view.state.last_card_info.title : view.state.last_card;
      if (last) items.push(el("div", { class: "last-card" }, el("span", { class: "label" }, "Last card"), el("b", {}, String(last))));
      content = items.length ? el("div", { class: "deck-row" }, items) : null;
    }
    box.hidden = !content;
    box.replaceChildren(el("h2", {}, C.icon("card"), " Cards"), content || "");
  };

  P.reminders = function (view) {
    const list = C.$("reminders");
    if (!list) return;
    // the table shows the reminders in big type, as many as fit; the rule's name is on the phones.
    // An urgent one ("one slide from Too Late!") comes first and is the last thing the table's
    // side leaves out (it was always left out at 800x480, the whole box with it).
    const all = view.reminders || [];
    const ordered = all.filter((r) => r.urgent).concat(all.filter((r) => !r.urgent));
    // on the table an urgent one's words after its first colon go for room before it does; cut
    // into two sentences, the second begins with a capital ('"Too Late!". fix it' read as a slip)
    const words = (r) => {
      const cut = table && r.urgent ? r.text.indexOf(": ") : -1;
      const rest = r.text.slice(cut + 2);
      return cut < 0 ? [r.text] : [r.text.slice(0, cut) + ".", el("span", { "data-drop": "7" }, " " + rest.charAt(0).toUpperCase() + rest.slice(1))];
    };
    const items = ordered.map((r) => el("li", { "data-drop": r.urgent ? "1" : "9", class: r.urgent ? "warn" : null },
      r.urgent ? C.icon("warn") : null, r.urgent ? " " : null, ...words(r), !table && r.rule ? el("small", {}, " (" + r.rule + ")") : null));
    const box = C.$("reminders-box");
    if (table && box) { box.hidden = !items.length; box.dataset.drop = ordered.some((r) => r.urgent) ? "1" : "9"; }
    list.replaceChildren(...(items.length ? items : [el("li", { class: "none" }, "Nothing to remember right now.")]));
  };

  P.log = function (view) {
    const list = C.$("log");
    if (!list) return;
    const lines = (view.state && Array.isArray(view.state.log) ? view.state.log : []).slice(-12).reverse();
    list.replaceChildren(...lines.map((line) => el("li", {}, String(line))));
  };

  // The roll a camera read (or its confirmation) made, in words, where view.last_roll is still
  // that roll: stamped with the read's own time (and, for a read, its id); null otherwise (a
  // read still waiting for a tap made none).
  function rollOf(view, action) {
    const last = view.last_roll;
    const d = action.data || {};
    if (!last || last.source !== "camera" || last.at !== action.at || !last.dice.length) return null;
    if (action.type !== "dice.confirm" && !(action.type === "dice.read" && last.read === d.id)) return null;
    const who = C.playerName(view, last.player);
    const what = C.human(last.type).toLowerCase();
    return (who ? who + "'s " + what : "the " + what) + ": " + last.dice.map((x) => C.face(view.game, x.face, x.die).word).join(", ");
  }

  C.describe = function (view, action) {
    const r = C.renderer(view.game);
    if (r.describe) {
      const text = r.describe(action, view);
      if (text) return text;
    }
    const d = action.data || {};
    // the camera's own actions in words, never their data (a read's dice would be a line of JSON)
    // a read that made a roll is taken back as that roll, in the table's words ("Dash's roll: 3")
    const roll = rollOf(view, action);
    if (roll && action.type === "dice.read") return roll;
    // a pull mat's read is of cubes, not dice (its set says so: "invincible-cubes")
    if (action.type === "dice.read") return "the camera's read of " + (/cube/.test(d.set || "")
      ? ((d.dice || []).length === 1 ? "1 cube" : (d.dice || []).length + " cubes") : dice((d.dice || []).length));
    if (action.type === "dice.dismiss") return "throwing the camera's read away";
    if (action.type === "dice.confirm") {
      const said = changesOf({ removed: (d.faces || []).filter((f) => f === null), added: d.added || [] });
      return (roll || "confirm the camera's read") + (said ? " (" + said + ")" : "");
    }
    if (action.type.startsWith("timer.")) {
      const timer = (view.timers || {})[d.name || "turn"];
      const name = "the " + (d.label || (timer && timer.label) || C.human(d.name || "turn")).toLowerCase() + " timer";
      const verb = { start: "start " + name + " (" + clock(d.seconds || 0) + ")", pause: "pause " + name,
        resume: "resume " + name, cancel: "stop " + name, expire: name + " running out",
        add: (d.seconds < 0 ? "take " : "add ") + clock(Math.abs(d.seconds || 0)) + (d.seconds < 0 ? " from " : " to ") + name };
      return verb[action.type.slice(6)] || action.type;
    }
    const detail = Object.values(d).map((v) => (typeof v === "object" ? JSON.stringify(v) : v)).join(" ");
    return (action.player ? C.playerName(view, action.player) + ": " : "") + C.human(action.type).toLowerCase() + (detail ? " " + detail : "");
  };

  P.undo = function (view) {
    const btn = C.$("undo");
    if (!btn) return;
    const undo = view.undo;
    const over = !view.game;
    btn.hidden = over || !undo;
    if (!undo || over) return;
    btn.replaceChildren(C.icon("undo"), el("span", { class: "word" }, "Undo: " + C.describe(view, undo.action)));
  };

  // -- the end: a screen the table will notice --

  P.result = function (view) {
    const out = view.outcome || {};
    const won = out.status === "won";
    const winner = out.winner_name || (out.winner && C.playerName(view, out.winner));
    const score = out.score === undefined || out.score === null ? null : typeof out.score === "object"
      ? Object.entries(out.score).map(([k, v]) => C.playerName(view, k) + " " + v).join(" · ") : "Score " + out.score;
    return [el("div", { class: "result-head" }, C.icon(won ? "star" : "burst", "result-icon"),
      el("span", { class: "next-text" }, won ? (winner ? winner + " wins!" : "You won!") : "The game is lost")),
    el("p", { class: "result-why" }, String(out.reason || "").replace(/^./, (c) => c.toUpperCase()), score ? el("span", { class: "result-score" }, " · " + score) : null)];
  };

  // -- speech: kid mode says the next step aloud --

  P.speak = function (view) {
    const out = view.outcome || {};
    const text = !view.game ? "" : out.status && out.status !== "playing" ? out.status + " " + (out.reason || "")
      : view.read_waits || (view.expect && view.expect.prompt) || "";   // as web/speech.py says it
    C.say(text);
  };

  // -- the table's fit: nothing scrolls, nothing is cut; what does not fit is left to the phones ----

  function overflows(box) {
    return box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1;
  }

  // What was left out is still counted where it was: a tally (data-tally="k") says "+2 more" for
  // the dropped parts marked data-tallied="k" in its box (a team's characters, a zone's villains),
  // or "4 X-Men" (its data-all) when none of them is left
  function tally(box) {
    for (const t of box.querySelectorAll("[data-tally]")) {
      let n = 0, of = 0;
      for (const node of box.querySelectorAll("[data-tallied]")) {
        if (node.dataset.tallied !== t.dataset.tally) continue;
        of++;
        if (node.classList.contains("dropped")) n++;
      }
      t.textContent = n === of && t.dataset.all ? n + " " + t.dataset.all : "+" + n + " more";
      t.hidden = !n;
    }
  }

  P.fit = function () {
    if (!table) return;
    for (const node of document.querySelectorAll(".dropped")) node.classList.remove("dropped");
    // the next step: the fewest lines it takes at 1.6 to 2rem (32 to 40px at 800x480), then the
    // largest size giving that many; never more than a quarter of the screen unless at 1.6rem
    const next = C.$("banner");
    const text = next.querySelector(".next-text") || next;
    let best = null;
    for (let size = 2.0; size > 1.59; size -= 0.1) {
      next.style.fontSize = size.toFixed(2) + "rem";
      const rows = Math.round(text.offsetHeight / (parseFloat(getComputedStyle(text).lineHeight) || 1));
      const fits = next.offsetHeight <= window.innerHeight * 0.25;
      // fewer rows wins; at as many rows, the largest size that fits, else the smallest size
      if (!best || rows < best.rows || (rows === best.rows && !best.fits)) best = { size, rows, fits };
    }
    next.style.fontSize = best.size.toFixed(2) + "rem";
    // a picture whose labels would come out under 1rem is left to the phones (its legend stays)
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    for (const svg of document.querySelectorAll(".tv svg[data-label]")) {
      const scale = svg.getBoundingClientRect().height / svg.viewBox.baseVal.height;
      if (Number(svg.dataset.label) * scale < rem - 0.01) svg.classList.add("dropped");
    }
    for (const name of document.querySelectorAll(".shrink")) name.style.fontSize = "";
    // a row of boxes one of whose names does not fit whole at the table's size takes the fewer
    // columns its data-narrow gives (two rows), before any name is drawn smaller
    for (const grid of document.querySelectorAll("[data-narrow]")) {
      grid.style.gridTemplateColumns = grid.dataset.columns || "";
      if ([...grid.querySelectorAll(".shrink")].some((name) => name.scrollWidth > name.clientWidth)) {
        grid.style.gridTemplateColumns = grid.dataset.narrow;
      }
    }
    // a name a word of which is wider than its box is drawn smaller (to 70%), never broken
    for (const name of document.querySelectorAll(".shrink")) {
      for (let k = 0.9; k > 0.65 && overflows(name); k -= 0.1) name.style.fontSize = k.toFixed(1) + "em";
    }
    for (const box of document.querySelectorAll("[data-fit]")) {
      const dropped = [];
      tally(box);
      for (let guard = 0; guard < 200 && overflows(box); guard++) {
        let pick = null;
        for (const node of box.querySelectorAll("[data-drop]:not(.dropped)")) {
          if (node.offsetParent === null && node.getClientRects().length === 0) continue;
          if (!pick || Number(node.dataset.drop) >= Number(pick.dataset.drop)) pick = node;
        }
        if (!pick) break;
        pick.classList.add("dropped");
        dropped.push(pick);
        tally(box);
      }
      // dropping a big part may have made room for smaller, less needed ones: put back what fits,
      // the most needed first; among parts of one rank the page's order is the need, so once one
      // stays out, the rest of its rank do too (they would show in its place); and a counted part
      // (data-tallied) stays out behind a more needed one of its count that did (a hero who is
      // done came back on a crowded table where a hero still playing could not)
      const out = new Set();
      for (const node of dropped.reverse()) {
        if (out.has(node.dataset.drop) || out.has("tallied " + node.dataset.tallied)) continue;
        node.classList.remove("dropped");
        tally(box);
        if (overflows(box)) {
          node.classList.add("dropped");
          tally(box);
          out.add(node.dataset.drop);
          if (node.dataset.tallied) out.add("tallied " + node.dataset.tallied);
        }
      }
    }
    document.body.dataset.fitted = (Number(document.body.dataset.fitted) || 0) + 1;
  };
})();
