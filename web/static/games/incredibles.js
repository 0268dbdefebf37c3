// The Incredibles: the board and Problem Track, and one-tap controls for each phase of a turn.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const comps = () => (C.info.incredibles || {}).components || {};
  // a space as the board prints it (the data's board.labels: "start" is "Start"); ids stay in actions
  const spaceName = (s) => ((comps().board || {}).labels || {})[s] || s;
  const NS = "http://www.w3.org/2000/svg";
  const LABEL = 22;  // the table board's label size, in board units (dashboard.css: .inc-tv text)

  function power(p) {
    if (!p) return el("span", {}, "none");
    return el("span", { class: "power p-" + p }, C.icon(p === "wild" ? "star" : p), C.human(p));
  }

  function heroName(id) {
    const hero = (comps().heroes || []).find((h) => h.id === id);
    return hero ? hero.name : id;
  }

  // Players are called by the names they gave (the mover's name), everywhere.
  function playerName(view, id) {
    const m = view && view.state && (view.state.movers || []).find((x) => x.hero === id || x.name === id);
    return m ? m.name : heroName(id);
  }

  function track(state, table) {
    const spaces = comps().track_spaces || state.track.length;
    const list = el("ol", { class: "track", "aria-label": "Problem Track" });
    for (let i = 0; i < spaces; i++) {
      const slot = state.track[i];
      list.append(el("li", { class: "slot " + (slot ? (slot.face_up ? "up" : "down") : "empty"), "data-slot": i },
        slot ? [el("b", {}, slot.tile, " ", slot.face_up ? el("span", { class: "p-" + slot.power }, C.icon(slot.power === "wild" ? "star" : slot.power)) : C.icon("check")),
          el("span", { class: "power p-" + slot.power }, slot.face_up ? C.human(slot.power) : "fixed")] : "empty"));
    }
    const late = state.too_late;
    list.append(el("li", { class: "slot late" + (late ? " up" : "") }, el("b", {}, "Too Late!"), late ? late.tile : table ? "clear" : ""));
    return list;
  }

  function layout(board, ring, out) {
    const pos = {};
    board.numbered.forEach((s, i) => {
      const a = (i / board.numbered.length) * 2 * Math.PI - Math.PI / 2;
      pos[s] = [Math.cos(a) * ring, Math.sin(a) * ring];
    });
    pos[board.start] = [0, 0];
    for (const tile of Object.keys(board.tiles)) {
      const next = board.adjacency[tile].find((s) => pos[s] && s !== board.start);
      const [x, y] = next ? pos[next] : [0, 0];
      pos[tile] = [x * out, y * out];
    }
    return pos;
  }

  // The board as a picture. The table's has big labels (at least 20px at 800x480); movers are
  // coloured rings round their space, Jack-Jack a dashed blue ring; the legend names them.
  function svgBoard(view, phone, big) {
    const board = comps().board;
    const state = view.state;
    if (!board) return null;
    const g = big ? { ring: 96, out: 1.36, r: 15, start: 18, half: 148 } : { ring: 80, out: 1.3, r: 10, start: 14, half: 122 };
    const svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", [-g.half, -g.half, 2 * g.half, 2 * g.half].join(" "));
    svg.setAttribute("class", "board-svg");
    if (big) svg.dataset.label = LABEL;  // the table's fit checks the labels come out >= 1rem
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Board: " + state.movers.map((m) => m.name + " on " + m.space).join(", ") +
      (state.jackjack ? "; Jack-Jack on " + state.jackjack : "") + (state.rubble.length ? "; rubble on " + state.rubble.join(", ") : ""));
    const make = (parent, tag, attrs, text) => {
      const n = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      if (text !== undefined) n.textContent = text;
      parent.append(n);
      return n;
    };
    const pos = layout(board, g.ring, g.out);
    for (const a of Object.keys(board.adjacency)) for (const b of board.adjacency[a]) if (a < b)
      make(svg, "line", { x1: pos[a][0], y1: pos[a][1], x2: pos[b][0], y2: pos[b][1], class: "road" });
    const reach = new Set((view.expect && view.expect.reachable) || []);
    const moving = phone && view.expect && view.expect.phase === "move";
    const radius = (space) => (space === board.start ? g.start : g.r);
    for (const [space, [x, y]] of Object.entries(pos)) {
      const classes = ["space"];
      if (board.tiles[space]) classes.push(state.tiles[space] === "problem" ? "problem" : "safe");
      if (state.rubble.includes(space)) classes.push("rubble");
      if (reach.has(space)) classes.push("reach");
      if (moving) classes.push("tap");
      const node = make(svg, "g", { class: classes.join(" "), "data-space": space });
      make(node, "circle", { cx: x, cy: y, r: radius(space) });
      const mark = board.tiles[space] && state.tiles[space] === "problem" ? "!" : "";
      make(node, "text", { x, y }, (space === board.start && big ? spaceName(space).charAt(0) : spaceName(space)) + mark);
      // every space can be tapped while moving: one out of reach is refused with the rule's reason
      if (moving) node.addEventListener("click", () => C.act("move", { to: space }));
    }
    if (state.jackjack) {
      const [x, y] = pos[state.jackjack];
      make(svg, "circle", { cx: x, cy: y, r: radius(state.jackjack) + 3.5, class: "jj" });
    }
    const crowd = {};
    state.movers.forEach((m, i) => {
      const [x, y] = pos[m.space];
      const k = (crowd[m.space] = (crowd[m.space] || 0) + 1);
      make(svg, "circle", { cx: x, cy: y, r: radius(m.space) + (state.jackjack === m.space ? 3.5 : 0) + 3.4 * k, class: "ring s" + i });
    });
    return svg;
  }

  function movers(view) {
    const state = view.state;
    return el("ol", { class: "movers", "aria-label": "Movers" }, state.movers.map((m, i) =>
      el("li", { class: i === state.turn ? "turn" : "", "data-drop": i === state.turn ? null : "7" },
        el("span", { class: "mover-dot m" + i, "aria-hidden": "true" }, String(i + 1)),
        el("span", {}, m.name, m.name !== heroName(m.hero) ? el("span", { "data-drop": "8" }, " (" + heroName(m.hero) + ")") : null,
          ": " + (m.space === "start" ? "Start" : m.space), i === state.turn && state.phase !== "over" ? el("b", {}, " (turn)") : null))));
  }

  function facts(state, table) {
    const stat = (icon, label, value, drop) => el("div", { class: "stat", "data-drop": drop || null }, C.tag(icon, el("span", { class: "label" }, label)), " ", el("b", {}, value));
    return [stat("baby", "Jack-Jack", state.jackjack ? "on " + state.jackjack : "rescued"),
      stat("rubble", "Rubble", state.rubble.length ? state.rubble.join(", ") : "none", table ? "6" : null),
      stat("round", "Round", state.round, table ? "7" : null)];
  }

  function faceButtons(faces, onPick, label, prefix) {
    const box = el("div", { class: "faces" });
    for (const f of faces) box.append(el("button", { type: "button", class: "big face", "data-key": prefix + f, onclick: () => onPick(f) }, label ? label(f) : f));
    return box;
  }

  const MOVEMENT = (f) => (f === "alarm" ? C.tag("warn", "Alarm") : el("span", {}, f));

  C.register("incredibles", {
    icon: "star",
    short: "The Incredibles",
    handles: ["roll", "move", "fix", "choose", "draw"],
    playerName,

    face(f) {
      if (f === "alarm") return { icon: "warn", word: "Alarm" };
      if (["strength", "defense", "agility", "speed"].includes(f)) return { icon: f, word: C.human(f) };
      if (f === "wild") return { icon: "star", word: "Wild" };
      return null;
    },

    board(view, phone) {
      const state = view.state;
      return el("div", { class: "incredibles" }, track(state), svgBoard(view, phone, false), movers(view),
        el("div", { class: "row facts" }, facts(state)));
    },

    // The table: the Problem Track across the top, the board as big as the space allows, and who
    // is where beside it.
    table(view) {
      const state = view.state;
      return el("div", { class: "inc-tv" }, track(state, true), el("div", { class: "inc-main" }, svgBoard(view, false, true),
        el("div", { class: "facts" }, movers(view), facts(state, true))));
    },

    decks(view, table) {
      const s = view.state;
      const card = s.last_card_info;
      const said = s.alarm_said || [];
      // an Alarm with the table's own deck: its card is drawn and named on a phone (a "draw"
      // before the first roll is Set Up's starting problems, not an Alarm)
      const awaited = !card && s.phase === "draw" && !!s.roll;
      return el("div", { class: "deck-row" },
        el("div", { class: "last-card" + (card ? " " + card.kind : "") }, el("span", { class: "label" }, "Last card"),
          card ? el("b", {}, card.title) : el("b", { class: "none" }, awaited ? "awaited: draw it and name it" : said.length ? "none: the deck is empty" : "none yet"),
          // the space where the title does not say it already ("Jack-Jack Teleports: space 15")
          el("span", { class: "row" }, card && card.power ? power(card.power) : null,
            card && card.space && !String(card.title).endsWith("space " + card.space) ? el("span", {}, "space " + card.space) : null),
          // what the card did (Frozone's fix, Jack-Jack rescued where he landed): the table
          // showed only its title, the effect was in the phones' log alone
          said.length ? el("span", { class: "card-said" }, said.join(" ")) : null),
        el("div", { class: "stat", "data-drop": table ? "5" : null }, C.tag("card", el("span", { class: "label" }, "Deck")), " ", el("b", { "data-deck": "deck" }, s.deck_count), " left"),
        el("div", { class: "stat", "data-drop": table ? "6" : null }, el("span", { class: "label" }, "Discard"), " ", el("b", {}, s.discard.length)));
    },

    // What the roll did (the faces themselves are drawn from view.last_roll).
    lastRoll(view, last) {
      const s = view.state;
      if (last.type === "roll" && s.roll) {
        return el("p", { class: "roll" }, last.virtual ? [el("span", { class: "label" }, "Movement Die: "), MOVEMENT(s.roll.face), ". "] : null,
          s.roll.face === "alarm" ? "A card is drawn." : "Move up to " + (s.roll.move || s.roll.face) + ".");
      }
      if (last.type === "fix" && s.last_fix) {
        const f = s.last_fix;
        return el("p", { class: "roll" }, last.virtual ? [power(f.power), f.jackjack ? [" + ", power(f.jackjack)] : null, " "] : null,
          el("b", {}, f.fixed ? C.tag("check", "Problem " + f.tile + " fixed") : f.tile + " still needs " + C.human(f.needs)));
      }
      return null;
    },

    describe(action, view) {
      const d = action.data || {};
      const who = action.player ? playerName(view, action.player) + ": " : "";
      if (action.type === "roll") return who + "roll " + (d.face ? (d.face === "alarm" ? "Alarm" : d.face) : "(virtual die)");
      if (action.type === "move") return who + "move to " + spaceName(d.to);
      if (action.type === "fix") return who + "fix with " + (d.power ? C.human(d.power) : "virtual dice") + (d.jackjack ? " + " + C.human(d.jackjack) : "");
      // a card's choice in the table's words: where a mover went, which problem Frozone fixed
      if (action.type === "choose") return d.tile ? "Frozone fixes problem " + d.tile : "move off the rubble to " + spaceName(d.space);
      if (action.type === "draw") return "drew " + ((comps().cards || []).find((c) => c.id === d.card) || { title: d.card }).title;
      return null;
    },

    controls(view) {
      const expect = view.expect;
      const state = view.state;
      const box = el("div", { class: "inc-controls" });
      if (expect.phase === "roll") {
        box.append(el("p", { class: "prompt" }, C.icon("die"), " Which face did the Movement Die show?"));
        box.append(faceButtons(expect.dice[0].faces, (f) => C.act("roll", { face: f }), MOVEMENT, "roll-"));
        box.append(C.button("die", "Roll it for me", () => C.act("roll"), { "data-key": "roll-virtual" }));
      } else if (expect.phase === "move") {
        box.append(el("p", { class: "prompt" }, C.icon("move"), " Tap where your mover ends (here or on the board):"));
        const here = state.movers[state.turn].space;
        box.append(faceButtons(expect.reachable, (s) => C.act("move", { to: s }), (s) => (s === here ? "Stay (" + spaceName(s) + ")" : spaceName(s)), "move-"));
      } else if (expect.phase === "fix") {
        const picked = { power: null, jackjack: null };
        const jj = (expect.dice[0].also || [])[0];   // Jack-Jack's die, thrown with the power die
        const send = el("button", { type: "button", class: "big", disabled: true, "data-key": "fix-send",
          onclick: () => C.act("fix", picked.jackjack ? { power: picked.power, jackjack: picked.jackjack } : { power: picked.power }) }, C.icon("fix"), " Try to fix");
        const mark = (group, f) => {
          for (const b of group.querySelectorAll("button")) b.setAttribute("aria-pressed", String(b.dataset.key.endsWith("-" + f)));
        };
        box.append(el("p", { class: "prompt" }, C.icon("fix"), " Problem " + expect.problem.tile + " needs ", power(expect.problem.power), ". Your Power Die shows:"));
        const powers = faceButtons(expect.dice[0].faces, (f) => {
          picked.power = f;
          mark(powers, f);
          if (!jj) C.act("fix", { power: f }); else send.disabled = false;
        }, power, "power-");
        box.append(powers);
        if (jj) {
          box.append(el("p", {}, C.icon("baby"), " Jack-Jack Die (optional):"));
          const jjs = faceButtons(jj.faces, (f) => { picked.jackjack = f; mark(jjs, f); }, power, "jj-");
          box.append(jjs, send);
        }
        box.append(C.button("die", "Roll them for me", () => C.act("fix"), { "data-key": "fix-virtual" }));
      } else if (expect.phase === "draw") {   // the table's own deck: name the card drawn
        box.append(el("p", { class: "prompt" }, C.icon("card"), " " + expect.prompt + " (" + expect.deck_count + " in the deck)"));
        const titles = Object.fromEntries(expect.deck.map((c) => [c.id, c.title]));
        box.append(faceButtons(expect.deck.map((c) => c.id), (id) => C.act("draw", { card: id }, null), (id) => titles[id], "draw-"));
      } else if (expect.phase === "choose") {
        const key = expect.pending.kind === "displace" ? "space" : "tile";
        box.append(el("p", { class: "prompt" }, C.icon("go"), " " + expect.prompt));
        box.append(faceButtons(expect.pending.options, (o) => C.act("choose", { [key]: o }, null), key === "space" ? spaceName : null, "choose-"));
      }
      return box;
    },

    // Setup: heroes in play order (youngest first), names, and shuffled or fixed-order cards.
    setupForm(components) {
      const box = el("div", { class: "inc-setup" });
      const list = el("ul", { class: "hero-picks" });
      for (const hero of components.heroes || []) {
        // a hero's own power is printed nowhere for most: the note says what is assumed
        const note = (components.assumptions || {})["hero " + hero.id];
        list.append(el("li", {}, el("label", { class: "check" },
          el("input", { type: "checkbox", name: "hero", value: hero.id }), " " + hero.name + " ", power(hero.power)),
        note ? el("small", { class: "assumed", "data-assumed": hero.id }, " " + note + " ") : null,
        el("input", { name: "name-" + hero.id, placeholder: "player's name", size: 10, "aria-label": hero.name + ": player's name" })));
      }
      const order = el("fieldset", {}, el("legend", {}, "Cards"),
        el("label", { class: "check" }, el("input", { type: "radio", name: "order", value: "shuffled", checked: true }), " Shuffled (normal game)"),
        el("label", { class: "check" }, el("input", { type: "radio", name: "order", value: "fixed" }), " Fixed order (the component list's order: problems A, B, C first; for learning or a replay)"),
        el("label", { class: "check" }, el("input", { type: "checkbox", name: "inc-physical" }), " We draw the real cards (name each card drawn at an Alarm)"));
      box.append(el("fieldset", {}, el("legend", {}, "Heroes, youngest player first (tick them in playing order)"), list), order);
      const ticked = [];
      list.addEventListener("change", (e) => {
        if (e.target.name !== "hero") return;
        const i = ticked.indexOf(e.target.value);
        if (e.target.checked && i < 0) ticked.push(e.target.value);
        if (!e.target.checked && i >= 0) ticked.splice(i, 1);
        C.playOrder(list, "hero", ticked);
      });
      return {
        node: box,
        options() {
          const players = ticked.map((id) => {
            const name = (box.querySelector('[name="name-' + id + '"]').value || "").trim();
            return name ? { hero: id, name } : id;
          });
          const out = { players };
          if (box.querySelector('[name="inc-physical"]').checked) out.physical_deck = true;
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
