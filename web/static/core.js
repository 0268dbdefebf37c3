// The shared core of every view: building DOM, icons, talking to the API, the server clock,
// notices, sound and speech, and the registry each game's renderer joins. The Pi is the only
// authority: a page never changes its own copy of the game, it asks the server and shows what
// the server answers.
"use strict";
(function () {
  const NS = "http://www.w3.org/2000/svg";
  const C = (window.Companion = {
    games: {},          // name -> renderer {board, table, decks, lastRoll, face, controls, setupForm}
    view: null,         // the newest state seen (never an older seq)
    offset: 0,          // server clock minus this browser's clock, in seconds
    access: null,
    info: {},           // game name -> GET /api/games/<name> (titles, action descriptions)
    page: document.body.dataset.view,
    pageId: Math.random().toString(36).slice(2, 12),  // names this page's own refusals
    ICONS: document.body.dataset.icons,
    $: (id) => document.getElementById(id),
  });

  C.el = function (tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") node.addEventListener("click", v);
      else if (k === "onchange") node.addEventListener("change", v);
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  };

  // An icon from the shipped sprite (web/static/icons.svg): never an emoji, which Debian's fonts
  // draw as empty boxes. Always beside a word, never alone.
  C.icon = function (name, cls) {
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("class", "icon" + (cls ? " " + cls : ""));
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(NS, "use");
    use.setAttribute("href", C.ICONS + "#" + name);
    svg.append(use);
    return svg;
  };
  // A label: an icon and its words.
  C.tag = (name, ...words) => C.el("span", { class: "tag" }, name ? C.icon(name) : null, ...words);

  // A button with an icon and a word: never an icon alone, never colour alone.
  C.button = function (icon, word, onclick, attrs) {
    return C.el("button", Object.assign({ type: "button", onclick }, attrs || {}),
      icon ? C.icon(icon) : null, C.el("span", { class: "word" }, word));
  };

  // Each name's mark on a track too small for names: its shortest start no other name begins
  // with (case aside), so "Ana" and "Alex" read "An" and "Al", never both "A".
  C.initials = function (names) {
    const chars = names.map((n) => Array.from(String(n)));
    const low = chars.map((c) => c.join("").toLowerCase());
    const out = {};
    chars.forEach((c, i) => {
      let k = 1;
      while (k < c.length && low.some((o, j) => j !== i && o.startsWith(c.slice(0, k).join("").toLowerCase()))) k++;
      out[names[i]] = c.slice(0, k).join("");
    });
    return out;
  };

  C.register = function (name, renderer) { C.games[name] = renderer; };
  // ?renderer=generic shows any game as a new engine would look before it has a renderer.
  const forced = new URLSearchParams(location.search).get("renderer");
  C.renderer = (game) => C.games[forced || game] || C.games.generic;
  // A setup list ticked in playing order: each ticked choice says its place ("plays 2nd"), as a
  // list's own numbers (its printed order) did not
  C.playOrder = function (list, name, ticked) {
    const nth = (n) => n + (["th", "st", "nd", "rd"][n] || "th");
    for (const box of list.querySelectorAll('input[name="' + name + '"]')) {
      const label = box.closest("label");
      const tag = label.querySelector(".play-order") || label.appendChild(C.el("b", { class: "play-order" }));
      const i = ticked.indexOf(box.value);
      tag.textContent = i < 0 ? "" : " plays " + nth(i + 1);
    }
  };

  C.human = (key) => String(key).replace(/[_.-]+/g, " ").replace(/^./, (c) => c.toUpperCase());
  // A die face as the game names and draws it: {icon, word} from the game's renderer.
  C.face = function (game, face, die) {
    const r = C.renderer(game);
    return (r.face && r.face(face, die)) || { icon: null, word: C.human(face) };
  };
  C.faceTag = (game, face, die) => { const f = C.face(game, face, die); return C.tag(f.icon, f.word); };

  // -- the API --

  C.api = async function (method, url, body) {
    const opts = { method, headers: { "X-Companion": "1", "X-Companion-Page": C.pageId }, credentials: "same-origin" };
    if (body !== undefined) {
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let res;
    try {
      res = await fetch(url, opts);
    } catch (err) {
      return { ok: false, status: 0, data: { error: "cannot reach the table: " + err.message } };
    }
    const data = await res.json().catch(() => ({ error: "the server sent no answer" }));
    return { ok: res.ok, status: res.status, data };
  };

  // A notice pinned to the viewport, where the player who tapped sees it whatever they scrolled.
  C.notice = function (text, kind, rule) {
    const box = C.$("notice");
    if (!box) return;
    delete box.dataset.refusalSeq;          // set by live.js for a refusal, which a change clears
    box.hidden = !text;
    box.className = "notice " + (kind || "");
    box.replaceChildren(...(text ? [C.icon(kind === "ok" ? "check" : "warn"),
      C.el("span", { class: "notice-text" }, text, rule ? C.el("small", {}, " (rule: " + rule + ")") : null),
      C.button("cross", "OK", () => { box.hidden = true; }, { class: "small" })] : []));
    document.body.dataset.notices = (Number(document.body.dataset.notices) || 0) + (text ? 1 : 0);
    clearTimeout(C._noticeTimer);
    if (text) C._noticeTimer = setTimeout(() => { box.hidden = true; }, 12000);
  };

  // A half-made choice (the cubes or dice tapped so far, the characters ticked), kept by its
  // control's key across redraws: another phone's move redraws every control, and the picks
  // must survive it. A draft not drawn by the latest redraw is gone with its control.
  const drafts = new Map();
  let drawn = null;
  C.draft = function (key, fresh) {
    if (drawn) drawn.add(key);
    if (!drafts.has(key)) drafts.set(key, Object.assign({ picks: [], show() {} }, fresh));
    return drafts.get(key);
  };
  C.drawingDrafts = function (starting) {
    if (starting) drawn = new Set();
    else if (drawn) { for (const key of [...drafts.keys()]) if (!drawn.has(key)) drafts.delete(key); drawn = null; }
  };
  // The picks go with the tap and the picker is empty for the state it brings; a tap not done
  // (refused, or the table changed first) puts them back to send again.
  C.sendDraft = async function (draft, send) {
    const picks = draft.picks.splice(0);
    const res = await send(picks);
    if (!res.ok && !draft.picks.length) { draft.picks.push(...picks); draft.show(); }
    return res;
  };

  // A refusal's line under the controls belongs to the state it was refused in: the next state
  // clears it (left, it read as news of whatever tap came after).
  C.showError = function (text) {
    const box = C.$("error");
    if (box) box.textContent = text || "";
    C._errorSeq = text && C.view ? C.view.seq : null;
  };

  // Every change from this page goes through here: with the seq we last saw, so two phones
  // acting on the same state get a clear answer each (409: the table changed, look again).
  C.act = async function (type, data, player) {
    const v = C.view;
    const body = { type, data: data || {}, source: "dashboard" };
    const who = player === undefined ? v && v.expect && v.expect.player : player;
    if (who) body.player = who;
    // the state the controls were drawn from, not the newest received: a tap on a button drawn
    // for the state before, in the moment before the redraw, is made against that state
    const seen = C.drawnSeq !== undefined && C.drawnSeq !== null ? C.drawnSeq : v && v.seq;
    if (seen !== undefined && seen !== null) body.if_seq = seen;
    return C.send("POST", "/api/actions", body);
  };

  C.send = async function (method, url, body) {
    C.showError("");
    const res = await C.api(method, url, body);
    if (res.ok) {
      if (res.data && typeof res.data.seq === "number") C.receive(res.data);
      return res;
    }
    if (res.status === 409 && /changed/.test(res.data.error || "")) {
      const fresh = await C.api("GET", "/api/state");
      if (fresh.ok) C.receive(fresh.data);
      C.notice("The table changed before your tap arrived: nothing was done. Look again and retry.", "changed");
      C.showError("The table changed: look again.");
    } else if (res.status === 401 || res.status === 403) {
      C.showError(res.data.error);
      if (res.data.need === "join_code") C.askToJoin(res.data.error);
    } else {
      C.showError(res.data.error + (res.data.rule ? " (rule: " + res.data.rule + ")" : ""));
      C.notice("Not done: " + res.data.error, "refused", res.data.rule);
    }
    return res;
  };

  // -- the state --

  C.listeners = [];
  C.onView = (fn) => C.listeners.push(fn);

  C.receive = function (view) {
    if (!view || typeof view.seq !== "number") return;
    if (C.view && view.seq < C.view.seq) return;  // never step back to an older state
    // (the notices too: start-up's and the ticker's come, and go when read, at the same seq)
    const same = C.view && view.seq === C.view.seq && view.game === C.view.game &&
      JSON.stringify(view.dice_read) === JSON.stringify(C.view.dice_read) &&
      JSON.stringify(view.notices) === JSON.stringify(C.view.notices);
    C.offset = view.now - Date.now() / 1000;
    C.view = view;
    // The same seq again (our own POST's answer, then the stream's echo of it): nothing changed
    // but the clock, so redrawing would only pull buttons from under a finger mid-tap.
    if (same) return;
    if (C._errorSeq !== null && C._errorSeq !== undefined && view.seq > C._errorSeq) C.showError("");
    document.body.dataset.seq = view.seq;
    // Draw once per burst: states arriving faster than the page can draw are folded into the
    // newest (each is whole, so nothing is lost by skipping the ones in between).
    if (C._drawPending) return;
    C._drawPending = true;
    setTimeout(async () => {
      await C.needRenderer(C.view.game);
      C._drawPending = false;
      for (const fn of C.listeners) {
        try { fn(C.view); } catch (err) { console.error(err); }
      }
    }, 0);
  };

  // The table, play and setup pages fetch a game's renderer when its first view comes or the
  // game is picked (their body's data-renderers names those the server has); other pages load
  // theirs with the page.
  const lazy = (document.body.dataset.renderers || "").split(" ");
  C.needRenderer = (game) => (game && !C.games[game] && lazy.includes(game) ? C.need("games/" + game) : null);
  C.hasRenderer = (game) => !!C.games[game] || lazy.includes(game);

  C.serverNow = () => Date.now() / 1000 + C.offset;

  // A script only some moments need (reads.js: a camera read waiting for a tap), fetched the
  // first time one comes, so no page's first load carries it; resolves even when the fetch
  // fails (the page says less, and the next render asks again).
  const scripts = {};
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  C.need = (name) => scripts[name] || (scripts[name] = new Promise((done) => {
    const tag = C.el("script", { src: here + name + ".js" });
    tag.onload = done;
    tag.onerror = () => { delete scripts[name]; tag.remove(); done(); };
    document.head.append(tag);
  }));

  C.gameInfo = async function (name) {
    if (!name) return null;
    if (!C.info[name]) {
      const res = await C.api("GET", "/api/games/" + encodeURIComponent(name));
      C.info[name] = res.ok ? res.data : { name, actions: {}, components: {} };
    }
    return C.info[name];
  };

  // -- joining --

  C.loadAccess = async function () {
    const url = new URL(location.href);
    const code = url.searchParams.get("code");
    if (code) {
      await C.api("POST", "/api/join", { code });
      url.searchParams.delete("code");
      history.replaceState(null, "", url.pathname + url.search + url.hash);
    }
    const res = await C.api("GET", "/api/access");
    C.access = res.ok ? res.data : { joined: false, settings: {} };
    document.body.classList.toggle("joined", !!C.access.joined);
    return C.access;
  };

  C.askToJoin = function (why) {
    const box = C.$("join");
    if (!box) return;
    box.hidden = false;
    if (why) C.$("join-why").textContent = why;
    C.$("join-code").focus();
  };

  function wireJoin() {
    const form = C.$("join-form");
    if (!form) return;
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const res = await C.api("POST", "/api/join", { code: C.$("join-code").value });
      if (!res.ok) {
        C.$("join-error").textContent = res.data.error;
        return;
      }
      C.$("join-error").textContent = "";
      C.$("join").hidden = true;
      await C.loadAccess();
      document.dispatchEvent(new Event("companion:joined"));
    });
  }

  // -- sound: generated here with Web Audio, no files; the header says what is really heard ------

  const store = {
    get: (k, d) => { try { const v = localStorage.getItem("companion." + k); return v === null ? d : v === "1"; } catch (e) { return d; } },
    set: (k, v) => { try { localStorage.setItem("companion." + k, v ? "1" : "0"); } catch (e) { /* private mode */ } },
  };
  C.store = store;
  // wanted: the player's choice; heard(): whether the browser lets us play now
  C.sound = { wanted: false, played: [], ctx: null };

  function context() {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    if (!C.sound.ctx) {
      C.sound.ctx = new AC();
      C.sound.ctx.addEventListener("statechange", showSound);
    }
    return C.sound.ctx;
  }
  C.heard = () => C.sound.wanted && !!C.sound.ctx && C.sound.ctx.state === "running";

  // What the sound button says: the truth, not the wish.
  function showSound() {
    const btn = C.$("sound-toggle");
    if (!btn) return;
    const ctx = C.sound.ctx;
    const state = !C.sound.wanted ? "off" : !ctx ? "none" : ctx.state === "running" ? "on" : "blocked";
    const words = { off: "Sound off", on: "Sound on", blocked: "Tap for sound", none: "No sound here" };
    btn.replaceChildren(C.icon(state === "on" ? "sound" : "mute"), C.el("span", { class: "word" }, words[state]));
    btn.setAttribute("aria-pressed", String(state === "on"));
    btn.dataset.sound = state;
    btn.classList.toggle("blocked", state === "blocked");
    if (state === "on") speakNow();
  }

  // Say the current next step now (kid mode just turned on, or sound just became possible).
  function speakNow() {
    if (C.view && C.panels && C.panels.speak) C.panels.speak(C.view);
  }

  // Made now, while the page loads: a browser that wants a tap first shows it as "suspended"
  // from the start, so the header can say so (and an automated browser's own calls cannot
  // quietly count as that tap).
  context();

  function unlock() {
    const ctx = C.sound.wanted && context();
    if (ctx && ctx.state === "suspended") ctx.resume().then(showSound, showSound);
  }
  // Browsers allow sound after the first tap or key on the page: any one will do.
  for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, unlock, { capture: true });

  C.beep = function (kind) {
    C.sound.played.push(kind);
    document.body.dataset.beeps = C.sound.played.length;
    if (!C.heard()) return;
    try {
      const ctx = C.sound.ctx;
      const gentle = document.body.classList.contains("kid");
      // Kid mode: a soft rising chime; otherwise three clear beeps. A warning is one short note.
      const notes = kind === "warning" ? (gentle ? [[587, 0.3]] : [[660, 0.15]])
        : gentle ? [[523, 0.25], [659, 0.25], [784, 0.45]] : [[880, 0.2], [880, 0.2], [880, 0.5]];
      let t = ctx.currentTime + 0.02;
      for (const [freq, len] of notes) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.type = gentle ? "sine" : "square";
        osc.frequency.value = freq;
        const peak = gentle ? 0.12 : 0.25;
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(peak, t + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + len);
        osc.connect(gain).connect(ctx.destination);
        osc.start(t);
        osc.stop(t + len + 0.05);
        t += len + 0.08;
      }
    } catch (err) { console.warn("sound failed", err); }
  };

  // -- speech: in kid mode the next step is said aloud, by the Pi (espeak-ng, offline) --

  C.speech = { said: 0, last: null, failed: null };
  C.say = function (text) {
    if (!text || text === C.speech.last || !document.body.classList.contains("kid") || !C.heard()) return;
    C.speech.last = text;
    const audio = new Audio("/api/speech/next.wav?t=" + Date.now());
    audio.addEventListener("playing", () => { C.speech.said += 1; document.body.dataset.spoken = C.speech.said; });
    audio.addEventListener("error", () => {
      // no espeak-ng on the Pi: a local browser voice, if this device has one
      const voices = window.speechSynthesis ? speechSynthesis.getVoices().filter((v) => v.localService) : [];
      if (voices.length) speechSynthesis.speak(Object.assign(new SpeechSynthesisUtterance(text), { voice: voices[0] }));
      C.speech.failed = voices.length ? null : "no voice: install espeak-ng on the Pi";
      document.body.dataset.speech = C.speech.failed || "browser";
    });
    audio.play().catch(() => { /* blocked until a tap: the sound button says so */ });
  };

  function toggle(id, key, fallback, apply, swallow) {
    const btn = C.$(id);
    if (!btn) return;
    let on = store.get(key + "." + C.page, fallback);
    const show = (tapped) => { btn.setAttribute("aria-pressed", String(on)); apply(on, tapped); };
    show(false);
    btn.addEventListener("click", () => {
      if (swallow && swallow()) return;
      on = !on;
      store.set(key + "." + C.page, on);
      show(true);
    });
  }

  C.setupToggles = function (settings) {
    const s = settings || {};
    const soundDefault = C.page === "table" ? s.table_sound !== false : !!s.phone_sound;
    toggle("sound-toggle", "sound", soundDefault, (on, tapped) => {
      C.sound.wanted = on;
      if (on) context();
      if (tapped) unlock();   // only a player's own tap may start sound, never the page itself
      showSound();
    }, () => {
      // "Tap for sound": this tap is the one the browser waited for; it turns sound on, not off
      if (C.$("sound-toggle").dataset.sound !== "blocked") return false;
      unlock();
      return true;
    });
    toggle("kid-toggle", "kid", !!s.kid_mode, (on) => {
      document.body.classList.toggle("kid", on);
      C.speech.last = null;
      if (on) speakNow();
    });
  };

  const menu = C.$("menu-toggle");
  if (menu) menu.addEventListener("click", () => {
    const open = menu.getAttribute("aria-expanded") !== "true";
    menu.setAttribute("aria-expanded", String(open));
    C.$("menu").classList.toggle("open", open);
  });
  for (const a of document.querySelectorAll("[data-nav]")) {
    if (a.dataset.nav === C.page) a.setAttribute("aria-current", "page");
  }
  wireJoin();
})();
