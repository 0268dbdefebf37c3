// Setup: choose a game and its options, resume or put away the game in progress, past games.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  let games = [];
  let form = null;  // {node, options()} for the chosen game

  // Fields most games share; the JSON box takes anything else a game's setup accepts.
  function genericForm(components) {
    const box = el("div", { class: "generic-setup" });
    const players = el("input", { id: "opt-players", size: 30, placeholder: "e.g. ana, ben (or heroes' names)" });
    box.append(el("label", {}, "Players or heroes, in playing order, separated by commas ", players));
    const levels = components.difficulty && typeof components.difficulty === "object" ? Object.keys(components.difficulty) : null;
    const difficulty = levels
      ? el("select", { id: "opt-difficulty" }, el("option", { value: "" }, "(the game's default)"), levels.map((l) => el("option", { value: l }, C.human(l))))
      : el("input", { id: "opt-difficulty", size: 12, placeholder: "(default)" });
    box.append(el("label", {}, "Difficulty ", difficulty));
    let heroTime = null;
    let custom = null;
    if (components.hero_time_minutes) {
      heroTime = el("select", { id: "opt-hero-time" }, el("option", { value: "" }, "Off"),
        components.hero_time_minutes.map((m) => el("option", { value: m }, m + " minutes")), el("option", { value: "custom" }, "Custom…"));
      custom = el("input", { id: "opt-hero-time-custom", type: "number", min: 1, max: 120, size: 4, hidden: true, "aria-label": "Custom minutes" });
      heroTime.addEventListener("change", () => { custom.hidden = heroTime.value !== "custom"; });
      box.append(el("label", {}, "Hero time per Hero Phase ", heroTime, custom));
    }
    // Episodes (Invincible: Episode 1 deals its decks in a fixed order, later ones shuffle).
    let episode = null;
    if (Array.isArray(components.episodes) && components.episodes.length) {
      episode = el("select", { id: "opt-episode" }, el("option", { value: "" }, "(the game's default)"),
        components.episodes.map((e) => el("option", { value: e.number }, "Episode " + e.number + (e.name ? ": " + e.name : "") + (e.fixed_order ? " (fixed-order decks)" : " (shuffled decks)"))));
      box.append(el("label", {}, "Episode ", episode));
    }
    const advanced = typeof components.advanced === "object" || components.has_advanced ? el("input", { type: "checkbox", id: "opt-advanced" }) : null;
    if (advanced) box.append(el("label", { class: "check" }, advanced, " Advanced rules"));
    return {
      node: box,
      options() {
        const out = {};
        const names = players.value.split(",").map((s) => s.trim()).filter(Boolean);
        if (names.length) out.players = names;
        if (difficulty.value) out.difficulty = difficulty.value;
        if (heroTime && heroTime.value) out.hero_time = heroTime.value === "custom" ? Number(custom.value) : Number(heroTime.value);
        if (episode && episode.value) out.episode = Number(episode.value);
        if (advanced && advanced.checked) out.advanced = true;
        return out;
      },
    };
  }

  let picked = null;
  async function chooseGame(name) {
    picked = name;
    const [info] = await Promise.all([C.gameInfo(name), C.needRenderer(name)]);
    if (picked !== name) return;   // another game was picked while this one's parts came
    const r = C.games[name];
    form = r && r.setupForm ? r.setupForm(info.components || {}) : genericForm(info.components || {});
    const warn = info.box_warning ? el("p", { class: "banner warn", id: "box-warning", role: "alert" }, C.icon("warn"), " ", info.box_warning, " ", el("a", { href: "/box?game=" + name }, "Your box")) : null;
    C.$("options-form").replaceChildren(...[warn, form.node].filter(Boolean));
  }

  async function loadGames() {
    const res = await C.api("GET", "/api/games");
    games = res.ok ? res.data.games : [];
    const pick = C.$("game-pick");
    pick.replaceChildren(el("legend", {}, "Which game?"));
    // a game whose component file does not load stays listed, with why, and cannot be picked
    const first = games.find((g) => !g.error);
    games.forEach((g) => {
      const input = el("input", { type: "radio", name: "game", value: g.name, checked: g === first, disabled: !!g.error });
      input.addEventListener("change", () => chooseGame(g.name));
      pick.append(el("label", { class: "check game-choice" }, input, " " + g.title + (C.hasRenderer(g.name) ? "" : " (generic controls)"),
        g.error ? el("span", { class: "error game-error" }, " cannot start: " + g.error) : null));
    });
    if (first) await chooseGame(first.name);
  }

  function when(epoch) {
    return epoch ? new Date(epoch * 1000).toLocaleString() : "—";
  }

  async function loadCurrent() {
    const res = await C.api("GET", "/api/state");
    const body = C.$("current-body");
    if (!res.ok) { body.replaceChildren(el("p", { class: "error" }, res.data.error)); return; }
    const view = res.data;
    C.receive(view);
    const held = heldNotice(view);
    if (!view.game) {
      body.replaceChildren(held ? el("p", { class: "recovery", id: "held" }, C.icon("warn"), " Held back: " + held.text) : el("p", {}, "No game in progress."));
      return;
    }
    const status = view.outcome && view.outcome.status;
    body.replaceChildren(
      el("p", {}, el("b", {}, view.title), " — ", status === "playing" ? C.tag("play", "playing") : status === "won" ? C.tag("star", "won") : C.tag("burst", "lost"),
        " (step " + view.seq + ")"),
      el("div", { class: "row" },
        el("a", { class: "button big", href: "/play" }, C.icon("play"), "Resume on this device"),
        C.button("folder", "Put this game away", async () => {
          if (!confirm("Put this game away? It stays in the history; you cannot go back to it.")) return;
          const r = await C.send("DELETE", "/api/session");
          if (r.ok) refresh();
        }, { id: "abandon" })));
  }

  // a game the companion could not resume as it is now (its data changed): the journal keeps it
  let heldGame = null;   // from the history: still held after its notice was read
  function heldNotice(view) {
    return (view.notices || []).find((n) => n.kind === "held") || null;
  }

  async function loadHistory() {
    const res = await C.api("GET", "/api/history");
    heldGame = res.ok ? res.data.games.find((g) => g.held) || null : null;
    const rows = (res.ok ? res.data.games : []).map((g) => {
      const out = g.outcome || {};
      const result = out.status === "won" ? "Won" : out.status === "lost" ? "Lost" : g.current ? "In progress" : g.held ? "Held back" : "Put away";
      return el("tr", {}, el("td", {}, g.game), el("td", {}, when(g.started_at)),
        el("td", {}, result + (out.reason ? ": " + out.reason : "")),
        el("td", {}, out.score === undefined ? "—" : typeof out.score === "object" ? JSON.stringify(out.score) : String(out.score)));
    });
    C.$("history").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 4 }, "No games yet."))]));
  }

  function refresh() { loadCurrent(); loadHistory(); }

  C.$("setup-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    C.showError("");
    const picked = document.querySelector('[name="game"]:checked');
    if (!picked) { C.showError("Choose a game first."); return; }
    let extra = {};
    const raw = C.$("options-json").value.trim();
    if (raw) {
      try { extra = JSON.parse(raw); } catch (err) { C.showError("The options box is not valid JSON: " + err.message); return; }
      if (!extra || typeof extra !== "object" || Array.isArray(extra)) { C.showError("The options box must hold a JSON object {…}."); return; }
    }
    const body = Object.assign({ game: picked.value }, form ? form.options() : {}, extra);
    const seed = C.$("seed").value.trim();
    if (seed) body.seed = Number(seed);
    // Starting puts away the game in progress: never without asking.
    const now = C.view;
    const over = now && now.outcome && now.outcome.status !== "playing";
    if (now && now.game && !confirm((over ? "A game of " + now.title + " (" + now.outcome.status + ") is still on the table. "
      : "A game of " + now.title + " is in progress (step " + now.seq + "). ") +
      "Starting a new game puts it away: it stays in the history, but you cannot go back to it. Start anyway?")) return;
    const held = heldNotice(now || {}) || (heldGame && { text: "a game of " + heldGame.game + " the companion could not resume as it is now." });
    if (now && !now.game && held && !confirm("A game is held back: " + held.text + "\n\n" +
      "Starting a new game puts it away for good: it stays in the history, but you cannot go back to it. Start anyway?")) return;
    const res = await C.send("POST", "/api/session", body);
    if (res.ok) location.href = "/play";
  });

  (async function () {
    const access = await C.loadAccess();
    C.setupToggles(access.settings);
    if (!access.joined) C.askToJoin("To start or put away a game, type the join code shown on the table screen.");
    document.addEventListener("companion:joined", refresh);
    C.$("link").textContent = "";
    await loadGames();
    refresh();
  })();
})();
