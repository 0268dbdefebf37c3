// The generic renderer: any game's state shown readably, and controls built from what the
// engine says is legal now (expect.actions) and how it describes each action. A new engine is
// watchable and playable with this before it gets a renderer of its own.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const MAX_ITEMS = 40;

  function scalar(v) {
    if (v === null || v === undefined) return el("span", { class: "none" }, "—");
    if (typeof v === "boolean") return el("span", { class: v ? "yes" : "no" }, C.icon(v ? "check" : "cross"), v ? " yes" : " no");
    return el("span", {}, String(v));
  }

  function isScalar(v) { return v === null || typeof v !== "object"; }

  // Objects as definition lists, lists of like objects as tables, everything else as lists.
  C.showValue = function showValue(v, depth) {
    depth = depth || 0;
    if (isScalar(v)) return scalar(v);
    if (depth > 4) return el("code", {}, JSON.stringify(v).slice(0, 200));
    if (Array.isArray(v)) {
      if (!v.length) return el("span", { class: "none" }, "none");
      if (v.every(isScalar)) {
        const shown = v.slice(0, MAX_ITEMS).map((x) => (x === null ? "—" : String(x))).join(", ");
        return el("span", {}, shown + (v.length > MAX_ITEMS ? " … and " + (v.length - MAX_ITEMS) + " more" : ""));
      }
      const objs = v.filter((x) => x && typeof x === "object" && !Array.isArray(x));
      const keys = [...new Set(objs.flatMap(Object.keys))];
      const cell = (x) => isScalar(x) || (Array.isArray(x) && x.length <= 8 && x.every(isScalar));
      if (objs.length === v.length && keys.length <= 8 && keys.every((k) => objs.every((o) => cell(o[k])))) {
        return el("div", { class: "table-wrap" }, el("table", { class: "data" },
          el("thead", {}, el("tr", {}, keys.map((k) => el("th", { scope: "col" }, C.human(k))))),
          el("tbody", {}, v.slice(0, MAX_ITEMS).map((o) => el("tr", {}, keys.map((k) => el("td", {}, Array.isArray(o[k]) ? o[k].join(", ") || "—" : scalar(o[k]))))))));
      }
      return el("ol", { class: "data" }, v.slice(0, MAX_ITEMS).map((x) => el("li", {}, showValue(x, depth + 1))));
    }
    const keys = Object.keys(v);
    if (!keys.length) return el("span", { class: "none" }, "none");
    return el("dl", { class: "data" }, keys.flatMap((k) => [el("dt", {}, C.human(k)), el("dd", {}, showValue(v[k], depth + 1))]));
  };

  // Read what an action's description says about its data ("data.face is ...") to offer fields.
  function fieldsOf(description) {
    const names = [];
    for (const m of (description || "").matchAll(/data\.([a-z_][a-z0-9_]*)/g)) if (!names.includes(m[1])) names.push(m[1]);
    return names;
  }

  function strings(v, into) {
    if (typeof v === "string") into.add(v);
    else if (v && typeof v === "object") for (const x of Object.values(v)) strings(x, into);
    return into;
  }

  // "2" is a string when the engine listed "2" (a die face, a space), else JSON when it parses.
  function parseValue(text, known) {
    const t = text.trim();
    if (t === "") return undefined;
    if (known.has(t)) return t;
    try { return JSON.parse(t); } catch (e) { return t; }
  }

  // The dice an action's data fields take, from expect's dice requests (companion/dice.py): each
  // request's kinds of die (the first one, then "also") fill the data field they name. A request
  // for this action wins; one with no action (entered by hand) offers its dice to any form.
  function diceFields(type, expect) {
    const out = {};
    const requests = ((expect && expect.dice) || []).filter((r) => r.action === type || !r.action);
    for (const r of requests.sort((a, b) => (b.action === type) - (a.action === type))) {
      for (const kind of [r].concat(r.also || [])) {
        const f = kind.field || "faces";
        const single = kind.single !== undefined ? kind.single : (kind.count || 1) === 1;
        if (!out[f]) out[f] = Object.assign({}, kind, { single });
      }
    }
    return out;
  }

  // One action: a big button that sends it, and (folded away) its data as fields or JSON.
  C.actionForm = function (type, description, expect) {
    const fields = fieldsOf(description);
    const form = el("form", { class: "action-form", "data-action": type });
    const inputs = {};
    const details = el("details", {}, el("summary", {}, "Details (" + (fields.length ? fields.join(", ") : "data") + ")"));
    const dice = diceFields(type, expect);
    for (const f of fields) {
      const id = "f-" + type.replace(/\W/g, "-") + "-" + f;
      const kind = dice[f];
      if (kind) {
        // the dice the engine expects in this field: one face picker per die, instead of typing JSON
        const n = kind.single ? 1 : kind.count || 1;
        const picks = Array.from({ length: n }, (_, i) => el("select", {
          name: f, "aria-label": C.human(kind.die) + " die " + (i + 1) },
        el("option", { value: "" }, C.human(kind.die) + " " + (i + 1) + "…"),
        (kind.faces || []).map((x) => el("option", { value: x, title: (kind.meanings || {})[x] || null }, C.human(x)))));
        inputs[f] = { dice: picks, single: kind.single };
        details.append(el("fieldset", { class: "dice-pick" }, el("legend", {}, "Dice shown (leave empty for virtual dice)"), picks));
        continue;
      }
      const choices = expect && Array.isArray(expect[f + "s"]) ? expect[f + "s"] : null;
      inputs[f] = el("input", { id, name: f, list: choices ? id + "-list" : null, autocomplete: "off" });
      details.append(el("label", { for: id }, C.human(f) + " "), inputs[f]);
      if (choices) details.append(el("datalist", { id: id + "-list" }, choices.map((c) =>
        el("option", { value: c && typeof c === "object" ? c.id || c.hero || c.name : c }))));
    }
    const raw = el("textarea", { rows: 2, "aria-label": "data as JSON for " + type, placeholder: "{ } data as JSON" });
    details.append(raw);
    form.append(el("button", { type: "submit", class: "big", "data-key": "act-" + type },
      C.icon("play"), el("span", { class: "word" }, C.human(type))),
    el("p", { class: "hint" }, description || ""), details);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      let data = {};
      if (raw.value.trim()) {
        try { data = JSON.parse(raw.value); } catch (err) { C.showError("The data is not valid JSON: " + err.message); return; }
      }
      const known = strings(C.view && C.view.expect, new Set());
      for (const [f, input] of Object.entries(inputs)) {
        if (input.dice) {
          const faces = input.dice.map((sel) => sel.value);
          if (faces.every((x) => x)) data[f] = input.single ? faces[0] : faces;
          else if (faces.some((x) => x)) { C.showError("Pick a face for every die, or none for virtual dice."); return; }
          continue;
        }
        const v = parseValue(input.value, known);
        if (v !== undefined) data[f] = v;
      }
      C.act(type, data);
    });
    return form;
  };

  // Dice the engine expects: tap the faces shown, send them with the action that rolls them.
  function diceHint(expect) {
    if (!expect.dice || !expect.dice.length) return null;
    return el("p", { class: "hint" }, "Dice to roll: ",
      expect.dice.map((d) => (d.count > 1 ? d.count + "× " : "") + C.human(d.die) + " (" + (d.faces || []).join(", ") + ")").join("; "));
  }

  C.register("generic", {
    board(view) {
      const state = Object.assign({}, view.state);
      delete state.log;  // shown in its own panel
      return el("div", { class: "generic-state" }, C.showValue(state));
    },
    async controls(view) {
      const expect = view.expect || {};
      const info = await C.gameInfo(view.game);
      const box = el("div", { class: "generic-controls" });
      const hint = diceHint(expect);
      if (hint) box.append(hint);
      for (const type of expect.actions || []) {
        if (type === "done" || type.startsWith("timer.")) continue;  // own panels
        box.append(C.actionForm(type, (info.actions || {})[type], expect));
      }
      return box;
    },
  });
})();
