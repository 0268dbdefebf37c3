// The table and phone views: follow the server's event stream and render each whole state.
// A dropped connection shows a banner and reconnects; the first event after it is the whole
// current state, so the page is never half-applied and never steps back to an older seq.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const P = C.panels;
  const phone = C.page === "play";
  let source = null;
  let lostSince = null;
  let renderedSeq = null;
  let controlsToken = 0;

  function setLink(live) {
    const link = C.$("link");
    if (live) {
      lostSince = null;
      link.className = "link live";
      link.replaceChildren(el("span", { "aria-hidden": "true" }, "●"), " live");
      C.$("stale").hidden = true;
      document.body.classList.remove("stale-view");
    } else {
      if (lostSince === null) lostSince = new Date();
      link.className = "link lost";
      link.replaceChildren(el("span", { "aria-hidden": "true" }, "●"), " reconnecting…");
      C.$("stale-text").textContent = "Not connected since " + lostSince.toLocaleTimeString() +
        ": this is the table as it was then. Reconnecting…";
      C.$("stale").hidden = false;
      document.body.classList.add("stale-view");
    }
  }

  function connect() {
    if (source) source.close();
    source = new EventSource("/api/events");
    source.addEventListener("state", (e) => {
      setLink(true);
      C.receive(JSON.parse(e.data));
    });
    source.addEventListener("error", () => {
      setLink(false);
      // The browser retries by itself unless the server refused us; then we try again later.
      if (source.readyState === EventSource.CLOSED) setTimeout(reconnect, 3000);
    });
  }

  async function reconnect() {
    const access = await C.loadAccess();
    if (access.watch_requires_code && !access.joined) { C.askToJoin(); return; }
    connect();
  }

  document.addEventListener("visibilitychange", () => {
    // A phone waking up: its stream may have died silently while it slept.
    if (document.visibilityState === "visible" && lostSince !== null) connect();
  });
  document.addEventListener("companion:joined", () => { renderedSeq = null; start(); });

  function banner(view) {
    const box = C.$("banner");
    if (!view.game) {
      box.className = "banner idle";
      box.replaceChildren(el("span", { "aria-hidden": "true" }, "⚄"), " No game in progress. ",
        el("a", { href: "/setup" }, "Start one in Setup"));
      return;
    }
    const out = view.outcome || {};
    const r = C.renderer(view.game);
    box.className = "banner " + (out.status || "playing");
    // a competitive game names its winner; a cooperative one is won by the whole table
    const winner = out.winner_name || out.winner;
    if (out.status === "won") box.replaceChildren(el("span", { "aria-hidden": "true" }, "★"),
      (winner ? " " + winner + " wins! " : " You won! ") + (out.reason || "") + (out.score !== undefined ? " Score: " + JSON.stringify(out.score) : ""));
    else if (out.status === "lost") box.replaceChildren(el("span", { "aria-hidden": "true" }, "✸"), " Lost: " + (out.reason || ""));
    else box.replaceChildren(el("span", { "aria-hidden": "true" }, r.icon || "☞"), " " + ((view.expect && view.expect.prompt) || ""));
  }

  async function controls(view) {
    const box = C.$("controls");
    if (!box) return;
    const token = ++controlsToken;
    const parts = [];
    if (!C.access || !C.access.joined) {
      parts.push(el("p", { class: "hint" }, "⚷ Join the table to play from this device."));
    } else if (!view.game) {
      parts.push(el("p", {}, el("a", { class: "big-link", href: "/setup" }, "⚙ Start a game")));
    } else if (view.outcome && view.outcome.status !== "playing") {
      parts.push(el("p", {}, "The game is over. Undo the last action, or ", el("a", { href: "/setup" }, "start a new game"), "."));
    } else {
      const r = C.renderer(view.game);
      const own = r.controls ? await r.controls(view) : null;
      const generic = r === C.games.generic ? null : await C.games.generic.controls(view, r.handles || []);
      const done = P.done(view);
      if (done) parts.push(done);  // first: the one tap every player needs in a timed phase
      if (own) parts.push(own);
      if (generic && generic.childElementCount && (r.handles || []).length < (view.expect.actions || []).length) {
        // actions this game's renderer has no dedicated control for yet
        const rest = [...generic.querySelectorAll("form")].filter((f) => !(r.handles || []).includes(f.dataset.action));
        if (rest.length) parts.push(el("details", { class: "more" }, el("summary", {}, "More actions"), rest));
      }
    }
    if (token !== controlsToken) return;  // a newer state arrived while we were building
    const focused = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.key;
    box.replaceChildren(...parts);
    if (focused) {
      const again = box.querySelector('[data-key="' + CSS.escape(focused) + '"]');
      if (again) again.focus();
    }
  }

  // What start-up had to tell the table (a journal found damaged and recovered): shown until
  // someone who may change the game says they have read it.
  function notices(view) {
    const box = C.$("alerts");
    const list = view.notices || [];
    box.hidden = !list.length;
    box.replaceChildren(...list.map((n) => el("p", {}, el("span", { "aria-hidden": "true" }, "⚠ "), n.text)));
    if (list.length && C.access && C.access.joined) {
      box.append(C.button("✔", "Understood", async () => {
        if ((await C.send("DELETE", "/api/notices")).ok) { box.hidden = true; box.replaceChildren(); }
      }, { "data-key": "dismiss-notices" }));
    }
  }

  function board(view) {
    const box = C.$("board");
    if (!view.game) { box.replaceChildren(); return; }
    const r = C.renderer(view.game);
    box.replaceChildren((r.board ? r.board(view, phone) : null) || C.games.generic.board(view));
  }

  async function render(view) {
    document.title = "companion · " + (view.title || "no game");
    C.$("title").textContent = view.title || "companion";
    if (view.game) await C.gameInfo(view.game);
    if (view !== C.view) return;
    notices(view);
    banner(view);
    board(view);
    P.timers(view, phone && C.access && C.access.joined);
    P.decks(view);
    P.dice(view, phone && C.access && C.access.joined);
    P.reminders(view);
    P.log(view);
    P.undo(view);
    if (renderedSeq !== view.seq) controls(view);
    renderedSeq = view.seq;
    document.body.dataset.rendered = view.seq;
  }

  function codeBox() {
    const box = C.$("code-box");
    if (!box || !C.access || !C.access.code) return;
    box.hidden = false;
    C.$("join-code-shown").textContent = C.access.code;
    C.$("join-url").textContent = C.access.join_url;
    C.$("qr").src = "/api/join.svg";
  }

  let toggles = false;

  async function start() {
    const access = await C.loadAccess();
    if (!toggles) C.setupToggles(access.settings);
    toggles = true;
    codeBox();
    if (!access.joined && (access.watch_requires_code || phone)) {
      C.askToJoin(access.watch_requires_code ? "This table asks for its join code even to watch: it is on the table screen." : null);
    }
    if (access.watch_requires_code && !access.joined) return;
    if (C.view) render(C.view);  // joined just now: the same state, now with controls
    connect();
    P.hardware();
  }

  C.onView(render);
  const undo = C.$("undo");
  if (undo) undo.addEventListener("click", () => C.send("POST", "/api/actions",
    { type: "undo", source: "dashboard", if_seq: C.view ? C.view.seq : undefined }));
  setInterval(() => { if (document.visibilityState === "visible" && !P.noHardware) P.hardware(); }, 3000);
  start();
})();
