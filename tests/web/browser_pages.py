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


def assert_fits(table):
    """The table view (at the Pi's 800x480) neither scrolls nor cuts anything off."""
    bad = table.evaluate(FITS)
    assert not bad, (bad, table.inner_text("#banner"))


def play_random_games(server, phone, table, game, seeds, steps, every):
    """Random legal games (the engine's own sampler, folded as the session folds them) posted to
    the server; the phone and the table must draw the states they see, and the phone must offer
    a control whenever the engine expects an action."""
    import random

    from companion.games import Catalog
    from companion.rng import rng_for

    engine = Catalog()(game)
    for seed in seeds:
        rng = random.Random(seed)
        options = engine.sample_options(rng)
        state = engine.setup(options, rng_for(seed, "setup"))
        status, view = server.post("/api/session", {"game": game, "options": options, "seed": seed})
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
                if view["expect"].get("actions") and not over:
                    assert phone.locator("#controls button").count() > 0


def scan_qr(path) -> str:
    """The text of the QR code in a screenshot, as a phone's scanner reads it. OpenCV's classic
    QR detector misses about 4 in 1000 clean codes of the join address (its finder patterns,
    measured on segno's codes of random join URLs); its ArUco-based detector read all 1000."""
    import cv2

    image = cv2.imread(str(path))
    return cv2.QRCodeDetectorAruco().detectAndDecode(image)[0] or cv2.QRCodeDetector().detectAndDecode(image)[0]
