"""The dashboard is light enough for a Pi and works with no internet."""

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
BUDGET = 150 * 1024


ICON_BUDGET = 10 * 1024


def assets():
    return [p for p in (WEB / "static").rglob("*") if p.suffix in (".js", ".css")]


PAGES = ("/", "/table", "/play", "/setup", "/devices", "/box")


def test_every_page_loads_under_150_kb_of_javascript_and_css(tmp_path):
    """What a phone or the Pi's screen fetches for one page, as served over real HTTP: the
    scripts and stylesheets the page names, and the largest game renderer among those it fetches
    when a game is on the table. (The budget was once over the whole static folder; a page-only
    script such as the box page's costs only the page that loads it.)"""
    from companion.games import Catalog
    from companion.journal import Journal
    from companion.session import Session
    from live_server import live_app

    journal = Journal(tmp_path / "journal.sqlite3")
    session = Session(journal, Catalog())
    weights = {}
    with live_app(session) as live:
        for page in PAGES:
            status, _headers, html = live.request("GET", page)
            assert status == 200, page
            names = set(re.findall(r"""(?:src|href)="(/static/[^"?]+\.(?:js|css))""", html.decode()))
            assert any(n.endswith(".js") for n in names), (page, names)   # the probe finds them
            sizes = [len(live.request("GET", name)[2]) for name in sorted(names)]
            # a page that fetches the renderer of the game on the table counts the largest
            lazy = re.search(r'data-renderers="([^"]*)"', html.decode())
            later = [len(live.request("GET", f"/static/games/{g}.js")[2])
                     for g in (lazy.group(1).split() if lazy else [])]
            assert all(later), page
            weights[page] = sum(sizes) + max(later, default=0)
    journal.close()
    heavy = {page: w for page, w in weights.items() if w >= BUDGET}
    assert not heavy, f"pages over the {BUDGET}-byte budget of JS and CSS: {heavy}"


def test_the_icons_are_one_small_sprite():
    """Every page loads web/static/icons.svg once (and caches it): it stays under 10 KB."""
    size = (WEB / "static" / "icons.svg").stat().st_size
    assert size < ICON_BUDGET, f"{size} bytes of icons (budget {ICON_BUDGET})"


def test_nothing_is_fetched_from_outside():
    """No CDN, no web fonts, no outside images: every asset is served by the Pi."""
    outside = re.compile(r"""(src|href)\s*=\s*["']?(https?:)?//|@import|url\(\s*["']?(https?:)?//|fonts\.googleapis""")
    offenders = []
    for path in assets() + list((WEB / "templates").glob("*.html")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if outside.search(line):
                offenders.append(f"{path.name}:{n}: {line.strip()[:80]}")
    assert not offenders, offenders


def test_every_script_and_stylesheet_the_pages_name_exists():
    for template in (WEB / "templates").glob("*.html"):
        for name in re.findall(r"filename='([^']+\.(?:js|css))'", template.read_text()):
            assert (WEB / "static" / name).is_file(), f"{template.name} names missing {name}"
