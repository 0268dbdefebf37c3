// The Incredibles table page: renders whatever state the server sends; the Pi is the only
// authority, so the page never changes its own copy of the game, it only asks the server.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const POWER = { strength: "■", defense: "▲", agility: "●", speed: "◆", wild: "★" };
  let components = null;
  let view = null;

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") node.addEventListener("click", v);
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  function power(p) {
    return el("span", { class: "power p-" + p }, (POWER[p] || "") + " " + p[0].toUpperCase() + p.slice(1));
  }

  async function post(url, body, method) {
    $("error").textContent = "";
    const res = await fetch(url, {
      method: method || "POST",
      headers: { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({ error: "the server sent no answer" }));
    if (!res.ok) $("error").textContent = data.error || "refused";
    else render(data);
    return res.ok;
  }

  function act(type, data) {
    return post("/api/actions", { type, player: view.expect.player, data: data || {}, source: "dashboard" });
  }

  function renderSetup() {
    $("setup").hidden = false;
    $("game").hidden = true;
    const picks = $("hero-picks");
    if (picks.childElementCount) return;
    for (const hero of components.heroes) {
      picks.append(el("li", {}, el("label", { class: "check" },
        el("input", { type: "checkbox", name: "hero", value: hero.id }), " ", hero.name, " ", power(hero.power),
        el("input", { name: "name-" + hero.id, placeholder: "player's name", size: 10, "aria-label": hero.name + " player's name" }))));
    }
  }

  function renderTrack(state) {
    const track = $("track");
    track.replaceChildren();
    for (let i = 0; i < components.track_spaces; i++) {
      const slot = state.track[i];
      track.append(el("li", { class: "slot " + (slot ? (slot.face_up ? "up" : "down") : "empty") },
        slot ? el("span", {}, el("b", {}, slot.tile), " ", slot.face_up ? power(slot.power) : "fixed") : "—"));
    }
    const late = state.too_late;
    track.append(el("li", { class: "slot late" + (late ? " up" : "") }, "Too Late!", late ? " " + late.tile : ""));
  }

  function boardLayout() {
    const pos = {};
    const ring = components.board.numbered;
    ring.forEach((s, i) => {
      const a = (i / ring.length) * 2 * Math.PI - Math.PI / 2;
      pos[s] = [Math.cos(a) * 80, Math.sin(a) * 80];
    });
    pos[components.board.start] = [0, 0];
    for (const tile of Object.keys(components.board.tiles)) {
      const next = components.board.adjacency[tile].find((s) => pos[s] && s !== components.board.start);
      const [x, y] = next ? pos[next] : [0, 0];
      pos[tile] = [x * 1.32, y * 1.32];
    }
    return pos;
  }

  function renderBoard(state) {
    const svg = $("board");
    const ns = "http://www.w3.org/2000/svg";
    const pos = boardLayout();
    const make = (tag, attrs, text) => {
      const n = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      if (text !== undefined) n.textContent = text;
      svg.append(n);
      return n;
    };
    svg.replaceChildren();
    const adj = components.board.adjacency;
    for (const a of Object.keys(adj)) for (const b of adj[a]) if (a < b)
      make("line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], class: "road" });
    const reach = new Set((view.expect && view.expect.reachable) || []);
    for (const [space, [x, y]] of Object.entries(pos)) {
      const tile = components.board.tiles[space];
      const classes = ["space"];
      if (tile) classes.push(state.tiles[space] === "problem" ? "problem" : "safe");
      if (state.rubble.includes(space)) classes.push("rubble");
      if (reach.has(space)) classes.push("reach");
      const g = make("g", { class: classes.join(" "), "data-space": space });
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", space === "start" ? 14 : 10);
      g.append(c);
      const t = document.createElementNS(ns, "text");
      t.setAttribute("x", x); t.setAttribute("y", y + 3.5);
      t.textContent = space === "start" ? "Start" : space;
      g.append(t);
      if (reach.has(space)) g.addEventListener("click", () => act("move", { to: space }));
    }
    if (state.jackjack) {
      const [x, y] = pos[state.jackjack];
      make("text", { x: x, y: y - 12, class: "jj" }, "Jack-Jack");
    }
    state.movers.forEach((m, i) => {
      const [x, y] = pos[m.space];
      make("circle", { cx: x - 8 + i * 5, cy: y + 12, r: 3.5, class: "mover m" + i });
    });
  }

  function faceButtons(faces, onPick, labeller) {
    const box = el("div", { class: "faces" });
    for (const f of faces) box.append(el("button", { type: "button", class: "big", onclick: () => onPick(f) }, labeller ? labeller(f) : f));
    return box;
  }

  function renderControls(state, expect) {
    const box = $("controls");
    box.replaceChildren();
    if (!expect || !expect.actions || !expect.actions.length) return;
    box.append(el("p", { class: "prompt" }, expect.prompt));
    if (expect.phase === "roll") {
      box.append(el("p", {}, "Which face did the Movement Die show?"));
      box.append(faceButtons(expect.dice[0].faces, (f) => act("roll", { face: f })));
      box.append(el("button", { type: "button", onclick: () => act("roll") }, "Roll it for me"));
    } else if (expect.phase === "move") {
      box.append(el("p", {}, "Tap where your mover ends (or a space on the board):"));
      box.append(faceButtons(expect.reachable, (s) => act("move", { to: s }), (s) =>
        s === state.movers[state.turn].space ? "Stay (" + s + ")" : s));
    } else if (expect.phase === "fix") {
      const picked = { power: null, jackjack: null };
      const powerDie = expect.dice[0];
      box.append(el("p", {}, "Your Power Die shows:"));
      const send = () => {
        const data = { power: picked.power };
        if (picked.jackjack) data.jackjack = picked.jackjack;
        act("fix", data);
      };
      const jj = expect.dice[1];
      box.append(faceButtons(powerDie.faces, (f) => { picked.power = f; if (!jj) send(); else $("fix-send").disabled = false; }, (f) => power(f)));
      if (jj) {
        box.append(el("p", {}, "Jack-Jack Die (optional):"));
        box.append(faceButtons(jj.faces, (f) => { picked.jackjack = f; }, (f) => power(f)));
        box.append(el("button", { type: "button", id: "fix-send", class: "big", disabled: true, onclick: send }, "Try to fix"));
      }
      box.append(el("button", { type: "button", onclick: () => act("fix") }, "Roll them for me"));
    } else if (expect.phase === "choose") {
      const key = expect.pending.kind === "displace" ? "space" : "tile";
      box.append(faceButtons(expect.pending.options, (o) =>
        post("/api/actions", { type: "choose", data: { [key]: o }, source: "dashboard" })));
    }
  }

  function render(next) {
    if (view && next.seq < view.seq) return;  // never step back to an older state
    view = next;
    $("link").dataset.seq = next.seq;
    if (!next.game) { renderSetup(); return; }
    const state = next.state;
    $("setup").hidden = true;
    $("game").hidden = false;
    $("title").textContent = next.title;
    const out = next.outcome;
    const banner = $("banner");
    banner.className = "banner " + out.status;
    banner.textContent = out.status === "won" ? "You saved the city! Everyone wins." :
      out.status === "lost" ? "Too late: " + out.reason + "." : next.expect.prompt;
    renderTrack(state);
    $("deck-count").textContent = state.deck_count;
    $("jackjack").textContent = state.jackjack ? "on space " + state.jackjack : "rescued";
    $("rubble").textContent = state.rubble.length ? state.rubble.join(", ") : "none";
    const card = state.last_card_info;
    $("last-card").replaceChildren(card ? el("span", {}, "Last card: ", el("b", {}, card.title)) : "");
    $("movers").replaceChildren(...state.movers.map((m, i) => el("li", { class: i === state.turn ? "turn" : "" },
      el("span", { class: "mover-dot m" + i }, ""), m.name + (m.name !== heroName(m.hero) ? " (" + heroName(m.hero) + ")" : ""),
      " — space " + m.space, i === state.turn ? " ◀ turn" : "")));
    renderBoard(state);
    renderControls(state, next.expect);
    $("reminders").replaceChildren(...next.reminders.map((r) => el("li", {}, r.text, " ", el("small", {}, "(" + r.rule + ")"))));
    $("log").replaceChildren(...state.log.slice().reverse().map((line) => el("li", {}, line)));
    const undo = $("undo");
    undo.hidden = !next.undo;
    if (next.undo) undo.textContent = "Undo " + describe(next.undo.action);
  }

  function heroName(id) {
    const hero = components.heroes.find((h) => h.id === id);
    return hero ? hero.name : id;
  }

  function describe(action) {
    const d = action.data || {};
    const detail = Object.values(d).join(" ");
    return action.type + (detail ? " " + detail : "");
  }

  function connect() {
    const source = new EventSource("/api/events");
    source.addEventListener("state", (e) => { $("link").textContent = "live"; $("link").className = "link live"; render(JSON.parse(e.data)); });
    source.onerror = () => { $("link").textContent = "reconnecting…"; $("link").className = "link lost"; };
  }

  $("undo").addEventListener("click", () => post("/api/actions", { type: "undo", source: "dashboard" }));
  $("new-game").addEventListener("click", () => {
    if (confirm("Put this game away and start a new one? It stays in the history.")) {
      $("game").hidden = true; renderSetup();
    }
  });
  $("setup-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = new FormData(e.target);
    const players = form.getAll("hero").map((id) => {
      const name = (form.get("name-" + id) || "").trim();
      return name ? { hero: id, name } : id;
    });
    const body = { game: "incredibles", players };
    if (form.get("seed")) body.seed = Number(form.get("seed"));
    post("/api/session", body);
  });

  fetch("/api/games/incredibles").then((r) => r.json()).then((data) => {
    components = data.components;
    connect();
  });
})();
