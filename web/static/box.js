"use strict";
// Your box: send a corrected or confirmed item, toggle board roads by tapping two spaces, import.
(() => {
  const root = document.querySelector(".box-view"), game = root.dataset.game, err = document.getElementById("box-error");
  const send = (path, body, text) => fetch(`/api/box/${game}/${path}`, { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": text ? "text/plain" : "application/json", "X-Companion": "1" }, body: text ? body : JSON.stringify(body) })
    .then(async r => { const j = await r.json(); if (!r.ok) throw new Error(j.error); location.reload(); })
    .catch(e => { err.textContent = e.message; });
  const list = v => v.split(",").map(s => s.trim()).filter(Boolean);
  const value = i => ({ int: () => Number(i.value), bool: () => i.checked, names: () => list(i.value),
    numbers: () => list(i.value).map(Number), json: () => JSON.parse(i.value) }[i.dataset.type] || (() => i.value))();
  root.querySelectorAll("form.item").forEach(f => f.addEventListener("submit", e => {
    e.preventDefault();
    let values = null;
    try {
      if (!e.submitter || e.submitter.value !== "confirm") {
        values = {};
        f.querySelectorAll("[data-type]").forEach(i => { values[i.name] = value(i); });
      }
    } catch (x) { err.textContent = `${f.dataset.key}: ${x.message}`; return; }
    send("items", { key: f.dataset.key, values });
  }));
  const svg = document.getElementById("board-graph");
  if (svg) {
    const links = JSON.parse(svg.dataset.links), at = {};
    let pick = null;
    svg.querySelectorAll("[data-space]").forEach(g => { at[g.dataset.space] = [g.dataset.x, g.dataset.y]; });
    const draw = () => {
      svg.querySelectorAll("line").forEach(l => l.remove());
      links.forEach(([a, b]) => {
        const l = document.createElementNS("http://www.w3.org/2000/svg", "line");
        [["x1", at[a][0]], ["y1", at[a][1]], ["x2", at[b][0]], ["y2", at[b][1]], ["stroke", "#888"], ["data-link", `${a}-${b}`]]
          .forEach(([k, v]) => l.setAttribute(k, v));
        svg.prepend(l);
      });
    };
    svg.addEventListener("click", e => {
      const g = e.target.closest("[data-space]");
      if (!g) return;
      const s = g.dataset.space;
      if (pick === null) { pick = g; g.querySelector("circle").setAttribute("fill", "#ffd54f"); return; }
      const a = pick.dataset.space, i = links.findIndex(([x, y]) => (x === a && y === s) || (x === s && y === a));
      if (a !== s) { if (i < 0) links.push([a, s]); else links.splice(i, 1); }
      pick.querySelector("circle").setAttribute("fill", "#fff");
      pick = null;
      draw();
    });
    draw();
    document.getElementById("board-save").onclick = () => send("items", { key: "board", values: { links } });
    document.getElementById("board-confirm").onclick = () => send("items", { key: "board", values: null });
  }
  document.getElementById("box-file").addEventListener("change", e => {
    const file = e.target.files[0];
    if (file) file.text().then(t => send("import", t, true));
  });
})();

// Teach the cards by camera: the walk-through names each card of the chosen deck in turn; Take
// keeps the card area's picture as its photo (the server waits for a steady frame and checks it).
(() => {
  const root = document.querySelector(".box-view"), game = root.dataset.game;
  const $ = id => document.getElementById(id), sec = $("teach"), err = $("teach-error");
  let walk = null, cur = null, last = null, busy = false;
  const skipped = new Set();
  const api = (method, path, body) => fetch(`/api/box/${game}/cards${path}`, { method, credentials: "same-origin",
    headers: body ? { "Content-Type": "application/json", "X-Companion": "1" } : {}, body: body ? JSON.stringify(body) : undefined })
    .then(async r => { const j = await r.json(); if (!r.ok) throw new Error(j.error); return j; });
  const title = id => (walk.cards.find(c => c.id === id) || {}).title;
  const after = id => {   // the next card still untaught and not skipped, in the deck's order
    const at = walk.cards.findIndex(c => c.id === id), n = walk.cards.length;
    for (let k = 1; k <= n; k++) {
      const c = walk.cards[(at + k + n) % n];
      if (!c.taught && !skipped.has(c.id)) return c.id;
    }
    return null;
  };
  const show = () => {
    $("teach-progress").textContent = walk.progress;
    $("teach-next").textContent = cur ? `${title(cur)} (${cur})` : "every card is taught or skipped";
    $("teach-take").disabled = !cur; $("teach-skip").disabled = !cur; $("teach-lay").disabled = !cur;
    $("teach-lay").hidden = !walk.can_lay;
    $("teach-retake").hidden = !last;
    if (last) $("teach-retake").textContent = `Retake ${title(last)}`;
  };
  const load = deck => api("GET", deck ? `?deck=${encodeURIComponent(deck)}` : "").then(w => {
    walk = w; sec.hidden = false;
    const pick = $("teach-deck");
    if (!pick.options.length) w.decks.forEach(d => pick.append(new Option(d.replace(/_/g, " "), d, false, d === w.deck)));
    cur = w.next; last = null; skipped.clear(); show();
  });
  const take = id => {
    if (busy) return Promise.resolve();
    busy = true; err.textContent = "";
    return api("POST", "/take", { card: id, deck: walk.deck }).then(w => {
      walk = w; last = id;
      const fig = $("teach-capture");
      fig.querySelector("img").src = `/api/box/${game}/cards/${encodeURIComponent(id)}.png?deck=${walk.deck}&t=${Date.now()}`;
      fig.querySelector("figcaption").textContent = `${title(id)}: taught`;
      fig.hidden = false; fig.dataset.card = id;
      if (id === cur) cur = after(id);
      show();
    }).catch(e => { err.textContent = e.message; }).finally(() => { busy = false; });
  };
  $("teach-deck").addEventListener("change", e => load(e.target.value));
  $("teach-take").onclick = () => cur && take(cur);
  $("teach-retake").onclick = () => last && take(last);
  $("teach-skip").onclick = () => { if (cur) { skipped.add(cur); cur = after(cur); err.textContent = ""; show(); } };
  $("teach-lay").onclick = () => fetch("/api/camera/card", { method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-Companion": "1" }, body: JSON.stringify({ game, card: cur }) })
    .then(async r => { const j = await r.json(); if (!r.ok) throw new Error(j.error); err.textContent = ""; $("teach-lay").dataset.laid = j.laid; })
    .catch(e => { err.textContent = e.message; });
  // taking by itself: every 1.5 s while the box is ticked; a picture of a card already taught
  // is refused by the server (it names the card), so a card left lying is not taught twice
  setInterval(() => { if ($("teach-auto").checked && cur && !busy) take(cur); }, 1500);
  load().catch(e => { sec.hidden = false; err.textContent = e.message; $("teach-take").disabled = true; $("teach-skip").disabled = true; });
})();
