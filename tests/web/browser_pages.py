"""Helpers for the browser tests: every page draws ``document.body.dataset.rendered`` = the seq
it shows, so a test waits for a seq instead of sleeping."""

WAIT = 8_000  # ms: the longest any single step may take


def words(page, selector: str) -> str:
    """The text a selector shows, its whitespace (line breaks between boxes) as single spaces."""
    return " ".join(page.inner_text(selector).split())


def rendered(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.rendered || -1)"))


def wait_rendered(page, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.rendered) >= {seq}", timeout=WAIT)


def tap(phone, table, *keys):
    """Tap controls on the phone (the last one sends); the table must follow to the same seq."""
    before = rendered(phone)
    for key in keys:
        phone.locator(f'#controls [data-key="{key}"]').click()
    phone.wait_for_function(f"Number(document.body.dataset.rendered) > {before}", timeout=WAIT)
    seq = rendered(phone)
    wait_rendered(table, seq)
    return seq


def start_from_setup(pages, url: str, *ticks: str):
    """The setup page on a phone: tick each selector given, start, and wait for the play page."""
    phone = pages(url + "/setup")
    for selector in ticks:
        phone.locator(selector).check()
    phone.locator("#start").click()
    phone.wait_for_url("**/play", timeout=WAIT)
    phone.wait_for_selector("body[data-rendered]")
    return phone


FITS = """() => {
  const bad = [];
  const d = document.documentElement;
  if (d.scrollHeight > innerHeight || d.scrollWidth > innerWidth) bad.push("the page scrolls");
  for (const e of document.querySelectorAll("[data-piece], [data-fit]")) {
    if (!e.getClientRects().length) continue;
    if (e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1) bad.push((e.dataset.piece || e.className) + " is cut off");
  }
  return bad;
}"""


# WCAG 2's contrast ratio of every piece of text against what is drawn under it (the
# backgrounds of its ancestors stacked, its own opacity and theirs applied): 4.5:1, or 3:1 for
# large text. A control greyed out or pale still says something the table needs to read.
CONTRAST = """() => {
  const rgba = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const bad = [];
  for (const e of document.querySelectorAll("body *")) {
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (!e.getClientRects().length) continue;
    const s = getComputedStyle(e);
    if (s.visibility === "hidden") continue;
    const chain = []; let opacity = 1;
    for (let n = e; n; n = n.parentElement) { chain.push(n); opacity *= Number(getComputedStyle(n).opacity); }
    let under = [255, 255, 255, 1];
    for (const n of chain.reverse()) { const c = rgba(getComputedStyle(n).backgroundColor); if (c && c[3] > 0) under = over(c, under); }
    const ink = rgba(s.color), text = over([ink[0], ink[1], ink[2], ink[3] * opacity], under);
    const [hi, lo] = [lum(text), lum(under)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05), size = parseFloat(s.fontSize);
    const need = size >= 24 || (Number(s.fontWeight) >= 700 && size >= 18.66) ? 3 : 4.5;
    if (ratio < need) bad.push(e.tagName.toLowerCase() + "." + e.className + " '" + e.textContent.trim().slice(0, 40) + "' " + ratio.toFixed(2) + ":1");
  }
  return bad;
}"""


def assert_readable(page):
    """Every piece of text on the page stands out from what is under it (CONTRAST)."""
    bad = page.evaluate(CONTRAST)
    assert not bad, bad


# Words broken across two lines in the middle ("vill" / "ain" in a column too narrow for it);
# a break at a hyphen or a slash is a line break, not a broken word.
BROKEN_WORDS = """() => {
  const bad = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!el || !el.getClientRects().length) continue;
    const re = /[^\\s\\-\\/]{2,}/g; let m;
    while ((m = re.exec(node.textContent))) {
      const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
      if (tops.size > 1) bad.push("'" + m[0] + "' in ." + el.className);
    }
  }
  return bad;
}"""


def assert_words_whole(page):
    """No word on the page is split between two lines (BROKEN_WORDS)."""
    bad = page.evaluate(BROKEN_WORDS)
    assert not bad, bad


# What a page shows when it reads a field the view does not have: never meant for the table.
PLACEHOLDERS = r"\bundefined\b|\bNaN\b|\[object \w+\]|\bnull\b"


def assert_no_placeholders(page):
    """No "undefined points", "NaN left" or "[object Object]" (or a list of elements written as
    text, "[object HTMLButtonElement]") anywhere the players can read."""
    import re

    text = page.inner_text("body")
    found = re.findall(PLACEHOLDERS, text)
    assert not found, (found, [line for line in text.splitlines() if re.search(PLACEHOLDERS, line)])


# What a label shows when it prints the data instead of naming it: an id ("atom-eve",
# "defensive-mastery#1", "medi-lab-2") or a piece of JSON (["1+", "0"]).
ID_LIKE = r"\b[a-z0-9]+(?:-[a-z0-9]+)+(?:#\d+)?\b|#\d|[\[\]{}\"]"


def assert_undo_named(phone):
    """The Undo button names what it takes back in the table's words, not by ids or JSON."""
    import re

    undo = phone.locator("#undo")
    if undo.count() and undo.is_visible():
        text = undo.inner_text()
        assert not re.search(ID_LIKE, text), text


def assert_fits(table):
    """The table view (at the Pi's 800x480) neither scrolls nor cuts anything off."""
    bad = table.evaluate(FITS)
    assert not bad, (bad, table.inner_text("#banner"))


# What the table left out to fit is counted where it was: for every key of data-tallied parts
# (a team's characters, a zone's villains) whose box is drawn, the tally beside them says as many
# as are not drawn ("+3 more", "4 X-Men"), and says nothing when all are drawn.
TALLIES = r"""() => {
  const bad = [];
  const parts = [...document.querySelectorAll("[data-tallied]")];
  for (const key of new Set(parts.map((e) => e.dataset.tallied))) {
    const tally = [...document.querySelectorAll("[data-tally]")].find((e) => e.dataset.tally === key);
    if (!tally || !tally.parentElement.getClientRects().length) continue;   // its whole box is gone
    const gone = parts.filter((e) => e.dataset.tallied === key && !e.getClientRects().length).length;
    const said = tally.getClientRects().length ? tally.textContent : "";
    const n = said ? Number((said.match(/\d+/) || ["NaN"])[0]) : 0;
    if (n !== gone) bad.push(key + ": " + gone + " left out, the table says '" + said + "'");
  }
  return bad;
}"""


def assert_tallied(table):
    bad = table.evaluate(TALLIES)
    assert not bad, bad


# What the table leaves out goes by need (data-drop: the higher, the sooner left out) and, at one
# need, by the page's order (the later, the sooner): of the parts of one rank in a box, those left
# out come after every one drawn. A part inside one left out is gone with it, and not counted.
RANKED = r"""() => {
  const bad = [];
  for (const box of document.querySelectorAll("[data-fit]")) {
    const byRank = {};
    for (const node of box.querySelectorAll("[data-drop]")) {
      const inside = node.parentElement.closest(".dropped");
      if (inside && box.contains(inside)) continue;
      (byRank[node.dataset.drop] = byRank[node.dataset.drop] || []).push(node);
    }
    for (const [rank, nodes] of Object.entries(byRank)) {
      const out = nodes.findIndex((n) => n.classList.contains("dropped"));
      const back = out < 0 ? null : nodes.slice(out).find((n) => !n.classList.contains("dropped"));
      if (back) bad.push("rank " + rank + ": '" + nodes[out].textContent.trim().slice(0, 30) + "' left out, '" +
                         back.textContent.trim().slice(0, 30) + "' after it drawn");
    }
  }
  return bad;
}"""


def assert_ranked(table):
    bad = table.evaluate(RANKED)
    assert not bad, bad


def play_random_games(server, phone, table, game, seeds, steps, every, options=None, check=None):
    """Random legal games (the engine's own sampler, folded as the session folds them) posted to
    the server; the phone and the table must draw the states they see, the phone's Undo button
    must name what it takes back, and the phone must offer a control whenever the engine expects
    an action. ``options``: the game's options instead of sampled ones; ``check(table, view)``:
    more to hold of each state looked at."""
    import random

    from companion.games import Catalog
    from companion.rng import rng_for

    engine = Catalog()(game)
    for seed in seeds:
        rng = random.Random(seed)
        chosen = engine.prepare_options(engine.sample_options(rng) if options is None else options,
                                        [])               # what the session records and plays
        state = engine.setup(chosen, rng_for(seed, "setup"))
        status, view = server.post("/api/session", {"game": game, "options": chosen, "seed": seed})
        assert status in (200, 201), view
        for step in range(steps):
            if engine.outcome(state)["status"] != "playing":
                break
            action = engine.sample_action(state, rng)
            while action.type == "timer.expire":
                # The random player lets a timer run out at its deadline; the server's timer runs
                # on the server's clock and cannot be made to run out sooner (time is only ever
                # added), so these games play on without the expiry.
                action = engine.sample_action(state, rng)
            state = engine.apply(state, action, rng_for(seed, step))
            status, view = server.post("/api/actions", {"type": action.type, "player": action.player,
                                                        "data": action.data})
            assert status == 200, view
            assert view["state"] == engine.to_json(state)
            over = engine.outcome(state)["status"] != "playing"
            if step % every == 0 or view["expect"].get("pending") or view["expect"]["phase"] == "crash" or over:
                wait_rendered(phone, view["seq"])
                wait_rendered(table, view["seq"])
                assert_fits(table)
                assert_tallied(table)
                assert_ranked(table)
                for page in (table, phone):
                    assert_no_placeholders(page)
                    assert_readable(page)
                    assert_words_whole(page)
                assert_undo_named(phone)
                if check is not None:
                    check(table, view)
                if view["expect"].get("actions") and not over:
                    assert phone.locator("#controls button").count() > 0


def scan_qr(path) -> str:
    """The text of the QR code in a screenshot, as a phone's scanner reads it. OpenCV's classic
    QR detector misses about 4 in 1000 clean codes of the join address (its finder patterns,
    measured on segno's codes of random join URLs); its ArUco-based detector read all 1000."""
    import cv2

    image = cv2.imread(str(path))
    return cv2.QRCodeDetectorAruco().detectAndDecode(image)[0] or cv2.QRCodeDetector().detectAndDecode(image)[0]
