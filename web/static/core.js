// The shared core of every view: building DOM, talking to the API, the server clock, sound,
// and the registry each game's renderer joins. The Pi is the only authority: a page never
// changes its own copy of the game, it asks the server and shows what the server answers.
"use strict";
(function () {
  const C = (window.Companion = {
    games: {},          // name -> renderer {board, decks, lastRoll, controls, setupForm}
    view: null,         // the newest state seen (never an older seq)
    offset: 0,          // server clock minus this browser's clock, in seconds
    access: null,
    info: {},           // game name -> GET /api/games/<name> (titles, action descriptions)
    page: document.body.dataset.view,
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

  // A button with an icon and a word: never an icon alone, never colour alone.
  C.button = function (icon, word, onclick, attrs) {
    return C.el("button", Object.assign({ type: "button", onclick }, attrs || {}),
      icon ? C.el("span", { class: "icon", "aria-hidden": "true" }, icon) : null,
      C.el("span", { class: "word" }, word));
  };

  C.register = function (name, renderer) { C.games[name] = renderer; };
  // ?renderer=generic shows any game as a new engine would look before it has a renderer.
  const forced = new URLSearchParams(location.search).get("renderer");
  C.renderer = (game) => C.games[forced || game] || C.games.generic;
  C.human = (key) => String(key).replace(/[_.-]+/g, " ").replace(/^./, (c) => c.toUpperCase());

  // -- the API ------------------------------------------------------------------------------------

  C.api = async function (method, url, body) {
    const opts = { method, headers: { "X-Companion": "1" }, credentials: "same-origin" };
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

  C.notice = function (text, kind) {
    const box = C.$("notice");
    if (!box) return;
    box.hidden = !text;
    box.className = "notice " + (kind || "");
    box.replaceChildren(text ? C.el("span", {}, text) : "");
    clearTimeout(C._noticeTimer);
    if (text) C._noticeTimer = setTimeout(() => { box.hidden = true; }, 8000);
  };

  C.showError = function (text) {
    const box = C.$("error");
    if (box) box.textContent = text || "";
  };

  // Every change from this page goes through here: with the seq we last saw, so two phones
  // acting on the same state get a clear answer each (409: the table changed, look again).
  C.act = async function (type, data, player) {
    const v = C.view;
    const body = { type, data: data || {}, source: "dashboard" };
    const who = player === undefined ? v && v.expect && v.expect.player : player;
    if (who) body.player = who;
    if (v) body.if_seq = v.seq;
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
    }
    return res;
  };

  // -- the state ----------------------------------------------------------------------------------

  C.listeners = [];
  C.onView = (fn) => C.listeners.push(fn);

  C.receive = function (view) {
    if (!view || typeof view.seq !== "number") return;
    if (C.view && view.seq < C.view.seq) return;  // never step back to an older state
    const same = C.view && view.seq === C.view.seq && view.game === C.view.game &&
      JSON.stringify(view.dice_read) === JSON.stringify(C.view.dice_read);
    C.offset = view.now - Date.now() / 1000;
    C.view = view;
    // The same seq again (our own POST's answer, then the stream's echo of it): nothing changed
    // but the clock, so redrawing would only pull buttons from under a finger mid-tap.
    if (same) return;
    document.body.dataset.seq = view.seq;
    // Draw once per burst: states arriving faster than the page can draw are folded into the
    // newest (each is whole, so nothing is lost by skipping the ones in between).
    if (C._drawPending) return;
    C._drawPending = true;
    setTimeout(() => {
      C._drawPending = false;
      for (const fn of C.listeners) {
        try { fn(C.view); } catch (err) { console.error(err); }
      }
    }, 0);
  };

  C.serverNow = () => Date.now() / 1000 + C.offset;

  C.gameInfo = async function (name) {
    if (!name) return null;
    if (!C.info[name]) {
      const res = await C.api("GET", "/api/games/" + encodeURIComponent(name));
      C.info[name] = res.ok ? res.data : { name, actions: {}, components: {} };
    }
    return C.info[name];
  };

  // -- joining ------------------------------------------------------------------------------------

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

  // -- sound: generated here with Web Audio, no files -----------------------------------------------

  const store = {
    get: (k, d) => { try { const v = localStorage.getItem("companion." + k); return v === null ? d : v === "1"; } catch (e) { return d; } },
    set: (k, v) => { try { localStorage.setItem("companion." + k, v ? "1" : "0"); } catch (e) { /* private mode */ } },
  };
  C.store = store;
  C.sound = { enabled: false, played: [], ctx: null };

  C.beep = function (kind) {
    C.sound.played.push(kind);
    document.body.dataset.beeps = C.sound.played.length;
    if (!C.sound.enabled) return;
    try {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return;
      const ctx = C.sound.ctx || (C.sound.ctx = new AC());
      if (ctx.state === "suspended") ctx.resume();
      const gentle = document.body.classList.contains("kid");
      // Kid mode: a soft rising chime; otherwise three clear beeps. A warning is one short note.
      const notes = kind === "warning" ? [[660, 0.15]]
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

  function toggle(id, key, fallback, apply) {
    const btn = C.$(id);
    let on = store.get(key + "." + C.page, fallback);
    const show = () => { btn.setAttribute("aria-pressed", String(on)); apply(on, btn); };
    show();
    btn.addEventListener("click", () => { on = !on; store.set(key + "." + C.page, on); show(); });
  }

  C.setupToggles = function (settings) {
    const s = settings || {};
    const soundDefault = C.page === "table" ? s.table_sound !== false : !!s.phone_sound;
    toggle("sound-toggle", "sound", soundDefault, (on, btn) => {
      C.sound.enabled = on;
      btn.querySelector("[aria-hidden]").textContent = on ? "♫" : "⊘";
      btn.querySelector(".word").textContent = on ? "Sound on" : "Sound off";
      if (on && C.sound.ctx && C.sound.ctx.state === "suspended") C.sound.ctx.resume();
    });
    toggle("kid-toggle", "kid", !!s.kid_mode, (on) => document.body.classList.toggle("kid", on));
  };

  for (const a of document.querySelectorAll("[data-nav]")) {
    if (a.dataset.nav === C.page) a.setAttribute("aria-current", "page");
  }
  wireJoin();
})();
