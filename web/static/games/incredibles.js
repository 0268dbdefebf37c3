// The Incredibles: the board and Problem Track, and one-tap controls for each phase of a turn.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const POWER = { strength: "■", defense: "▲", agility: "●", speed: "◆", wild: "★" };
  const FACE = { alarm: "⚠ Alarm" };
  const comps = () => (C.info.incredibles || {}).components || {};

  function power(p) {
    if (!p) return el("span", {}, "—");
    return el("span", { class: "power p-" + p }, el("span", { "aria-hidden": "true" }, POWER[p] || ""), " " + C.human(p));
  }

  function heroName(id) {
    const hero = (comps().heroes || []).find((h) => h.id === id);
    return hero ? hero.name : id;
  }

  function track(state) {
    const spaces = comps().track_spaces || state.track.length;
    const list = el("ol", { class: "track", "aria-label": "Problem Track" });
    for (let i = 0; i < spaces; i++) {
      const slot = state.track[i];
      list.append(el("li", { class: "slot " + (slot ? (slot.face_up ? "up" : "down") : "empty") },
        slot ? el("span", {}, el("b", {}, slot.tile), " ", slot.face_up ? power(slot.power) : "✔ fixed") : "— empty"));
    }
    const late = state.too_late;
    list.append(el("li", { class: "slot late" + (late ? " up" : "") }, "◔ Too Late!", late ? " " + late.tile : ""));
    return list;
  }

  function layout(board) {
    const pos = {};
    board.numbered.forEach((s, i) => {
      const a = (i / board.numbered.length) * 2 * Math.PI - Math.PI / 2;
      pos[s] = [Math.cos(a) * 80, Math.sin(a) * 80];
    });
    pos[board.start] = [0, 0];
    for (const tile of Object.keys(board.tiles)) {
      const next = board.adjacency[tile].find((s) => pos[s] && s !== board.start);
      const [x, y] = next ? pos[next] : [0, 0];
      pos[tile] = [x * 1.3, y * 1.3];
    }
    return pos;
  }

  function svgBoard(view, phone) {
    const board = comps().board;
    const state = view.state;
    if (!board) return null;
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "-122 -122 244 244");
    svg.setAttribute("class", "board-svg");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Board: " + state.movers.map((m) => m.name + " on " + m.space).join(", ") +
      (state.jackjack ? "; Jack-Jack on " + state.jackjack : "") + (state.rubble.length ? "; rubble on " + state.rubble.join(", ") : ""));
    const make = (parent, tag, attrs, text) => {
      const n = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      if (text !== undefined) n.textContent = text;
      parent.append(n);
      return n;
    };
    const pos = layout(board);
    for (const a of Object.keys(board.adjacency)) for (const b of board.adjacency[a]) if (a < b)
      make(svg, "line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], class: "road" });
    const reach = new Set((phone && view.expect && view.expect.reachable) || []);
    for (const [space, [x, y]] of Object.entries(pos)) {
      const classes = ["space"];
      if (board.tiles[space]) classes.push(state.tiles[space] === "problem" ? "problem" : "safe");
      if (state.rubble.includes(space)) classes.push("rubble");
      if (reach.has(space)) classes.push("reach");
      const g = make(svg, "g", { class: classes.join(" "), "data-space": space });
      make(g, "circle", { cx: x, cy: y, r: space === board.start ? 14 : 10 });
      const mark = state.rubble.includes(space) ? "✖" : board.tiles[space] && state.tiles[space] === "problem" ? "!" : "";
      make(g, "text", { x, y: y + (space === board.start ? -3 : 1.5) }, (space === board.start ? "Start" : space) + mark);
      if (reach.has(space)) g.addEventListener("click", () => C.act("move", { to: space }));
    }
    if (state.jackjack) {
      const [x, y] = pos[state.jackjack];
      make(svg, "text", { x, y: y - 12.5, class: "jj" }, "☺ Jack-Jack");
    }
    const crowd = {};
    state.movers.forEach((m) => { crowd[m.space] = (crowd[m.space] || 0) + 1; });
    const placed = {};
    state.movers.forEach((m, i) => {
      // the movers sit inside their space's circle, side by side, numbered in play order
      const [x, y] = pos[m.space];
      const k = (placed[m.space] = (placed[m.space] || 0) + 1) - 1;
      const cx = x + (k - (crowd[m.space] - 1) / 2) * 6.4;
      make(svg, "circle", { cx, cy: y + 5.5, r: 3.2, class: "mover m" + i });
      make(svg, "text", { x: cx, y: y + 7.1, class: "mover-n" }, String(i + 1));
    });
    return svg;
  }

  function faceButtons(faces, onPick, label, prefix) {
    const box = el("div", { class: "faces" });
    for (const f of faces) box.append(el("button", { type: "button", class: "big face", "data-key": prefix + f, onclick: () => onPick(f) }, label ? label(f) : f));
    return box;
  }

  C.register("incredibles", {
    icon: "★",
    handles: ["roll", "move", "fix", "choose"],

    board(view, phone) {
      const state = view.state;
      const movers = el("ol", { class: "movers" }, state.movers.map((m, i) =>
        el("li", { class: i === state.turn ? "turn" : "" },
          el("span", { class: "mover-dot m" + i, "aria-hidden": "true" }, String(i + 1)),
          " " + m.name + (m.name !== heroName(m.hero) ? " (" + heroName(m.hero) + ")" : ""),
          " — space " + m.space, i === state.turn ? el("b", {}, " ◀ turn") : "")));
      const facts = el("div", { class: "row facts" },
        el("div", { class: "stat" }, el("span", { class: "label" }, "☺ Jack-Jack"), " ", el("b", {}, state.jackjack ? "on space " + state.jackjack : "✔ rescued")),
        el("div", { class: "stat" }, el("span", { class: "label" }, "▦ Rubble"), " ", el("b", {}, state.rubble.length ? state.rubble.join(", ") : "none")),
        el("div", { class: "stat" }, el("span", { class: "label" }, "↻ Round"), " ", el("b", {}, state.round)));
      return el("div", { class: "incredibles" }, track(state), svgBoard(view, phone), movers, facts);
    },

    decks(view) {
      const s = view.state;
      const card = s.last_card_info;
      return el("div", { class: "deck-row" },
        el("div", { class: "stat" }, el("span", { class: "label" }, "🂠 Deck"), " ", el("b", { "data-deck": "deck" }, s.deck_count), " left"),
        el("div", { class: "stat" }, el("span", { class: "label" }, "▥ Discard"), " ", el("b", {}, s.discard.length)),
        el("div", { class: "last-card" + (card ? " " + card.kind : "") }, el("span", { class: "label" }, "Last card"),
          card ? el("b", {}, card.title) : el("b", { class: "none" }, "none yet"),
          card && card.power ? power(card.power) : null, card && card.space ? el("span", {}, " space " + card.space) : null));
    },

    lastRoll(view) {
      const s = view.state;
      const parts = [];
      if (s.roll) parts.push(el("p", { class: "roll" }, el("span", { class: "label" }, "Movement Die "), el("b", { class: "die-face" }, FACE[s.roll.face] || s.roll.face)));
      if (s.last_fix) {
        const f = s.last_fix;
        parts.push(el("p", { class: "roll" }, el("span", { class: "label" }, heroName(f.hero) + "'s Power Die "), power(f.power),
          f.jackjack ? el("span", {}, " + Jack-Jack ", power(f.jackjack)) : null,
          el("b", {}, f.fixed ? " ✔ fixed " + f.tile : " ✘ " + f.tile + " still needs " + C.human(f.needs))));
      }
      return parts.length ? el("div", {}, parts) : null;
    },

    describe(action) {
      const d = action.data || {};
      const who = action.player ? heroName(action.player) + ": " : "";
      if (action.type === "roll") return who + "roll " + (d.face ? (FACE[d.face] || d.face) : "(virtual die)");
      if (action.type === "move") return who + "move to " + d.to;
      if (action.type === "fix") return who + "fix with " + (d.power ? C.human(d.power) : "virtual dice") + (d.jackjack ? " + " + C.human(d.jackjack) : "");
      if (action.type === "choose") return "choose " + (d.space || d.tile);
      return null;
    },

    controls(view) {
      const expect = view.expect;
      const state = view.state;
      const box = el("div", { class: "inc-controls" });
      if (expect.phase === "roll") {
        box.append(el("p", { class: "prompt" }, "⚄ Which face did the Movement Die show?"));
        box.append(faceButtons(expect.dice[0].faces, (f) => C.act("roll", { face: f }), (f) => FACE[f] || f, "roll-"));
        box.append(C.button("⚄", "Roll it for me", () => C.act("roll"), { "data-key": "roll-virtual" }));
      } else if (expect.phase === "move") {
        box.append(el("p", { class: "prompt" }, "➜ Tap where your mover ends:"));
        const here = state.movers[state.turn].space;
        box.append(faceButtons(expect.reachable, (s) => C.act("move", { to: s }), (s) => (s === here ? "Stay (" + s + ")" : s), "move-"));
      } else if (expect.phase === "fix") {
        const picked = { power: null, jackjack: null };
        const jj = expect.dice[1];
        const send = el("button", { type: "button", class: "big", disabled: true, "data-key": "fix-send",
          onclick: () => C.act("fix", picked.jackjack ? { power: picked.power, jackjack: picked.jackjack } : { power: picked.power }) }, "⚒ Try to fix");
        const mark = (group, f) => {
          for (const b of group.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.key.endsWith("-" + f)));
        };
        box.append(el("p", { class: "prompt" }, "⚒ Problem " + expect.problem.tile + " needs ", power(expect.problem.power), ". Your Power Die shows:"));
        const powers = faceButtons(expect.dice[0].faces, (f) => {
          picked.power = f;
          mark(powers, f);
          if (!jj) C.act("fix", { power: f }); else send.disabled = false;
        }, power, "power-");
        box.append(powers);
        if (jj) {
          box.append(el("p", {}, "☺ Jack-Jack Die (optional):"));
          const jjs = faceButtons(jj.faces, (f) => { picked.jackjack = f; mark(jjs, f); }, power, "jj-");
          box.append(jjs, send);
        }
        box.append(C.button("⚄", "Roll them for me", () => C.act("fix"), { "data-key": "fix-virtual" }));
      } else if (expect.phase === "choose") {
        const key = expect.pending.kind === "displace" ? "space" : "tile";
        box.append(el("p", { class: "prompt" }, "☞ " + expect.prompt));
        box.append(faceButtons(expect.pending.options, (o) => C.act("choose", { [key]: o }, null), null, "choose-"));
      }
      return box;
    },

    // Setup: heroes in play order (youngest first), names, and shuffled or fixed-order cards.
    setupForm(components) {
      const box = el("div", { class: "inc-setup" });
      const list = el("ol", { class: "hero-picks" });
      for (const hero of components.heroes || []) {
        list.append(el("li", {}, el("label", { class: "check" },
          el("input", { type: "checkbox", name: "hero", value: hero.id }), " " + hero.name + " ", power(hero.power)),
        el("input", { name: "name-" + hero.id, placeholder: "player's name", size: 10, "aria-label": hero.name + ": player's name" })));
      }
      const order = el("fieldset", {}, el("legend", {}, "Cards"),
        el("label", { class: "check" }, el("input", { type: "radio", name: "order", value: "shuffled", checked: true }), " ⇄ Shuffled (normal game)"),
        el("label", { class: "check" }, el("input", { type: "radio", name: "order", value: "fixed" }), " ☰ Fixed order (the component list's order: problems A, B, C first; for learning or a replay)"));
      box.append(el("fieldset", {}, el("legend", {}, "Heroes, youngest player first (tick them in playing order)"), list), order);
      const ticked = [];
      list.addEventListener("change", (e) => {
        if (e.target.name !== "hero") return;
        const i = ticked.indexOf(e.target.value);
        if (e.target.checked && i < 0) ticked.push(e.target.value);
        if (!e.target.checked && i >= 0) ticked.splice(i, 1);
      });
      return {
        node: box,
        options() {
          const players = ticked.map((id) => {
            const name = (box.querySelector('[name="name-' + id + '"]').value || "").trim();
            return name ? { hero: id, name } : id;
          });
          const out = { players };
          if (box.querySelector('[name="order"]:checked').value === "fixed") {
            const cards = (components.cards || []).map((c) => c.id);
            const problems = (components.cards || []).filter((c) => c.kind === "problem").map((c) => c.id);
            out.starting_problems = problems.slice(0, components.track_spaces || 3);
            out.deck = cards.filter((c) => !out.starting_problems.includes(c));
          }
          return out;
        },
      };
    },
  });
})();
