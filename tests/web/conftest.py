"""Browser pages for the dashboard tests: one context per page, script errors fail the test."""

import pytest
from browser_pages import WAIT


@pytest.fixture
def pages(browser):
    """New pages, each in its own context (its own cookies, like separate phones)."""
    contexts = []

    def open_page(url: str, width=412, height=915, init_script: str | None = None):
        ctx = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
        ctx.set_default_timeout(WAIT)
        if init_script:
            ctx.add_init_script(init_script)
        contexts.append(ctx)
        page = ctx.new_page()
        page.errors = []
        page.on("pageerror", lambda exc: page.errors.append(str(exc)))
        page.goto(url)
        return page

    yield open_page
    for ctx in contexts:
        for page in ctx.pages:
            assert not getattr(page, "errors", []), page.errors  # no script errors on any page
        ctx.close()
