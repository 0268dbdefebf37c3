"""Helpers for the browser tests: every page draws ``document.body.dataset.rendered`` = the seq
it shows, so a test waits for a seq instead of sleeping."""

WAIT = 8_000  # ms: the longest any single step may take


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
