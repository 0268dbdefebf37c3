// Invincible: the zones (civilians, villains, minions), each hero, the episode track, the decks
// and the score; Hero Phase controls (pull three cubes, play, drop), and the power resolving: one
// tap per choice its card leaves open (which enemy, zone, civilian, hero), the engine applies the
// card's amount. Typed effect forms only answer a villain text the companion cannot apply.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const COLOURS = ["black", "yellow", "blue", "orange", "purple", "red"];
  const comps = () => (C.info.invincible || {}).components || {};
  // the name of the item with this id in a list, or a stand-in for one the list lacks
  const nameIn = (list, id, none = id) => ((list || []).find((x) => x.id === id) || { name: none }).name;
  const stat = (label, value, attrs) => el("div", Object.assign({ class: "stat" }, attrs || {}), el("span", { class: "label" }, label), " ", el("b", {}, value));
  const cube = (c) => el("span", { class: "cube c-" + c }, C.icon("cube"), c);
  const zoneName = (z) => (z === "hq" ? "Guardians HQ" : C.human(z));
  // a slot as the table says it: "Yellow slot", "flex slot 2" (two "flex slots"), never "Flex2"
  const slotWords = (x) => (/^flex\d$/.test(x) ? "flex slot " + x.slice(4) : C.human(x) + " slot");
  // an episode track icon in words (the data's "villain 1", "minions all 1", "ability bombs")
  const ROMAN = { 1: "I", 2: "II", 3: "III" };
  function iconWords(icon, s) {
    const [head, ...rest] = String(icon).split(" ");
    if (head === "hardcore") return iconWords(rest.join(" "), s) + " (hardcore)";
    if (head === "villain") return "a Level " + (ROMAN[rest[0]] || rest[0]) + " villain";
    if (head === "minions") {
      const n = Number(rest[1]);
      return n + (n === 1 ? " minion" : " minions") + (rest[0] === "all" ? " in each zone" : " in the " + rest[0] + " zone");
    }
    if (head === "ability") return nameIn(s.abilities, rest[0], C.human(rest[0] || "")) + " acts";
    if (head === "boss") return (s.boss ? s.boss.name : "the boss") + " arrives";
    return C.human(icon);
  }
  const spaceWords = (t, s) => t.icons.map((i) => iconWords(i, s)).join(", ");
  // the decks by the rulebook's names ('the Super Power, Ultimate Power, Level I Villain, Level II
  // Villain, and Level III Villain decks'), the boss's own by its boss
  const DECKS = { super: "Super Power", ultimate: "Ultimate Power", event: "Event", villain1: "Level I Villain", villain2: "Level II Villain", villain3: "Level III Villain" };
  const deckName = (k, s) => DECKS[k] || (k === "boss" && s.boss ? s.boss.name + "'s events" : C.human(k));

  function bossIn(s, zone) {
    return s.boss && !s.boss.defeated && s.boss.zone === zone ? s.boss : null;
  }

  function villainsInPlay(s) {
    const out = [];
    for (const z of s.zones) for (const v of z.villains) if (v) out.push(Object.assign({ zone: z.name }, v));
    return out;
  }

  function zoneBox(z, s) {
    const c = z.civilians;
    const villains = z.villains.map((v, i) => v ? el("li", { class: "villain", "data-villain": v.id },
      el("b", {}, C.icon("skull"), " " + v.name), " (level " + v.level + ")",
      el("div", { class: "bar", role: "img", "aria-label": v.remaining + " of " + v.health + " health left" },
        el("span", { style: "width:" + Math.round(100 * v.remaining / v.health) + "%" })),
      el("span", {}, C.icon("heart"), " " + v.remaining + "/" + v.health + " health · thwart " + v.thwart + "/" + v.thwart_spaces + (v.fully_thwarted ? ", fully thwarted" : "")))
      : el("li", { class: "none" }, "slot " + (i + 1) + ": empty"));
    const b = bossIn(s, z.name);   // episodes 4 and 7: an enemy in no villain slot
    if (b) villains.push(el("li", { class: "villain boss", "data-boss": b.id }, el("b", {}, C.icon("skull"), " Boss: " + b.name),
      el("span", {}, " ", C.icon("heart"), " " + b.remaining + "/" + b.health + " health")));
    const heroes = s.heroes.filter((h) => h.zone === z.name).map((h) => h.name);
    return el("section", { class: "inv-zone", "data-zone": z.name, "aria-label": zoneName(z.name) + " zone" },
      el("h3", {}, C.icon("target"), zoneName(z.name)),
      el("p", { class: "civ" }, el("span", { "data-civ": "safety" }, C.icon("person"), " safe " + c.safety), " · ",
        el("span", { "data-civ": "danger", class: c.danger ? "warn" : "" }, C.icon("warn"), " in danger " + c.danger), " · ",
        el("span", { "data-civ": "dead" }, C.icon("grave"), " dead " + c.dead)),
      el("p", { "data-minions": z.minions }, C.icon("minion"), " minions " + z.minions + "/" + (comps().minion_cap || 3)),
      el("ul", { class: "villains" }, villains),
      el("p", { class: "here" }, C.icon("bolt"), " " + (heroes.join(", ") || "no hero")));
  }

  // black cubes toward a crash, as squares
  function blackChips(h) {
    const blacks = el("span", { class: "chips", "aria-hidden": "true" });
    for (let i = 0; i < (h.crash_at || 5); i++) blacks.append(el("span", { class: "chip-dot sq" + (i < h.black_cubes ? " hit" : "") }));
    return blacks;
  }

  // "done" belongs to the phases heroes finish one by one (Hero, Training): kept into the
  // Villain Phase and the next advance, it read as news of a phase already over
  const DONE_PHASES = ["hero", "hero_end", "crash", "training"];
  const shownDone = (h, phase) => h.done && DONE_PHASES.includes(phase);

  // the phones' hero box: "done" only in those phases, as on the table
  function heroBox(h, phase) {
    const done = shownDone(h, phase);
    return el("section", { class: "inv-hero" + (h.crashed && !h.rescued ? " crashed" : "") + (done ? " done" : ""), "data-hero": h.id },
      el("h3", {}, C.icon("person"), h.name + (h.player && h.player !== h.name ? " (" + h.player + ")" : ""), done ? C.tag("check", "done") : ""),
      el("p", {}, C.icon("heart"), " health " + h.health + "/" + h.max_health + " · " + zoneName(h.zone)),
      el("p", { "data-black": h.black_cubes }, blackChips(h), " " + h.black_cubes + "/" + (h.crash_at || 5) + " black cubes toward a crash"),
      h.crashed ? el("p", { class: "warn" }, C.icon("burst"), h.rescued ? " crashed, rescued" : " CRASHED") : null,
      el("p", {}, C.icon("flag"), " defiance " + h.defiance + " · bag " + h.bag_count + (h.ready.length ? " · ready: " : ""), h.ready.map(cube)));
  }

  function track(s) {
    return el("ol", { class: "inv-track", "aria-label": "Episode track" }, s.track.map((t) =>
      el("li", { class: t.current ? "current" : "" }, el("b", {}, (t.current ? "now " : "") + t.space), " ", spaceWords(t, s) || "none")));
  }

  // Tap colours to pull: each tap adds one cube; send when three are in (or let the companion pull).
  function cubePicker(type, hero, bag, key) {
    // the colours tapped so far outlive a redraw (C.draft), as far as the bag still holds them
    const draft = C.draft(key);
    const cubes = draft.picks;
    const kept = cubes.splice(0).filter((c, i, all) => all.slice(0, i + 1).filter((x) => x === c).length <= (bag[c] || 0));
    cubes.push(...kept.slice(0, 3));
    const shown = el("p", { "aria-live": "polite" });
    const send = C.button("bag", type === "defiance" ? "Defiance: pull these 3" : "Pull these 3",
      () => C.sendDraft(draft, (picked) => C.act(type, { hero, cubes: picked }, hero)), { class: "big", disabled: true, "data-key": key + "-send" });
    // why a tap added nothing, said where the cubes are counted (the tap is not lost unseen)
    const show = (why) => {
      shown.textContent = cubes.length + " of 3: " + (cubes.join(", ") || "tap the colours pulled") + (why ? ". " + why : "");
      send.disabled = cubes.length !== 3;
    };
    draft.show = show;
    show();
    return el("div", { class: "inv-pull" }, el("div", { class: "faces" },
      COLOURS.filter((c) => bag[c]).map((c) => el("button", { type: "button", class: "face c-" + c, "data-key": key + "-" + c,
        // no more of a colour than the bag holds ('Draw three random cubes from your bag')
        onclick: () => {
          if (cubes.length === 3) show("All 3 in: tap Remove last to change one");
          else if (cubes.filter((x) => x === c).length >= bag[c]) show("The bag holds only " + bag[c] + " " + c);
          else { cubes.push(c); show(); }
        } }, C.icon("cube"), " " + c)),
      C.button("erase", "Remove last", () => { cubes.pop(); show(); }, { class: "small", "data-key": key + "-undo" })),
    shown, el("div", { class: "row" }, send, C.button("bag", "Pull for me", () => C.act(type, { hero }, hero), { "data-key": key + "-virtual" })));
  }

  // A power's symbol, and the cube on it in that cube's own colour: a black (wild) cube on a
  // blue symbol reads "black on blue" (every black cube on a power counts toward a crash)
  function symbol(x, on) {
    if (!on) return el("span", { class: "sym c-" + x }, x);
    return el("span", { class: "sym on c-" + x, "data-cube": on, title: on + " cube on " + x },
      cube(on), on === x ? null : " on " + x);
  }

  // Each power with its symbols (a cube on each one covered) and, while its hero may play, a
  // button per ready colour that fits: an open symbol of that colour, any open one for a wild cube.
  const WILD = ["black", "red"];
  function powerList(h, play) {
    const ready = [...new Set(h.ready)];
    return el("ul", { class: "inv-powers" }, Object.entries(h.powers).map(([slot, p]) => {
      const open = p.symbols.filter((x, i) => !p.cubes[i]);
      const locked = p.filled || !open.length || (slot.startsWith("under:") && !(h.powers[slot.slice(6)] || {}).filled);
      return el("li", { "data-slot": slot, class: p.filled ? "filled" : "" }, el("b", {}, p.name), " ",
        p.symbols.map((x, i) => symbol(x, p.cubes[i])),
        p.filled ? C.tag("check", "filled") : el("small", { class: "by" }, " " + (p.effects || []).join("; ")),
        play && !locked ? el("div", { class: "faces" }, ready.filter((c) => WILD.includes(c) || open.includes(c)).map((c) =>
          C.button("play", "Play " + c, () => C.act("play", { hero: h.id, cube: c, power: slot }, h.id), { class: "face c-" + c, "data-key": "play-" + h.id + "-" + slot + "-" + c }))) : null);
    }));
  }

  // What one hero may do now: the power it is resolving, a pull, defiance, its powers and drops.
  function heroTurn(view, h, rs) {
    const e = view.expect;
    const hx = (e.heroes || []).find((x) => x.hero === h.id) || { actions: [] };
    const can = (t) => e.phase === "hero" && hx.actions.includes(t);
    const part = el("section", { class: "inv-turn", "data-hero": h.id }, rs.filter((r) => r.hero === h.id).map((r) => resolvingPanel(view, r)));
    if (can("pull")) part.append(cubePicker("pull", h.id, h.bag, "pull-" + h.id));
    if (can("defiance")) part.append(el("details", { "data-key": "defy-" + h.id + "-open" }, el("summary", {}, C.icon("flag"), " Use defiance"), cubePicker("defiance", h.id, h.bag, "defy-" + h.id)));
    if (can("play")) part.append(powerList(h, true));
    if (can("drop")) part.append(el("div", { class: "faces" }, [...new Set(h.ready)].map((c) => C.button("down", "Drop " + c, () => C.act("drop", { hero: h.id, cube: c }, h.id),
      { class: "face small", "data-key": "play-" + h.id + "-drop-" + c }))));
    const training = e.phase === "training" && (e.training || {})[h.id];
    if (training) part.append(trainingPanel(view, h, training));
    // a hero with nothing to tap while another's power resolves is told why, not left with no
    // buttons: 'each power must fully resolve before the next begins'
    const other = rs.find((r) => r.hero !== h.id);
    if (e.phase === "hero" && other && !hx.finished && !hx.actions.length && !part.childElementCount) {
      part.append(el("p", { class: "hint", "data-waits": h.id }, C.icon("clock"), " Waiting for " + heroName(view, other.hero) +
        "'s " + other.name + ": each power must fully resolve before the next begins."));
    }
    return part;
  }

  // The Training Phase, one tap a choice, from what the engine lists for the hero now: learn a
  // card into a slot, Learn By Punching (a card discarded, the slot picked first), one cube.
  function trainingPanel(view, h, tr) {
    const power = (c) => (comps().powers || []).find((p) => p.id === String(c).split("#")[0]) || { name: C.human(c) };
    const slotName = (x) => (x.startsWith("under:") ? "beneath " + C.human(x.slice(6)) : slotWords(x));
    // a slot already holding a power says so: learning into it discards that power
    const into = (x) => slotName(x) + (h.powers[x] ? " (replaces " + h.powers[x].name + ")" : "");
    const freeFirst = (slots) => [...slots].sort((a, b) => (h.powers[a] ? 1 : 0) - (h.powers[b] ? 1 : 0));
    const left = (view.expect.confidence || {})[h.id];
    const box = el("div", { class: "inv-training", "data-training": h.id });
    // one row a card, its choices as small buttons beside its name
    const byCard = (list) => [...new Set(list.map((o) => o.card))].map((c) => [c, list.filter((o) => o.card === c)]);
    if (tr.learn.length) {
      box.append(el("h4", {}, C.icon("up"), " Learn (" + left + " confidence left)"), ...byCard(tr.learn).map(([c, slots]) =>
        el("div", { class: "row" }, el("b", {}, power(c).name + " (" + power(c).cost + ")"), " into",
          slots.map((o) => C.button("plus", into(o.slot), () => C.act("learn", { hero: h.id, card: c, slot: o.slot }, h.id),
            { class: "small", "data-key": "learn-" + h.id + "-" + c + "-" + o.slot })))));
    }
    if (tr.punch) {
      // an empty slot first: the one a tap takes without changing the menu discards nothing
      const pick = el("select", { "aria-label": "Learn By Punching into", "data-key": "punch-" + h.id + "-slot" },
        freeFirst(tr.punch.slots).map((x) => el("option", { value: x }, into(x))));
      box.append(el("h4", {}, C.icon("burst"), " Or Learn By Punching instead: discard a card"), el("label", {}, "Into the ", pick),
        el("div", { class: "faces" }, tr.punch.discard.map((c) => C.button("cross", "Discard " + power(c).name,
          () => C.act("punch", { hero: h.id, discard: c, slot: pick.value }, h.id), { class: "face small", "data-key": "punch-" + h.id + "-" + c }))));
    }
    if (tr.cube.length) {
      box.append(el("h4", {}, C.icon("cube"), " Gain a cube (once): discard a power of its colour"), ...byCard(tr.cube).map(([c, colours]) =>
        el("div", { class: "row" }, el("b", {}, power(c).name), " for",
          colours.map((o) => C.button(null, cube(o.colour), () => C.act("train_cube", { hero: h.id, discard: c, colour: o.colour }, h.id),
            { class: "small", "data-key": "cube-" + h.id + "-" + c + "-" + o.colour })))));
    }
    // rarer than learning, so folded: swaps the engine accepts as they stand, learned powers to discard
    const here = (x) => h.powers[x];
    const place = (x) => (x.startsWith("under:") ? "beneath " + ((here(x.slice(6)) || {}).name || C.human(x.slice(6))) : "to the " + slotName(x));
    const swap = ([a, b]) => (here(a) && here(b) ? "Swap " + here(a).name + " and " + here(b).name
      : here(a) ? "Move " + here(a).name + " " + place(b) : "Move " + here(b).name + " " + place(a));
    if (tr.arrange.length || tr.discard.length) {
      box.append(el("details", { class: "inv-arrange", "data-key": "arrange-" + h.id }, el("summary", {}, C.icon("move"), " Rearrange or discard powers"),
        el("div", { class: "faces" }, tr.arrange.map((pair) => C.button("move", swap(pair), () => C.act("arrange", { hero: h.id, slots: pair }, h.id),
          { class: "small", "data-key": "arrange-" + h.id + "-" + pair.join("-") }))),
        el("div", { class: "faces" }, tr.discard.map((x) => C.button("cross", "Discard " + here(x).name, () => C.act("discard_power", { hero: h.id, slot: x }, h.id),
          { class: "small", "data-key": "discard-" + h.id + "-" + x })))));
    }
    // 'you may draw at most one card from the Ultimate Power deck per refill': the plain done
    // button draws Super Powers only, so this done says how many come from the Ultimate deck
    for (let n = 1; n <= (tr.ultimates || 0); n++) {
      box.append(el("div", { class: "row" }, C.button("check", "Done, " + n + " Ultimate Power" + (n > 1 ? "s" : "") + " in the refill",
        () => C.act("done", { hero: h.id, ultimates: n }, h.id), { class: "small", "data-key": "done-ultimates-" + h.id + "-" + n })));
    }
    return box;
  }

  // Cecil's Contingency after a reveal: tap up to its number of villain abilities, then spend it
  // (or tap Resolved and keep it for a later Villain Phase)
  function contingencyPanel(p) {
    const chosen = [];
    const helper = nameIn(comps().helpers, p.helper, C.human(p.helper));
    const label = (o) => { const [v, what] = o.split(":"); return "the " + what + " of " + nameIn(comps().villains, v, C.human(v)); };
    const send = C.button("cross", "Spend " + helper + ": cancel these", () => C.act("use_helper", { helper: p.helper, cancel: chosen.slice() }, null),
      { class: "big", disabled: true, "data-key": "contingency-send" });
    const buttons = p.options.map((o) => C.button("skull", "Cancel " + label(o), () => {
      const i = chosen.indexOf(o);
      if (i >= 0) chosen.splice(i, 1); else if (chosen.length < p.max) chosen.push(o);
      for (const b of buttons) b.setAttribute("aria-pressed", String(chosen.includes(b.dataset.option)));
      send.disabled = !chosen.length;
    }, { class: "face", "aria-pressed": "false", "data-option": o, "data-key": "cancel-" + o }));
    return el("div", { class: "inv-contingency" }, el("p", { class: "hint" }, "Tap up to " + p.max + " to cancel, then spend the card; or tap Resolved to keep it."),
      el("div", { class: "faces" }, buttons), send);
  }

  // The team's helper cards while one may be spent: one with effects through a hero who could
  // activate a power now (its effects then resolve like a power's), one without only spent
  function helpersPanel(list, s) {
    const named = (id) => (s.heroes.find((h) => h.id === id) || { name: id }).name;
    return el("details", { class: "inv-helpers", "data-key": "helpers" }, el("summary", {}, C.icon("card"), " Helper cards (" + list.length + ")"),
      list.map((x) => el("div", { class: "row", "data-helper": x.helper }, el("b", {}, x.name), el("small", {}, " " + x.text),
        el("div", { class: "faces" }, x.heroes.length
          ? x.heroes.map((id) => C.button("play", "Use through " + named(id), () => C.act("use_helper", { helper: x.helper, hero: id }, id),
            { class: "small", "data-key": "helper-" + x.helper + "-" + id }))
          : C.button("play", "Spend " + x.name, () => C.act("use_helper", { helper: x.helper }, null), { class: "small", "data-key": "helper-" + x.helper })))));
  }

  // "My hero": the hero this phone plays, kept on this phone (localStorage) across reloads.
  const MINE = "companion.invincible.hero";
  const mine = (s) => { let id = null; try { id = localStorage.getItem(MINE); } catch (e) { /* private mode */ } return s.heroes.some((h) => h.id === id) ? id : null; };
  function choose(id) {
    try { if (id) localStorage.setItem(MINE, id); else localStorage.removeItem(MINE); } catch (e) { /* private mode: this page only */ }
    C.redraw();
  }
  let othersOpen = false;

  // The effects a card asks for, as small forms with the choices the state offers.
  function effectForms(view) {
    const s = view.state;
    const heroes = s.heroes.map((h) => [h.id, h.name]);
    const zones = s.zones.map((z) => [z.name, zoneName(z.name)]);
    const villains = villainsInPlay(s).map((v) => [v.id, v.name + " (" + zoneName(v.zone) + ")"]);
    const slots = (comps().slots || []).concat(["attack", "move", "rescue", "thwart"]).map((x) => [x, C.human(x)]);
    const pick = (name, list, optional) => el("select", { name }, optional ? el("option", { value: "" }, "(none)") : null,
      list.map(([v, t]) => el("option", { value: v }, t)));
    const num = (name, v) => el("input", { name, type: "number", min: name === "count" ? -9 : 1, max: 20, value: v, size: 3 });
    const tick = (name) => el("input", { name, type: "checkbox" });
    const spec = {
      damage: ["battle", "Damage", { hero: pick("hero", heroes), target: pick("target", villains.concat([["minion", "a minion"]])), amount: num("amount", 1),
        zone: pick("zone", zones, true), ranged: tick("ranged"), power: pick("power", slots, true) }],
      endanger: ["warn", "Endanger civilians", { zone: pick("zone", zones), count: num("count", 1) }],
      rescue: ["person", "Rescue", { hero: pick("hero", heroes), zone: pick("zone", zones, true), ranged: tick("ranged"),
        crashed: pick("crashed", heroes, true), face: pick("face", (comps().rescue_die || []).map((f) => [f.id, f.id]), true) }],
      thwart: ["shield", "Thwart", { hero: pick("hero", heroes), villain: pick("villain", villains, true),
        ability: pick("ability", (s.abilities || []).map((a) => [a.id, a.name]), true) }],
      heal: ["heart", "Heal", { hero: pick("hero", heroes), target: pick("target", heroes), amount: num("amount", 1) }],
      move: ["move", "Move", { hero: pick("hero", heroes), to: pick("to", zones.concat([["hq", "Guardians HQ"]])), target: pick("target", heroes.concat(villains), true) }],
      gain_cube: ["plus", "Gain a cube", { hero: pick("hero", heroes), colour: pick("colour", COLOURS.slice(1, 5).map((c) => [c, c])) }],
      strengthen: ["up", "Strengthen", { hero: pick("hero", heroes), power: pick("power", slots) }],
    };
    const legal = view.expect.actions || [];
    return Object.entries(spec).filter(([type]) => legal.includes(type)).map(([type, [icon, word, fields]]) => {
      const form = el("form", { class: "inv-effect", "data-action": type },
        Object.entries(fields).map(([k, input]) => el("label", { class: input.type === "checkbox" ? "check" : "" }, C.human(k) + " ", input)),
        el("button", { type: "submit", class: "big", "data-key": "effect-" + type }, C.icon(icon), el("span", { class: "word" }, word)));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const data = {};
        for (const [k, input] of Object.entries(fields)) {
          if (input.type === "checkbox") { if (input.checked) data[k] = true; } else if (input.value !== "") data[k] = input.type === "number" ? Number(input.value) : input.value;
        }
        C.act(type, data, data.hero || null);
      });
      return el("details", { class: "inv-effect-box" }, el("summary", {}, C.icon(icon), " " + word), form);
    });
  }

  // What an answer names, in the table's words.
  function optionWords(o, s, kind, r) {
    const villain = (id) => id === "boss" && s.boss ? s.boss.name : nameIn(villainsInPlay(s), id, C.human(id));
    const hero = (id) => nameIn(s.heroes, id);
    const parts = [];
    const card = (id) => nameIn(comps().powers, id.split("#")[0], C.human(id));
    if (kind === "give_experimental") return card(o.card) + " to " + hero(o.target) + ", " + slotWords(o.into);
    if (o.target === "minion") parts.push("a minion in " + zoneName(o.zone));
    else if (o.target && kind !== "move") parts.push(s.heroes.some((h) => h.id === o.target) ? hero(o.target) : villain(o.target));
    else if (o.target && kind === "move" && o.target !== r.hero) parts.push(s.heroes.some((h) => h.id === o.target) ? hero(o.target) : villain(o.target));
    if (o.zone && o.target !== "minion") parts.push(zoneName(o.zone) + " zone");
    if (o.to) parts.push("to " + zoneName(o.to));
    if (o.crashed) parts.push("crashed " + hero(o.crashed));
    if (o.villain) parts.push(villain(o.villain));
    if (o.ability) parts.push(nameIn(s.abilities, o.ability));
    if (o.colour) parts.push(o.colour + " cube");
    if (o.helper) parts.push(nameIn(comps().helpers, o.helper));
    if (o.slot) {
      const me = s.heroes.find((h) => h.id === r.hero);
      parts.push((kind === "relearn" ? "discard " : "") + (me && me.powers[o.slot] ? me.powers[o.slot].name : C.human(o.slot)));
    }
    // a card from the hand or an Experimental Technology card, the slot it goes in, the drone
    if (o.card) parts.push((kind === "relearn" ? "learn " : "") + card(o.card));
    if (o.into) parts.push("into the " + slotWords(o.into));
    if (o.drone) parts.push("using Robot's drone");
    return parts.join(" ") || "apply";
  }

  // The power resolving: each effect of its card with a button per answer it leaves open; a
  // crash rescue taps the rescue die's face; an effect the card lets you skip has a skip button.
  function resolvingPanel(view, r) {
    const e = view.expect;
    const s = view.state;
    const legal = e.actions || [];
    if (!r || !r.steps) return el("span");
    // a crash rescue reads only the outcome ('Epic Rescue or Rescue — the attempt succeeds'):
    // one button an outcome, in the rulebook's words, never the data's face ids ("epic-left")
    const OUTCOME = { epic: "Epic Rescue", rescue: "Rescue", failure: "Failure" };
    const faces = [];
    for (const f of comps().rescue_die || []) if (!faces.some((g) => g.result === f.result)) faces.push(f);
    const box = el("section", { class: "inv-resolving", "data-resolving": r.power },
      el("h3", {}, C.icon("bolt"), (s.heroes.find((h) => h.id === r.hero) || {}).name + " resolves " + r.name));
    for (const st of r.steps) {
      const row = el("div", { class: "inv-step", "data-step": st.index }, el("p", {}, st.hint + (st.not_yet ? " (" + st.not_yet + ")" : "")));
      const buttons = el("div", { class: "faces" });
      if (legal.includes("effect")) {
        for (const o of st.options) {
          const data = Object.assign({ hero: r.hero, step: st.index }, o);
          const key = "effect-" + st.index + "-" + Object.values(o).join("-");
          if (o.crashed && (st.kind === "rescue" || st.kind === "autosave_rescue")) {
            buttons.append(el("span", { class: "label" }, "Rescue " + optionWords(o, s, st.kind, r) + ": the rescue die shows "),
              ...faces.map((f) => C.button("die", OUTCOME[f.result] || C.human(f.result), () => C.act("effect", Object.assign({}, data, { face: f.id }), r.hero), { class: "face", "data-key": key + "-" + f.id })),
              C.button("die", "Roll for me", () => C.act("effect", data, r.hero), { "data-key": key + "-virtual" }));
          } else {
            buttons.append(C.button("target", optionWords(o, s, st.kind, st.kind === "place_cube" ? Object.assign({}, r, { hero: st.target }) : r), () => C.act("effect", data, r.hero), { class: "face", "data-key": key }));
          }
        }
      }
      if (st.skip && legal.includes("decline")) buttons.append(C.button("cross", "Skip", () => C.act("decline", { hero: r.hero, step: st.index }, r.hero), { class: "small", "data-key": "decline-" + st.index }));
      row.append(buttons);
      box.append(row);
    }
    return box;
  }

  function diceButtons(entry, key, view) {
    const data = entry.data || {};
    const field = entry.field || "face";
    // whose roll it is: every phone shows it ("Crash die" alone left each player asking)
    const whose = data.hero ? heroName(view, data.hero) + "'s " : "";
    return el("div", {}, el("p", {}, C.icon("die"), " " + whose + C.human(entry.die).toLowerCase() + " die: tap the face rolled"), el("div", { class: "faces" },
      // a face by what it means ("Epic (left zone)"), not its data id
      [...new Set(entry.faces)].map((f) => C.button(null, C.human((entry.meanings || {})[f] || f), () => C.act(entry.action, Object.assign({}, data, { [field]: field === "faces" ? [f] : f }), entry.player || null),
        { class: "face", "data-key": key + "-" + f })),
      C.button("die", "Roll for me", () => C.act(entry.action, Object.assign({}, data), entry.player || null), { "data-key": key + "-virtual" })));
  }

  // -- the table: what the whole table needs at a glance; every detail stays on the phones --------

  // The zones as rows of one table: the column heads say what the numbers are, once.
  function tvZones(s) {
    const cap = comps().minion_cap || 3;
    const head = el("div", { class: "inv-zrow head" }, el("span", {}, ""), el("span", {}, "Danger"), el("span", {}, "Dead"),
      el("span", {}, "Minions"), el("span", {}, "Villains"));
    return el("div", { class: "inv-ztable", role: "table", "aria-label": "Zones" }, head, s.zones.map((z) => {
      const c = z.civilians;
      const villains = z.villains.filter(Boolean);
      const b = bossIn(s, z.name);
      if (b) villains.push({ id: "boss", name: "Boss: " + b.name, remaining: b.remaining, health: b.health });
      return el("div", { class: "inv-zrow", "data-zone": z.name, role: "row" },
        el("b", {}, zoneName(z.name)), el("span", { class: c.danger ? "warn" : "" }, c.danger), el("span", {}, c.dead),
        el("span", {}, z.minions + "/" + cap),
        el("span", { class: "inv-vs" }, villains.length ? villains.map((v, i) => el("span", { class: "villain", "data-villain": v.id, "data-drop": i ? "3" : null, "data-tallied": "zone " + z.name },
          v.name + " ", el("span", { class: "hp" }, C.icon("heart"), v.remaining + "/" + v.health))) : el("span", { class: "none" }, "none"),
          villains.length > 1 ? el("span", { class: "more", "data-tally": "zone " + z.name, hidden: "" }) : null));
    }));
  }

  function tvHero(h, phase) {
    const done = shownDone(h, phase);
    // the last to go for room (after the episode strip, the villains' second lines, the round
    // and the score), a hero who is done before those still playing, each counted: "+1 more"
    return el("section", { class: "inv-hero" + (h.crashed && !h.rescued ? " crashed" : "") + (done ? " done" : ""), "data-hero": h.id,
      "data-drop": done ? "1" : "0", "data-tallied": "heroes" },
      el("h3", {}, el("span", { class: "shrink" }, h.name), done ? C.tag("check", "done") : null, el("span", { class: "by shrink", "data-drop": "4" }, zoneName(h.zone))),
      // who plays the hero, by the name they gave (the phones say "Invincible (Mom)")
      h.player && h.player !== h.name ? el("p", { class: "by", "data-drop": "5" }, el("span", { class: "shrink" }, h.player)) : null,
      el("p", {}, C.icon("heart"), " " + h.health + "/" + h.max_health + " ", blackChips(h)),
      h.crashed ? el("p", { class: "warn" }, C.icon("burst"), h.rescued ? " rescued" : " crashed") : null);
  }

  function tvTrack(s) {
    const now = s.track.find((t) => t.current);
    // the strip only pictures the space the line names: it goes first
    return el("div", { class: "inv-track-tv" },
      el("ol", { class: "inv-steps", "aria-hidden": "true", "data-drop": "6" }, s.track.map((t) => el("li", { class: t.current ? "current" : now && t.space < now.space ? "past" : "" }))),
      now ? el("p", { "data-drop": "3" }, C.icon("track"), " Space " + now.space + ": " + (spaceWords(now, s) || "nothing")) : null);
  }

  // Campaign Mode: 'strings all seven episodes together in order ... You get two attempts to
  // win each episode'
  function campaignWords(c) {
    return '"' + c.id + '", attempt ' + c.attempt + " of 2" + (c.results && c.results.length ? ", " + c.total_before + " points so far" : "");
  }

  // What the latest Villain Phase said ('resolve its instructions from top to bottom'), for the
  // players to mirror on the real board: shown through the phase and the advance after it.
  // The table leaves out the reset (the phones say it) and a villain's "uses its strike", which
  // the line after it says in full: as many of the rest as fit, from the top.
  const HEADER = /^(Reset: |.* uses its (power|strike)\.$)/;
  function villainReport(s, table) {
    const all = s.villain_report || [];
    const lines = table ? all.filter((line) => !HEADER.test(line)) : all;
    if (!lines.length || !["villain", "advance"].includes(s.phase)) return null;
    // on the table the section goes too, after its lines and before the round's line (its KOs)
    return el("section", { class: "inv-report", "data-report": lines.length, "data-drop": table ? "2" : null },
      el("h3", {}, C.icon("skull"), " Villain Phase" + (table ? "" : ": do this on the board")),
      el("ol", {}, lines.map((line) => el("li", table ? { "data-drop": "2" } : {}, line))),
      // lines left out for room (the fitting drops from the bottom) are on the phones
      table ? el("p", { class: "inv-more" }, "More on the phones.") : null);
  }

  function heroName(view, id) { const h = view.state.heroes.find((x) => x.id === id); return h ? h.name : id; }

  // The API's own words in a prompt ("use_helper with data.cancel") are for scripts, not people.
  const plain = (text) => String(text || "").replace(/\s*\([^)]*\b(data\.|_)[^)]*\)/g, "").replace(/\bsend (\w+)/g, "tap $1");

  C.register("invincible", {
    icon: "bolt",
    short: "Invincible",
    mine: (view) => mine(view.state),
    hotTimer: (view) => (["hero", "hero_end"].includes(view.state.phase) ? "hero_time" : null),
    askDone: (view) => (view.state.phase === "hero" ? "stop pulling (ready cubes are dropped)" : "done training"),
    // a die's face in the table's words: the crash die's damage, the rescue die's outcome
    face(f, die) {
      const d = (comps()[die + "_die"] || []).find((x) => x.id === f);
      if (!d) return null;
      if (die === "crash") return { icon: "burst", word: d.damage + " damage" + (d.again ? ", roll again" : "") };
      return { icon: "die", word: ({ epic: "Epic Rescue", rescue: "Rescue", failure: "Failure" }[d.result] || C.human(d.result)) + " (" + d.zone + " zone)" };
    },
    playerName: heroName,
    // the table's next step without the asides in brackets (each screen's controls give them)
    next(view) {
      const e = view.expect || {};
      const p = e.pending || {};
      if (p.kind === "contingency") {
        const helper = (comps().helpers || []).find((h) => h.id === p.helper);
        return "Cancel up to " + p.max + " villain abilities with " + (helper ? helper.name : C.human(p.helper)) + ", or tap Resolved";
      }
      // the table names the power each hero resolves; its steps, each a tap, are on the phones
      // (with every step spelt out the line took six lines of the 800x480 screen)
      // hero time ran out with a power half resolved: 'the phase ends immediately. Heroes may
      // finish resolving any power they were already in the middle of'
      const over = view.state.phase === "hero_end" ? "Time's up: the Hero Phase is over. " : "";
      if (C.page === "table" && (e.resolutions || []).length) {
        const meanwhile = String(e.prompt || "").split(" Meanwhile ")[1];
        return over + e.resolutions.map((x) => heroName(view, x.hero) + ": resolve " + x.name + " on a phone.").join(" ") +
          (meanwhile ? " Meanwhile " + plain(meanwhile).replace(/\s*\((?!assumed\))[^)]*\)/g, "") : "");
      }
      return over + plain(e.prompt).replace(/\s*\((?!assumed\))[^)]*\)/g, "");
    },

    table(view) {
      const s = view.state;
      const report = villainReport(s, true);
      return el("div", { class: "inv-tv" },
        // the losses stay in view while anything else does ('Three total KOs across the team ends
        // the game in a loss'): the line loses its round and score, and goes itself only with
        // the heroes (rank 0, before them on the page)
        el("div", { class: "tv-line", "data-drop": "0" }, el("span", { "data-drop": "4" }, C.icon("round"), " Round " + s.round),
          el("span", { class: s.casualties ? "warn" : "" }, C.icon("grave"), " " + s.casualties + "/" + s.casualty_limit + " casualties"),
          // 'Three total KOs across the team ends the game in a loss': once one is taken it
          // stays in view, as the casualties do
          el("span", { class: s.kos ? "warn" : "", "data-drop": s.kos ? null : "4" }, C.icon("burst"), " KOs " + s.kos + "/" + s.ko_limit),
          el("span", { "data-drop": "3", "data-score": s.score.total }, C.icon("star"), " Score " + s.score.total),
          s.campaign ? el("span", { "data-drop": "4", "data-campaign": s.campaign.id }, C.icon("flag"), " Campaign, attempt " + s.campaign.attempt) : null),
        tvTrack(s),
        report,
        tvZones(s),
        // with every hero gone the count goes too, before the losses' line (a crowded zone of
        // long villain names left no room even for it)
        el("div", { class: "inv-heroes", "data-drop": "0" }, s.heroes.map((h) => tvHero(h, s.phase)),
          el("p", { class: "more", "data-tally": "heroes", "data-all": "heroes: on the phones", hidden: "" })));
    },

    handles: ["advance", "choose", "roll", "pull", "defiance", "play", "drop", "resolved", "done", "crash_roll", "reveal", "learn", "punch", "train_cube", "discard_power", "arrange", "use_helper", "episode_bonus",
      "effect", "decline", "damage", "endanger", "rescue", "thwart", "heal", "move", "gain_cube", "strengthen"],

    board(view) {
      const s = view.state;
      const hq = s.heroes.filter((h) => h.zone === "hq").map((h) => h.name);
      return el("div", { class: "invincible" },
        el("div", { class: "row facts" }, stat("Round", s.round), stat("Episode", s.episode.number + ": " + s.episode.name),
          s.campaign ? stat("Campaign", campaignWords(s.campaign), { "data-campaign": s.campaign.id }) : null,
          stat("Difficulty", C.human(s.difficulty)), stat("Casualties", s.casualties + "/" + s.casualty_limit),
          stat("KOs", s.kos + "/" + s.ko_limit), stat("Score so far", s.score.total, { "data-score": s.score.total })),
        track(s),
        el("div", { class: "inv-zones" }, s.zones.map((z) => zoneBox(z, s))),
        hq.length ? el("p", {}, C.icon("home"), " Guardians HQ: " + hq.join(", ")) : null,
        el("div", { class: "inv-heroes" }, s.heroes.map((h) => heroBox(h, s.phase))));
    },

    decks(view, table) {
      const s = view.state;
      const items = Object.entries(s.decks).filter(([k, n]) => n || s.discards[k]).map(([k, n]) =>
        stat(deckName(k, s), table ? n + " left" : n + " left, " + s.discards[k] + " discarded", { "data-deck": k, "data-drop": table ? "5" : null }));
      const last = s.last_event || s.event;
      if (last) items.unshift(el("div", { class: "last-card" }, el("span", { class: "label" }, s.event ? "Event" : "Last event"), el("b", {}, last.name || String(last))));
      return el("div", { class: "deck-row" }, items);
    },

    // An action in the table's words (the Undo button): names, never ids.
    describe(action, view) {
      const d = action.data || {};
      const s = view.state;
      const id = d.hero || action.player;
      const h = id && s.heroes.find((x) => x.id === id);
      const pre = id ? (h ? h.player || h.name : id) + ": " : "";
      const card = (c) => nameIn(comps().powers, String(c).split("#")[0], C.human(c));
      const slot = (x) => (h && h.powers[x] ? h.powers[x].name : slotWords(x));
      const faces = (f) => (f ? f.join(", ") : "virtual");
      const said = {
        pull: () => "pull " + (d.cubes ? d.cubes.join(", ") : "(virtual)"),
        defiance: () => "defiance, pull " + (d.cubes ? d.cubes.join(", ") : "(virtual)"),
        play: () => "play " + d.cube + " on " + slot(d.power),
        drop: () => "drop " + d.cube,
        done: () => "done with the phase",
        advance: () => "advance the episode track",
        reveal: () => "reveal the event" + (d.card ? ", " + nameIn(comps().events, d.card, C.human(d.card)) : ""),
        choose: () => "choose " + (d.zone ? zoneName(d.zone) : optionWords({ villain: d.villain }, s, "choose", {})),
        roll: () => "rescue die (" + (d.face || "virtual") + ")",
        crash_roll: () => "crash roll (" + faces(d.faces) + ")",
        resolved: () => "finish the power",
        effect: () => { const w = optionWords(d, s, "effect", { hero: d.hero }); return "a power's effect" + (w === "apply" ? "" : " (" + w + ")"); },
        decline: () => "skip an effect",
        learn: () => "learn " + card(d.card) + " (" + slotWords(d.slot) + ")",
        punch: () => "learn by punching, discard " + card(d.discard),
        train_cube: () => "discard " + card(d.discard) + " for a " + d.colour + " cube",
        discard_power: () => "discard " + slot(d.slot),
        arrange: () => "swap " + (d.slots || []).map(slot).join(" and "),
        use_helper: () => "use " + nameIn(comps().helpers, d.helper, C.human(d.helper)),
        episode_bonus: () => "the episode's bonus " + (d.met ? "met" : "not met"),
        declare_win: () => "declare the episode won",
      }[action.type];
      return said ? pre + said() : null;
    },

    controls(view) {
      const e = view.expect;
      const s = view.state;
      const box = el("div", { class: "inv-controls" });
      const has = (t) => (e.actions || []).includes(t);
      const report = villainReport(s, false);      // before the next tap: the board first
      if (report) box.append(report);
      if (e.pending && e.choices && has("choose")) {
        const key = e.pending.kind === "discard" ? "villain" : "zone";
        box.append(el("p", { class: "prompt" }, C.icon("go"), " " + e.prompt), el("div", { class: "faces" },
          e.choices.map((o) => C.button("go", zoneName(o), () => C.act("choose", { [key]: o }, null), { "data-key": "choose-" + o }))));
      }
      (e.dice || []).filter((d) => d.action && d.action !== "effect").forEach((d, i) => box.append(diceButtons(d, "die" + i, view)));
      const rs = e.resolutions || (e.resolving ? [e.resolving] : []);
      const me = mine(s);
      box.append(el("div", { class: "row inv-pick", role: "group", "aria-label": "My hero" }, el("span", { class: "label" }, me ? "My hero" : "Which hero is yours?"),
        s.heroes.map((h) => C.button("person", h.name, () => choose(h.id), { class: "small", "aria-pressed": String(h.id === me), "data-key": "mine-" + h.id })),
        me ? C.button("list", "All", () => choose(null), { class: "small", "data-key": "mine-all" }) : null));
      if (me) {
        // this phone's hero, large: its board, ready area, powers and what it may do now; the
        // other heroes (their moves and "done") one tap away
        const h = s.heroes.find((x) => x.id === me);
        const turn = heroTurn(view, h, rs);
        box.append(el("div", { class: "inv-mine", "data-mine": me }, heroBox(h, s.phase), turn, turn.querySelector(".inv-powers") ? null : powerList(h, false)));
        const others = s.heroes.filter((x) => x.id !== me);
        const more = el("details", { class: "inv-others", open: othersOpen }, el("summary", {}, C.icon("people"), " Other heroes: " + others.map((x) => x.name).join(", ")),
          others.map((x) => el("div", {}, heroBox(x, s.phase), heroTurn(view, x, rs), C.panels.done(view, [x.id]))));
        more.addEventListener("toggle", () => { othersOpen = more.open; });
        box.append(more);
      } else {
        for (const h of s.heroes) { const t = heroTurn(view, h, rs); if (t.childElementCount) box.append(el("h3", {}, C.icon("person"), h.name + (h.ready.length ? ": ready " : ""), h.ready.map(cube)), t); }
      }
      if (has("advance")) {
        // villain cards drawn from the table's own decks: one tap per icon among the cards left
        const picked = (e.villains || []).map(() => null);
        const rows = (e.villains || []).map((r, i) => el("div", { class: "faces", role: "group", "aria-label": "Level " + r.level + " villain drawn" },
          r.deck.map((v) => C.button("card", v.title, (ev) => {
            picked[i] = picked[i] === v.id ? null : v.id;
            for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-pressed", String(b.dataset.key === "villain" + i + "-" + picked[i]));
          }, { class: "face", "data-key": "villain" + i + "-" + v.id, "aria-pressed": "false" }))));
        box.append(C.button("play", "Advance the episode track", () => {
          const names = picked.filter(Boolean);
          C.act("advance", names.length ? { villains: names } : {}, null);
        }, { class: "big", "data-key": "advance" }));
        if (rows.length) box.append(el("p", { class: "hint" }, "Drawing the villain cards from the real decks? Tap each one revealed (in order), then Advance; tap none and the companion draws them."), ...rows);
      }
      // Omni-Man's own deck (episode 7): his card, if drawn from the real deck, is tapped first
      // and goes with the event card's reveal; none tapped, the companion draws his
      let boss = null;
      const withBoss = (data) => (boss ? Object.assign(data, { boss_card: boss }) : data);
      if (has("reveal") && e.boss_deck && e.boss_deck.length) {
        box.append(el("p", { class: "hint" }, "Drawing " + s.boss.name + "'s card from his real deck? Tap it first:"),
          el("div", { class: "faces", role: "group", "aria-label": s.boss.name + "'s event cards" }, e.boss_deck.map((c) =>
            C.button("card", c.title, (ev) => {
              boss = boss === c.id ? null : c.id;
              for (const b of ev.currentTarget.parentNode.children) b.setAttribute("aria-pressed", String(b.dataset.key === "boss-" + boss));
            }, { class: "face", "aria-pressed": "false", "data-key": "boss-" + c.id }))));
      }
      if (has("reveal")) box.append(C.button("card", "Reveal the event card", () => C.act("reveal", withBoss({}), null), { class: "big", "data-key": "reveal" }));
      if (has("reveal") && e.deck && e.deck.length) {   // the table's own event deck: name the card revealed
        box.append(el("p", { class: "hint" }, "Or, revealed from the real deck (" + e.deck_count + " left), tap the card:"),
          el("div", { class: "faces", role: "group", "aria-label": "Event cards that can come up now" }, e.deck.map((c) =>
            C.button("card", c.title + " (Level " + c.level + ")", () => C.act("reveal", withBoss({ card: c.id }), null), { class: "face", "data-key": "reveal-" + c.id }))));
      }
      if (e.pending && e.pending.kind === "contingency" && has("use_helper")) box.append(contingencyPanel(e.pending));
      if (has("resolved")) box.append(C.button("check", "Resolved: " + (e.resolving ? e.resolving.name : e.pending && e.pending.kind === "contingency" ? "let them act" : "done"), () => C.act("resolved", {}, e.player || null), { class: "big", "data-key": "resolved" }));
      const spend = (e.helpers || []).filter((x) => !x.cancel);
      if (spend.length) box.append(helpersPanel(spend, s));
      const effects = effectForms(view);
      if (effects.length) box.append(el("h3", {}, C.icon("pencil"), "Apply the text the companion asked for"), ...effects);
      if (has("episode_bonus") && s.episode.bonus) {
        // 'The Episode Guide also lists a bonus scoring condition': the table says, any time
        const claimed = !!s.episode.bonus_claimed;
        box.append(el("details", { class: "inv-bonus" }, el("summary", {}, C.icon("star"), " Episode bonus: " + (claimed ? "claimed" : "not claimed")),
          el("p", {}, s.episode.bonus),
          C.button(claimed ? "cross" : "check", claimed ? "Not met after all" : "Met: claim it", () => C.act("episode_bonus", { met: !claimed }, null),
            { class: "small", "data-key": "episode-bonus" })));
      }
      return box;
    },

    // Setup: episode, difficulty, heroes in order (solo: two heroes), hero time, campaign, cards.
    setupForm(components) {
      const radio = (name, value, text, checked) => el("label", { class: "check" }, el("input", { type: "radio", name, value, checked }), " " + text);
      const checks = (name, list) => list.map((c) => el("label", { class: "check" }, el("input", { type: "checkbox", name, value: c.id }), " " + c.name));
      const episode = el("select", { id: "inv-episode" }, el("option", { value: "" }, "(the game's default)"),
        (components.episodes || []).map((e) => el("option", { value: e.number }, "Episode " + e.number + ": " + e.name)));
      const heroes = el("ul", { class: "hero-picks" }, (components.heroes || []).map((h) => el("li", {},
        el("label", { class: "check" }, el("input", { type: "checkbox", name: "inv-hero", value: h.id }), " " + h.name),
        el("input", { name: "inv-name-" + h.id, size: 10, placeholder: "player's name", "aria-label": h.name + ": player's name" }))));
      // a variant ('For a faster-paced game, try playing in real time'): off unless chosen
      const time = el("select", { id: "inv-time" }, el("option", { value: "" }, "Off"),
        (components.hero_time_minutes || [5, 10, 15]).map((m) => el("option", { value: m }, m + " minutes")),
        el("option", { value: "custom" }, "Custom (seconds)…"));
      const custom = el("input", { id: "inv-time-custom", type: "number", min: 1, max: 3600, size: 5, hidden: true, "aria-label": "Hero time in seconds" });
      time.addEventListener("change", () => { custom.hidden = time.value !== "custom"; });
      const campaign = el("input", { id: "inv-campaign", size: 16, placeholder: "(none)" });
      const box = el("div", { class: "inv-setup" },
        el("label", {}, "Episode ", episode),
        el("fieldset", {}, el("legend", {}, "Difficulty"), radio("inv-diff", "easy", "Easy"), radio("inv-diff", "normal", "Normal", true), radio("inv-diff", "hardcore", "Hardcore")),
        el("fieldset", {}, el("legend", {}, "Heroes, in playing order (tick 2 to 4; solo: tick 2)"), heroes,
          el("label", { class: "check" }, el("input", { type: "checkbox", id: "inv-solo" }), " Solo: one player runs both heroes")),
        el("label", {}, "Hero time per Hero Phase ", time, custom),
        el("label", {}, "Campaign id ", campaign),
        el("fieldset", {}, el("legend", {}, "Helper cards (up to two; a campaign gains its own)"), checks("inv-helper", components.helpers || [])),
        el("fieldset", {}, el("legend", {}, "Challenge cards (up to two; in a campaign, only the episode's own, after a won episode)"), checks("inv-challenge", components.challenges || [])));
      const ticked = [];
      heroes.addEventListener("change", (ev) => {
        if (ev.target.name !== "inv-hero") return;
        const i = ticked.indexOf(ev.target.value);
        if (ev.target.checked && i < 0) ticked.push(ev.target.value);
        if (!ev.target.checked && i >= 0) ticked.splice(i, 1);
        C.playOrder(heroes, "inv-hero", ticked);
      });
      const values = (name) => [...box.querySelectorAll('[name="' + name + '"]:checked')].map((x) => x.value);
      return {
        node: box,
        options() {
          const out = { heroes: ticked.map((id) => {
            const name = box.querySelector('[name="inv-name-' + id + '"]').value.trim();
            return name ? { hero: id, name } : id;
          }), difficulty: values("inv-diff")[0] };
          if (episode.value) out.episode = Number(episode.value);
          if (box.querySelector("#inv-solo").checked) out.solo = true;
          if (time.value === "custom") out.hero_time = { seconds: Number(custom.value) };
          else if (time.value) out.hero_time = Number(time.value);
          // the id alone: the companion reads the campaign's earlier episodes from its history
          if (campaign.value.trim()) out.campaign = { id: campaign.value.trim() };
          const helpers = values("inv-helper");
          const challenges = values("inv-challenge");
          if (helpers.length) out.helpers = helpers;
          if (challenges.length) out.challenges = challenges;
          return out;
        },
      };
    },
  });
})();
