// The simulated table on a phone, in `companion serve --simulate` (make run): throw dice into the
// rendered tray for the simulated camera, lay a hero's pull in their pull area (Invincible), press
// the table's buttons, put a token on a reader, lay a card in the card area. Compact on purpose:
// the controls come first; the devices' own state is on the Devices page.
// Each section is one function of the hardware status; a new device adds one to SECTIONS.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const P = C.panels;
  let hold = false;

  function tray(hw) {
    if (!hw.camera) return null;
    const row = el("div", { class: "sim-row" }, el("span", { class: "label" }, "Dice tray"));
    if (hw.can_throw) row.append(C.button("die", "Throw the dice", () => C.send("POST", "/api/camera/throw", {}), { "data-key": "sim-throw" }));
    row.append(C.button("camera", "Read them now", () => C.send("POST", "/api/camera/read", {}), { "data-key": "sim-read" }));
    return row;
  }

  function buttons(hw) {
    const names = hw.can_press && hw.status && hw.status.buttons ? Object.keys(hw.status.buttons) : [];
    if (!names.length) return null;
    const holdBtn = C.button("hold", "Hold", () => {
      hold = !hold;
      holdBtn.setAttribute("aria-pressed", String(hold));
    }, { class: "small", "aria-pressed": "false", "data-key": "sim-hold", title: "The next press is a long press" });
    return el("div", { class: "sim-row" }, el("span", { class: "label" }, "Table buttons"),
      names.map((name) => C.button("press", C.human(name), async () => {
        const long = hold;
        hold = false;
        holdBtn.setAttribute("aria-pressed", "false");
        await C.send("POST", "/api/hardware/press", { name, hold: long });
      }, { "data-key": "press-" + name })), holdBtn);
  }

  // A piece's token on the reader under a space, sent by the simulated serial device: the
  // game's table map says what it means now (a mover's move, a character's deploy).
  function tokens(hw) {
    if (!hw.can_press || !hw.status || !hw.status.serial || hw.status.serial.state === "closed") return null;
    const piece = el("input", { type: "text", class: "sim-word", maxlength: "40", placeholder: "dash", "aria-label": "Token's piece", "data-key": "sim-piece" });
    const space = el("input", { type: "text", class: "sim-word short", maxlength: "40", placeholder: "5", "aria-label": "Reader's space", "data-key": "sim-space" });
    return el("div", { class: "sim-row tokens" }, piece, el("span", {}, "on"), space,
      C.button("move", "Place token", () => C.send("POST", "/api/hardware/token", { piece: piece.value.trim(), space: space.value.trim() }), { "data-key": "sim-token" }));
  }

  // A card laid in the simulated card area (a rendered stand-in), for the Card button's draw;
  // the list is the game's cards. Shown only while the game waits for the card drawn from the
  // table's own deck (expect.deck), so the panel stays compact (the Your box page's walk-through
  // lays its cards itself).
  // The card picked is kept across the panel's rebuild for a new game: a pick made just before
  // it would otherwise fall back to the list's first card, and that card would be laid.
  let cardRow = null;
  let picked = null;
  const showCardRow = (view) => { if (cardRow) cardRow.hidden = !(view && view.expect && view.expect.deck); };
  C.onView(showCardRow);

  function cardArea(hw) {
    if (!hw.can_lay_card) return null;
    const pick = el("select", { class: "sim-word", "aria-label": "Card to lay", "data-key": "sim-card",
      onchange: (e) => { picked = e.target.value; } });
    const lay = (card) => C.send("POST", "/api/camera/card", { game: pick.dataset.game, card });
    const layBtn = C.button("card", "Lay card", () => lay(pick.value), { "data-key": "sim-lay", disabled: true });
    const takeBtn = C.button("undo", "Take it away", () => lay(null), { class: "small", "data-key": "sim-unlay", disabled: true });
    (async () => {
      const game = C.view ? C.view.game : ((await C.api("GET", "/api/state")).data || {}).game;
      const res = game ? await C.api("GET", `/api/box/${game}/cards`) : { ok: false };
      if (!res.ok) return;
      pick.dataset.game = game;
      res.data.cards.forEach((c) => pick.append(el("option", { value: c.id }, `${c.title} (${c.id})`)));
      if (picked && res.data.cards.some((c) => c.id === picked)) pick.value = picked;
      layBtn.disabled = takeBtn.disabled = false;   // nothing to lay until the list is there
    })();
    cardRow = el("div", { class: "sim-row" }, el("span", { class: "label" }, "Card area"), pick, layBtn, takeBtn);
    showCardRow(C.view);
    return cardRow;
  }


  // Invincible: a hero lays the three cubes drawn from their bag in their pull area; the pull
  // camera reads them once they lie still (vision/pull_camera.py).
  // the name the table reads for a hero (the box may rename it), not its id made readable
  function heroName(id) {
    const heroes = (C.view && C.view.state && C.view.state.heroes) || [];
    const hero = heroes.find((h) => h.id === id);
    return hero && hero.name ? hero.name : C.human(id);
  }

  function pulls(hw) {
    const seats = hw.pulls && hw.pulls.can_lay ? hw.pulls.seats.filter((s) => s.hero) : [];
    if (!seats.length) return null;
    return el("div", { class: "sim-row" }, el("span", { class: "label" }, "Pull areas"),
      seats.map((s) => C.button("box", "Pull: " + heroName(s.hero), () => C.send("POST", "/api/camera/pull", { hero: s.hero }), { "data-key": "sim-pull-" + s.hero })));
  }

  const SECTIONS = [tray, pulls, buttons, tokens, cardArea];

  // A new game brings its own seats (Invincible's heroes' pull areas) and their names: the
  // panel follows it, and is drawn again once the first state arrives if it came before.
  let drawnFor;
  C.onView((v) => {
    const id = v ? v.game_id : null;
    if (id !== drawnFor && C.$("simulator")) P.simulator();
  });

  P.simulator = async function () {
    const box = C.$("simulator");
    if (!box) return;
    drawnFor = C.view ? C.view.game_id : undefined;
    const res = await C.api("GET", "/api/hardware");
    const hw = res.ok ? res.data : {};
    if ((hw.starting || []).length) setTimeout(P.simulator, 2000);  // serve attaches them after it answers
    const parts = hw.simulate ? SECTIONS.map((s) => s(hw)).filter(Boolean) : [];
    box.hidden = !parts.length;
    if (!parts.length) return;
    box.replaceChildren(el("h2", {}, C.icon("bolt"), " Simulated table ", el("a", { href: "/devices" }, "Devices")), ...parts);
  };
})();
