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
