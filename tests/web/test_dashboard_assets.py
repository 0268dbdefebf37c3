"""The dashboard is light enough for a Pi and works with no internet."""

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "web"
BUDGET = 150 * 1024


ICON_BUDGET = 10 * 1024


def assets():
    return [p for p in (WEB / "static").rglob("*") if p.suffix in (".js", ".css")]


def test_all_javascript_and_css_together_stay_under_150_kb():
    total = sum(p.stat().st_size for p in assets())
    assert total < BUDGET, f"{total} bytes of JS and CSS (budget {BUDGET})"


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
