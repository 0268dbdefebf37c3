// The table and phone views: follow the server's event stream and render each whole state.
// A dropped connection shows a banner and reconnects; the first event after it is the whole
// current state, so the page is never half-applied and never steps back to an older seq.
// The stream also carries refusals from any channel (event: refusal), shown on every screen.
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const P = C.panels;
  const phone = C.page === "play";
  const table = C.page === "table";
  let source = null;
  let lostSince = null;
  let renderedSeq = null;
  let controlsToken = 0;

  function setLink(live) {
    const link = C.$("link");
    if (live) {
      lostSince = null;
      link.className = "link live";
      link.replaceChildren(C.icon("dot"), el("span", {}, "live"));
      C.$("stale").hidden = true;
      document.body.classList.remove("stale-view");
    } else {
      if (lostSince === null) lostSince = new Date();
      link.className = "link lost";
      link.replaceChildren(C.icon("warn"), el("span", {}, "reconnecting"));
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
    source.addEventListener("refusal", (e) => refusals(JSON.parse(e.data)));
    // the server's clock as the stream opens: the state frame before it is as old as its change
    source.addEventListener("clock", (e) => { C.offset = JSON.parse(e.data).now - Date.now() / 1000; });
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

  // -- refusals: why something did nothing, from whichever channel --

  const CHANNEL = { dashboard: ["phone", "A phone"], button: ["press", "A table button"], token: ["tag", "A token"],
    camera: ["camera", "The camera"], serial: ["devices", "The table controller"] };

  // The table shows the reason in full when the table itself was the place it was made (a button,
  // the camera); a phone's refusal is shown in full on that phone, briefly here.
  function short(text) {
    const first = String(text).split(/; |: | \(rule/)[0].trim();
    return first.length <= 70 ? first : first.slice(0, first.lastIndexOf(" ", 68)) + "…";
  }

  // Each stream opens with the newest refusals, then sends them again after every new one: show
  // those newer than the last one seen (none from the opening; a restarted service counts anew).
  let seen = null;
  function refusals(board) {
    if (seen !== null && board.last >= seen) {
      for (const n of board.recent) if (n.id > seen) showRefusal(n);
    }
    seen = board.last;
  }

  let refusalTimer = null;
  function showRefusal(n) {
    if (n.page && n.page === C.pageId) return;  // our own refusal: already shown in full
    const [icon, who] = CHANNEL[n.source] || ["warn", C.human(n.source || "something")];
    // kind "wait": the press was taken and its answer follows (the camera teaching its dice)
    const lead = n.kind === "wait" ? " is busy: " : " did nothing: ";
    if (!table) {
      if (n.source === "dashboard") return;
      C.notice(who + lead + n.text, n.kind === "wait" ? "wait" : "refused", n.rule);
      // about the table as it stood: gone once the game moves on, as on the table
      if (renderedSeq !== null) C.$("notice").dataset.refusalSeq = renderedSeq;
      return;
    }
    const fromPhone = n.source === "dashboard";
    tableNotice(icon, (fromPhone ? who + "'s tap" : who) + lead, fromPhone ? short(n.text) : n.text, renderedSeq);
    C.$("notice").dataset.notice = n.id;
  }

  // A table notice is about the table as it stood (a press refused there, an undo): it goes
  // once the game moves on, not 10 s later under a next step it no longer matches
  let noticeSeq = null;
  function tableNotice(icon, lead, text, seq) {
    noticeSeq = seq;
    const box = C.$("notice");
    box.replaceChildren(C.icon(icon), el("span", {}, el("b", {}, lead), text));
    box.hidden = false;
    document.body.dataset.notices = (Number(document.body.dataset.notices) || 0) + 1;
    clearTimeout(refusalTimer);
    refusalTimer = setTimeout(() => { box.hidden = true; P.fit(); }, 10000);
    P.fit();
  }

  // An undo, from whichever channel (a held table button, a phone), says on every screen what
  // it took back: the state alone changes back without a word.
  function undone(view) {
    const what = C.describe(view, view.undone.action);
    if (table) tableNotice("erase", "Undone: ", what, view.seq);
    else C.notice("Undone: " + what, "ok");
  }

  document.addEventListener("visibilitychange", () => {
    // A phone waking up: its stream may have died silently while it slept.
    if (document.visibilityState === "visible" && lostSince !== null) connect();
  });
  document.addEventListener("companion:joined", () => { renderedSeq = null; start(); });

  // -- the next step: the largest thing on the table --

  function banner(view) {
    const box = C.$("banner");
    const out = view.outcome || {};
    document.body.dataset.outcome = view.game ? out.status || "playing" : "none";
    if (!view.game) {
      box.className = "banner next idle";
      box.replaceChildren(C.icon("die"), el("span", { class: "next-text" }, "No game in progress. ",
        table ? "Start one from a phone: Setup." : el("a", { href: "/setup" }, "Start one in Setup")));
      return;
    }
    const r = C.renderer(view.game);
    box.className = "banner next " + (out.status || "playing");
    if (out.status === "won" || out.status === "lost") {
      box.replaceChildren(...P.result(view));
      return;
    }
    // A camera read waiting for a tap holds every game up: the next step is to confirm it, not
    // the roll it already is; the words are the server's (companion/dice_reads.py), as spoken
    const waits = view.read_waits;
    const text = waits || (r.next && r.next(view)) || (view.expect && view.expect.prompt) || "";
    box.replaceChildren(C.icon(waits ? "camera" : r.icon || "go"), el("span", { class: "next-text" }, text));
  }

  async function controls(view) {
    const box = C.$("controls");
    if (!box) return;
    const token = ++controlsToken;
    C.drawingDrafts(true);
    const parts = [];
    if (!C.access || !C.access.joined) {
      parts.push(el("p", { class: "hint" }, C.icon("key"), " Join the table to play from this device."));
    } else if (!view.game) {
      parts.push(el("p", {}, el("a", { class: "big-link", href: "/setup" }, C.icon("setup"), " Start a game")));
    } else if (view.outcome && view.outcome.status !== "playing") {
      parts.push(el("p", {}, "The game is over. Undo the last action, or ", el("a", { href: "/setup" }, "start a new game"), "."));
    } else {
      const r = C.renderer(view.game);
      const own = r.controls ? await r.controls(view) : null;
      const generic = r === C.games.generic ? null : await C.games.generic.controls(view, r.handles || []);
      const done = P.done(view);
      if (done) parts.push(done);  // first: the one tap every player needs in a timed phase
      if (own) parts.push(own);
      if (generic && generic.childElementCount) {
        // actions this game's renderer has no dedicated control for yet (by name: a renderer
        // handling many kinds may still lack the few of a phase, Invincible's training)
        const rest = [...generic.querySelectorAll("form")].filter((f) => !(r.handles || []).includes(f.dataset.action));
        if (rest.length) parts.push(el("details", { class: "more", "data-key": "more-actions" }, el("summary", {}, "More actions"), rest));
      }
    }
    if (token !== controlsToken) return;  // a newer state arrived while we were building
    const focused = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.key;
    // a panel someone opened stays open when another phone's move redraws the controls
    const opened = [...box.querySelectorAll("details[open][data-key]")].map((d) => d.dataset.key);
    box.replaceChildren(...parts);
    C.drawnSeq = view.seq;
    C.drawingDrafts(false);
    for (const key of opened) {
      const again = box.querySelector('details[data-key="' + CSS.escape(key) + '"]');
      if (again) again.open = true;
    }
    if (focused) {
      const again = box.querySelector('[data-key="' + CSS.escape(focused) + '"]');
      if (again) again.focus();
    }
  }

  // Recovery notices: what start-up had to tell the table (a journal found damaged and
  // recovered: view.notices), shown until someone who may change the game says they read it.
  // Not the refusals above: those are news of a moment, these stay until dismissed.
  function recoveryNotices(view) {
    const box = C.$("alerts");
    const list = view.notices || [];
    box.hidden = !list.length;
    box.replaceChildren(...list.map((n) => el("p", {}, C.icon("warn"), " ", table && n.kind === "journal"
      ? "The journal was found damaged at start-up and recovered. " + (n.lost ? n.lost + " entries were lost (the damaged copy keeps them)."
        : n.untold ? "What it held could not all be counted: check the board." : "Nothing was lost.")
        + " The details are on the phones." : n.text)));  // the table reads from afar: in short
    if (list.length && C.access && C.access.joined) {
      box.append(C.button("check", "Understood", async () => {
        if ((await C.send("DELETE", "/api/notices")).ok) { box.hidden = true; box.replaceChildren(); if (table) P.fit(); }
      }, { "data-key": "dismiss-notices" }));
    }
  }

  function board(view) {
    const box = C.$("board");
    if (!view.game) { box.replaceChildren(); return; }
    const r = C.renderer(view.game);
    const drawn = table && r.table ? r.table(view) : r.board ? r.board(view, phone) : null;
    box.replaceChildren(drawn || C.games.generic.board(view));
  }

  async function render(view) {
    const r = view.game ? C.renderer(view.game) : {};
    document.title = "companion · " + (view.title || "no game");
    C.$("title").textContent = (table && r.short) || view.title || "companion";
    if (view.game) await C.gameInfo(view.game);
    if (view.dice_read && !view.dice_read.confirmed) await C.need("reads");
    if (view !== C.view) return;
    recoveryNotices(view);
    banner(view);
    board(view);
    P.timers(view, phone && C.access && C.access.joined);
    P.decks(view);
    P.dice(view, phone && C.access && C.access.joined);
    P.reminders(view);
    P.log(view);
    P.undo(view);
    if (table && noticeSeq !== null && view.seq > noticeSeq) { C.$("notice").hidden = true; noticeSeq = null; }
    const said = C.$("notice");
    if (!table && said && said.dataset.refusalSeq && view.seq > Number(said.dataset.refusalSeq)) {
      said.hidden = true;
      delete said.dataset.refusalSeq;
    }
    if (view.undone && renderedSeq !== null && renderedSeq < view.seq) undone(view);
    if (renderedSeq !== view.seq) controls(view);
    renderedSeq = view.seq;
    if (table) P.fit();
    P.speak(view);
    document.body.dataset.rendered = view.seq;
  }

  // -- the join code: a corner chip on the table, full screen on demand --

  function joinChip() {
    const chip = C.$("join-chip");
    const full = C.$("join-full");
    if (!chip || !full || !C.access || !C.access.code) return;
    chip.hidden = false;
    C.$("chip-code").textContent = C.access.code;
    C.$("join-code-shown").textContent = C.access.code;
    C.$("join-url").textContent = C.access.join_url;
    const open = (on) => {
      full.hidden = !on;
      chip.setAttribute("aria-expanded", String(on));
      if (on) { C.$("qr").src = "/api/join.svg"; C.$("join-close").focus(); } else chip.focus();
    };
    chip.onclick = () => open(full.hidden);
    C.$("join-close").onclick = () => open(false);
    full.onclick = (e) => { if (e.target === full) open(false); };
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && !full.hidden) open(false); });
  }

  let toggles = false;

  async function start() {
    const access = await C.loadAccess();
    if (!toggles) C.setupToggles(access.settings);
    toggles = true;
    joinChip();
    if (!access.joined && (access.watch_requires_code || phone)) {
      C.askToJoin(access.watch_requires_code ? "This table asks for its join code even to watch: it is on the table screen." : null);
    }
    if (access.watch_requires_code && !access.joined) return;
    if (C.view) render(C.view);  // joined just now: the same state, now with controls
    connect();
    if (phone) P.simulator();
  }

  C.onView(render);
  // a choice kept on this page alone (Invincible's "My hero") draws the same state again
  C.redraw = () => { renderedSeq = null; if (C.view) render(C.view); };
  const undo = C.$("undo");
  if (undo) undo.addEventListener("click", () => C.send("POST", "/api/actions",
    { type: "undo", source: "dashboard", if_seq: C.view ? C.view.seq : undefined }));
  if (table) window.addEventListener("resize", () => { if (C.view) render(C.view); });
  start();
})();
