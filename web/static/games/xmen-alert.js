// X-Men Alert: the three Battle Zones on their Strength Tracks, each team's Headquarters with its
// characters' hits, the Experience Track, held Training & Luck cards; dice entered by tapping faces.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const FACE = { xmen: ["xmen", "X-Men"], marvel: ["star", "Marvel"], evil_mutant: ["skull", "Evil Mutant"], blank: ["blank", "Blank"] };
  // the ability kinds the engine knows (companion/games/xmen/data.py) and the numbers each takes
  const KINDS = { extra_dice_leading: ["dice"], team_dice_leading: ["dice"], flight: [], recovery: ["xmen", "marvel"],
    alt_attack: ["dice", "xmen", "marvel"], bonus_experience: ["dice"] };
  const comps = () => (C.info["xmen-alert"] || {}).components || {};
  const faceTag = (f) => (FACE[f] ? C.tag(FACE[f][0], FACE[f][1]) : el("span", {}, String(f)));
  const stat = (label, value, drop) => el("div", { class: "stat", "data-drop": drop || null }, el("span", { class: "label" }, label), " ", el("b", {}, value));

  const cardTitle = (id) => ((comps().cards || []).find((c) => c.id === id) || { title: id }).title;

  function heroName(view, id) {
    for (const t of view.state.teams) for (const h of t.headquarters) if (h.id === id) return h.name;
    const c = (comps().characters || []).find((x) => x.id === id);
    return c ? c.name : id;
  }

  // A Strength Track: the indicator and each team's leader (its player's initials), in words too.
  function strengthTrack(zone, marks) {
    const cells = el("ol", { class: "xm-track", "aria-hidden": "true" });
    for (let i = 1; i <= zone.strength_track; i++) {
      const here = zone.teams.filter((t) => t.position === i).map((t) => marks[t.player]);
      const ind = zone.indicator === i;
      cells.append(el("li", { class: (ind ? "ind " : "") + (here.length ? "team" : "") }, ind ? "I" : here.join(" ") || ""));
    }
    return cells;
  }

  // The same track as a bar for the table: the indicator a black mark, each team a blue one.
  function trackBar(zone, drop) {
    const at = (i) => "left:" + (100 * (i - 0.5) / zone.strength_track).toFixed(1) + "%";
    return el("div", { class: "bar-track", "aria-hidden": "true", "data-indicator": zone.indicator || null, "data-drop": drop || null },
      zone.indicator ? el("span", { style: at(zone.indicator) }) : null,
      zone.teams.map((t) => el("span", { class: "team", style: at(t.position || 0.5) })));
  }

  function cardLine(zone) {
    const card = zone.card;
    // a recruit card stands for the X-Men turned over for it: who may be recruited is the news
    return zone.recruit ? el("p", { class: "xm-card recruit" }, C.icon("plus"), " ", el("b", {}, "Recruit " + zone.recruit.name),
        el("span", { "data-drop": "5" }, " (Total Power " + zone.recruit.total_power + ")"))
      : card ? el("p", { class: "xm-card " + card.kind }, C.icon(card.kind === "evil_mutant" ? "skull" : "flag"), " ", el("b", {}, card.name))
      : el("p", { class: "none" }, "empty");
  }

  function zoneBox(zone, marks) {
    const card = zone.card;
    const teams = zone.teams.map((t) => el("li", {}, el("b", {}, t.player), ": " + (t.leader_name || t.leader) + " on " + t.position +
      (t.backers.length ? " (+" + t.backers.length + " backing)" : "") + (t.started ? "" : " (not rolled yet)")));
    return el("section", { class: "xm-zone", "data-zone": zone.number, "aria-label": "Battle Zone " + zone.number },
      el("h3", {}, C.icon("battle"), "Zone " + zone.number), cardLine(zone),
      card && !zone.recruit ? el("p", {}, "Strength " + card.strength + " · Experience " + card.experience) : null,
      zone.indicator ? el("p", { class: "xm-ind" }, "indicator on " + zone.indicator + " of " + zone.strength_track) : null,
      strengthTrack(zone, marks), el("ul", { class: "xm-sides" }, teams.length ? teams : el("li", { class: "none" }, "no team here")));
  }

  function tvZone(zone, view) {
    const card = zone.card;
    // who fights here, left out for room, is counted in the heading (a line of its own would
    // take the room the left-out line gave)
    return el("section", { class: "xm-zone", "data-zone": zone.number, "aria-label": "Battle Zone " + zone.number },
      el("h3", {}, C.icon("battle"), "Zone " + zone.number, " ",
        el("span", { class: "more", "data-tally": "zone " + zone.number, "data-all": "fighting", hidden: "" })), cardLine(zone),
      card && !zone.recruit ? el("p", { "data-drop": "4" }, "Str " + card.strength + " · Exp " + card.experience) : null,
      // the bar pictures what "Track 11/21" says: it goes before the words
      zone.indicator ? [trackBar(zone, "6"), el("p", { class: "xm-ind", "data-drop": "5" }, "Track " + zone.indicator + "/" + zone.strength_track)] : null,
      zone.teams.map((t) => el("p", { "data-drop": "3", "data-tallied": "zone " + zone.number }, el("b", {}, t.player), " " + t.position,
        el("span", { "data-drop": "6" }, " " + heroName(view, t.leader)))));
  }

  function chips(h) {
    const box = el("span", { class: "chips", "aria-hidden": "true" });
    for (let i = 0; i < h.durability; i++) box.append(el("span", { class: "chip-dot" + (i < h.hits ? " hit" : "") }));
    return box;
  }

  // On the table the hits are digits, as the phone says them ("1/4 hits": Hit Chips taken of the
  // Durability's X symbols): a row of small dots cannot be counted from across the table. Past
  // the Durability the character is seriously wounded ("5/4 hits").
  const hitCount = (h) => el("span", { class: "hits" + (h.hits ? " hit" : "") }, h.hits + "/" + h.durability + " hits");

  function teamBox(team, view) {
    const turn = view.state.player === team.player;
    const heroes = team.headquarters.map((h) => el("li", { class: "xm-hero" + (h.seriously_wounded ? " serious" : ""), "data-hero": h.id },
      el("b", {}, h.name), " ", chips(h), " " + h.hits + "/" + h.durability + " hits",
      h.seriously_wounded ? el("span", { class: "warn" }, " seriously wounded") : null,
      el("small", {}, " · " + (h.where === "headquarters" ? "at HQ" : h.where.replace("zone", "Battle Zone")) +
        " · FS " + h.fighting_skill + " / D " + h.durability + " / I " + h.intelligence + " = " + h.total_power +
        // 'this turn': another team's characters acted on a turn that is over
        (turn && h.acted ? " · acted" : ""))));
    return el("section", { class: "xm-team" + (turn ? " turn" : ""), "data-team": team.player },
      el("h3", {}, C.icon("home"), team.player + "'s HQ", turn ? el("b", {}, "(turn)") : ""),
      el("ul", {}, heroes),
      el("p", { class: "xm-held" }, C.icon("card"), " held: ", el("b", {}, team.held.length ? team.held.map((c) => c.title).join(", ") : "none"),
        " · captured ", el("b", {}, String(team.captured.length))));
  }

  // The team whose turn it is keeps its characters longest: a table short of room says "(turn)"
  // by the box's heavy border alone (the next step names the player), then drops the other
  // teams' characters (counted: "+3 more") before who fights in which zone (same rank, later on
  // the page), and this team's last of all, after the Experience line.
  function tvTeam(team, view) {
    const turn = view.state.player === team.player;
    return el("section", { class: "xm-team" + (turn ? " turn" : ""), "data-team": team.player },
      // the count of the characters left out beside the name: a box of none takes one line, and
      // the team whose turn it is has the row above it for all four of its own (two rows of two)
      el("h3", {}, el("span", { class: "shrink" }, team.player), turn ? el("span", { "data-drop": "8" }, "(turn)") : null,
        el("span", { class: "more", "data-tally": "team " + team.player, "data-all": "X-Men", hidden: "" })),
      team.headquarters.map((h) => el("p", { class: "xm-hero" + (h.seriously_wounded ? " serious" : ""), "data-hero": h.id, "data-drop": turn ? "1" : "3", "data-tallied": "team " + team.player },
        el("span", { class: "shrink" }, h.name), " ", hitCount(h), el("span", { "data-drop": "7" }, " " + (h.where === "headquarters" ? "HQ" : h.where.replace("zone ", "Z"))))),
      team.held.length ? el("p", { "data-drop": "6" }, C.icon("card"), " " + team.held.length + " held") : null);
  }

  function expTrack(state) {
    const x = state.experience_track;
    const list = el("ol", { class: "xm-exp", "aria-hidden": "true" });
    const marks = C.initials(Object.keys(x.movers));
    for (let i = 0; i <= x.spaces; i++) {
      const who = Object.entries(x.movers).filter(([, p]) => p === i).map(([n]) => marks[n]);
      const mark = i === x.victory ? "V" : x.recruit.includes(i) ? "R" : x.training_luck.includes(i) ? "T" : "";
      list.append(el("li", { class: who.length ? "here" : "" }, el("small", {}, i), who.length ? who.join(" ") : mark));
    }
    return el("section", { class: "xm-exp-box", "aria-label": "Experience Track" },
      el("h3", {}, C.icon("up"), "Experience Track"), list,
      el("p", {}, Object.entries(x.movers).map(([n, p]) => n + " on " + p).join(" · "),
        el("small", {}, " (T Training & Luck, R recruit, V Victory; goal " + x.goal + ")")));
  }

  // A team of three or four X-Men whose turn it is gets a wider box, each character and its hits
  // on one line: in a quarter of the row it takes two lines a character, and the table has room
  // for its four only so. Where a name would not fit its box whole at the table's size (four
  // teams abreast at 800x480: "Nightcrawler" needs 127 px of a box's 100), the teams take two
  // rows of two (data-narrow, measured by the table's fit) rather than a name drawn smaller or cut.
  function teamGrid(s, teams) {
    const wide = (t) => t.player === s.player && t.headquarters.length > 2;
    const columns = s.teams.map((t) => (wide(t) ? "minmax(0, 1.7fr)" : "minmax(0, 1fr)")).join(" ");
    return el("div", { class: "xm-teams", "data-drop": "1", "data-columns": columns, style: "grid-template-columns:" + columns,
      "data-narrow": s.teams.length > 2 ? "repeat(2, minmax(0, 1fr))" : null }, teams);
  }

  function tvExp(state) {
    const x = state.experience_track;
    const at = (i) => "left:" + (100 * (i + 0.5) / (x.spaces + 1)).toFixed(1) + "%";
    // after the characters of the team whose turn it is (their hits are the turn's news), but
    // with them in a bonus experience roll, whose news it is
    return el("section", { class: "xm-exp-box", "data-drop": state.phase === "bonus" ? "1" : "2", "aria-label": "Experience Track" },
      el("div", { class: "bar-track", "aria-hidden": "true" }, Object.values(x.movers).map((p) => el("span", { class: "team", style: at(p) }))),
      el("p", {}, C.icon("up"), " Experience: " + Object.entries(x.movers).map(([n, p]) => n + " " + p).join(" · "),
        el("span", { "data-drop": "5" }, " · wins at " + x.goal)));
  }

  // Who takes an alternative attack's hits, who jumps in should the leader fall: chosen before
  // the roll is sent (expect lists them only where there is a choice; the first is the default)
  const PICKS = { hits_to: "Evil Mutants hit", new_leader: "If the leader falls, taking over" };
  function picks(view, entry, key, chosen) {
    const rows = Object.entries(entry.choose || {}).map(([field, ids]) => {
      if (!ids.includes(chosen[field])) chosen[field] = ids[0];
      const pick = el("select", { "data-key": key + "-" + field, "aria-label": PICKS[field] || field,
        onchange: (ev) => { chosen[field] = ev.currentTarget.value; } }, ids.map((id) => el("option", { value: id, selected: id === chosen[field] }, heroName(view, id))));
      return el("label", { class: "row" }, (PICKS[field] || field) + ": ", pick);
    });
    return { rows, data: () => Object.assign({}, entry.data, chosen) };
  }

  // Dice by tapping faces: each tap adds one die showing that face; send when all are in.
  function dicePicker(view, entry, key) {
    // the faces tapped so far and the picks outlive a redraw (C.draft) while the same roll is asked
    const draft = C.draft([key, entry.action, entry.player, entry.count, JSON.stringify(entry.data)].join("|"), { chosen: {} });
    const faces = draft.picks;
    const count = entry.count;
    const kept = faces.splice(0).filter((f) => entry.faces.includes(f));
    faces.push(...kept.slice(0, count));
    const who = picks(view, entry, key, draft.chosen);
    const shown = el("p", { class: "xm-picked", "aria-live": "polite" });
    const send = C.button("die", "Send " + count + " dice", () => C.sendDraft(draft, (picked) => C.act(entry.action, Object.assign(who.data(), { faces: picked }), entry.player)),
      { class: "big", disabled: true, "data-key": key + "-send" });
    // why a tap added nothing, said where the dice are counted (the tap is not lost unseen)
    const show = (why) => {
      shown.textContent = faces.length + " of " + count + " dice: " + (faces.map((f) => (FACE[f] ? FACE[f][1] : f)).join(", ") || "tap the faces shown") +
        (why ? ". " + why : "");
      send.disabled = faces.length !== count;
    };
    draft.show = show;
    const row = el("div", { class: "faces" }, entry.faces.map((f) => C.button(FACE[f] ? FACE[f][0] : null, FACE[f] ? FACE[f][1] : f,
      () => { if (faces.length < count) { faces.push(f); show(); } else show("All " + count + " in: tap Remove last to change one"); },
      { class: "face", "data-key": key + "-" + f })),
    C.button("erase", "Remove last", () => { faces.pop(); show(); }, { class: "small", "data-key": key + "-undo" }));
    show();
    return el("div", { class: "xm-dice" }, ...who.rows, row, shown, el("div", { class: "row" }, send,
      C.button("die", "Roll for me", () => C.act(entry.action, who.data(), entry.player), { "data-key": key + "-virtual" })));
  }

  function rollWords(entry, view) {
    const d = entry.data || {};
    const where = d.zone ? " in Zone " + d.zone : "";
    return entry.player + ": " + entry.purpose + " roll" + (d.hero ? " for " + heroName(view, d.hero) : "") + where +
      (d.attack ? " (" + C.human(d.attack) + ")" : "") + ", " + entry.count + " dice";
  }

  // Who may deploy where: expect.deploy (the rule checked), and expect.deploy_unchecked, what
  // only an assumed Durability forbids; the engine accepts those with a reminder and the next
  // step says "deploy" for them, so the form offers them too, each marked with its caveat.
  function deployOptions(view) {
    const options = {};
    const caveats = {};
    for (const [z, heroes] of Object.entries(view.expect.deploy || {})) options[z] = heroes.slice();
    for (const u of view.expect.deploy_unchecked || []) {
      const z = String(u.zone);
      (options[z] = options[z] || []).push(u.hero);
      (caveats[z] = caveats[z] || {})[u.hero] = u.caveat;
    }
    return { options, caveats };
  }

  function deployForm(view) {
    const { options, caveats } = deployOptions(view);
    const zones = Object.keys(options).sort((a, b) => Number(a) - Number(b));
    if (!zones.length) return null;
    // the zone and characters ticked outlive a redraw (C.draft), as far as they are still open
    const draft = C.draft("deploy|" + view.expect.player, { zone: zones[0] });
    if (!zones.includes(draft.zone)) { draft.zone = zones[0]; draft.picks.length = 0; }
    let zone = draft.zone;
    const picked = draft.picks;
    const kept = picked.splice(0).filter((h) => options[zone].includes(h));
    picked.push(...kept);
    const box = el("div", { class: "xm-deploy" });
    // a team already in a zone keeps its leader: who joins it leads nothing
    const led = (z) => (((view.state.zones[Number(z) - 1] || {}).teams || []).find((t) => t.player === view.expect.player) || {}).leader;
    const draw = () => {
      const zoneRow = el("div", { class: "faces", role: "group", "aria-label": "Battle Zone" }, zones.map((z) =>
        el("button", { type: "button", class: "face", "aria-pressed": String(z === zone), "data-key": "deploy-zone-" + z,
          onclick: () => { zone = draft.zone = z; picked.length = 0; draw(); } }, C.icon("battle"), "Zone " + z)));
      const unchecked = caveats[zone] || {};
      const heroRow = el("div", { class: "faces", role: "group", "aria-label": "Characters" }, options[zone].map((h) =>
        el("button", { type: "button", class: "face", "aria-pressed": String(picked.includes(h)), "data-key": "deploy-hero-" + h,
          "data-unchecked": unchecked[h] ? "true" : null,
          onclick: () => { const i = picked.indexOf(h); if (i < 0) picked.push(h); else picked.splice(i, 1); draw(); } },
        C.icon(picked.includes(h) ? "check" : "box"), heroName(view, h) + (unchecked[h] ? " (unchecked)" : "") +
          (picked[0] === h && !led(zone) ? " (leader)" : ""))));
      const warns = Object.values(unchecked).map((why) => el("p", { class: "warn xm-unchecked" }, C.icon("warn"), " " + why));
      const leader = led(zone);
      box.replaceChildren(el("h3", {}, C.icon("move"), "Deploy to a Battle Zone"), zoneRow,
        el("p", { class: "hint" }, leader ? "Characters joining " + heroName(view, leader) + ", who leads there:" : "Characters (the first you tick leads):"), heroRow,
        ...warns,
        C.button("move", picked.length ? "Deploy " + picked.map((h) => heroName(view, h)).join(", ") + " to Zone " + zone : "Tick who goes",
          () => C.sendDraft(draft, (heroes) => C.act("deploy", Object.assign({ zone: Number(zone), heroes }, leader ? {} : { leader: heroes[0] }))),
          { class: "big", disabled: !picked.length, "data-key": "deploy-send" }));
    };
    draft.show = draw;
    draw();
    return box;
  }

  function cardForms(view) {
    return (view.expect.cards || []).map((c) => {
      const targets = c.targets || c.heroes;
      const send = (extra) => C.act("card.play", Object.assign({ card: c.card }, extra), c.player);
      const title = cardTitle(c.card);    // the printed title, never the data's id
      return el("div", { class: "xm-cardplay" }, el("p", {}, C.icon("card"), " " + c.player + " may play " + title + (targets ? " on:" : "")),
        el("div", { class: "faces" }, targets ? targets.map((t) => C.button("go", c.targets ? t : heroName(view, t),
          () => send(c.targets ? { target: t } : { hero: t }), { "data-key": "card-" + c.card + "-" + t }))
          : C.button("card", "Play " + title, () => send({}), { "data-key": "card-" + c.card })));
    });
  }

  // The table's own deck (option physical_decks): the cards still in it, one button per printed
  // card (copies alike are one button, with how many are left); a tap names the card drawn.
  function drawForm(e) {
    const faces = [];
    const byTitle = {};
    for (const c of e.deck) {
      if (!byTitle[c.title]) { byTitle[c.title] = []; faces.push(c); }
      byTitle[c.title].push(c.id);
    }
    return el("div", { class: "xm-draw" },
      el("p", { class: "prompt" }, C.icon("card"), " " + e.prompt),
      el("p", { class: "hint" }, "Tap the card you drew (or lay it in the card area and press Card). Still in the deck:"),
      el("div", { class: "faces", role: "group", "aria-label": "Cards still in the deck" }, faces.map((c) => C.button("card",
        c.title + (byTitle[c.title].length > 1 ? " ×" + byTitle[c.title].length : ""),
        () => C.act("draw", { card: c.id }, null), { class: "face", "data-key": "draw-" + c.id }))));
  }

  function goingFirst(s) {
    return s.going_first && s.phase === "first" ? el("p", {}, C.icon("die"), " Going first: " +
      (Object.entries(s.going_first.rolls).map(([p, n]) => p + " " + n).join(", ") || "no rolls yet") +
      (s.going_first.to_roll.length ? "; still to roll: " + s.going_first.to_roll.join(", ") : "")) : null;
  }

  // The next step in a few words: the first roll still to make, and how many follow it.
  function step(view) {
    const e = view.expect || {};
    const d = (e.dice || [])[0];
    const can = (t) => (e.actions || []).includes(t);
    // (a recovery open would be a roll in e.dice)
    if (!d && can("deploy")) return e.player + ": deploy" + (can("turn.end") ? " or end the turn" : "");
    if (!d) return e.prompt;
    // a roll listed beside a deploy or the turn's end is a choice ('decide whether it is wiser
    // to send your partially wounded X-Men into battle, or to have your X-Men recover fully'):
    // the rules' sentence names them all, where the first roll read as an order
    const rolls = new Set(e.dice.map((x) => x.action));
    if ((e.actions || []).some((t) => !rolls.has(t) && !["card.play", "game.abandon"].includes(t))) return e.prompt;
    if (d.action === "first.roll") return d.player + ": roll 5 dice to see who goes first";
    // more to roll: other characters' rolls (a power's attack instead of a roll is no more one)
    const who = (x) => (x.data || {}).hero || x.player;
    const others = new Set(e.dice.filter((x) => who(x) !== who(d)).map(who)).size;
    return rollWords(d, view) + (others ? " (" + others + " more to roll)" : "");
  }

  C.register("xmen-alert", {
    icon: "battle",
    short: "X-Men Alert",
    // game.abandon: stopping a game is the setup page's "Put this game away", not a phone's turn
    handles: ["first.roll", "deploy", "battle.roll", "recruit.roll", "recover.roll", "turn.end", "bonus.roll", "card.play", "draw", "game.abandon"],

    face(f) { return FACE[f] ? { icon: FACE[f][0], word: FACE[f][1] } : null; },

    // the next step; a turn that passed at once (Cerebro) is told first, as the prompt does
    next(view) {
      const e = view.expect || {};
      const text = step(view);
      return e.passed && !String(text).startsWith(e.passed) ? e.passed + " " + text : text;
    },

    board(view) {
      const s = view.state;
      const marks = C.initials(s.teams.map((t) => t.player));
      return el("div", { class: "xmen" },
        el("div", { class: "xm-zones" }, s.zones.map((z) => zoneBox(z, marks))),
        el("div", { class: "xm-teams" }, s.teams.map((t) => teamBox(t, view))),
        expTrack(s), goingFirst(s));
    },

    table(view) {
      const s = view.state;
      return el("div", { class: "xm-tv" },
        el("div", { class: "xm-zones" }, s.zones.map((z) => tvZone(z, view))),
        goingFirst(s),
        teamGrid(s, s.teams.map((t) => tvTeam(t, view))),
        tvExp(s));
    },

    decks(view, table) {
      const d = view.state.decks;
      return el("div", { class: "deck-row" }, stat("Alert", d.alert), stat("Power Stat", d.power_stat, table ? "6" : null),
        stat("Training & Luck", d.training_luck, table ? "5" : null), stat("Turned in", d.alert_turned_in, table ? "4" : null));
    },

    lastRoll(view, last) {
      const r = view.state.last_roll;
      if (!r || r.player !== last.player) return null;
      // a recovery roll removes Hit Chips
      const said = typeof r.points === "number"
        ? r.points + " points" + (r.hits ? ", " + r.hits + (r.hits === 1 ? " hit" : " hits") : "")
        : "removes " + r.removes + (r.removes === 1 ? " Hit Chip" : " Hit Chips");
      return el("p", { class: "roll" }, el("b", {}, said),
        el("span", { "data-drop": "5" }, " · " + r.purpose + (r.hero ? ", " + heroName(view, r.hero) : "")));
    },

    describe(action, view) {
      const d = action.data || {};
      const who = action.player ? action.player + ": " : "";
      const faces = d.faces ? d.faces.map((f) => (FACE[f] ? FACE[f][1] : f)).join(", ") : "virtual dice";
      if (action.type === "deploy") return who + "deploy " + (d.heroes || []).map((h) => heroName(view, h)).join(", ") + " to Zone " + d.zone;
      if (/\.roll$/.test(action.type)) return who + action.type.replace(".roll", "") + " roll" + (d.hero ? " for " + heroName(view, d.hero) : "") + " (" + faces + ")";
      if (action.type === "turn.end") return who + "end the turn";
      // a card by its printed title (the data may name one by id or by its title)
      const card = cardTitle(d.card);
      if (action.type === "draw") return "drew " + card;
      if (action.type === "card.play") return who + "play " + card + (d.target ? " on " + d.target : d.hero ? " on " + heroName(view, d.hero) : "");
      return null;
    },

    controls(view) {
      const e = view.expect;
      const box = el("div", { class: "xm-controls" });
      if (e.phase === "draw") {
        box.append(drawForm(e));
        return box;
      }
      if (e.must && e.must.length) box.append(el("p", { class: "warn" }, C.icon("warn"), " Still to do: " + e.must.join("; ")));
      (e.dice || []).forEach((entry, i) => box.append(el("div", { class: "xm-roll" }, el("h3", {}, C.icon("die"), rollWords(entry, view)),
        dicePicker(view, entry, "roll" + i))));
      if ((e.actions || []).includes("deploy")) box.append(deployForm(view) || "");
      box.append(...cardForms(view));
      if ((e.actions || []).includes("turn.end")) box.append(C.button("end", "End " + e.player + "'s turn", () => C.act("turn.end"), { class: "big", "data-key": "turn-end" }));
      return box;
    },

    // Setup: players in seating order, Basic or Advanced, and Power Stat cards typed in from the box.
    setupForm(components) {
      const names = [0, 1, 2, 3].map((i) => el("input", { name: "player-" + i, size: 12, placeholder: i < 2 ? "name (needed)" : "(optional)",
        "aria-label": "Player " + (i + 1) + " in seating order" }));
      // 'If all players agree, each player may look through the Power Cards and take the X-Men of
      // his choice': a seat's X-Men (two in the Advanced game) chosen, else dealt as the rules say
      const characters = (components && components.characters) || [];
      const pick = (i, k) => el("select", { name: "xm-pick-" + i + "-" + k, "aria-label": "Player " + (i + 1) + "'s X-Men" + (k ? " (second)" : "") },
        el("option", { value: "" }, k ? "(second: dealt)" : "(dealt)"), characters.map((c) => el("option", { value: c.id }, c.name)));
      const picks = [0, 1, 2, 3].map((i) => [pick(i, 0), pick(i, 1)]);
      const first = el("select", { name: "xm-first", "aria-label": "Who goes first" }, el("option", { value: "" }, "Roll to see (the rules)"),
        [0, 1, 2, 3].map((i) => el("option", { value: i }, "Player " + (i + 1))));
      const typed = [];
      const list = el("ul", { class: "xm-typed" });
      const f = {};
      const num = (k, label) => el("label", {}, label + " ", f[k] = el("input", { name: "tc-" + k, type: "number", min: 0, max: 60, size: 3 }));
      const kind = el("select", { name: "tc-kind" }, el("option", { value: "" }, "(no extra ability)"),
        Object.keys(KINDS).map((k) => el("option", { value: k }, C.human(k))));
      const drawList = () => list.replaceChildren(...typed.map((c, i) => el("li", {}, c.name + ": FS " + c.fighting_skill + " / D " + c.durability +
        " / I " + c.intelligence + " = " + c.total_power + (c.abilities.length ? " · " + c.abilities[0].name : "") + " ",
      C.button("cross", "Remove", () => { typed.splice(i, 1); drawList(); }, { class: "small" }))));
      const add = C.button("plus", "Add this card", () => {
        const card = { id: f.name.value.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, ""), name: f.name.value.trim(), abilities: [] };
        for (const k of ["fighting_skill", "durability", "intelligence", "total_power"]) card[k] = Number(f[k].value);
        if (kind.value) {
          const a = { name: f.ability.value.trim() || C.human(kind.value), kind: kind.value, text: f.text.value.trim() };
          for (const k of KINDS[kind.value]) a[k] = Number(f[k].value || 0);
          card.abilities.push(a);
        }
        typed.push(card);
        drawList();
      }, { "data-key": "typed-add" });
      const box = el("div", { class: "xm-setup" },
        el("fieldset", {}, el("legend", {}, "Players, in seating order clockwise (2 to 4)"), names.map((n, i) => el("label", {}, (i + 1) + ". ", n))),
        el("details", {}, el("summary", {}, "Choose X-Men and who goes first (if all players agree)"),
          picks.map((two, i) => el("p", { class: "xm-picks" }, "Player " + (i + 1) + ": ", two[0], " ", el("span", { class: "xm-adv-only" }, two[1]))),
          el("label", {}, "Going first: ", first)),
        el("fieldset", {}, el("legend", {}, "Rules"),
          el("label", { class: "check" }, el("input", { type: "radio", name: "xm-rules", value: "basic", checked: true }), " Basic game"),
          el("label", { class: "check" }, el("input", { type: "radio", name: "xm-rules", value: "advanced" }), " Advanced game (every Advanced section)")),
        el("fieldset", {}, el("legend", {}, "Decks the table draws itself (name each card drawn)"),
          el("label", { class: "check" }, el("input", { type: "checkbox", name: "xm-physical", value: "alert" }), " X-Men Alert deck"),
          el("label", { class: "check" }, el("input", { type: "checkbox", name: "xm-physical", value: "training_luck" }), " Training & Luck deck")),
        el("details", {}, el("summary", {}, C.icon("pencil"), " Type in a Power Stat card from the box"),
          el("p", { class: "hint" }, "Its printed values. A card with the name of one the companion knows replaces it; a new one joins the deck. Total Power must be Fighting Skill + Durability + Intelligence."),
          el("label", {}, "Name ", f.name = el("input", { name: "tc-name", size: 14 })),
          num("fighting_skill", "Fighting Skill"), num("durability", "Durability"), num("intelligence", "Intelligence"), num("total_power", "Total Power"),
          el("label", {}, "Extra ability ", f.ability = el("input", { name: "tc-ability", size: 14, placeholder: "its name" })), el("label", {}, "works as ", kind),
          num("dice", "dice"), num("xmen", "per X-Men"), num("marvel", "per Marvel"),
          el("label", {}, "Text ", f.text = el("input", { name: "tc-text", size: 24 })), add, list));
      // a second X-Men a player only in the Advanced game ('deal two')
      const advancedPicks = () => {
        const adv = box.querySelector('[name="xm-rules"]:checked').value === "advanced";
        for (const s of box.querySelectorAll(".xm-adv-only")) s.hidden = !adv;
      };
      box.addEventListener("change", advancedPicks);
      advancedPicks();
      // who may go first: the seats with a name, by it (an empty seat was offered, and refused)
      const seats = () => names.forEach((n, i) => {
        const option = first.options[i + 1];
        option.textContent = n.value.trim() || "Player " + (i + 1);
        option.disabled = !n.value.trim();
      });
      box.addEventListener("input", seats);
      seats();
      return {
        node: box,
        options() {
          const out = { players: names.map((n) => n.value.trim()).filter(Boolean),
            advanced: box.querySelector('[name="xm-rules"]:checked').value === "advanced" };
          const chosen = {};
          names.forEach((n, i) => {
            const who = n.value.trim();
            const ids = picks[i].slice(0, out.advanced ? 2 : 1).map((s) => s.value).filter(Boolean);
            if (who && ids.length) chosen[who] = out.advanced ? ids : ids[0];
          });
          if (Object.keys(chosen).length) out.stat_cards = chosen;
          if (first.value !== "" && names[Number(first.value)].value.trim()) out.first_player = names[Number(first.value)].value.trim();
          if (typed.length) out.typed_cards = typed.slice();
          const physical = [...box.querySelectorAll('[name="xm-physical"]:checked')].map((x) => x.value);
          if (physical.length) out.physical_decks = physical;
          return out;
        },
      };
    },
  });
})();
